//! `device_silent`: warning, then alarm, then closed when the device reports again; a whole
//! site dropping offline opens no case per device.

use super::*;

#[tokio::test]
async fn a_silent_device_warns_then_alarms_and_closes_when_it_reports_again() {
    for app in common::spawn().await {
        let w = world(&app).await;
        only(&app, &w, "device_silent").await;
        let inv = device(&app, w.gateway, "INV-S1", DeviceFamily::Inverter).await;
        let t0 = NOON;
        report(&app, inv, &[t0], &serde_json::json!({"pv1_power": 1000})).await;
        heard(&app, &w.gateway_sn, t0).await;
        assert_eq!(tick(&app, t0 + MIN).await.opened, 0);

        // Three missed cycles (the gateway still talks): a warning.
        let t = t0 + 3 * CYCLE * 1000;
        heard(&app, &w.gateway_sn, t - 1000).await;
        assert_eq!(tick(&app, t).await.opened, 1, "[{}]", app.backend);
        let open = cases(&app, &w.admin, "kind=device_silent").await;
        assert_eq!(open.len(), 1);
        assert_eq!(open[0]["severity"], "warning");
        assert_eq!(open[0]["state"], "open");
        assert_eq!(open[0]["deviceSn"], "INV-S1");
        assert_eq!(open[0]["value"], 3.0);
        // Another tick: the same case, no second one.
        assert_eq!(tick(&app, t + 30_000).await.opened, 0);
        assert_eq!(cases(&app, &w.admin, "").await.len(), 1);

        // Six: an alarm, the same case.
        let t2 = t0 + 6 * CYCLE * 1000;
        heard(&app, &w.gateway_sn, t2 - 1000).await;
        assert_eq!(tick(&app, t2).await.escalated, 1);
        let open = cases(&app, &w.admin, "severity=alarm").await;
        assert_eq!(open.len(), 1);
        let id = open[0]["id"].as_i64().expect("id");

        // It reports again: closed, with its history.
        report(
            &app,
            inv,
            &[t2 + 10_000],
            &serde_json::json!({"pv1_power": 900}),
        )
        .await;
        heard(&app, &w.gateway_sn, t2 + 10_000).await;
        assert_eq!(tick(&app, t2 + 20_000).await.closed, 1);
        let detail = app
            .get(&format!("/api/v1/alarm/case/{id}"), Some(&w.ann))
            .await;
        detail.expect_code(0);
        assert_eq!(detail.data()["case"]["state"], "closed");
        assert!(detail.data()["case"]["closedAt"].is_string());
        let actions: Vec<&str> = detail.data()["history"]
            .as_array()
            .expect("history")
            .iter()
            .filter_map(|h| h["action"].as_str())
            .collect();
        assert_eq!(
            actions,
            ["opened", "escalated", "closed"],
            "[{}]",
            app.backend
        );
        assert!(cases(&app, &w.admin, "state=open").await.is_empty());
    }
}

#[tokio::test]
async fn a_site_whose_gateway_is_offline_opens_no_case_per_device() {
    for app in common::spawn().await {
        let w = world(&app).await;
        only(&app, &w, "device_silent").await;
        let t0 = NOON;
        for (sn, family) in [
            ("INV-A", DeviceFamily::Inverter),
            ("INV-B", DeviceFamily::Inverter),
            ("BAT-A", DeviceFamily::Battery),
            ("MTR-A", DeviceFamily::Meter),
        ] {
            let d = device(&app, w.gateway, sn, family).await;
            report(&app, d, &[t0], &serde_json::json!({"soc": 50})).await;
        }
        heard(&app, &w.gateway_sn, t0).await;
        app.store
            .set_gateway_silent(w.gateway, Some(t0), t0 + 1)
            .await
            .expect("offline");
        let t = tick(&app, t0 + 60 * MIN).await;
        assert_eq!((t.opened, t.rules), (0, 1), "[{}]", app.backend);
        assert!(cases(&app, &w.admin, "").await.is_empty());
        // Still talking but stale (no message for 2.5 cycles) counts as offline too.
        heard(&app, &w.gateway_sn, t0 + 61 * MIN).await;
        assert_eq!(tick(&app, t0 + 120 * MIN).await.opened, 0);
    }
}

/// The bound of docs/alarms.md: with the engine ticking every 30 s, a silent device's warning
/// opens between N upload cycles and N cycles plus one tick after its last report.
#[tokio::test]
async fn a_warning_opens_within_n_cycles_and_one_tick_of_the_last_report() {
    for app in common::spawn().await {
        let w = world(&app).await;
        only(&app, &w, "device_silent").await;
        let inv = device(&app, w.gateway, "INV-B1", DeviceFamily::Inverter).await;
        let last = NOON + 7_000;
        report(&app, inv, &[last], &serde_json::json!({"pv1_power": 800})).await;
        let tick_ms = jobs::alarm_engine::EVERY.as_millis() as i64;
        let mut at = NOON;
        let opened_at = loop {
            at += tick_ms;
            heard(&app, &w.gateway_sn, at - 1000).await;
            if tick(&app, at).await.opened > 0 {
                break at;
            }
            assert!(at < NOON + 3_600_000, "no case within an hour");
        };
        let delay = opened_at - last;
        eprintln!(
            "[{}] device_silent warning {} s after the last report (3 cycles of {CYCLE} s = {} s, tick {} s)",
            app.backend,
            delay / 1000,
            3 * CYCLE,
            tick_ms / 1000
        );
        assert!(delay >= 3 * CYCLE * 1000 && delay <= 3 * CYCLE * 1000 + tick_ms);
    }
}
