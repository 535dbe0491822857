//! The system update log: published by internal administrators, read by everyone.

use crate::common;

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

async fn audited(app: &common::App, token: &str, action: &str) -> usize {
    let r = app
        .get(
            &format!("/api/v1/audit?action={action}&limit=100"),
            Some(token),
        )
        .await;
    r.expect_code(0);
    r.data()["infos"].as_array().map_or(0, Vec::len)
}

#[tokio::test]
async fn an_edit_keeps_the_announcer_and_release_time_and_only_internal_administrators_write() {
    for app in spawn().await {
        let co = app.company("Sunny Installers").await;
        let (_, admin) = app
            .signed_in("root@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let (_, boss) = app
            .signed_in("boss@example.com", BuiltinRole::CompanyAdmin, Some(co))
            .await;
        let (_, staff) = app
            .signed_in("staff@example.com", BuiltinRole::CompanyStaff, Some(co))
            .await;
        let first = json!({"version": "V250120", "type": 1, "contentEn": "Line one\nLine two",
            "contentCn": "", "releaseTime": 1_737_331_200_000_i64});
        let a = app.post("/api/v1/version", first, Some(&admin)).await;
        a.expect_code(0);
        let a = a.data().as_i64().expect("id");
        let second = json!({"version": "V250301", "type": 3, "contentCn": "固件"});
        let b = app.post("/api/v1/version", second, Some(&admin)).await;
        b.expect_code(0);
        let b = b.data().as_i64().expect("id");

        for token in [&boss, &staff] {
            let edit = json!({"id": a, "version": "V9", "contentEn": "hijacked"});
            app.post("/api/v1/version", edit, Some(token))
                .await
                .expect_code(2);
            app.get(&format!("/api/v1/version/{a}/delete"), Some(token))
                .await
                .expect_code(2);
        }
        let unchanged = app.get(&format!("/api/v1/version/{a}"), Some(&admin)).await;
        assert_eq!(unchanged.data()["version"], "V250120", "{}", unchanged.ctx);
        assert_eq!(unchanged.data()["contentEn"], "Line one\nLine two");
        assert_eq!(unchanged.data()["announcer"], "root");

        let clash = json!({"id": a, "version": "V250301", "contentEn": "x"});
        app.post("/api/v1/version", clash, Some(&admin))
            .await
            .expect_code(4);
        let missing = json!({"id": 999_999, "version": "V7", "contentEn": "x"});
        app.post("/api/v1/version", missing, Some(&admin))
            .await
            .expect_code(4);
        let bad_type = json!({"id": a, "version": "V250120", "type": 9, "contentEn": "x"});
        app.post("/api/v1/version", bad_type, Some(&admin))
            .await
            .expect_code(4);

        let (_, other) = app
            .signed_in("ops@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let edit = json!({"id": a, "version": "V250121", "type": 2, "contentEn": "Fixed",
            "contentCn": "修复"});
        app.post("/api/v1/version", edit, Some(&other))
            .await
            .expect_code(0);
        let edited = app
            .get(&format!("/api/v1/version/{a}?lan=zh"), Some(&other))
            .await;
        assert_eq!(edited.data()["version"], "V250121", "{}", edited.ctx);
        assert_eq!(edited.data()["type"], 2);
        assert_eq!(edited.data()["content"], "修复");
        assert_eq!(edited.data()["announcer"], "root", "the publisher stays");
        assert_eq!(edited.data()["releaseTime"], "2025-01-20 00:00:00");

        app.get(&format!("/api/v1/version/{b}/delete"), Some(&admin))
            .await
            .expect_code(0);
        app.get(&format!("/api/v1/version/{b}/delete"), Some(&admin))
            .await
            .expect_code(4);
        let left = app.get("/version/timeline", None).await;
        assert_eq!(
            left.data().as_array().map(Vec::len),
            Some(1),
            "{}",
            left.ctx
        );

        assert_eq!(audited(&app, &admin, "version.publish").await, 2);
        assert_eq!(audited(&app, &admin, "version.edit").await, 1);
        assert_eq!(audited(&app, &admin, "version.delete").await, 1);
    }
}
