//! One inverter's upgrade: progress to its end, cancel where the model supports it, and the
//! end of an upgrade whose gateway goes away.

use super::*;

#[tokio::test]
async fn an_upgrade_reports_progress_to_its_end_and_the_inverter_runs_the_new_version() {
    for app in spawn().await {
        let w = world(app).await;
        let app = &w.app;
        let fw = firmware(app, &w.admin, Some(2), "V2_0").await;
        let other_type = firmware(app, &w.admin, Some(94), "V7").await;
        let sn = &w.fleet[0].devices[0].sn;

        // The firmware must be enabled for the inverter's type.
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={other_type}"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(4);
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId="),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(4);
        let none = app
            .get(
                &format!("/api/v1/inverter/{sn}/upgrade/progress"),
                Some(&w.ann),
            )
            .await;
        none.expect_code(0);
        assert!(none.data().is_null());

        let r = app
            .post(
                &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
                json!({}),
                Some(&w.ann),
            )
            .await;
        r.expect_code(0);
        check_upgrade(r.data(), sn);
        assert_eq!(r.data()["target"], "inverter");
        assert_eq!(r.data()["version"], "V2_0");
        assert_eq!(r.data()["firmId"], fw);
        assert!(r.data()["finishTime"].is_null());
        // Upgrading while it runs; a second start and a cancel are refused.
        assert_eq!(device_status(app, sn).await, 4, "{}", app.backend);
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(603);
        app.post(
            &format!("/api/v1/inverter/{sn}/cutUpgrade"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(608);
        let list = app
            .get(&format!("/api/v1/inverters?sn={sn}&status=4"), Some(&w.ann))
            .await;
        assert_eq!(list.data()["total"], 1, "{}", list.text());

        let (done, seen) = until_final(
            app,
            &w.ann,
            &format!("/api/v1/inverter/{sn}/upgrade/progress"),
        )
        .await;
        check_upgrade(&done, sn);
        assert!(done["finishTime"].is_string());
        assert!(
            seen.iter()
                .any(|(s, p)| (s == "sending" || s == "upgrading") && *p > 0 && *p < 100),
            "no progress seen: {seen:?}"
        );
        let progress: Vec<i64> = seen.iter().map(|(_, p)| *p).collect();
        assert!(
            progress.windows(2).all(|w| w[0] <= w[1]),
            "progress went back: {seen:?}"
        );
        let device = app
            .store
            .device_by_sn(sn)
            .await
            .expect("device")
            .expect("known");
        assert_ne!(device.status, 4, "still upgrading");
        match done["state"].as_str() {
            Some("successful") => {
                assert_eq!(done["progress"], 100);
                let versions: Value = serde_json::from_str(&device.versions).expect("versions");
                assert_eq!(versions["softVer"], "V2_0");
            }
            // One simulated upgrade in ten fails its checksum.
            Some("failed") => assert_eq!(done["message"], "firmware checksum mismatch"),
            other => panic!("unexpected end {other:?}"),
        }

        // Every step is in the audit log.
        let audit = app
            .get("/api/v1/audit?action=inverter.upgrade", Some(&w.ann))
            .await;
        audit.expect_code(0);
        let entries = audit.data()["infos"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(entries.len() >= 2, "{}", audit.text());
    }
}

#[tokio::test]
async fn cancel_stops_upgrades_on_models_that_support_it_only() {
    for app in spawn().await {
        let w = world(app).await;
        let app = &w.app;
        let fw = firmware(app, &w.admin, Some(94), "V5").await;
        let sn = &w.fleet[1].devices[0].sn;
        app.post(
            &format!("/api/v1/inverter/{sn}/cutUpgrade"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(4);
        app.post(
            &format!("/api/v1/inverter/{sn}/upgrade?firmId={fw}"),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(0);
        // The device says it can stop in its first progress report.
        let uri = format!("/api/v1/inverter/{sn}/upgrade/progress");
        let until = tokio::time::Instant::now() + WAIT;
        loop {
            let u = app.get(&uri, Some(&w.ann)).await;
            if u.data()["cancellable"] == true {
                break;
            }
            assert!(
                tokio::time::Instant::now() < until,
                "never cancellable: {}",
                u.text()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let c = app
            .post(
                &format!("/api/v1/inverter/{sn}/cutUpgrade"),
                json!({}),
                Some(&w.ann),
            )
            .await;
        c.expect_code(0);
        assert_eq!(c.data()["cancelRequested"], true);
        check_upgrade(&c.data()["upgrade"], sn);
        let (done, _) = until_final(app, &w.ann, &uri).await;
        assert_eq!(done["state"], "cancelled", "{done}");
        assert_eq!(done["cancellable"], false);
        assert_ne!(device_status(app, sn).await, 4);
    }
}

/// Issue 13: an upgrade whose gateway goes away (here it restarts: silent, no goodbye, as
/// after a power cut) ends as failed with the reason within seconds, not at its 15-minute
/// deadline, and the inverter shows Offline rather than Upgrading.
#[tokio::test]
async fn an_upgrade_whose_gateway_goes_away_fails_within_seconds_with_the_reason() {
    for app in spawn().await {
        let w = world(app).await;
        let app = &w.app;
        // A gateway of its own that reports every second and takes two minutes per upgrade.
        let spec = demo_fleet(8, 11).remove(5);
        register(app, w.plant, w.ann_id, &spec).await;
        let inverter = spec.devices[0].clone();
        let fw = firmware(app, &w.admin, Some(inverter.type_code), "V9_1").await;
        let opts = RunOptions {
            broker: Broker {
                host: "127.0.0.1".into(),
                port: w._link.broker_addr().expect("broker").port(),
            },
            interval: Duration::from_secs(1),
            upload_cycle_secs: 1,
            reboot: Duration::from_secs(120),
        };
        let slow = UpgradeTiming {
            min: Duration::from_secs(120),
            max: Duration::from_secs(120),
            report_every: Duration::from_millis(200),
        };
        let configs = Arc::new(devices::protocol::shipped().expect("configs"));
        let (stop, stop_rx) = watch::channel(false);
        let task = tokio::spawn(run_with(
            SimGateway::new(spec.clone()),
            configs,
            opts,
            slow,
            stop_rx,
        ));
        wait_online(&app.store, &spec.sn, WAIT).await;
        // What ingest records of its status (this test's stand-in for ingest keeps less).
        let gid = app
            .store
            .gateway_by_sn(&spec.sn)
            .await
            .expect("gw")
            .expect("known")
            .id;
        let cycle = GatewayStatusUpdate {
            online: true,
            upload_cycle: Some(1),
            ..GatewayStatusUpdate::default()
        };
        app.store
            .update_gateway_status(gid, &cycle, domain::time::now_ms())
            .await
            .expect("cycle");
        let dev = app
            .store
            .device_by_sn(&inverter.sn)
            .await
            .expect("device")
            .expect("known");
        fixtures::set_status(app, dev.id.0, 1).await;

        let progress = format!("/api/v1/inverter/{}/upgrade/progress", inverter.sn);
        app.post(
            &format!("/api/v1/inverter/{}/upgrade?firmId={fw}", inverter.sn),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(0);
        // Under way: the device reports progress.
        let until = tokio::time::Instant::now() + WAIT;
        loop {
            let r = app.get(&progress, Some(&w.ann)).await;
            if r.data()["progress"].as_i64().unwrap_or(0) > 0 {
                assert_eq!(r.data()["reason"], Value::Null);
                break;
            }
            assert!(tokio::time::Instant::now() < until, "{}", r.text());
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // The status job, as `portal serve` runs it.
        let job = tokio::spawn(devices::ingest::status::run_refresher(app.store.clone()));
        let r = app
            .post(
                &format!("/api/v1/gateway/{}/restart", spec.sn),
                json!({}),
                Some(&w.ann),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["succeeded"], 1, "{}", r.text());
        let gone = tokio::time::Instant::now();

        let (done, _) = {
            let until = gone + Duration::from_secs(40);
            loop {
                let r = app.get(&progress, Some(&w.ann)).await;
                let u = r.data().clone();
                if u["state"] != "sending" && u["state"] != "upgrading" {
                    break (u, ());
                }
                assert!(tokio::time::Instant::now() < until, "still running: {u}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        };
        let took = gone.elapsed();
        check_upgrade(&done, &inverter.sn);
        assert_eq!(done["state"], "failed", "{done}");
        assert_eq!(done["reason"], "gatewayOffline", "{done}");
        assert_eq!(done["message"], devices::link::GATEWAY_GONE);
        assert!(
            done["progress"].as_i64().unwrap_or(0) > 0,
            "where it stopped"
        );
        assert!(took < Duration::from_secs(25), "{took:?}");
        assert!(took >= devices::link::UPGRADE_GATEWAY_GONE_AFTER);
        // The gateway is offline; its inverter shows Offline, not Upgrading.
        let g = app
            .store
            .gateway_by_sn(&spec.sn)
            .await
            .expect("gw")
            .expect("known");
        assert!(!g.online);
        assert_eq!(device_status(app, &inverter.sn).await, 0);
        job.abort();
        let _ = stop.send(true);
        task.abort();
    }
}
