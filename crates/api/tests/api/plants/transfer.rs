//! Transferring and deleting a plant.

use super::*;

#[tokio::test]
async fn transfer_moves_ownership_and_delete_removes_the_plant_for_everyone() {
    for app in spawn().await {
        app.user("ann@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("bob@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        app.user("cy@example.com", PW, BuiltinRole::PlantOwner, None)
            .await;
        let ann = app.login("ann@example.com", PW).await.access;
        let bob = app.login("bob@example.com", PW).await.access;
        let cy = app.login("cy@example.com", PW).await.access;
        let id = create(&app, &ann, plant("Ann home plant")).await;
        app.post(
            &format!("/api/v1/plant/{id}/transfer?account=ann@example.com"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(704);
        app.post(
            &format!("/api/v1/plant/{id}/transfer?account=ghost@example.com"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(105);
        app.post(
            &format!("/api/v1/plant/{id}/transfer?account=bob@example.com"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        app.get(&format!("/api/v1/plant/{id}"), Some(&ann))
            .await
            .expect_code(700);
        let mine = app.get(&format!("/api/v1/plant/{id}"), Some(&bob)).await;
        assert_eq!(mine.data()["master"]["account"], "bob@example.com");

        app.post(
            &format!("/api/v1/plant/{id}/share"),
            json!({"account": "cy@example.com"}),
            Some(&bob),
        )
        .await
        .expect_code(0);
        app.post(&format!("/api/v1/plant/{id}/delete"), json!({}), Some(&bob))
            .await
            .expect_code(0);
        for token in [&bob, &cy] {
            app.get(&format!("/api/v1/plant/{id}"), Some(token))
                .await
                .expect_code(700);
            assert_eq!(total(&app, token).await, 0);
        }
    }
}
