//! Tenancy: another tenant's plant answers like a missing one.

use super::*;

#[tokio::test]
async fn another_tenants_plant_answers_exactly_like_a_missing_one() {
    for app in spawn().await {
        let acme = app.company("Acme").await;
        let beta = app.company("Beta").await;
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("eve@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("staff@acme.com", PW, BuiltinRole::CompanyStaff, Some(acme))
            .await;
        app.user("staff@beta.com", PW, BuiltinRole::CompanyAdmin, Some(beta))
            .await;
        let ann = app.login("ann@example.com", PW).await.access;
        let eve = app.login("eve@example.com", PW).await.access;
        let acme_staff = app.login("staff@acme.com", PW).await.access;
        let beta_admin = app.login("staff@beta.com", PW).await.access;
        let home = create(&app, &ann, plant("Ann home plant")).await;
        let eves = create(&app, &eve, plant("Eve home plant")).await;
        let depot = create(&app, &acme_staff, json!({"name": "Acme depot", "timezone": "UTC", "lon": 1, "lat": 2, "owner": "ann@example.com"})).await;
        // Ann is not yet Acme's customer: the depot becomes hers once she accepts it, and with
        // it she becomes Acme's customer, whose plants Acme's staff see. Eve is nobody's.
        app.post(
            &format!("/api/v1/plant/{depot}/offer/accept"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(0);

        let missing = 999_999;
        for (token, id) in [(&eve, home), (&beta_admin, depot), (&acme_staff, eves)] {
            for target in [id, missing] {
                let calls = [
                    app.get(&format!("/api/v1/plant/{target}"), Some(token))
                        .await,
                    app.post(
                        &format!("/api/v1/plant/{target}"),
                        json!({"name": "Taken over"}),
                        Some(token),
                    )
                    .await,
                    app.post(
                        &format!("/api/v1/plant/{target}/income"),
                        json!({"charges": []}),
                        Some(token),
                    )
                    .await,
                    app.post(
                        &format!("/api/v1/plant/{target}/share"),
                        json!({"account": "eve@example.com"}),
                        Some(token),
                    )
                    .await,
                    app.post(
                        &format!("/api/v1/plant/{target}/transfer?account=eve@example.com"),
                        json!({}),
                        Some(token),
                    )
                    .await,
                    app.post(
                        &format!("/api/v1/plant/{target}/delete"),
                        json!({}),
                        Some(token),
                    )
                    .await,
                    app.get(
                        &format!("/api/v1/plant/{target}/getShareUsers"),
                        Some(token),
                    )
                    .await,
                ];
                for r in calls {
                    r.expect_code(700);
                    assert_eq!(r.msg(), "Plant does not exist", "{}", r.ctx);
                }
            }
        }
        assert_eq!(total(&app, &eve).await, 1, "her own");
        assert_eq!(total(&app, &beta_admin).await, 0);
        assert_eq!(
            total(&app, &acme_staff).await,
            2,
            "staff see their company's plant and their customer's"
        );
        assert_eq!(total(&app, &ann).await, 2, "ann owns both");
        let d = app
            .get(&format!("/api/v1/plant/{depot}"), Some(&acme_staff))
            .await;
        let perms: Vec<&str> = d.data()["plantPermission"]
            .as_array()
            .expect("perms")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(
            perms.contains(&"station.edit") && !perms.contains(&"station.share"),
            "{perms:?}"
        );
        app.post(
            &format!("/api/v1/plant/{depot}"),
            json!({"name": "Acme depot two"}),
            Some(&acme_staff),
        )
        .await
        .expect_code(0);
        app.get(&format!("/api/v1/plant/{home}"), Some(&ann))
            .await
            .expect_code(0);
    }
}
