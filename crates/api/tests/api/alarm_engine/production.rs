//! The readings rules: `no_production` (and never at night), `string_low`, `cell_spread`,
//! `soh_falling` and `low_yield`, each opened by reports and closed on recovery.

use super::*;
use serde_json::json;

/// Reports every 5 minutes over the hour before `now`.
fn hour_before(now: i64) -> Vec<i64> {
    (0..=12).map(|k| now - 60 * MIN + k * 5 * MIN).collect()
}

#[tokio::test]
async fn no_production_at_noon_opens_a_case_that_production_closes() {
    for app in common::spawn().await {
        let w = world(&app).await;
        only(&app, &w, "no_production").await;
        let inv = device(&app, w.gateway, "INV-P1", DeviceFamily::Inverter).await;
        report(
            &app,
            inv,
            &hour_before(NOON),
            &json!({"pv1_power": 0, "pv2_power": 2}),
        )
        .await;
        heard(&app, &w.gateway_sn, NOON).await;
        assert_eq!(tick(&app, NOON).await.opened, 1, "[{}]", app.backend);
        let open = cases(&app, &w.admin, "kind=no_production").await;
        assert_eq!(open.len(), 1);
        assert_eq!(open[0]["deviceSn"], Value::Null);
        assert_eq!(open[0]["severity"], "alarm");
        assert_eq!(open[0]["value"], 2.0);
        assert!(open[0]["detail"]["sunElevation"].as_f64().expect("sun") > 60.0);

        report(&app, inv, &[NOON + MIN], &json!({"pv1_power": 1500})).await;
        heard(&app, &w.gateway_sn, NOON + MIN).await;
        assert_eq!(tick(&app, NOON + 2 * MIN).await.closed, 1);
        assert!(cases(&app, &w.admin, "state=open").await.is_empty());
    }
}

#[tokio::test]
async fn the_night_never_fires_no_production() {
    for app in common::spawn().await {
        let w = world(&app).await;
        only(&app, &w, "no_production").await;
        let inv = device(&app, w.gateway, "INV-N1", DeviceFamily::Inverter).await;
        report(&app, inv, &hour_before(MIDNIGHT), &json!({"pv1_power": 0})).await;
        heard(&app, &w.gateway_sn, MIDNIGHT).await;
        for k in 0..3 {
            assert_eq!(tick(&app, MIDNIGHT + k * 30_000).await.opened, 0);
        }
        assert!(
            cases(&app, &w.admin, "").await.is_empty(),
            "[{}]",
            app.backend
        );
    }
}

#[tokio::test]
async fn a_weak_string_opens_a_case_that_its_recovery_closes() {
    for app in common::spawn().await {
        let w = world(&app).await;
        only(&app, &w, "string_low").await;
        let inv = device(&app, w.gateway, "INV-STR", DeviceFamily::Inverter).await;
        let weak = json!({"pv1_power": 1000, "pv2_power": 980, "pv3_power": 300,
            "pv1_voltage": 320, "pv2_voltage": 318, "pv3_voltage": 300, "pv4_power": 0,
            "pv4_voltage": 0});
        report(&app, inv, &hour_before(NOON), &weak).await;
        heard(&app, &w.gateway_sn, NOON).await;
        assert_eq!(tick(&app, NOON).await.opened, 1, "[{}]", app.backend);
        let open = cases(&app, &w.admin, "kind=string_low").await;
        assert_eq!(open[0]["subject"], "INV-STR/pv3");
        assert_eq!(open[0]["value"], 300.0);

        let fine = json!({"pv1_power": 1000, "pv2_power": 980, "pv3_power": 990,
            "pv1_voltage": 320, "pv2_voltage": 318, "pv3_voltage": 319});
        report(&app, inv, &[NOON + MIN], &fine).await;
        assert_eq!(tick(&app, NOON + 2 * MIN).await.closed, 1);
    }
}

#[tokio::test]
async fn a_dead_string_opens_a_case_that_stays_over_the_night_and_its_repair_closes() {
    const DAY: i64 = 86_400_000;
    for app in common::spawn().await {
        let w = world(&app).await;
        only(&app, &w, "string_low").await;
        let inv = device(&app, w.gateway, "INV-DEAD", DeviceFamily::Inverter).await;
        // Yesterday pv3 produced; no string was ever wired to pv4.
        let fine = json!({"pv1_power": 1000, "pv2_power": 990, "pv3_power": 970,
            "pv4_power": 0, "pv1_voltage": 320, "pv2_voltage": 318, "pv3_voltage": 316,
            "pv4_voltage": 0});
        report(&app, inv, &[NOON - DAY], &fine).await;
        // Since this morning pv3 reads nothing at all (a blown fuse).
        let dead = json!({"pv1_power": 1000, "pv2_power": 980, "pv3_power": 0,
            "pv4_power": 0, "pv1_voltage": 320, "pv2_voltage": 318, "pv3_voltage": 0,
            "pv4_voltage": 0});
        report(&app, inv, &hour_before(NOON), &dead).await;
        heard(&app, &w.gateway_sn, NOON).await;
        assert_eq!(tick(&app, NOON).await.opened, 1, "[{}]", app.backend);
        let open = cases(&app, &w.admin, "kind=string_low").await;
        assert_eq!(open.len(), 1, "pv4 is no string: [{}]", app.backend);
        assert_eq!(open[0]["subject"], "INV-DEAD/pv3");
        assert_eq!(open[0]["value"], 0.0);
        assert_eq!(open[0]["detail"]["dead"], true);
        assert_eq!(open[0]["detail"]["lastProduced"], NOON - DAY);
        assert_eq!(open[0]["detail"]["siblingsMedianW"], 990.0);

        // The night: every input reads 0 V; the case waits.
        let night = json!({"pv1_power": 0, "pv2_power": 0, "pv3_power": 0, "pv4_power": 0,
            "pv1_voltage": 0, "pv2_voltage": 0, "pv3_voltage": 0, "pv4_voltage": 0});
        let midnight = NOON + DAY / 2;
        report(&app, inv, &[midnight], &night).await;
        heard(&app, &w.gateway_sn, midnight).await;
        let t = tick(&app, midnight + MIN).await;
        assert_eq!((t.opened, t.closed), (0, 0), "[{}]", app.backend);
        assert_eq!(cases(&app, &w.admin, "state=open").await.len(), 1);

        // Repaired the next morning: the case closes.
        report(&app, inv, &[NOON + DAY], &fine).await;
        heard(&app, &w.gateway_sn, NOON + DAY).await;
        assert_eq!(
            tick(&app, NOON + DAY + MIN).await.closed,
            1,
            "[{}]",
            app.backend
        );
        assert!(cases(&app, &w.admin, "state=open").await.is_empty());
    }
}

#[tokio::test]
async fn a_cell_spread_opens_a_case_that_balancing_closes() {
    for app in common::spawn().await {
        let w = world(&app).await;
        only(&app, &w, "cell_spread").await;
        let bat = device(&app, w.gateway, "BAT-C1", DeviceFamily::Battery).await;
        report(
            &app,
            bat,
            &[NOON],
            &json!({"cell_voltage_max": 3.45, "cell_voltage_min": 3.2}),
        )
        .await;
        assert_eq!(
            tick(&app, NOON + 30_000).await.opened,
            1,
            "[{}]",
            app.backend
        );
        let open = cases(&app, &w.admin, "kind=cell_spread").await;
        assert_eq!(
            (open[0]["value"].as_f64(), &open[0]["deviceSn"]),
            (Some(250.0), &json!("BAT-C1"))
        );
        assert_eq!(tick(&app, NOON + 60_000).await.opened, 0);

        report(
            &app,
            bat,
            &[NOON + 90_000],
            &json!({"cell_voltage_max": 3.4, "cell_voltage_min": 3.35}),
        )
        .await;
        assert_eq!(tick(&app, NOON + 100_000).await.closed, 1);
    }
}

#[tokio::test]
async fn a_falling_soh_opens_a_case_that_a_recovered_reading_closes() {
    for app in common::spawn().await {
        let w = world(&app).await;
        only(&app, &w, "soh_falling").await;
        let bat = device(&app, w.gateway, "BAT-H1", DeviceFamily::Battery).await;
        let month_ago = NOON - 30 * 86_400_000 - 12 * 3_600_000;
        report(&app, bat, &[month_ago], &json!({"soh": 97})).await;
        report(&app, bat, &[NOON], &json!({"soh": 90})).await;
        assert_eq!(
            tick(&app, NOON + 30_000).await.opened,
            1,
            "[{}]",
            app.backend
        );
        let open = cases(&app, &w.admin, "kind=soh_falling").await;
        assert_eq!(open[0]["value"], 90.0);

        report(&app, bat, &[NOON + MIN], &json!({"soh": 95})).await;
        assert_eq!(tick(&app, NOON + 2 * MIN).await.closed, 1);
    }
}

#[tokio::test]
async fn a_day_far_below_the_peers_opens_a_case_that_a_good_day_closes() {
    for app in common::spawn().await {
        let w = world(&app).await;
        only(&app, &w, "low_yield").await;
        let ann = app
            .store
            .user_by_account("ann@example.com")
            .await
            .expect("read")
            .expect("ann")
            .id();
        let mut plants = vec![(w.plant, w.gateway)];
        for n in 0..3 {
            let p = plant(&app, ann, w.company, &format!("Peer {n}")).await;
            let g = gateway(&app, p, ann, w.company, &format!("GWPEER{n}")).await;
            plants.push((p, g));
        }
        let mut inverters = Vec::new();
        for (n, (_, g)) in plants.iter().enumerate() {
            inverters.push(device(&app, *g, &format!("INV-Y{n}"), DeviceFamily::Inverter).await);
        }
        let day = |date: &str, kwh: [f64; 4]| TelemetryBatch {
            samples: Vec::new(),
            energy: (0..4)
                .map(|n| fixtures::energy(inverters[n].0, plants[n].0.0, date, "pv", kwh[n]))
                .collect(),
        };
        // Madrid's yesterday at NOON is 2027-06-20: the first plant gave a fifth of the others.
        app.store
            .write_telemetry_batch(&day("2027-06-20", [8.0, 40.0, 42.0, 38.0]))
            .await
            .expect("energy");
        assert_eq!(tick(&app, NOON).await.opened, 1, "[{}]", app.backend);
        let open = cases(&app, &w.admin, "kind=low_yield").await;
        assert_eq!(open[0]["plantId"], w.plant.0);
        assert_eq!(open[0]["detail"]["basis"], "peers");
        assert_eq!(open[0]["value"], 80.0);

        app.store
            .write_telemetry_batch(&day("2027-06-21", [39.0, 40.0, 42.0, 38.0]))
            .await
            .expect("energy");
        assert_eq!(tick(&app, NOON + 86_400_000).await.closed, 1);
    }
}
