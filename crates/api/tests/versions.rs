//! The system update log: published by internal administrators, read by everyone.

mod common;

use common::spawn;
use domain::user::BuiltinRole;
use serde_json::json;

#[tokio::test]
async fn administrators_publish_release_notes_that_everyone_reads_in_their_language() {
    for app in spawn().await {
        app.user(
            "admin@example.com",
            "secret12",
            BuiltinRole::InternalAdmin,
            None,
        )
        .await;
        app.user("ann@example.com", "secret12", BuiltinRole::PlantOwner, None)
            .await;
        let admin = app.login("admin@example.com", "secret12").await.access;
        let ann = app.login("ann@example.com", "secret12").await.access;

        let empty = app.get("/version/timeline", None).await;
        assert_eq!(empty.data(), &json!([]), "{}", empty.ctx);
        app.get("/version/check?version=V1", None)
            .await
            .expect_code(0);

        let note = json!({"version": "V250120", "type": 1, "contentEn": "Plants and sharing",
            "contentCn": "电站与分享", "releaseTime": 1_737_331_200_000_i64});
        app.post("/api/v1/version", note.clone(), Some(&ann))
            .await
            .expect_code(2);
        let id = app
            .post("/api/v1/version", note.clone(), Some(&admin))
            .await;
        id.expect_code(0);
        let id = id.data().as_i64().expect("id");
        app.post("/api/v1/version", note, Some(&admin))
            .await
            .expect_code(4);
        app.post(
            "/api/v1/version",
            json!({"version": "bad version!", "contentEn": "x"}),
            Some(&admin),
        )
        .await
        .expect_code(4);
        app.post(
            "/api/v1/version",
            json!({"version": "V2", "contentEn": ""}),
            Some(&admin),
        )
        .await
        .expect_code(4);

        let zh = app.get("/version/timeline?lan=zh", None).await;
        assert_eq!(zh.data()[0]["content"], "电站与分享");
        assert_eq!(zh.data()[0]["releaseTime"], "2025-01-20 00:00:00");
        let es = app.get("/version/latest?lan=es", None).await;
        assert_eq!(
            es.data()["content"],
            "Plants and sharing",
            "falls back to English"
        );
        let check = app.get("/version/check?version=V250120", None).await;
        assert_eq!(check.data()["upToDate"], true);
        let page = app
            .get("/api/v1/versions?page=1&limit=10", Some(&ann))
            .await;
        assert_eq!(page.data()["total"], 1);

        app.get(&format!("/api/v1/version/{id}/delete"), Some(&ann))
            .await
            .expect_code(2);
        app.get(&format!("/api/v1/version/{id}/delete"), Some(&admin))
            .await
            .expect_code(0);
        app.get(&format!("/api/v1/version/{id}"), Some(&admin))
            .await
            .expect_code(4);
        // The signed-in reading asks for a token like every `/api/v1/` call; the public ones
        // do not.
        app.get("/api/v1/version", None).await.expect_401();
        app.get("/api/v1/version", Some("not-a-token"))
            .await
            .expect_401();
        let signed_in = app.get("/api/v1/version", Some(&ann)).await;
        assert_eq!(
            signed_in.data(),
            &serde_json::Value::Null,
            "{}",
            signed_in.ctx
        );
        app.get("/version/latest", None).await.expect_code(0);
        let unknown = app.get("/version/nothing", None).await;
        assert_eq!(
            unknown.status.as_u16(),
            404,
            "unknown /version paths are JSON 404s, not the web app"
        );
    }
}
