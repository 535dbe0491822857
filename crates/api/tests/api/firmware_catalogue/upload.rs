//! Uploads and edits with the file and version rules.

use super::*;

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
