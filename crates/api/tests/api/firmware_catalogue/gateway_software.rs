//! Gateway software's own routes, and the catalogue kept to internal staff.

use super::*;

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
