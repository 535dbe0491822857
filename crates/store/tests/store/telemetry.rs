//! Store contract for telemetry: samples, latest values, energy rollups and events.

use domain::DeviceFamily;
use domain::ids::{DeviceId, PlantId};
use domain::user::UserKind;
use store::testing::{TestResult, each_backend};
use store::{
    Store,
    events::EventFilter,
    plants::PlantFields,
    telemetry::{Bucket, CounterKind, DayRange, EnergyWrite, SampleWrite, TelemetryBatch},
    users::NewUser,
};

/// A plant with a gateway and two devices; answers (plant, inverter, meter).
async fn setup(s: &Store) -> Result<(PlantId, DeviceId, DeviceId), Box<dyn std::error::Error>> {
    let ann = s
        .create_user(&NewUser {
            account: "ann@example.com",
            email: "ann@example.com",
            mobile: "",
            password_hash: "h",
            nickname: "Ann",
            kind: UserKind::Owner,
            company: None,
            role: None,
            user_src: "web",
            now: 1,
        })
        .await?;
    let fields = PlantFields {
        name: "Ann home".into(),
        plant_type: 2,
        total_power: 5.0,
        join_date: "2024-01-01".into(),
        currency: "EUR".into(),
        timezone: "Asia/Shanghai".into(),
        address: String::new(),
        lon: 0.0,
        lat: 30.0,
        image_url: String::new(),
        thumb_url: String::new(),
        principal: String::new(),
        phone: String::new(),
        email: String::new(),
        installer: String::new(),
        invest: 0.0,
        tilt: None,
        azimuth: None,
    };
    let plant = s.create_plant(ann, None, ann, &fields, 1).await?;
    let gw = s.create_gateway("GW1", "K", "", 1).await?;
    s.bind_gateway(gw, plant, ann, None, 1).await?;
    let inv = s
        .upsert_device("INV1", gw, DeviceFamily::Inverter, 2, "", "", None, 1)
        .await?;
    let met = s
        .upsert_device("MET1", gw, DeviceFamily::Meter, 0, "", "", None, 1)
        .await?;
    Ok((plant, inv, met))
}

fn sample(device: DeviceId, ts: i64, v: f64) -> SampleWrite {
    SampleWrite {
        device_id: device,
        ts,
        payload: format!("{{\"p\":{v}}}"),
    }
}

fn energy(
    device: DeviceId,
    plant: PlantId,
    day: &str,
    metric: &str,
    v: f64,
    kind: CounterKind,
    rank: i64,
) -> EnergyWrite {
    EnergyWrite {
        device_id: device,
        plant_id: Some(plant),
        day: day.into(),
        metric: metric.into(),
        value: v,
        kind,
        rank,
    }
}

fn kwh(rows: &[store::telemetry::EnergyTotal], metric: &str) -> f64 {
    rows.iter()
        .find(|r| r.metric == metric)
        .map_or(0.0, |r| r.kwh)
}

#[tokio::test]
async fn samples_are_stored_once_and_latest_never_goes_back_in_time() -> TestResult {
    each_backend(|s| async move {
        let (plant, inv, met) = setup(&s).await?;
        let batch = TelemetryBatch {
            samples: vec![
                sample(inv, 2000, 2.0),
                sample(inv, 1000, 1.0),
                sample(inv, 2000, 2.0),
                sample(met, 1500, 5.0),
            ],
            energy: vec![],
        };
        assert_eq!(s.write_telemetry_batch(&batch).await?, 3);
        assert_eq!(s.write_telemetry_batch(&batch).await?, 0);
        let late = TelemetryBatch {
            samples: vec![sample(inv, 500, 0.5)],
            energy: vec![],
        };
        s.write_telemetry_batch(&late).await?;
        let latest = s.latest_sample(inv).await?.ok_or("no latest")?;
        assert_eq!((latest.ts, latest.payload.as_str()), (2000, "{\"p\":2}"));
        assert_eq!(
            s.samples(inv, 0, 10_000, 10)
                .await?
                .iter()
                .map(|r| r.ts)
                .collect::<Vec<_>>(),
            vec![500, 1000, 2000]
        );
        assert_eq!(s.plant_latest_samples(plant).await?.len(), 2);
        let dev = s.device_by_sn("INV1").await?.ok_or("gone")?;
        assert_eq!(
            (dev.last_seen, dev.online, dev.status),
            (Some(2000), true, 1)
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn day_energy_keeps_the_highest_daily_counter_and_the_lifetime_span() -> TestResult {
    each_backend(|s| async move {
        let (plant, inv, met) = setup(&s).await?;
        let d = "2024-05-02";
        let write = |e: Vec<EnergyWrite>| {
            let s = s.clone();
            async move {
                s.write_telemetry_batch(&TelemetryBatch {
                    samples: vec![],
                    energy: e,
                })
                .await
            }
        };
        use CounterKind::{Daily, Lifetime};
        write(vec![
            energy(inv, plant, d, "pv", 3.0, Daily, 0),
            energy(inv, plant, d, "pv", 5.0, Daily, 0),
            energy(met, plant, d, "grid_import", 100.0, Lifetime, 1),
        ])
        .await?;
        write(vec![
            energy(inv, plant, d, "pv", 4.0, Daily, 0),
            energy(met, plant, d, "grid_import", 103.5, Lifetime, 1),
            energy(met, plant, d, "grid_import", 101.0, Lifetime, 1),
        ])
        .await?;
        write(vec![energy(
            met,
            plant,
            d,
            "grid_import",
            99.5,
            Lifetime,
            1,
        )])
        .await?;
        let day = DayRange::day(d);
        assert_eq!(kwh(&s.device_energy(inv, &day).await?, "pv"), 5.0);
        assert_eq!(kwh(&s.device_energy(met, &day).await?, "grid_import"), 4.0);
        let p = s.plant_energy(plant, &day).await?;
        assert_eq!((kwh(&p, "pv"), kwh(&p, "grid_import")), (5.0, 4.0));
        // Parts of a sum (ingest's intervals) add up, in a batch and across batches.
        use CounterKind::Sum;
        write(vec![
            energy(inv, plant, d, "grid_charge", 0.25, Sum, 0),
            energy(inv, plant, d, "grid_charge", 0.5, Sum, 0),
        ])
        .await?;
        write(vec![energy(inv, plant, d, "grid_charge", 1.0, Sum, 0)]).await?;
        assert_eq!(kwh(&s.device_energy(inv, &day).await?, "grid_charge"), 1.75);
        assert_eq!(
            kwh(&s.plant_energy(plant, &day).await?, "grid_charge"),
            1.75
        );
        // An inverter reading of the same metric outranks the meter inside the plant.
        write(vec![energy(inv, plant, d, "grid_import", 3.0, Daily, 0)]).await?;
        assert_eq!(kwh(&s.plant_energy(plant, &day).await?, "grid_import"), 3.0);
        // Other days, months and years add up.
        write(vec![
            energy(inv, plant, "2024-05-30", "pv", 2.0, Daily, 0),
            energy(inv, plant, "2024-06-01", "pv", 1.0, Daily, 0),
            energy(inv, plant, "2025-01-01", "pv", 7.0, Daily, 0),
        ])
        .await?;
        assert_eq!(
            kwh(
                &s.plant_energy(plant, &DayRange::month(2024, 5)).await?,
                "pv"
            ),
            7.0
        );
        assert_eq!(
            kwh(&s.plant_energy(plant, &DayRange::year(2024)).await?, "pv"),
            8.0
        );
        assert_eq!(
            kwh(&s.plant_energy(plant, &DayRange::total()).await?, "pv"),
            15.0
        );
        assert_eq!(
            kwh(&s.device_energy(inv, &DayRange::total()).await?, "pv"),
            15.0
        );
        // A list page's reads agree with the one-device reads (the meter has no pv rows).
        let totals = s.devices_energy_total(&[inv, met], "pv").await?;
        let totals: Vec<_> = totals.iter().map(|t| (t.device_id, t.kwh)).collect();
        assert_eq!(totals, [(inv, 15.0)]);
        let days = s
            .devices_energy_since(&[inv, met], "pv", "2024-06-01")
            .await?;
        let days: Vec<_> = days.iter().map(|d| (d.day.as_str(), d.kwh)).collect();
        assert_eq!(days, [("2024-06-01", 1.0), ("2025-01-01", 7.0)]);
        let months = s
            .plant_energy_series(plant, &DayRange::year(2024), Bucket::Month)
            .await?;
        let pv: Vec<(String, f64)> = months
            .into_iter()
            .filter(|p| p.metric == "pv")
            .map(|p| (p.bucket, p.kwh))
            .collect();
        assert_eq!(
            pv,
            vec![("2024-05".to_string(), 7.0), ("2024-06".to_string(), 1.0)]
        );
        let years = s
            .device_energy_series(inv, &DayRange::total(), Bucket::Year)
            .await?;
        assert_eq!(years.iter().filter(|p| p.metric == "pv").count(), 2);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn one_event_per_code_is_open_at_a_time() -> TestResult {
    each_backend(|s| async move {
        let (plant, inv, _) = setup(&s).await?;
        assert!(s.open_event(inv, Some(plant), "F35", "fault", 10).await?);
        assert!(!s.open_event(inv, Some(plant), "F35", "fault", 11).await?);
        assert!(s.open_event(inv, Some(plant), "W02", "warning", 12).await?);
        assert!(
            s.close_event(inv, "F35", 5).await?,
            "closing before opening is clamped"
        );
        assert!(!s.close_event(inv, "F35", 20).await?);
        assert!(s.open_event(inv, Some(plant), "F35", "fault", 30).await?);
        let (all, total) = s
            .events(&EventFilter {
                plant: Some(plant),
                limit: 2,
                ..EventFilter::default()
            })
            .await?;
        assert_eq!((all.len(), total), (2, 3));
        assert_eq!(all[0].opened_at, 30);
        let (open, _) = s
            .events(&EventFilter {
                device: Some(inv),
                open_only: true,
                limit: 10,
                ..EventFilter::default()
            })
            .await?;
        assert_eq!(open.len(), 2);
        let (closed, _) = s
            .events(&EventFilter {
                device: Some(inv),
                from: Some(10),
                to: Some(11),
                limit: 10,
                ..EventFilter::default()
            })
            .await?;
        assert_eq!(closed[0].closed_at, Some(10));
        let inputs = s.device_status_inputs().await?;
        let i = inputs.iter().find(|d| d.id == inv).ok_or("no input")?;
        assert_eq!((i.worst_event, i.upload_cycle), (2, 300));
        s.apply_statuses(&[(inv, 3, true)], &[(plant, 3)]).await?;
        assert_eq!(s.plant_statuses().await?, vec![(plant, 3)]);
        Ok(())
    })
    .await
}
