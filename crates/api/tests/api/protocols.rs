//! Protocol configs as stored data: seeded from the shipped ones, read and edited by the
//! platform's administrators, validated on save.

use crate::common;

use common::spawn;
use domain::user::BuiltinRole;
use serde_json::json;

#[tokio::test]
async fn administrators_read_and_edit_stored_protocol_configs_and_bad_ones_are_refused() {
    for app in spawn().await {
        let seeded = devices::protocol::stored::seed(&app.store, 1)
            .await
            .expect("seed");
        assert!(seeded >= 6, "[{}] {seeded}", app.backend);
        assert_eq!(
            devices::protocol::stored::seed(&app.store, 2)
                .await
                .expect("seed"),
            0,
            "only once"
        );
        app.user(
            "root@example.com",
            "secret12",
            BuiltinRole::InternalAdmin,
            None,
        )
        .await;
        app.user("ann@example.com", "secret12", BuiltinRole::PlantOwner, None)
            .await;
        let admin = app.login("root@example.com", "secret12").await.access;
        let ann = app.login("ann@example.com", "secret12").await.access;

        app.get("/api/v1/logger/functions", Some(&ann))
            .await
            .expect_code(2);
        let list = app.get("/api/v1/logger/functions", Some(&admin)).await;
        list.expect_code(0);
        assert!(
            list.data()
                .as_array()
                .expect("list")
                .iter()
                .any(|c| c["code"] == "meter-3ph")
        );

        let meter = app
            .get("/api/v1/logger/function/meter-3ph", Some(&admin))
            .await;
        meter.expect_code(0);
        let mut config = meter.data().clone();
        let version = config["version"].as_u64().expect("version");
        config["name"] = json!("Three-phase meter (site edit)");
        let saved = app
            .post("/api/v1/logger/function", config.clone(), Some(&admin))
            .await;
        saved.expect_code(0);
        assert_eq!(
            saved.data()["version"].as_u64(),
            Some(version + 1),
            "edits bump the version"
        );
        let audit = app
            .get("/api/v1/audit?action=protocol.save", Some(&admin))
            .await;
        let entries = audit.data()["infos"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(entries.len(), 1, "[{}] the save is in the log", app.backend);
        let reread = app
            .get("/api/v1/logger/function/meter-3ph", Some(&admin))
            .await;
        assert_eq!(reread.data()["name"], "Three-phase meter (site edit)");
        let loaded = devices::protocol::stored::load(&app.store)
            .await
            .expect("load");
        assert!(
            loaded
                .iter()
                .any(|c| c.name == "Three-phase meter (site edit)"),
            "ingest decodes with the edit"
        );

        let mut broken = config.clone();
        broken["points"][0]["function_code"] = json!(7);
        broken["points"][1]["key"] = broken["points"][0]["key"].clone();
        let refused = app
            .post("/api/v1/logger/function", broken, Some(&admin))
            .await;
        refused.expect_code(4);
        assert!(
            refused.msg().len() > "Parameter validation error".len(),
            "names the problems: {}",
            refused.msg()
        );
        app.post(
            "/api/v1/logger/function",
            json!({"code": "x"}),
            Some(&admin),
        )
        .await
        .expect_code(4);
        app.post("/api/v1/logger/function", config, Some(&ann))
            .await
            .expect_code(2);
        app.get("/api/v1/logger/function/check?code=meter-3ph", Some(&admin))
            .await
            .expect_code(5000);
        app.get("/api/v1/logger/function/check?code=brand-new", Some(&admin))
            .await
            .expect_code(0);
        app.get("/api/v1/logger/function/nothing", Some(&admin))
            .await
            .expect_code(4);
    }
}
