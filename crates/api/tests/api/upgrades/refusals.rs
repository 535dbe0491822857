//! Upgrades refused (offline, already upgrading, wrong firmware, permissions) and the timeout.

use super::*;
use domain::DeviceFamily;
use domain::ids::PlantId;
use domain::ids::UserId;

#[tokio::test]
async fn upgrades_are_refused_offline_without_permission_and_time_out_without_an_answer() {
    for app in spawn().await {
        let w = world(app).await;
        let app = &w.app;
        let fw = firmware(app, &w.admin, Some(2), "V2_0").await;
        let sn = w.fleet[0].devices[0].sn.clone();

        // A visitor of the plant may look but not upgrade; a stranger does not see it.
        let (vid, visitor) = app
            .signed_in("vic@example.com", BuiltinRole::PlantOwner, None)
            .await;
        app.store
            .share_plant(
                PlantId(w.plant),
                vid,
                ShareRole::Visitor,
                domain::time::now_ms(),
            )
            .await
            .expect("share");
        app.get(
            &format!("/api/v1/inverter/{sn}/upgrade/progress"),
            Some(&visitor),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&visitor),
        )
        .await
        .expect_code(2);
        let (_, bob) = app
            .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
            .await;
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&bob),
        )
        .await
        .expect_code(600);
        app.get(
            &format!("/api/v1/inverter/{sn}/upgrade/progress"),
            Some(&bob),
        )
        .await
        .expect_code(600);

        // Offline: refused with the spec's message, nothing sent.
        let dev = app
            .store
            .device_by_sn(&sn)
            .await
            .expect("device")
            .expect("known");
        fixtures::set_status(app, dev.id.0, 0).await;
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(602);
        // A maintainer of the plant may upgrade: past the permission check, refused offline.
        let (mid, maintainer) = app
            .signed_in("max@example.com", BuiltinRole::PlantOwner, None)
            .await;
        app.store
            .share_plant(
                PlantId(w.plant),
                mid,
                ShareRole::Maintainer,
                domain::time::now_ms(),
            )
            .await
            .expect("share");
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&maintainer),
        )
        .await
        .expect_code(602);
        let p = app
            .get(
                &format!("/api/v1/inverter/{sn}/upgrade/progress"),
                Some(&w.ann),
            )
            .await;
        assert!(p.data().is_null());
        // A device in Fault may not be upgraded.
        fixtures::set_status(app, dev.id.0, 3).await;
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(604);

        // A gateway that never answers: the upgrade fails when its command times out.
        let silent = app
            .store
            .create_gateway(
                "GW-SILENT-01",
                "KEY12345",
                "deye-hybrid-1ph",
                domain::time::now_ms(),
            )
            .await
            .expect("gw");
        app.store
            .bind_gateway(
                silent,
                PlantId(w.plant),
                UserId(w.ann_id),
                None,
                domain::time::now_ms(),
            )
            .await
            .expect("bind");
        let quiet = app
            .store
            .upsert_device(
                "INV-SILENT-01",
                silent,
                DeviceFamily::Inverter,
                2,
                "deye-hybrid-1ph",
                "X",
                None,
                domain::time::now_ms(),
            )
            .await
            .expect("dev");
        fixtures::set_status(app, quiet.0, 1).await;
        let online = GatewayStatusUpdate {
            online: true,
            ..GatewayStatusUpdate::default()
        };
        app.store
            .update_gateway_status(silent, &online, domain::time::now_ms())
            .await
            .expect("online");
        let r = app
            .post(
                &format!("/api/v1/inverter/INV-SILENT-01/upgrade?firmId={fw}"),
                json!({}),
                Some(&w.ann),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["state"], "sending");
        assert_eq!(device_status(app, "INV-SILENT-01").await, 4);
        // The sweeper, run as if the deadline (15 minutes) had passed: the upgrade fails and the
        // inverter leaves Upgrading before anyone reads the progress.
        app.store
            .time_out_commands(domain::time::now_ms() + 16 * 60 * 1000)
            .await
            .expect("sweep");
        let ended = devices::link::sync_ended_upgrades(&app.store)
            .await
            .expect("sync");
        assert_eq!(ended, 1);
        assert_eq!(device_status(app, "INV-SILENT-01").await, 1);
        let p = app
            .get(
                "/api/v1/inverter/INV-SILENT-01/upgrade/progress",
                Some(&w.ann),
            )
            .await;
        p.expect_code(0);
        assert_eq!(p.data()["state"], "failed", "{}", p.text());
        assert!(
            p.data()["message"]
                .as_str()
                .is_some_and(|m| m.contains("timed out"))
        );
        assert_eq!(device_status(app, "INV-SILENT-01").await, 1);

        // Without the device link the portal cannot reach anything.
        let mut state = app.state.clone();
        state.commands = None;
        let unlinked = App {
            backend: app.backend,
            store: app.store.clone(),
            router: api::router(state.clone()),
            state,
            data_dir: app.data_dir.clone(),
        };
        fixtures::set_status(app, dev.id.0, 1).await;
        unlinked
            .post(
                &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
                json!({}),
                Some(&w.ann),
            )
            .await
            .expect_code(606);
    }
}
