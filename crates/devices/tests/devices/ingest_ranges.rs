//! A value decoded from raw registers outside its point's valid range is a read or wiring
//! fault: ingest leaves it out of the stored sample, counts it, and records why in the
//! gateway's communication log beside the message; the reading's other values are stored.

use crate::ingest_common;

use std::{collections::BTreeMap, sync::Arc};

use chrono::Utc;
use devices::{
    RegisterType, Value,
    decode::{RegisterImage, plan_reads},
    ingest::skipped::Reason,
    link::{CommLog, CommLogConfig},
    protocol::shipped,
    report::DeviceReading,
};
use ingest_common::*;
use store::{
    comm_log::CommFilter,
    testing::{TestResult, each_backend},
};

/// A string inverter's raw registers: 1234.5 W of PV, 231.2 V on L1, 31.5 °C inside, a grid
/// frequency register reading 0 (outside 40..=70 Hz) and a DC temperature of 200 °C (outside
/// -40..=120 °C).
fn reading() -> Result<DeviceReading, Box<dyn std::error::Error>> {
    let config = shipped()?
        .into_iter()
        .find(|c| c.code == "deye-string-3ph")
        .ok_or("deye-string-3ph not shipped")?;
    let mut image = RegisterImage::new();
    for (key, value) in [
        ("pv_power", 1234.5),
        ("grid_voltage_l1", 231.2),
        ("inverter_temperature", 31.5),
        ("dc_temperature", 200.0),
    ] {
        let point = config.point(key).ok_or(key)?;
        image.encode(point, &Value::Number(value))?;
    }
    image.set_word(RegisterType::Holding, 79, 0);
    Ok(DeviceReading {
        sn: "INV1".into(),
        family: "inverter".into(),
        type_code: 1,
        protocol: config.code.clone(),
        model: "SUN-10K-G".into(),
        parent: None,
        values: BTreeMap::new(),
        raw: image.blocks(&plan_reads(&config, 125, 16)),
    })
}

#[tokio::test]
async fn out_of_range_values_are_dropped_counted_and_logged_with_the_reason() -> TestResult {
    each_backend(|s| async move {
        let ann = owner(&s).await?;
        plant_with_gateway(&s, ann, "UTC", "GW1").await?;
        let (ingest, tx) = spawn(&s);
        let comm = Arc::new(CommLog::new(CommLogConfig::default()));
        ingest.report_skips_to(comm.clone());
        let ts = Utc::now().timestamp_millis() - 60_000;
        telemetry(&tx, "GW1", ts, vec![reading()?]).await?;

        let id = s.device_by_sn("INV1").await?.ok_or("INV1")?.id;
        let samples = s.samples(id, 0, i64::MAX, 10).await?;
        let stored: BTreeMap<String, Value> =
            serde_json::from_str(&samples.first().ok_or("no sample")?.payload)?;
        assert_eq!(stored.get("pv_power"), Some(&Value::Number(1234.5)));
        assert_eq!(stored.get("grid_voltage_l1"), Some(&Value::Number(231.2)));
        assert_eq!(
            stored.get("inverter_temperature"),
            Some(&Value::Number(31.5))
        );
        assert!(!stored.contains_key("grid_frequency"), "0 Hz is not stored");
        assert!(
            !stored.contains_key("dc_temperature"),
            "200 °C is not stored"
        );
        assert_eq!(ingest.skipped(Reason::OutOfRange), 2);

        comm.flush(&s).await;
        let gateway = s.gateway_by_sn("GW1").await?.ok_or("GW1")?.id;
        let filter = CommFilter {
            kind: Some("skipped".into()),
            limit: 10,
            ..CommFilter::default()
        };
        let (rows, total) = s.comm_log_page(gateway, &filter).await?;
        assert_eq!(total, 1, "one line for the message");
        let row = s.comm_log_entry(rows[0].id).await?.ok_or("entry")?;
        assert_eq!(
            (row.direction.as_str(), row.topic.as_str()),
            ("up", "portal/v1/GW1/telemetry")
        );
        assert!(
            row.payload.starts_with("2 values (out_of_range 2); "),
            "{}",
            row.payload
        );
        assert!(
            row.payload
                .contains(r#""INV1" "grid_frequency": out_of_range (0 outside 40..=70)"#),
            "{}",
            row.payload
        );
        assert!(
            row.payload
                .contains(r#""INV1" "dc_temperature": out_of_range (200 outside -40..=120)"#),
            "{}",
            row.payload
        );

        // A message that loses nothing adds no line.
        let mut clean = reading()?;
        clean.raw.clear();
        clean.values.insert("pv_power".into(), Value::Number(10.0));
        telemetry(&tx, "GW1", ts + 1000, vec![clean]).await?;
        comm.flush(&s).await;
        assert_eq!(s.comm_log_page(gateway, &filter).await?.1, 1);
        drop(tx);
        ingest.join().await;
        Ok(())
    })
    .await
}
