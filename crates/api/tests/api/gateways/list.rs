//! The gateway list, its field types, filters and counts, and tenancy.

use super::*;
use domain::ids::PlantId;

#[tokio::test]
async fn the_list_has_the_client_field_types_and_filters_and_counts() {
    for app in spawn().await {
        let c = two_owners(&app).await;
        let first = register(&app, &c.admin, "20240001", "KEY12345").await;
        let spare = register(&app, &c.admin, "GW-SPARE", "KEY12345").await;
        app.post(
            &format!("/api/v1/plant/{}/gateway", c.ann_plant),
            json!({"sn": "20240001", "key": "KEY12345"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let query =
            "page=1&limit=10&status=-1&uploadCycle=-1&protocol=-1&agentCompanyId=-1&lan=en&sn=";
        let list = app
            .get(&format!("/api/v1/gateways?{query}"), Some(&c.ann))
            .await;
        list.expect_code(0);
        let d = list.data();
        assert_eq!(
            (
                d["total"].as_i64(),
                d["pageSize"].as_i64(),
                d["pageNumber"].as_i64()
            ),
            (Some(1), Some(10), Some(1))
        );
        let g = &d["infos"][0];
        assert_eq!(g["sn"], "20240001", "a numeric SN is still a string");
        assert!(g["id"].is_i64() && g["status"].is_i64() && g["uploadCycle"].is_i64());
        assert!(
            g.get("key").is_some_and(Value::is_null),
            "no key in a list: {g}"
        );
        for key in [
            "softVer",
            "hardVer",
            "model",
            "devName",
            "commTypeName",
            "proto",
        ] {
            assert!(g[key].is_string(), "{key}: {}", g[key]);
        }
        assert!(g.get("signal").is_some() && g.get("lldt").is_some());
        assert!(fixtures::is_update_at(&g["updateAt"]), "{}", g["updateAt"]);
        assert_eq!(g["status"], 0, "offline until it reports");
        assert!(
            g.get("signedInAt").is_some_and(Value::is_null),
            "never signed in: {g}"
        );
        assert_eq!(g["plantName"], "Ann home plant");

        let admin_list = app
            .get(&format!("/api/v1/gateways?{query}"), Some(&c.admin))
            .await;
        assert_eq!(admin_list.data()["total"], 2, "the registry, unbound too");
        for (filter, total) in [
            ("sn=spare", 1),
            ("status=1", 0),
            ("status=0", 2),
            ("uploadCycle=300", 2),
            ("uploadCycle=60", 0),
            ("protocol=deye-hybrid-1ph", 2),
            ("protocol=other", 0),
            ("agentCompanyId=99", 0),
            ("page=2&limit=1", 2),
        ] {
            let r = app
                .get(&format!("/api/v1/gateways?{filter}"), Some(&c.admin))
                .await;
            assert_eq!(
                r.data()["total"].as_i64(),
                Some(total),
                "{filter}: {}",
                r.text()
            );
        }
        // `ids`: the gateways named (a restart's follow-up), within what the caller sees.
        for (who, ids, total) in [
            (&c.admin, format!("{first},{spare}"), 2),
            (&c.admin, format!("{spare}"), 1),
            (&c.ann, format!("{first},%20{spare}"), 1),
            (&c.bob, format!("{first}"), 0),
        ] {
            let r = app
                .get(&format!("/api/v1/gateways?ids={ids}&limit=100"), Some(who))
                .await;
            assert_eq!(
                r.data()["total"].as_i64(),
                Some(total),
                "{ids}: {}",
                r.text()
            );
        }
        let many = (1..=101)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",");
        for bad in ["abc", "1,,2", many.as_str()] {
            app.get(&format!("/api/v1/gateways?ids={bad}"), Some(&c.admin))
                .await
                .expect_code(4);
        }
        let page2 = app
            .get("/api/v1/gateways?page=2&limit=1", Some(&c.admin))
            .await;
        assert_eq!(page2.data()["infos"].as_array().map(Vec::len), Some(1));
        let count = app.get("/api/v1/gateways/count", Some(&c.ann)).await;
        assert_eq!(
            count.data(),
            &json!({"total": 1, "online": 0, "offline": 1})
        );
        let bob_count = app.get("/api/v1/gateways/count", Some(&c.bob)).await;
        assert_eq!(bob_count.data()["total"], 0);
        app.get("/api/v1/gateways", None).await.expect_401();
    }
}

#[tokio::test]
async fn another_tenants_gateway_answers_like_a_missing_one() {
    for app in spawn().await {
        let c = two_owners(&app).await;
        let gw = register(&app, &c.admin, "GW-0001", "KEY12345").await;
        let spare = register(&app, &c.admin, "GW-0002", "KEY12345").await;
        app.post(
            &format!("/api/v1/plant/{}/gateway", c.ann_plant),
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        for path in [
            format!("/api/v1/gateway/{gw}"),
            "/api/v1/gateway/GW-0001".into(),
            format!("/api/v1/gateway/{spare}"),
            "/api/v1/gateway/123456789".into(),
        ] {
            app.get(&path, Some(&c.bob)).await.expect_code(305);
        }
        app.post(
            &format!("/api/v1/gateway/{gw}/unbind"),
            json!({}),
            Some(&c.bob),
        )
        .await
        .expect_code(305);
        let mine = app.get("/api/v1/gateway/GW-0001", Some(&c.ann)).await;
        mine.expect_code(0);
        assert_eq!(mine.data()["id"].as_i64(), Some(gw));
        assert_eq!(mine.data()["devices"], json!([]));
        app.get(&format!("/api/v1/gateway/{spare}"), Some(&c.admin))
            .await
            .expect_code(0);
    }
}

#[tokio::test]
async fn the_gateway_list_narrows_to_one_plant() {
    for app in common::spawn().await {
        let ann = app
            .user(
                "plantfilter@example.com",
                "secret12",
                domain::user::BuiltinRole::PlantOwner,
                None,
            )
            .await;
        let token = app
            .login("plantfilter@example.com", "secret12")
            .await
            .access;
        let body =
            |name: &str| serde_json::json!({"name": name, "timezone": "UTC", "lon": 1, "lat": 2});
        let a = app
            .post("/api/v1/plant", body("Plant number A"), Some(&token))
            .await
            .data()
            .as_i64()
            .expect("id");
        let b = app
            .post("/api/v1/plant", body("Plant number B"), Some(&token))
            .await
            .data()
            .as_i64()
            .expect("id");
        for (sn, plant) in [("FILTERGW1", a), ("FILTERGW2", b), ("FILTERGW3", b)] {
            let gw = app
                .store
                .create_gateway(sn, "KEY1234", "", 1)
                .await
                .expect("gateway");
            app.store
                .bind_gateway(gw, PlantId(plant), ann, None, 2)
                .await
                .expect("bind");
        }
        let all = app
            .get("/api/v1/gateways?page=1&limit=10", Some(&token))
            .await;
        assert_eq!(all.data()["total"], 3, "{}", all.text());
        let only_b = app
            .get(
                &format!("/api/v1/gateways?page=1&limit=10&plantId={b}"),
                Some(&token),
            )
            .await;
        assert_eq!(only_b.data()["total"], 2, "{}", only_b.text());
        assert!(
            only_b.data()["infos"]
                .as_array()
                .expect("infos")
                .iter()
                .all(|g| g["plantId"] == b)
        );
    }
}
