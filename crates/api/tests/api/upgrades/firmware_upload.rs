//! Firmware uploads for upgrades: the spec's file and version rules.

use super::*;

#[tokio::test]
async fn firmware_uploads_follow_the_spec_file_and_version_rules() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("root@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let (_, owner) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        // An old client's `type` names no label yet.
        upload(
            &app,
            &admin,
            "INV-94_v1.bin",
            b"\x00\x01",
            &[("version", "V1_5"), ("type", "94")],
        )
        .await
        .expect_code(4);
        let label94 = label_for(&app, &admin, 94).await;
        label_for(&app, &admin, 2).await;
        let ok = upload(
            &app,
            &admin,
            "INV-94_v1.bin",
            b"\x00\x01",
            &[("version", "V1_5"), ("type", "94"), ("changeLog", "first")],
        )
        .await;
        ok.expect_code(0);
        let f = ok.data();
        assert!(f["id"].is_i64());
        assert_eq!(f["fileName"], "INV-94_v1.bin");
        assert_eq!(f["name"], "INV-94_v1.bin");
        assert_eq!(f["size"], 2);
        assert_eq!(f["version"], "V1_5");
        assert_eq!(f["target"], "inverter");
        assert_eq!(f["type"], label94);
        assert_eq!(f["codes"], json!([94]));
        assert_eq!(f["enabled"], true);
        assert_eq!(f["changeLog"], "first");
        assert!(
            f["createAt"]
                .as_str()
                .is_some_and(|s| s.ends_with("+00:00"))
        );
        assert!(fixtures::is_update_at(&f["updateAt"]));
        let stored = std::fs::read_dir(app.data_dir.join("firmware"))
            .expect("firmware dir")
            .count();
        assert_eq!(stored, 1, "{}", app.backend);

        // Duplicate version (any case), lower than the latest, bad names, types and sizes.
        upload(
            &app,
            &admin,
            "a.bin",
            b"x",
            &[("version", "v1_5"), ("type", "94")],
        )
        .await
        .expect_code(4002);
        upload(
            &app,
            &admin,
            "a.bin",
            b"x",
            &[("version", "V1_4"), ("type", "94")],
        )
        .await
        .expect_code(4);
        upload(
            &app,
            &admin,
            "a.hex",
            b"x",
            &[("version", "V1_10"), ("type", "94")],
        )
        .await
        .expect_code(11);
        upload(
            &app,
            &admin,
            "a.hex",
            b":0100000001FE\r\n:00000001FF\r\n",
            &[("version", "V1_10"), ("type", "94")],
        )
        .await
        .expect_code(0);
        upload(
            &app,
            &admin,
            "a.zip",
            b"x",
            &[("version", "V2"), ("type", "94")],
        )
        .await
        .expect_code(11);
        upload(
            &app,
            &admin,
            "bad name.bin",
            b"x",
            &[("version", "V2"), ("type", "94")],
        )
        .await
        .expect_code(4);
        let long = format!("{}.bin", "n".repeat(37));
        upload(
            &app,
            &admin,
            &long,
            b"x",
            &[("version", "V2"), ("type", "94")],
        )
        .await
        .expect_code(4);
        upload(
            &app,
            &admin,
            "a.bin",
            b"x",
            &[("version", "V2.0"), ("type", "94")],
        )
        .await
        .expect_code(4);
        upload(&app, &admin, "a.bin", b"x", &[("version", "V2")])
            .await
            .expect_code(4);
        let big = vec![0u8; 1024 * 1024 * 3 / 2 + 1];
        upload(
            &app,
            &admin,
            "big.bin",
            &big,
            &[("version", "V3"), ("type", "94")],
        )
        .await
        .expect_code(12);
        let exact = vec![0u8; 1024 * 1024 * 3 / 2];
        upload(
            &app,
            &admin,
            "exact.bin",
            &exact,
            &[("version", "V3"), ("type", "94")],
        )
        .await
        .expect_code(0);
        // Another type keeps its own versions; disabled files are not offered.
        upload(
            &app,
            &admin,
            "a.bin",
            b"x",
            &[("version", "V1_0"), ("type", "2"), ("enabled", "false")],
        )
        .await
        .expect_code(0);
        upload(
            &app,
            &admin,
            "g.bin",
            b"x",
            &[("version", "V1_0"), ("target", "gateway")],
        )
        .await
        .expect_code(0);
        // Only internal administrators upload.
        upload(
            &app,
            &owner,
            "o.bin",
            b"x",
            &[("version", "V9"), ("type", "94")],
        )
        .await
        .expect_code(2);

        let list = app
            .get("/api/v1/firmware?type=94&lan=en&page=", Some(&owner))
            .await;
        list.expect_code(0);
        let d = list.data();
        assert_eq!(d["total"], 3, "{d}");
        assert!(d["pageSize"].is_i64() && d["pageNumber"].is_i64());
        let versions: Vec<&str> = d["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .map(|f| f["version"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(versions, ["V3", "V1_10", "V1_5"]);
        let t2 = app.get("/api/v1/firmware?type=2", Some(&owner)).await;
        assert_eq!(t2.data()["total"], 0);
        let gw = app
            .get("/api/v1/firmware?target=gateway", Some(&owner))
            .await;
        assert_eq!(gw.data()["infos"][0]["target"], "gateway");
        app.get("/api/v1/firmware", Some(&owner))
            .await
            .expect_code(4);
        app.get("/api/v1/firmware?sn=NOPE000001", Some(&owner))
            .await
            .expect_code(305);
    }
}
