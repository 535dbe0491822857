//! What ingest leaves out of a message, on every backend: a bad value or an unusable device
//! reading is skipped alone, a device of another gateway is skipped alone, and a gateway
//! registers at most `MAX_DEVICES_PER_GATEWAY` devices; the rest of each message is stored.

use crate::ingest_common;

use chrono::Utc;
use devices::ingest::{MAX_DEVICES_PER_GATEWAY, skipped::Reason};
use domain::user::UserKind;
use ingest_common::*;
use store::testing::{TestResult, each_backend, new_user};

fn stored_payload(rows: &[store::telemetry::SampleRow]) -> Option<&str> {
    rows.first().map(|r| r.payload.as_str())
}

#[tokio::test]
async fn a_bad_value_or_an_unusable_device_is_left_out_and_the_rest_is_stored() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        plant_with_gateway(&s, ann, "UTC", "GW1").await?;
        let (ingest, tx) = spawn(&s);
        let ts = Utc::now().timestamp_millis() - 60_000;
        let good = r#"{"pv1_power": 900,  "today_pv_energy":4.5,"serial":"A\u00e9"}"#;
        // The three values of the security review, next to good ones.
        let bad = format!(
            r#"{{"pv1_power":800,"serial":"{}","{}":1,"cfg":{{"a":[1]}},"today_pv_energy":3.5}}"#,
            "x".repeat(300),
            "k".repeat(65)
        );
        let json = format!(
            r#"{{"v":1,"ts":{ts},"devices":[
                {{"sn":"INV1","family":"inverter","values":{good}}},
                {{"sn":"INV2","family":"inverter","values":{bad}}},
                {{"sn":"FRIDGE1","family":"fridge","values":{{"t":4}}}},
                {{"sn":"INV3","family":"inverter","values":[1,2]}},
                {{"sn":"MET1","family":"meter","values":{{"power":12}}}}]}}"#
        );
        telemetry_text(&tx, "GW1", &json).await?;

        let samples = |sn: &'static str| {
            let s = s.clone();
            async move {
                let id = s.device_by_sn(sn).await?.ok_or(sn)?.id;
                Ok::<_, Box<dyn std::error::Error>>(s.samples(id, 0, i64::MAX, 10).await?)
            }
        };
        let inv1 = samples("INV1").await?;
        assert_eq!(stored_payload(&inv1), Some(good), "stored as sent");
        let inv2 = samples("INV2").await?;
        assert_eq!(
            stored_payload(&inv2),
            Some(r#"{"pv1_power":800,"today_pv_energy":3.5}"#)
        );
        assert_eq!(samples("MET1").await?.len(), 1);
        assert!(s.device_by_sn("FRIDGE1").await?.is_none());
        assert!(s.device_by_sn("INV3").await?.is_none());
        // The reading that lost values still feeds energy.
        let inv2_id = s.device_by_sn("INV2").await?.ok_or("INV2")?.id;
        let day = store::telemetry::DayRange::total();
        let energy = s.device_energy(inv2_id, &day).await?;
        assert!(energy.iter().any(|e| e.metric == "pv" && e.kwh == 3.5));

        assert_eq!(ingest.skipped(Reason::TextTooLong), 1);
        assert_eq!(ingest.skipped(Reason::BadKey), 1);
        assert_eq!(ingest.skipped(Reason::NotAScalar), 1);
        assert_eq!(ingest.skipped(Reason::UnknownFamily), 1);
        assert_eq!(ingest.skipped(Reason::UnreadableValues), 1);
        drop(tx);
        ingest.join().await;
        Ok(())
    })
    .await
}

/// Security review, finding 4: a gateway reported another tenant's SN before its rightful
/// gateway did. The rightful gateway's message with that SN and its other devices stores its
/// other devices; the squatted reading alone is skipped and counted.
#[tokio::test]
async fn a_squatted_serial_is_skipped_alone_and_the_rightful_gateways_devices_are_stored()
-> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        let bob = s
            .create_user(&new_user("bob@example.com", UserKind::Owner))
            .await?;
        plant_with_gateway(&s, ann, "UTC", "GWANN").await?;
        let bob_plant = plant_with_gateway(&s, bob, "UTC", "GWBOB").await?;
        let (ingest, tx) = spawn(&s);
        let ts = Utc::now().timestamp_millis() - 60_000;
        let squat = vec![reading("BOBINV1", "inverter", &[("pv1_power", 1.0)])];
        telemetry(&tx, "GWANN", ts, squat).await?;

        let own = vec![
            reading("BOBINV1", "inverter", &[("pv1_power", 2.0)]),
            reading("BOBINV2", "inverter", &[("pv1_power", 3.0)]),
            reading("BOBMET1", "meter", &[("power", 4.0)]),
        ];
        telemetry(&tx, "GWBOB", ts, own).await?;
        for sn in ["BOBINV2", "BOBMET1"] {
            let d = s.device_by_sn(sn).await?.ok_or(sn)?;
            assert_eq!(d.plant_id, Some(bob_plant), "{sn}");
            assert_eq!(s.samples(d.id, 0, i64::MAX, 10).await?.len(), 1, "{sn}");
        }
        let squatted = s.device_by_sn("BOBINV1").await?.ok_or("BOBINV1")?;
        assert_ne!(squatted.plant_id, Some(bob_plant));
        let rows = s.samples(squatted.id, 0, i64::MAX, 10).await?;
        assert_eq!(rows.len(), 1, "only the squatter's reading");
        assert_eq!(ingest.skipped(Reason::AnotherGateways), 1);

        // The SN comes back to its rightful gateway once the squatted device is deleted.
        assert!(s.delete_device(squatted.id).await?);
        let again = vec![reading("BOBINV1", "inverter", &[("pv1_power", 5.0)])];
        telemetry(&tx, "GWBOB", ts + 1000, again).await?;
        let back = s.device_by_sn("BOBINV1").await?.ok_or("BOBINV1")?;
        assert_eq!(back.plant_id, Some(bob_plant));
        // And now the squatter's reading of it is the one skipped.
        let squat = vec![reading("BOBINV1", "inverter", &[("pv1_power", 1.0)])];
        telemetry(&tx, "GWANN", ts + 2000, squat).await?;
        assert_eq!(s.samples(back.id, 0, i64::MAX, 10).await?.len(), 1);
        assert_eq!(ingest.skipped(Reason::AnotherGateways), 2);
        drop(tx);
        ingest.join().await;
        Ok(())
    })
    .await
}

/// Security review, finding 4: one message with 1,000 unclaimed SNs registered all of them.
#[tokio::test]
async fn a_gateway_registers_at_most_its_bound_of_devices() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        plant_with_gateway(&s, ann, "UTC", "GW1").await?;
        let (ingest, tx) = spawn(&s);
        let ts = Utc::now().timestamp_millis() - 60_000;
        let many = (0..1000)
            .map(|i| reading(&format!("SQ{i:04}"), "inverter", &[("pv1_power", 1.0)]))
            .collect();
        telemetry(&tx, "GW1", ts, many).await?;
        let gw = s.gateway_by_sn("GW1").await?.ok_or("GW1")?.id;
        assert_eq!(s.gateway_device_count(gw).await?, MAX_DEVICES_PER_GATEWAY);
        let over = u64::try_from(1000 - MAX_DEVICES_PER_GATEWAY)?;
        assert_eq!(ingest.skipped(Reason::OverDeviceLimit), over);
        assert!(s.device_by_sn("SQ0000").await?.is_some());
        assert!(s.device_by_sn("SQ0999").await?.is_none());

        // At its bound the gateway still reports its devices; a new one is left out.
        let next = vec![
            reading("SQ0000", "inverter", &[("pv1_power", 2.0)]),
            reading("NEW1", "inverter", &[("pv1_power", 2.0)]),
        ];
        telemetry(&tx, "GW1", ts + 1000, next).await?;
        let first = s.device_by_sn("SQ0000").await?.ok_or("SQ0000")?.id;
        assert_eq!(s.samples(first, 0, i64::MAX, 10).await?.len(), 2);
        assert!(s.device_by_sn("NEW1").await?.is_none());
        assert_eq!(ingest.skipped(Reason::OverDeviceLimit), over + 1);
        drop(tx);
        ingest.join().await;
        Ok(())
    })
    .await
}
