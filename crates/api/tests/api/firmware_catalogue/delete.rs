//! Deleting firmware, one or in a batch, not while an upgrade uses it.

use super::*;
use domain::ids::FirmwareId;

#[tokio::test]
async fn firmware_in_use_is_not_deleted_and_batches_report_each_refusal() {
    for app in spawn().await {
        let admin = fixtures::admin(&app).await;
        let admin_id = app
            .store
            .user_by_account("admin@example.com")
            .await
            .expect("user")
            .expect("admin")
            .id;
        let (_, lv) = label(&app, &admin, "Hybrid", "LV", &[2]).await;
        let a = upload(&app, &admin, lv, "a", "V1").await;
        let b = upload(&app, &admin, lv, "b", "V2").await;
        let c = upload(&app, &admin, lv, "c", "V3").await;
        let cmd = NewCommand {
            correlation_id: "corr-fw-1",
            gateway_sn: "GW-X",
            device_sn: "INV-X",
            kind: "upgrade",
            params: "{}",
            now: domain::time::now_ms(),
            deadline: domain::time::now_ms() + 600_000,
        };
        let up = NewUpgrade {
            batch_id: "b1",
            target: "inverter",
            device_sn: "INV-X",
            gateway_sn: "GW-X",
            firmware_id: FirmwareId(a),
            version: "V1",
            from_version: "",
            cancellable: false,
            user_id: admin_id,
            now: domain::time::now_ms(),
        };
        let entry = store::audit::NewAudit {
            by: store::log_pages::Author {
                user_id: Some(admin_id),
                account: "admin",
                actor_company_id: None,
                plant_id: None,
                plant_owner_id: None,
                plant_company_id: None,
            },
            action: "inverter.upgrade",
            target: "INV-X",
            detail: "{}",
            result: "sent",
            command_id: None,
            now: domain::time::now_ms(),
        };
        app.store
            .start_upgrade(&cmd, &up, &entry, &entry)
            .await
            .expect("upgrade");
        let r = app
            .get(&format!("/api/v1/firmware/{a}/delete"), Some(&admin))
            .await;
        r.expect_code(4);
        assert_eq!(detail_of(&r), "inUse");
        let item = app
            .get(&format!("/api/v1/firmware/inverter/{a}"), Some(&admin))
            .await;
        assert_eq!(item.data()["inUse"], true);
        app.get("/api/v1/firmware/999999/delete", Some(&admin))
            .await
            .expect_code(4);

        let r = app
            .post(
                "/api/v1/firmware/batchDelete",
                json!({"ids": [a, b, 999999]}),
                Some(&admin),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["deleted"], 1);
        let refused: Vec<i64> = r.data()["refused"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|x| x["id"].as_i64())
            .collect();
        assert_eq!(refused, [a, 999999]);
        assert_eq!(r.data()["refused"][0]["code"], 4);
        let r = app
            .get(
                &format!("/api/v1/firmware/batchDelete?ids={c}"),
                Some(&admin),
            )
            .await;
        assert_eq!(r.data()["deleted"], 1);
        // Only the file in use is left.
        assert_eq!(
            std::fs::read_dir(app.data_dir.join("firmware"))
                .expect("dir")
                .count(),
            1
        );
        let audit = app.get("/api/v1/audit?limit=50", Some(&admin)).await;
        assert!(
            audit.data()["infos"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|e| e["action"] == "firmware.delete")
        );
    }
}
