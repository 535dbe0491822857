//! Combiner boxes through ingest on every backend: the reading is stored, its energy feeds the
//! box's PV day row without adding to the plant's inverter PV, a weak string opens CB04 (the
//! device turns Warning) and closes when the strings are even again, and night leaves it alone.

use crate::ingest_common;

use chrono::Utc;
use devices::{
    ingest::refresh_statuses,
    report::{GatewayStatus, Item},
};
use ingest_common::*;
use store::{
    events::EventFilter,
    telemetry::DayRange,
    testing::{TestResult, each_backend},
};

/// A combiner reading with these string currents (A) at 640 V and `today` kWh.
fn combiner(currents: &[f64], today: f64) -> devices::report::DeviceReading {
    let keys: Vec<(String, f64)> = currents
        .iter()
        .enumerate()
        .flat_map(|(i, a)| {
            [
                (format!("string{}_current", i + 1), *a),
                (format!("string{}_voltage", i + 1), 640.0),
            ]
        })
        .chain([
            ("power".to_string(), currents.iter().sum::<f64>() * 640.0),
            ("status_word".to_string(), 0.0),
            ("today_energy".to_string(), today),
        ])
        .collect();
    let pairs: Vec<(&str, f64)> = keys.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    reading("CMB1", "combiner", &pairs)
}

#[tokio::test]
async fn combiner_readings_are_stored_and_a_weak_string_warns_until_it_recovers() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        let plant = plant_with_gateway(&s, ann, "UTC", "GWC").await?;
        let (ingest, tx) = spawn(&s);
        let now = Utc::now().timestamp_millis();
        let online = GatewayStatus {
            v: 1,
            online: true,
            soft_ver: None,
            hard_ver: None,
            signal: None,
            comm_type: None,
            upload_cycle: Some(60),
        };
        submit(&tx, "GWC", Item::Status(online)).await??;
        let weak = [8.0, 8.1, 3.0, 7.9, 8.2, 8.0, 7.8, 8.1];
        telemetry(
            &tx,
            "GWC",
            now - 90_000,
            vec![
                combiner(&weak, 12.5),
                reading("INVC", "inverter", &[("today_pv_energy", 30.0)]),
            ],
        )
        .await?;
        let cmb = s.device_by_sn("CMB1").await?.ok_or("combiner")?;
        assert_eq!(cmb.family, devices::DeviceFamily::Combiner);
        let latest = s.latest_sample(cmb.id).await?.ok_or("sample")?;
        assert!(latest.payload.contains("\"string3_current\":3"));

        let today = DayRange::day(&Utc::now().format("%Y-%m-%d").to_string());
        assert_eq!(kwh(&s.device_energy(cmb.id, &today).await?, "pv"), 12.5);
        assert_eq!(
            kwh(&s.plant_energy(plant, &today).await?, "pv"),
            30.0,
            "the inverter's PV wins; the box's DC energy is not added"
        );

        let open = EventFilter {
            device: Some(cmb.id),
            open_only: true,
            limit: 10,
            ..EventFilter::default()
        };
        let codes = |events: Vec<store::events::EventRow>| {
            events.into_iter().map(|e| e.code).collect::<Vec<_>>()
        };
        assert_eq!(codes(s.events(&open).await?.0), vec!["CB04"]);
        refresh_statuses(&s, now).await?;
        assert_eq!(s.device_by_sn("CMB1").await?.ok_or("combiner")?.status, 2);

        // Night: too little current to judge, the event stays open.
        telemetry(&tx, "GWC", now - 60_000, vec![combiner(&[0.1; 8], 12.5)]).await?;
        assert_eq!(codes(s.events(&open).await?.0), vec!["CB04"]);

        // Even strings again: it closes and the box is Normal.
        telemetry(&tx, "GWC", now - 30_000, vec![combiner(&[8.0; 8], 13.0)]).await?;
        assert!(s.events(&open).await?.0.is_empty());
        refresh_statuses(&s, now).await?;
        assert_eq!(s.device_by_sn("CMB1").await?.ok_or("combiner")?.status, 1);
        drop(tx);
        ingest.join().await;
        Ok(())
    })
    .await
}
