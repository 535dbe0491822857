//! Reading gateways over HTTP: the list item of docs/api-conventions.md field by field, its
//! filters, customer and plant, counts, the detail with the devices behind it, and the xlsx
//! download; another tenant's gateways are neither listed nor downloadable.

use crate::common;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use common::{App, Resp, fixtures, spawn};
use domain::user::BuiltinRole;
use serde_json::{Value, json};
use store::telemetry::GatewayStatusUpdate;

struct GatewayFleet {
    admin: String,
    ann: String,
    bob: String,
    staff: String,
    ann_plant: i64,
    ann_gw: i64,
}

async fn register(app: &App, admin: &str, sn: &str) -> i64 {
    let r = app
        .post(
            "/api/v1/gateway/create",
            json!({"sn": sn, "key": "KEY12345", "protocol": "deye-hybrid-1ph"}),
            Some(admin),
        )
        .await;
    r.expect_code(0);
    r.data().as_i64().expect("gateway id")
}

async fn bind(app: &App, token: &str, plant: i64, sn: &str) {
    app.post(
        &format!("/api/v1/plant/{plant}/gateway"),
        json!({"sn": sn, "key": "KEY12345"}),
        Some(token),
    )
    .await
    .expect_code(0);
}

/// Ann holds two gateways on her plant (one online with two devices), Bob one; a third of the
/// registry is unbound stock. A company staff member sees none of them.
async fn gateway_fleet(app: &App) -> GatewayFleet {
    let (_, admin) = app
        .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    let (_, ann) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (_, bob) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let acme = app.company("Acme").await;
    let (_, staff) = app
        .signed_in("staff@example.com", BuiltinRole::CompanyStaff, Some(acme))
        .await;
    let ann_plant = fixtures::grid_tied_plant(app, &ann, "Ann home plant").await;
    let bob_plant = fixtures::grid_tied_plant(app, &bob, "Bob home plant").await;
    let ann_gw = register(app, &admin, "GW-ANN01").await;
    register(app, &admin, "GW-ANN02").await;
    register(app, &admin, "GW-BOB01").await;
    register(app, &admin, "GW-FREE1").await;
    bind(app, &ann, ann_plant, "GW-ANN01").await;
    bind(app, &ann, ann_plant, "GW-ANN02").await;
    bind(app, &bob, bob_plant, "GW-BOB01").await;
    app.store
        .upsert_device(
            "INV-ANN01",
            GatewayId(ann_gw),
            DeviceFamily::Inverter,
            2,
            "p",
            "SUN-5K",
            None,
            1,
        )
        .await
        .expect("device");
    app.store
        .upsert_device(
            "BAT-ANN01",
            GatewayId(ann_gw),
            DeviceFamily::Battery,
            0,
            "p",
            "B1",
            None,
            1,
        )
        .await
        .expect("device");
    GatewayFleet {
        admin,
        ann,
        bob,
        staff,
        ann_plant,
        ann_gw,
    }
}

/// The list item keys of docs/api-conventions.md with their JSON types.
#[track_caller]
fn assert_item(g: &Value) {
    assert!(g["id"].is_i64(), "{g}");
    // Present; a string only in the detail for those who may edit the gateway (the clients
    // that read `key` accept null).
    assert!(
        g.get("key").is_some_and(|k| k.is_null() || k.is_string()),
        "{g}"
    );
    for key in [
        "sn",
        "softVer",
        "hardVer",
        "updateAt",
        "model",
        "devName",
        "commTypeName",
        "proto",
    ] {
        assert!(g[key].is_string(), "{key} string: {g}");
    }
    for key in ["status", "uploadCycle"] {
        assert!(g[key].is_i64(), "{key} int: {g}");
    }
    // sunsynk-python types both as ints: text fails its whole list (the names are
    // `commTypeName` and `proto`).
    for key in ["commType", "protocolType"] {
        assert!(
            g[key].is_i64() || g[key].is_null(),
            "{key} int or null: {g}"
        );
    }
    assert!(g["signal"].is_i64() || g["signal"].is_null(), "{g}");
    assert!(g["lldt"].is_string() || g["lldt"].is_null(), "{g}");
    // The last message time, twice: in the spec's format and as `updateAt` writes times.
    match (g["lldt"].as_str(), g["lastMessageAt"].as_str()) {
        (None, None) => {}
        (Some(lldt), Some(at)) => assert_eq!(at, format!("{}Z", lldt.replace(' ', "T")), "{g}"),
        _ => panic!("lldt and lastMessageAt disagree: {g}"),
    }
    let update = g["updateAt"].as_str().unwrap_or_default();
    assert!(
        update.len() == 20 && update.ends_with('Z') && update.as_bytes()[10] == b'T',
        "{update}"
    );
}

async fn total(app: &App, query: &str, token: &str) -> i64 {
    let r = app
        .get(&format!("/api/v1/gateways?{query}"), Some(token))
        .await;
    r.expect_code(0);
    r.data()["total"].as_i64().expect("total")
}

#[tokio::test]
async fn the_list_answers_the_third_party_item_with_customer_and_plant() {
    for app in spawn().await {
        let c = gateway_fleet(&app).await;
        let r = app
            .get(
                "/api/v1/gateways?page=1&limit=10&status=-1&uploadCycle=-1&protocol=-1&agentCompanyId=-1&lan=en",
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        for key in ["pageSize", "pageNumber", "total"] {
            assert!(d[key].is_i64(), "{key}: {d}");
        }
        assert_eq!(d["total"], 2);
        let infos = d["infos"].as_array().expect("infos");
        infos.iter().for_each(assert_item);
        assert!(
            infos.iter().all(|g| g["key"].is_null()),
            "never a key in a list"
        );
        let ann01 = infos
            .iter()
            .find(|g| g["sn"] == "GW-ANN01")
            .expect("GW-ANN01 listed");
        assert_eq!(ann01["plant"]["id"].as_i64(), Some(c.ann_plant));
        assert_eq!(ann01["plant"]["name"], "Ann home plant");
        assert_eq!(ann01["customer"]["account"], "ann@example.com");
        assert!(ann01["customerId"].is_i64());
        assert_eq!(ann01["customerName"], "ann");
        assert_eq!(ann01["devName"], "GW-ANN01", "no alias: the SN");

        // The administrator sees the whole registry, unbound stock included.
        assert_eq!(total(&app, "", &c.admin).await, 4);
        assert_eq!(total(&app, "", &c.bob).await, 1);
        assert_eq!(total(&app, "", &c.staff).await, 0);
        // Filters: plant (the wizard's call), SN, online state, upload cycle, protocol.
        assert_eq!(
            total(&app, &format!("plantId={}", c.ann_plant), &c.ann).await,
            2
        );
        assert_eq!(
            total(&app, &format!("plantId={}", c.ann_plant), &c.bob).await,
            0
        );
        assert_eq!(total(&app, "sn=ann01", &c.ann).await, 1);
        assert_eq!(total(&app, "status=1", &c.ann).await, 0);
        assert_eq!(total(&app, "status=0", &c.ann).await, 2);
        assert_eq!(total(&app, "uploadCycle=300", &c.ann).await, 2);
        assert_eq!(total(&app, "uploadCycle=60", &c.ann).await, 0);
        assert_eq!(total(&app, "protocol=deye-hybrid-1ph", &c.admin).await, 4);
        assert_eq!(total(&app, "protocol=other", &c.admin).await, 0);

        let r = app.get("/api/v1/gateways/count", Some(&c.ann)).await;
        r.expect_code(0);
        for key in ["total", "online", "offline"] {
            assert!(r.data()[key].is_i64(), "{key}: {}", r.text());
        }
        assert_eq!(r.data()["total"], 2);
        assert_eq!(r.data()["offline"], 2);
        app.get("/api/v1/gateways", None).await.expect_401();
    }
}

#[tokio::test]
async fn the_detail_lists_the_devices_behind_a_gateway_and_hides_other_tenants() {
    for app in spawn().await {
        let c = gateway_fleet(&app).await;
        let r = app
            .get(&format!("/api/v1/gateway/{}", c.ann_gw), Some(&c.ann))
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_item(d);
        assert_eq!(d["key"], "KEY12345", "the owner may edit the gateway");
        assert_eq!(d["plant"]["name"], "Ann home plant");
        let devices = d["devices"].as_array().expect("devices");
        assert_eq!(devices.len(), 2);
        for dev in devices {
            assert!(dev["sn"].is_string() && dev["family"].is_string(), "{dev}");
            assert!(dev["type"].is_i64() && dev["status"].is_i64(), "{dev}");
            assert!(dev["lastSeen"].is_null() || dev["lastSeen"].is_string());
        }
        assert!(devices.iter().any(|d| d["family"] == "battery"));
        // By SN too; another tenant's gateway answers 305 like a missing one.
        app.get("/api/v1/gateway/GW-ANN01", Some(&c.ann))
            .await
            .expect_code(0);
        app.get(&format!("/api/v1/gateway/{}", c.ann_gw), Some(&c.bob))
            .await
            .expect_code(305);
        app.get("/api/v1/gateway/999999", Some(&c.bob))
            .await
            .expect_code(305);
    }
}

fn sheet_rows(r: &Resp) -> Vec<Vec<String>> {
    use calamine::{Reader, Xlsx};
    assert_eq!(r.status, 200, "{}", r.text());
    let content_type = r.headers["content-type"].to_str().unwrap_or_default();
    assert!(content_type.contains("spreadsheetml"), "{content_type}");
    let disposition = r.headers["content-disposition"]
        .to_str()
        .unwrap_or_default();
    assert!(disposition.contains("gateways.xlsx"), "{disposition}");
    let mut book = Xlsx::new(std::io::Cursor::new(r.body.to_vec())).expect("a valid xlsx");
    let name = book.sheet_names()[0].clone();
    book.worksheet_range(&name)
        .expect("sheet")
        .rows()
        .map(|row| row.iter().map(|c| c.to_string()).collect())
        .collect()
}

#[tokio::test]
async fn the_download_is_an_xlsx_of_the_filtered_list_for_those_who_may_export() {
    for app in spawn().await {
        let c = gateway_fleet(&app).await;
        let rows = sheet_rows(
            &app.get("/api/v1/gateways/downLoad?lan=en", Some(&c.admin))
                .await,
        );
        assert_eq!(rows[0][0], "SN");
        assert_eq!(rows.len(), 5, "header and four gateways");
        let rows = sheet_rows(
            &app.get("/api/v1/gateways/downLoad?sn=ANN&lan=es", Some(&c.admin))
                .await,
        );
        assert_eq!(rows[0][0], "N.º de serie");
        assert_eq!(rows.len(), 3);
        let ann01 = rows.iter().find(|r| r[0] == "GW-ANN01").expect("row");
        assert_eq!(ann01[3], "Ann home plant");
        assert_eq!(ann01[4], "ann");
        assert_eq!(ann01[2], "Desconectada");
        // Company staff may export, but only what they see (nothing here).
        let rows = sheet_rows(&app.get("/api/v1/gateways/downLoad", Some(&c.staff)).await);
        assert_eq!(rows.len(), 1);
        // Owners have no export permission.
        app.get("/api/v1/gateways/downLoad", Some(&c.ann))
            .await
            .expect_code(2);
        app.get("/api/v1/gateways/downLoad", None)
            .await
            .expect_401();
    }
}

#[tokio::test]
async fn staff_without_the_gateway_keys_are_refused() {
    for app in spawn().await {
        let acme = app.company("Acme").await;
        let role = app
            .store
            .create_role(
                acme,
                "Plants",
                &["station.view"],
                domain::time::now_ms(),
                None,
            )
            .await
            .expect("role");
        let (id, token) = app
            .signed_in("plain@example.com", BuiltinRole::CompanyStaff, Some(acme))
            .await;
        app.store.set_role(id, role).await.expect("set role");
        for path in [
            "/api/v1/gateways",
            "/api/v1/gateways/count",
            "/api/v1/gateways/downLoad",
            "/api/v1/gateway/1",
        ] {
            app.get(path, Some(&token)).await.expect_code(2);
        }
    }
}

#[tokio::test]
async fn the_communication_type_is_a_number_and_its_name_is_text() {
    for app in spawn().await {
        let c = gateway_fleet(&app).await;
        for (link, code, name) in [
            ("wifi", json!(1), "WiFi"),
            ("4G", json!(3), "4G"),
            ("ethernet", json!(4), "Ethernet"),
            ("satellite", Value::Null, "satellite"),
        ] {
            let status = GatewayStatusUpdate {
                online: true,
                comm_type: Some(link.into()),
                ..Default::default()
            };
            app.store
                .update_gateway_status(GatewayId(c.ann_gw), &status, domain::time::now_ms())
                .await
                .expect("status");
            let r = app.get("/api/v1/gateways?sn=GW-ANN01", Some(&c.ann)).await;
            r.expect_code(0);
            let g = &r.data()["infos"][0];
            assert_eq!(g["commType"], code, "[{}] {link}: {g}", app.backend);
            assert_eq!(g["commTypeName"], name, "{link}");
            assert!(g["protocolType"].is_null(), "{g}");
            assert_eq!(g["proto"], "deye-hybrid-1ph");
        }
    }
}
