//! A portal killed while compacting history loses no sample.

use super::*;
use domain::ids::DeviceId;

/// Every sample of `expected` read back through the store, from rows or blocks: the missing
/// ones, and those read with other values.
async fn history_differences(
    store: &Store,
    expected: &HashMap<DeviceId, Vec<(i64, String)>>,
) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let mut differences = Vec::new();
    for (device, samples) in expected {
        let read = store.samples(*device, 0, i64::MAX, 1_000_000).await?;
        let read: HashMap<i64, serde_json::Value> = read
            .into_iter()
            .map(|r| (r.ts, serde_json::from_str(&r.payload).unwrap_or_default()))
            .collect();
        for (ts, payload) in samples {
            let want: serde_json::Value = serde_json::from_str(payload)?;
            match read.get(ts) {
                None => differences.push(format!("device {device} at {ts}: missing")),
                Some(got) if *got != want => {
                    differences.push(format!("device {device} at {ts}: read {got}"))
                }
                Some(_) => {}
            }
        }
        if read.len() != samples.len() {
            differences.push(format!(
                "device {device}: {} samples read, {} stored",
                read.len(),
                samples.len()
            ));
        }
    }
    Ok(differences)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_portal_killed_during_compaction_loses_no_sample() -> TestResult {
    const DEVICES: i64 = 200;
    const DAYS: i64 = 3;
    const EVERY: i64 = 300_000;
    let data_dir = common::temp_dir("crash")?;
    let db_url = format!("sqlite://{}", data_dir.join("portal.db").display());
    // Three closed UTC days of five-minute samples of devices without a plant.
    let day = 86_400_000;
    let first = (chrono::Utc::now().timestamp_millis() / day - DAYS - 1) * day;
    let mut expected: HashMap<DeviceId, Vec<(i64, String)>> = HashMap::new();
    {
        let store = Store::connect(&db_url).await?;
        store.migrate().await?;
        for device in (1..=DEVICES).map(DeviceId) {
            let samples: Vec<store::telemetry::SampleWrite> = (0..DAYS * 288)
                .map(|i| store::telemetry::SampleWrite {
                    device_id: device,
                    ts: first + i * EVERY,
                    payload: format!(
                        "{{\"pv1_power\":{},\"grid_voltage\":{}.{},\"on\":{},\"mode\":\"m{}\"}}",
                        (i * 37 + device.0) % 4000,
                        228 + i % 5,
                        i % 10,
                        i % 3 == 0,
                        i % 4
                    ),
                })
                .collect();
            expected.insert(
                device,
                samples.iter().map(|s| (s.ts, s.payload.clone())).collect(),
            );
            store
                .write_telemetry_batch(&store::telemetry::TelemetryBatch {
                    samples,
                    energy: vec![],
                })
                .await?;
        }
        store.close().await;
    }
    let total_blocks = DEVICES * DAYS;
    let watcher = Store::connect(&db_url).await?;

    // Kill the portal once a quarter of the days are blocks and the rest still rows.
    let server = Server::start(&data_dir, &Broker::Embedded)?;
    let deadline = Instant::now() + Duration::from_secs(60);
    let at_kill = loop {
        let size = watcher.history_size().await?;
        if size.blocks >= total_blocks / 4 {
            server.kill()?;
            break size;
        }
        if Instant::now() > deadline {
            return Err("the history job compacted nothing within a minute".into());
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    let after_kill = watcher.history_size().await?;
    println!(
        "killed with {} of {total_blocks} device-days compacted ({} rows left)",
        after_kill.blocks, after_kill.rows
    );
    assert!(
        after_kill.blocks < total_blocks,
        "the kill came after the whole job ({at_kill:?})"
    );
    let differences = history_differences(&watcher, &expected).await?;
    assert!(
        differences.is_empty(),
        "after the kill: {:?}",
        &differences[..differences.len().min(10)]
    );

    // The next start finishes the job.
    let server = Server::start(&data_dir, &Broker::Embedded)?;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let size = watcher.history_size().await?;
        if size.rows == 0 && size.blocks == total_blocks {
            break;
        }
        if Instant::now() > deadline {
            return Err(format!("compaction did not finish after the restart: {size:?}").into());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    server.kill()?;
    let differences = history_differences(&watcher, &expected).await?;
    assert!(
        differences.is_empty(),
        "after the restart: {:?}",
        &differences[..differences.len().min(10)]
    );
    watcher.close().await;
    let _ = std::fs::remove_dir_all(&data_dir);
    Ok(())
}
