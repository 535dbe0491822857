//! Sharing a plant; a visitor only reads.

use super::*;

#[tokio::test]
async fn sharing_follows_the_rules_and_a_visitor_only_reads() {
    for app in spawn().await {
        let acme = app.company("Acme").await;
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("bob@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("max@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("staff@acme.com", PW, BuiltinRole::CompanyStaff, Some(acme))
            .await;
        let ann = app.login("ann@example.com", PW).await.access;
        let bob = app.login("bob@example.com", PW).await.access;
        let max = app.login("max@example.com", PW).await.access;
        let staff = app.login("staff@acme.com", PW).await.access;
        let home = create(&app, &ann, plant("Ann home plant")).await;
        let depot = create(&app, &staff, json!({"name": "Acme depot", "timezone": "UTC", "lon": 1, "lat": 2, "owner": "ann@example.com"})).await;
        app.post(
            &format!("/api/v1/plant/{depot}/offer/accept"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        let share = |id: i64, account: &str, role: &str| {
            (
                format!("/api/v1/plant/{id}/share"),
                json!({"account": account, "role": role}),
            )
        };

        let (uri, body) = share(home, "ann@example.com", "visitor");
        app.post(&uri, body, Some(&ann)).await.expect_code(701);
        let (uri, body) = share(home, "staff@acme.com", "visitor");
        app.post(&uri, body, Some(&ann)).await.expect_code(702);
        let (uri, body) = share(depot, "bob@example.com", "visitor");
        app.post(&uri, body, Some(&ann)).await.expect_code(703);
        let (uri, body) = share(home, "ghost@example.com", "visitor");
        app.post(&uri, body, Some(&ann)).await.expect_code(105);
        let (uri, body) = share(home, "bob@example.com", "visitor");
        app.post(&uri, body, Some(&ann)).await.expect_code(0);
        let (uri, body) = share(home, "max@example.com", "maintainer");
        app.post(&uri, body, Some(&ann)).await.expect_code(0);

        let list = app.get("/api/v1/plants?page=1&limit=10", Some(&bob)).await;
        let item = &list.data()["infos"][0];
        assert_eq!(
            (item["id"].as_i64(), item["share"].as_bool()),
            (Some(home), Some(true))
        );
        assert_eq!(item["plantPermission"], json!(["station.share.cancle"]));
        app.post(
            &format!("/api/v1/plant/{home}"),
            json!({"name": "Bob's now"}),
            Some(&bob),
        )
        .await
        .expect_code(2);
        app.post(
            &format!("/api/v1/plant/{home}/delete"),
            json!({}),
            Some(&bob),
        )
        .await
        .expect_code(2);
        let (uri, body) = share(home, "max@example.com", "visitor");
        app.post(&uri, body, Some(&max)).await.expect_code(2);
        let maint = app.get(&format!("/api/v1/plant/{home}"), Some(&max)).await;
        assert!(
            maint.data()["plantPermission"]
                .as_array()
                .expect("perms")
                .contains(&json!("inverter.setting"))
        );

        let users = app
            .get(&format!("/api/v1/plant/{home}/getShareUsers"), Some(&ann))
            .await;
        assert_eq!(users.data().as_array().map(Vec::len), Some(2));
        app.get(&format!("/api/v1/plant/{home}/getShareUsers"), Some(&bob))
            .await
            .expect_code(2);
        app.post(
            &format!("/api/v1/plant/{home}/cancelShare"),
            json!({}),
            Some(&bob),
        )
        .await
        .expect_code(0);
        assert_eq!(total(&app, &bob).await, 0, "bob left");
        app.get(&format!("/api/v1/plant/{home}"), Some(&bob))
            .await
            .expect_code(700);
        let max_id = users.data()[1]["userId"].as_i64().expect("user id");
        app.post(
            &format!("/api/v1/plant/{home}/cancelShare"),
            json!({"userId": max_id}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        assert_eq!(total(&app, &max).await, 0);
    }
}
