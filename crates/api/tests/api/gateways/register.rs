//! The gateway registry and SN checks.

use super::*;

#[tokio::test]
async fn only_internal_administrators_register_gateways_with_valid_unique_sns() {
    for app in spawn().await {
        let c = two_owners(&app).await;
        let id = register(&app, &c.admin, "GW-0001", "KEY12345").await;
        assert!(id > 0);
        let create = |body: Value, token: String| {
            let app = &app;
            async move { app.post("/api/v1/gateway/create", body, Some(&token)).await }
        };
        let dup = create(json!({"sn": "GW-0001", "key": "OTHER123"}), c.admin.clone()).await;
        dup.expect_code(4);
        assert!(dup.msg().ends_with(": sn"), "{}", dup.msg());
        for (body, field) in [
            (json!({"key": "KEY12345"}), "sn"),
            (json!({"sn": "GW 0002", "key": "KEY12345"}), "sn"),
            (json!({"sn": "GW01", "key": "KEY12345"}), "sn"),
            (json!({"sn": "GW-0002"}), "key"),
            (json!({"sn": "GW-0002", "key": "abc"}), "key"),
            // New keys must be strong: 8 characters, 4 different, no straight run.
            (json!({"sn": "GW-0002", "key": "KEY123"}), "key"),
            (json!({"sn": "GW-0002", "key": "aaaaaaaa"}), "key"),
            (json!({"sn": "GW-0002", "key": "12345678"}), "key"),
        ] {
            let r = create(body, c.admin.clone()).await;
            r.expect_code(4);
            assert!(r.msg().ends_with(field), "{}: {}", r.ctx, r.msg());
        }
        create(json!({"sn": "GW-0003", "key": "KEY12345"}), c.ann.clone())
            .await
            .expect_code(2);
        let (_, boss) = app
            .signed_in(
                "boss@example.com",
                BuiltinRole::CompanyAdmin,
                Some(app.company("Acme").await),
            )
            .await;
        create(json!({"sn": "GW-0003", "key": "KEY12345"}), boss)
            .await
            .expect_code(2);
        // Form bodies and numeric SNs work too.
        app.post_form(
            "/api/v1/gateway/create",
            "sn=20240001&key=k3y-2024",
            Some(&c.admin),
        )
        .await
        .expect_code(0);
    }
}

#[tokio::test]
async fn sn_checks_answer_free_used_or_unknown_without_revealing_other_tenants() {
    for app in spawn().await {
        let c = two_owners(&app).await;
        register(&app, &c.admin, "GW-FREE1", "KEY12345").await;
        register(&app, &c.admin, "GW-USED1", "KEY12345").await;
        app.post(
            &format!("/api/v1/plant/{}/gateway", c.ann_plant),
            json!({"sn": "GW-USED1", "key": "KEY12345"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        for (sn, token, code) in [
            ("GW-FREE1", &c.ann, 0),
            ("GW-NONE1", &c.ann, 305),
            ("GW-USED1", &c.ann, 301),
            ("GW-USED1", &c.bob, 305),
            ("GW-USED1", &c.admin, 301),
            ("GW 1", &c.ann, 4),
        ] {
            app.post("/api/v1/gateways/check", json!({"sn": sn}), Some(token))
                .await
                .expect_code(code);
            if !sn.contains(' ') {
                app.post(
                    &format!("/api/v1/gateway/{sn}/check"),
                    json!({}),
                    Some(token),
                )
                .await
                .expect_code(code);
            }
        }
        app.post("/api/v1/gateways/check", json!({"sn": "GW-FREE1"}), None)
            .await
            .expect_401();
    }
}
