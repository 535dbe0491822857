//! The firmware catalogue over HTTP: the inverter-type tree and its rules, uploads and edits
//! with the file and version rules, enabling with notices to the owners concerned, deleting
//! (not while an upgrade uses the file), downloads, gateway software and who may do what.
//! Every test runs on SQLite and, when configured, PostgreSQL.

use crate::common;

use common::{App, fixtures, spawn};
use domain::user::BuiltinRole;
use serde_json::{Value, json};
use store::{commands::NewCommand, upgrades::NewUpgrade};

const BOUNDARY: &str = "----portal-firmware-boundary-x1";

/// A multipart form with text `fields` and, when given, one file.
async fn form(
    app: &App,
    uri: &str,
    token: &str,
    file: Option<(&str, &[u8])>,
    fields: &[(&str, &str)],
) -> common::Resp {
    let mut body = Vec::new();
    for (k, v) in fields {
        body.extend_from_slice(
            format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                .as_bytes(),
        );
    }
    if let Some((name, bytes)) = file {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
                 Content-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    app.post_raw(
        uri,
        &format!("multipart/form-data; boundary={BOUNDARY}"),
        body,
        Some(token),
    )
    .await
}

async fn add_node(app: &App, token: &str, body: Value) -> common::Resp {
    app.post("/api/v1/firmware/inverterType/add", body, Some(token))
        .await
}

/// A primary title and a secondary label with `codes`: their ids.
async fn label(app: &App, admin: &str, title: &str, name: &str, codes: &[i64]) -> (i64, i64) {
    let tree = app.get("/api/v1/firmware/inverterTypes", Some(admin)).await;
    let existing = tree.data().as_array().cloned().unwrap_or_default();
    let t = match existing.iter().find(|t| t["name"] == title) {
        Some(t) => t["id"].as_i64().expect("id"),
        None => {
            let r = add_node(app, admin, json!({"name": title})).await;
            r.expect_code(0);
            r.data().as_i64().expect("id")
        }
    };
    let r = add_node(
        app,
        admin,
        json!({"name": name, "parentId": t, "codes": codes}),
    )
    .await;
    r.expect_code(0);
    (t, r.data().as_i64().expect("id"))
}

async fn upload(app: &App, admin: &str, label: i64, name: &str, version: &str) -> i64 {
    let label = label.to_string();
    let r = form(
        app,
        "/api/v1/firmware/save",
        admin,
        Some((
            &format!("{}.bin", name.replace(' ', "_")),
            b"\x01\x02\x03firmware",
        )),
        &[
            ("name", name),
            ("version", version),
            ("typeId", &label),
            ("enabled", "false"),
        ],
    )
    .await;
    r.expect_code(0);
    r.data()["id"].as_i64().expect("id")
}

fn detail_of(r: &common::Resp) -> String {
    r.msg().rsplit(": ").next().unwrap_or_default().to_string()
}

#[tokio::test]
async fn the_tree_keeps_titles_over_labels_and_unique_codes() {
    for app in spawn().await {
        let admin = fixtures::admin(&app).await;
        let (hybrid, lv) = label(&app, &admin, "Hybrid", "LV hybrid", &[2, 93]).await;
        let (grid, _) = label(&app, &admin, "Grid", "String", &[1]).await;
        // A label under a label, a code twice, a name twice among siblings, codes on a title.
        let r = add_node(&app, &admin, json!({"name": "Deep", "parentId": lv})).await;
        r.expect_code(4);
        assert_eq!(detail_of(&r), "primaryTitle");
        let r = add_node(
            &app,
            &admin,
            json!({"name": "Other", "parentId": grid, "codes": [93]}),
        )
        .await;
        r.expect_code(4);
        assert!(r.msg().contains("codes: 93"), "{}", r.msg());
        add_node(
            &app,
            &admin,
            json!({"name": "LV hybrid", "parentId": hybrid}),
        )
        .await
        .expect_code(4);
        add_node(&app, &admin, json!({"name": "Top", "codes": [5]}))
            .await
            .expect_code(4);
        add_node(&app, &admin, json!({"name": "x".repeat(33)}))
            .await
            .expect_code(4);
        app.get(
            &format!("/api/v1/firmware/inverterType/check?name=LV%20hybrid&parentId={hybrid}"),
            Some(&admin),
        )
        .await
        .expect_code(4);
        app.get(
            &format!(
                "/api/v1/firmware/inverterType/check?name=LV%20hybrid&parentId={hybrid}&id={lv}"
            ),
            Some(&admin),
        )
        .await
        .expect_code(0);

        // Edit replaces codes; the tree shows them.
        app.post(
            "/api/v1/firmware/inverterType/edit",
            json!({"id": lv, "name": "LV hybrids", "codes": [2, 93, 94]}),
            Some(&admin),
        )
        .await
        .expect_code(0);
        let tree = app
            .get("/api/v1/firmware/inverterTypes", Some(&admin))
            .await;
        tree.expect_code(0);
        let t = &tree.data()[0];
        assert_eq!(t["name"], "Hybrid");
        assert!(t["parentId"].is_null());
        assert_eq!(t["codes"], json!([]));
        assert_eq!(t["children"][0]["name"], "LV hybrids");
        assert_eq!(t["children"][0]["codes"], json!([2, 93, 94]));
        assert_eq!(t["children"][0]["parentId"], hybrid);
        assert_eq!(t["children"][0]["children"], json!([]));

        // Moves: only a label, only to a title, not onto a sibling's name.
        let r = app
            .post(
                "/api/v1/firmware/inverterType/move",
                json!({"id": hybrid, "parentId": grid}),
                Some(&admin),
            )
            .await;
        assert_eq!(detail_of(&r), "primaryTitle");
        let r = app
            .post(
                "/api/v1/firmware/inverterType/move",
                json!({"id": lv, "parentId": lv}),
                Some(&admin),
            )
            .await;
        assert_eq!(detail_of(&r), "primaryTitle");
        let (_, _twin) = label(&app, &admin, "Grid", "LV hybrids", &[]).await;
        let r = app
            .post(
                "/api/v1/firmware/inverterType/move",
                json!({"id": lv, "parentId": grid}),
                Some(&admin),
            )
            .await;
        r.expect_code(4);
        assert_eq!(detail_of(&r), "nameAtTarget");
        let (_, mover) = label(&app, &admin, "Hybrid", "Mover", &[7]).await;
        app.post(
            "/api/v1/firmware/inverterType/move",
            json!({"id": mover, "parentId": grid}),
            Some(&admin),
        )
        .await
        .expect_code(0);

        // Deletes: not a title with labels, not a label with firmware, unknown ids answer 4 id.
        let r = app
            .get(
                &format!("/api/v1/firmware/inverterType/{hybrid}/delete"),
                Some(&admin),
            )
            .await;
        assert_eq!(detail_of(&r), "hasSubtype");
        upload(&app, &admin, lv, "lv one", "V1").await;
        let r = app
            .get(
                &format!("/api/v1/firmware/inverterType/{lv}/delete"),
                Some(&admin),
            )
            .await;
        assert_eq!(detail_of(&r), "hasFirmware");
        let r = app
            .get("/api/v1/firmware/inverterType/999999/delete", Some(&admin))
            .await;
        assert_eq!(detail_of(&r), "id");
        app.get(
            &format!("/api/v1/firmware/inverterType/{mover}/delete"),
            Some(&admin),
        )
        .await
        .expect_code(0);
        let tree = app
            .get("/api/v1/firmware/inverterTypes", Some(&admin))
            .await;
        assert_eq!(tree.data()[0]["firmwareCount"], 1);
        assert_eq!(tree.data()[0]["children"][0]["firmwareCount"], 1);
    }
}

#[tokio::test]
async fn uploads_follow_the_file_and_version_rules_and_edits_replace_the_file() {
    for app in spawn().await {
        let admin = fixtures::admin(&app).await;
        let (title, lv) = label(&app, &admin, "Hybrid", "LV", &[2]).await;
        let lv_s = lv.to_string();
        let save = "/api/v1/firmware/save";
        let fields = |v: &'static str| vec![("version", v), ("typeId", lv_s.as_str())];
        let r = form(
            &app,
            save,
            &admin,
            Some(("lv_1.bin", b"\x00one")),
            &[
                ("version", "V1_0"),
                ("typeId", &lv_s),
                ("name", "LV one"),
                ("changeLogEn", "first"),
                ("upgradeMode", "isp"),
                ("firmwareType", "DSP"),
                ("hardwareVersion", "H2"),
            ],
        )
        .await;
        r.expect_code(0);
        let f = r.data().clone();
        let id = f["id"].as_i64().expect("id");
        assert_eq!(f["type"], lv);
        assert_eq!(f["typeName"], "LV");
        assert_eq!(f["parentTypeId"], title);
        assert_eq!(f["parentTypeName"], "Hybrid");
        assert_eq!(f["codes"], json!([2]));
        assert_eq!(f["upgradeMode"], "isp");
        assert_eq!(f["firmwareType"], "DSP");
        assert_eq!(f["hardwareVersion"], "H2");
        assert_eq!(f["changeLogEn"], "first");
        assert!(f["creator"].as_str().is_some_and(|c| !c.is_empty()), "{f}");
        assert_eq!(f["inUse"], false);
        assert!(f["productId"].is_null());
        assert_eq!(f["partNumber"], "");

        // Extension, sniffing, size, file name, version text, 4000, 4002, lower.
        form(&app, save, &admin, Some(("a.zip", b"x")), &fields("V2"))
            .await
            .expect_code(11);
        form(
            &app,
            save,
            &admin,
            Some(("a.hex", b"\x00\x01")),
            &fields("V2"),
        )
        .await
        .expect_code(11);
        form(&app, save, &admin, Some(("a.bin", b"")), &fields("V2"))
            .await
            .expect_code(4);
        let big = vec![0u8; 1024 * 1024 * 3 / 2 + 1];
        form(&app, save, &admin, Some(("a.bin", &big)), &fields("V2"))
            .await
            .expect_code(12);
        form(&app, save, &admin, Some(("a b.bin", b"x")), &fields("V2"))
            .await
            .expect_code(4);
        form(&app, save, &admin, Some(("a.bin", b"x")), &fields("V2.0"))
            .await
            .expect_code(4);
        form(
            &app,
            save,
            &admin,
            Some(("a.bin", b"x")),
            &[("version", "V2"), ("typeId", &lv_s), ("name", "lv one")],
        )
        .await
        .expect_code(4000);
        form(&app, save, &admin, Some(("a.bin", b"x")), &fields("v1_0"))
            .await
            .expect_code(4002);
        form(&app, save, &admin, Some(("a.bin", b"x")), &fields("V0_9"))
            .await
            .expect_code(4);
        form(
            &app,
            save,
            &admin,
            Some(("a.bin", b"x")),
            &[("version", "V2")],
        )
        .await
        .expect_code(4);
        form(
            &app,
            save,
            &admin,
            Some(("a.bin", b"x")),
            &[("version", "V2"), ("typeId", &title.to_string())],
        )
        .await
        .expect_code(4);
        app.get(
            &format!("/api/v1/firmware/check?name=LV%20one&version=V3&typeId={lv}"),
            Some(&admin),
        )
        .await
        .expect_code(4000);
        app.get(
            &format!("/api/v1/firmware/check?name=LV%20one&version=V1_0&typeId={lv}&id={id}"),
            Some(&admin),
        )
        .await
        .expect_code(0);
        app.get(
            &format!("/api/v1/firmware/check?name=new&version=V1_0&typeId={lv}"),
            Some(&admin),
        )
        .await
        .expect_code(4002);
        let low = app
            .get(
                &format!("/api/v1/firmware/check?name=new&version=V0_1&typeId={lv}"),
                Some(&admin),
            )
            .await;
        low.expect_code(4);
        assert!(
            low.msg().contains("lower than the latest (V1_0)"),
            "{}",
            low.msg()
        );
        // Old clients: `type` is an inverter type code.
        let old = form(
            &app,
            save,
            &admin,
            Some(("old.hex", b":0100000001FE\n:00000001FF\n")),
            &[("version", "V1_1"), ("type", "2")],
        )
        .await;
        old.expect_code(0);
        assert_eq!(old.data()["type"], lv);
        form(
            &app,
            save,
            &admin,
            Some(("b.bin", b"x")),
            &[("version", "V1_2"), ("type", "77")],
        )
        .await
        .expect_code(4);
        // Only .bin or the new .hex are stored.
        let dir = app.data_dir.join("firmware");
        assert_eq!(
            std::fs::read_dir(&dir).expect("dir").count(),
            2,
            "{}",
            app.backend
        );

        // The download is the file; an edit replaces it and removes the old one.
        let d = app
            .get(&format!("/api/v1/firmware/{id}/download"), Some(&admin))
            .await;
        assert_eq!(d.status, 200);
        assert_eq!(&d.body[..], b"\x00one");
        assert!(
            d.headers["content-disposition"]
                .to_str()
                .unwrap_or("")
                .contains("lv_1.bin")
        );
        let e = form(
            &app,
            save,
            &admin,
            Some(("lv_1b.bin", b"\x00two!")),
            &[("id", &id.to_string()), ("changeLog", "修复")],
        )
        .await;
        e.expect_code(0);
        assert_eq!(e.data()["fileName"], "lv_1b.bin");
        assert_eq!(e.data()["size"], 5);
        assert_eq!(e.data()["version"], "V1_0");
        assert_eq!(e.data()["name"], "LV one");
        assert_eq!(e.data()["changeLog"], "修复");
        assert_eq!(e.data()["upgradeMode"], "isp");
        assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 2);
        let d = app
            .get(&format!("/api/v1/firmware/{id}/download"), Some(&admin))
            .await;
        assert_eq!(&d.body[..], b"\x00two!");
        // An edit may not take another's version.
        form(
            &app,
            save,
            &admin,
            None,
            &[("id", &id.to_string()), ("version", "V1_1")],
        )
        .await
        .expect_code(4002);
        form(&app, save, &admin, None, &[("id", "999999")])
            .await
            .expect_code(4);

        // The page: filters by label or title, keyword, enabled.
        let p = app
            .get(
                &format!("/api/v1/firmware/page?typeId={title}&limit=1"),
                Some(&admin),
            )
            .await;
        p.expect_code(0);
        assert_eq!(p.data()["total"], 2);
        assert_eq!(p.data()["infos"].as_array().map(Vec::len), Some(1));
        assert_eq!(p.data()["infos"][0]["version"], "V1_1");
        let p = app
            .get("/api/v1/firmware/page?keyword=LV%20ONE", Some(&admin))
            .await;
        assert_eq!(p.data()["total"], 1);
        let p = app
            .get("/api/v1/firmware/page?enabled=false", Some(&admin))
            .await;
        assert_eq!(p.data()["total"], 0);
        let v = app
            .get(
                &format!("/api/v1/firmware/versions?typeId={lv}"),
                Some(&admin),
            )
            .await;
        assert_eq!(v.data()["total"], 2);
        assert_eq!(v.data()["infos"][0]["version"], "V1_1");
        let one = app
            .get(&format!("/api/v1/firmware/inverter/{id}"), Some(&admin))
            .await;
        assert_eq!(one.data()["id"], id);
        app.get("/api/v1/firmware/inverter/999999", Some(&admin))
            .await
            .expect_code(4);

        // Audited.
        let audit = app.get("/api/v1/audit?limit=50", Some(&admin)).await;
        let actions: Vec<String> = audit.data()["infos"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| e["action"].as_str().unwrap_or("").to_string())
            .collect();
        for a in ["firmware.upload", "firmware.edit", "inverterType.add"] {
            assert!(actions.iter().any(|x| x == a), "{a}: {actions:?}");
        }
    }
}

/// An owner with a plant holding an inverter of type `code`.
async fn owner_with_inverter(app: &App, admin: &str, name: &str, gw: &str, code: i64) -> String {
    let [owner] = fixtures::owners(app, [name]).await;
    let plant = fixtures::plant(
        app,
        &owner,
        fixtures::madrid_plant(&format!("{name} plant"), 2, 8),
    )
    .await;
    let g = fixtures::hybrid_gateway(app, admin, &owner, plant, gw).await;
    app.store
        .upsert_device(&format!("INV-{gw}"), g, "inverter", code, "p", "M", None, 1)
        .await
        .expect("device");
    owner
}

#[tokio::test]
async fn enabling_with_notify_tells_exactly_the_owners_concerned_and_offers_the_fitting_firmware() {
    for app in spawn().await {
        let admin = fixtures::admin(&app).await;
        let (_, lv) = label(&app, &admin, "Hybrid", "LV hybrid", &[2]).await;
        let (_, hv) = label(&app, &admin, "Hybrid", "HV hybrid", &[94]).await;
        let ann = owner_with_inverter(&app, &admin, "ann", "GW-FWN01", 2).await;
        let bob = owner_with_inverter(&app, &admin, "bob", "GW-FWN02", 94).await;
        let fw = upload(&app, &admin, lv, "lv", "V2_0").await;
        let other = upload(&app, &admin, hv, "hv", "V3_0").await;
        let before = app
            .get("/api/v1/message/count", Some(&ann))
            .await
            .data()
            .as_i64()
            .unwrap_or(0);

        // Disabled firmware is offered to nobody.
        let offered = app
            .get("/api/v1/firmware?sn=INV-GW-FWN01", Some(&ann))
            .await;
        offered.expect_code(0);
        assert_eq!(offered.data()["total"], 0);

        let r = app
            .get(
                &format!("/api/v1/firmware/{fw}/changeEnable?enable=true&notify=true"),
                Some(&admin),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["enabled"], true);
        app.get(
            &format!("/api/v1/firmware/{other}/changeEnable?enable=true"),
            Some(&admin),
        )
        .await
        .expect_code(0);

        // Ann's inverter (type 2) gets the LV firmware only; Bob's the HV only.
        let offered = app
            .get("/api/v1/firmware?sn=INV-GW-FWN01", Some(&ann))
            .await;
        let ids: Vec<i64> = offered.data()["infos"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f["id"].as_i64())
            .collect();
        assert_eq!(ids, [fw]);
        let offered = app
            .get("/api/v1/firmware?sn=INV-GW-FWN02", Some(&bob))
            .await;
        let ids: Vec<i64> = offered.data()["infos"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f["id"].as_i64())
            .collect();
        assert_eq!(ids, [other]);

        // One notice for Ann, none for Bob (he was not notified).
        let m = app.get("/api/v1/messages?lan=en", Some(&ann)).await;
        m.expect_code(0);
        let notices: Vec<Value> = m.data()["infos"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|i| i["source"] == "notice")
            .cloned()
            .collect();
        assert_eq!(notices.len(), 1, "{}", m.text());
        let n = &notices[0];
        assert_eq!(n["title"], "Firmware update available");
        assert_eq!(n["content"], "LV hybrid: version V2_0 (lv.bin)");
        assert!(n["event"].is_null() && n["plantId"].is_null() && n["sn"].is_null());
        assert_eq!(n["type"], "info");
        assert_eq!(n["status"], 0);
        let after = app
            .get("/api/v1/message/count", Some(&ann))
            .await
            .data()
            .as_i64()
            .unwrap_or(0);
        assert_eq!(after, before + 1);
        let m = app.get("/api/v1/messages", Some(&bob)).await;
        assert!(
            m.data()["infos"]
                .as_array()
                .into_iter()
                .flatten()
                .all(|i| i["source"] != "notice")
        );
        let zh = app.get("/api/v1/messages?lan=zh", Some(&ann)).await;
        assert!(
            zh.data()["infos"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|i| i["title"] == "有可用的固件更新")
        );

        // Read by source: Bob cannot read Ann's notice.
        let nid = n["id"].as_i64().expect("id");
        app.post(
            &format!("/api/v1/message/{nid}/read?source=notice"),
            json!({}),
            Some(&bob),
        )
        .await
        .expect_code(4);
        app.post(
            &format!("/api/v1/message/{nid}/read?source=notice"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        let after = app
            .get("/api/v1/message/count", Some(&ann))
            .await
            .data()
            .as_i64()
            .unwrap_or(0);
        assert_eq!(after, before);

        // Disabling stops the offer; audited.
        app.get(
            &format!("/api/v1/firmware/{fw}/changeEnable?enable=false"),
            Some(&admin),
        )
        .await
        .expect_code(0);
        let offered = app
            .get("/api/v1/firmware?sn=INV-GW-FWN01", Some(&ann))
            .await;
        assert_eq!(offered.data()["total"], 0);
        let audit = app.get("/api/v1/audit?limit=50", Some(&admin)).await;
        let actions: Vec<&str> = audit.data()["infos"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e["action"].as_str())
            .collect();
        assert!(
            actions.contains(&"firmware.enable") && actions.contains(&"firmware.disable"),
            "{actions:?}"
        );
    }
}

#[tokio::test]
async fn firmware_in_use_is_not_deleted_and_batches_report_each_refusal() {
    for app in spawn().await {
        let admin = fixtures::admin(&app).await;
        let admin_id = app
            .store
            .user_by_account("admin@example.com")
            .await
            .expect("user")
            .expect("admin")
            .id;
        let (_, lv) = label(&app, &admin, "Hybrid", "LV", &[2]).await;
        let a = upload(&app, &admin, lv, "a", "V1").await;
        let b = upload(&app, &admin, lv, "b", "V2").await;
        let c = upload(&app, &admin, lv, "c", "V3").await;
        let cmd = NewCommand {
            correlation_id: "corr-fw-1",
            gateway_sn: "GW-X",
            device_sn: "INV-X",
            kind: "upgrade",
            params: "{}",
            now: api::now_ms(),
            deadline: api::now_ms() + 600_000,
        };
        let up = NewUpgrade {
            batch_id: "b1",
            target: "inverter",
            device_sn: "INV-X",
            firmware_id: a,
            version: "V1",
            from_version: "",
            cancellable: false,
            user_id: admin_id,
            now: api::now_ms(),
        };
        let entry = store::audit::NewAudit {
            by: store::log_pages::Author {
                user_id: Some(admin_id),
                account: "admin",
                actor_company_id: None,
                plant_id: None,
                plant_owner_id: None,
                plant_company_id: None,
            },
            action: "inverter.upgrade",
            target: "INV-X",
            detail: "{}",
            result: "sent",
            command_id: None,
            now: api::now_ms(),
        };
        app.store
            .start_upgrade(&cmd, &up, &entry)
            .await
            .expect("upgrade");
        let r = app
            .get(&format!("/api/v1/firmware/{a}/delete"), Some(&admin))
            .await;
        r.expect_code(4);
        assert_eq!(detail_of(&r), "inUse");
        let item = app
            .get(&format!("/api/v1/firmware/inverter/{a}"), Some(&admin))
            .await;
        assert_eq!(item.data()["inUse"], true);
        app.get("/api/v1/firmware/999999/delete", Some(&admin))
            .await
            .expect_code(4);

        let r = app
            .post(
                "/api/v1/firmware/batchDelete",
                json!({"ids": [a, b, 999999]}),
                Some(&admin),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["deleted"], 1);
        let refused: Vec<i64> = r.data()["refused"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|x| x["id"].as_i64())
            .collect();
        assert_eq!(refused, [a, 999999]);
        assert_eq!(r.data()["refused"][0]["code"], 4);
        let r = app
            .get(
                &format!("/api/v1/firmware/batchDelete?ids={c}"),
                Some(&admin),
            )
            .await;
        assert_eq!(r.data()["deleted"], 1);
        // Only the file in use is left.
        assert_eq!(
            std::fs::read_dir(app.data_dir.join("firmware"))
                .expect("dir")
                .count(),
            1
        );
        let audit = app.get("/api/v1/audit?limit=50", Some(&admin)).await;
        assert!(
            audit.data()["infos"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|e| e["action"] == "firmware.delete")
        );
    }
}

#[tokio::test]
async fn gateway_software_has_its_own_routes_and_the_catalogue_is_for_internal_staff_only() {
    for app in spawn().await {
        let admin = fixtures::admin(&app).await;
        let acme = app.company("Acme").await;
        let (_, boss) = app
            .signed_in("boss@acme.example", BuiltinRole::CompanyAdmin, Some(acme))
            .await;
        let [ann] = fixtures::owners(&app, ["ann"]).await;
        let (_, lv) = label(&app, &admin, "Hybrid", "LV", &[2]).await;
        let fw = upload(&app, &admin, lv, "lv", "V1").await;

        let add = "/api/v1/firmware/gateway/add";
        let r = form(
            &app,
            add,
            &admin,
            Some(("gw_1.bin", b"gw")),
            &[
                ("version", "SIM-1_5_0"),
                ("name", "GW 1.5"),
                ("changeLogEn", "faster"),
            ],
        )
        .await;
        r.expect_code(0);
        let g = r.data()["id"].as_i64().expect("id");
        assert_eq!(r.data()["target"], "gateway");
        assert_eq!(r.data()["type"], 0);
        form(
            &app,
            add,
            &admin,
            Some(("gw_2.bin", b"gw")),
            &[("version", "SIM-1_5_0"), ("name", "GW again")],
        )
        .await
        .expect_code(4002);
        form(
            &app,
            add,
            &admin,
            Some(("gw_2.bin", b"gw")),
            &[("version", "SIM-1_6_0"), ("name", "gw 1.5")],
        )
        .await
        .expect_code(4000);
        app.get(
            "/api/v1/firmware/gateway/check?version=SIM-1_5_0",
            Some(&admin),
        )
        .await
        .expect_code(4002);
        app.get(
            "/api/v1/firmware/gateway/check?version=SIM-1_6_0&name=new",
            Some(&admin),
        )
        .await
        .expect_code(0);
        let e = form(
            &app,
            &format!("/api/v1/firmware/gateway/{g}"),
            &admin,
            None,
            &[("hardwareVersion", "H3")],
        )
        .await;
        e.expect_code(0);
        assert_eq!(e.data()["hardwareVersion"], "H3");
        assert_eq!(
            app.get(&format!("/api/v1/firmware/gateway/{g}"), Some(&admin))
                .await
                .data()["name"],
            "GW 1.5"
        );
        app.get(&format!("/api/v1/firmware/gateway/{fw}"), Some(&admin))
            .await
            .expect_code(4);
        let p = app.get("/api/v1/firmware/gateway/page", Some(&admin)).await;
        assert_eq!(p.data()["total"], 1);
        let s = app
            .get("/api/v1/firmware/gateway/software", Some(&admin))
            .await;
        assert_eq!(s.data()["id"], g);
        app.get(
            &format!("/api/v1/firmware/{g}/changeEnable?enable=false"),
            Some(&admin),
        )
        .await
        .expect_code(0);
        assert!(
            app.get("/api/v1/firmware/gateway/software", Some(&admin))
                .await
                .data()
                .is_null()
        );

        // Company admins and owners: 2 everywhere.
        for token in [&boss, &ann] {
            for uri in [
                "/api/v1/firmware/inverterTypes".to_string(),
                "/api/v1/firmware/page".to_string(),
                "/api/v1/firmware/gateway/page".to_string(),
                "/api/v1/firmware/gateway/software".to_string(),
                format!("/api/v1/firmware/inverter/{fw}"),
                format!("/api/v1/firmware/{fw}/download"),
                format!("/api/v1/firmware/{fw}/changeEnable?enable=true"),
                format!("/api/v1/firmware/{fw}/delete"),
                format!("/api/v1/firmware/versions?typeId={lv}"),
                "/api/v1/firmware/check?version=V9".to_string(),
                format!("/api/v1/firmware/inverterType/{lv}/delete"),
            ] {
                app.get(&uri, Some(token)).await.expect_code(2);
            }
            add_node(&app, token, json!({"name": "Mine"}))
                .await
                .expect_code(2);
            app.post(
                "/api/v1/firmware/batchDelete",
                json!({"ids": [fw]}),
                Some(token),
            )
            .await
            .expect_code(2);
            form(
                &app,
                "/api/v1/firmware/save",
                token,
                Some(("x.bin", b"x")),
                &[("version", "V9"), ("typeId", &lv.to_string())],
            )
            .await
            .expect_code(2);
            form(
                &app,
                add,
                token,
                Some(("x.bin", b"x")),
                &[("version", "V9")],
            )
            .await
            .expect_code(2);
        }
        // Nothing changed.
        assert_eq!(
            app.get("/api/v1/firmware/page", Some(&admin)).await.data()["total"],
            1
        );
    }
}
