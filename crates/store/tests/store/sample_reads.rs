//! Store contract for the monitoring reads: thinned day samples and the plant list's latest
//! samples with their gateway's upload cycle.

use domain::DeviceFamily;
use domain::ids::{DeviceId, GatewayId, PlantId};
use domain::user::UserKind;
use store::testing::{TestResult, each_backend};
use store::{
    Store,
    plants::PlantFields,
    telemetry::{GatewayStatusUpdate, SampleWrite, TelemetryBatch},
    users::NewUser,
};

/// A plant with one gateway and one inverter; answers (plant, gateway, inverter).
async fn setup(s: &Store) -> Result<(PlantId, GatewayId, DeviceId), Box<dyn std::error::Error>> {
    let owner = s
        .create_user(&NewUser {
            account: "sam@example.com",
            email: "sam@example.com",
            mobile: "",
            password_hash: "h",
            nickname: "Sam",
            kind: UserKind::Owner,
            company: None,
            role: None,
            user_src: "web",
            now: 1,
        })
        .await?;
    let fields = PlantFields {
        name: "Sam roof".into(),
        plant_type: 1,
        total_power: 5.0,
        join_date: "2024-01-01".into(),
        currency: "EUR".into(),
        timezone: "Europe/Madrid".into(),
        address: String::new(),
        lon: 0.0,
        lat: 40.0,
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
    let plant = s.create_plant(owner, None, owner, &fields, 1).await?;
    let gw = s.create_gateway("GWS1", "K", "", 1).await?;
    s.bind_gateway(gw, plant, owner, None, 1).await?;
    let inv = s
        .upsert_device("INVS1", gw, DeviceFamily::Inverter, 1, "", "", None, 1)
        .await?;
    Ok((plant, gw, inv))
}

#[tokio::test]
async fn a_day_read_keeps_the_first_sample_of_each_bucket_whatever_the_upload_rate() -> TestResult {
    each_backend(|s| async move {
        let (_, _, inv) = setup(&s).await?;
        // Ten minutes of reports every 5 s, starting 30 s into a minute.
        let start = 1_000_000 * 60_000 + 30_000;
        let samples = (0..120)
            .map(|i| SampleWrite {
                device_id: inv,
                ts: start + i * 5_000,
                payload: format!("{{\"i\":{i}}}"),
            })
            .collect();
        s.write_telemetry_batch(&TelemetryBatch {
            samples,
            energy: vec![],
        })
        .await?;
        let from = start - 30_000;
        let rows = s
            .samples_thinned(inv, from, from + 3_600_000, 60_000)
            .await?;
        let ts: Vec<i64> = rows.iter().map(|r| r.ts).collect();
        // Minute 0 starts with the first report (at :30), the others at :00 of their minute.
        let mut expected = vec![start];
        expected.extend((1..=10).map(|m| from + m * 60_000));
        assert_eq!(ts, expected);
        assert_eq!(rows[1].payload, "{\"i\":6}");
        // The range is half open and other devices' rows are not read.
        assert!(
            s.samples_thinned(inv, from, start, 60_000)
                .await?
                .is_empty()
        );
        assert!(
            s.samples_thinned(DeviceId(inv.0 + 1000), from, from + 3_600_000, 60_000)
                .await?
                .is_empty()
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_day_read_of_a_device_with_days_of_history_reads_only_that_day() -> TestResult {
    each_backend(|s| async move {
        let (_, _, inv) = setup(&s).await?;
        // Three days of reports every 5 minutes; the middle day is read in 10-minute buckets.
        const DAY: i64 = 86_400_000;
        let first = 20_000 * DAY;
        let samples = (0..3 * 288)
            .map(|i| SampleWrite {
                device_id: inv,
                ts: first + i * 300_000,
                payload: format!("{{\"i\":{i}}}"),
            })
            .collect();
        s.write_telemetry_batch(&TelemetryBatch {
            samples,
            energy: vec![],
        })
        .await?;
        let from = first + DAY;
        let rows = s.samples_thinned(inv, from, from + DAY, 600_000).await?;
        let ts: Vec<i64> = rows.iter().map(|r| r.ts).collect();
        let expected: Vec<i64> = (0..144).map(|b| from + b * 600_000).collect();
        assert_eq!(ts, expected);
        assert_eq!(rows[0].payload, "{\"i\":288}");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn the_plant_lists_latest_stamps_carry_their_gateways_upload_cycle_and_values_come_apart()
-> TestResult {
    each_backend(|s| async move {
        let (plant, gw, inv) = setup(&s).await?;
        s.write_telemetry_batch(&TelemetryBatch {
            samples: vec![SampleWrite {
                device_id: inv,
                ts: 5_000,
                payload: "{}".into(),
            }],
            energy: vec![],
        })
        .await?;
        let cycle = |rows: Vec<store::energy_reads::PlantDeviceStamp>| {
            rows.iter().map(|r| r.upload_cycle).collect::<Vec<_>>()
        };
        assert_eq!(cycle(s.plants_latest_stamps(&[plant]).await?), [300]);
        let latest = s.latest_samples(&[inv]).await?;
        assert_eq!(
            latest
                .iter()
                .map(|r| (r.ts, r.payload.as_str()))
                .collect::<Vec<_>>(),
            [(5_000, "{}")]
        );
        s.update_gateway_status(
            gw,
            &GatewayStatusUpdate {
                online: true,
                upload_cycle: Some(60),
                ..GatewayStatusUpdate::default()
            },
            6_000,
        )
        .await?;
        assert_eq!(cycle(s.plants_latest_stamps(&[plant]).await?), [60]);
        Ok(())
    })
    .await
}
