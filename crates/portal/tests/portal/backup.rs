//! Backups, restored and served (docs/operations.md, "Backups").
//!
//! - SQLite: `portal admin backup FILE` while gateways report to the running portal (its
//!   embedded broker acknowledges a report once it is committed): the copy holds every report
//!   acknowledged before the backup began and nothing the database never had, and `portal
//!   serve` on the copy answers the newest report of each device.
//! - PostgreSQL (`backup/postgres.rs`): `pg_dump` of the portal's schema while it runs, the
//!   schema moved aside, `pg_restore` into a new one: every table has the same rows, and the
//!   portal on the restored schema serves the same samples (rows and compacted blocks), the
//!   same realtime values and the same stored files.

use crate::common;
#[path = "backup/pg_tools.rs"]
mod pg_tools;
#[path = "backup/postgres.rs"]
mod postgres;

use std::{
    collections::HashSet,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use common::{
    Error, TestResult,
    fleet::{Gateway, Numbers, device_sn},
    free_port, http,
    portal::{self, Portal},
};
use store::Store;

pub const ADMIN: &str = "admin@example.com";
pub const PASSWORD: &str = "backup-pass1";

/// Settings of a portal on `data_dir` with its embedded broker on `mqtt_port`, plus `extra`.
pub fn settings(
    data_dir: &std::path::Path,
    mqtt_port: u16,
    extra: &[(&str, &str)],
) -> Vec<(String, String)> {
    let mut s: Vec<(String, String)> = [
        ("PORTAL_DATA_DIR", data_dir.display().to_string()),
        ("PORTAL_MQTT_EMBEDDED", "true".into()),
        ("PORTAL_MQTT_ADDR", format!("127.0.0.1:{mqtt_port}")),
        ("PORTAL_MQTT_ADDR_FALLBACK", "false".into()),
        ("PORTAL_ADMIN_USER", ADMIN.into()),
        ("PORTAL_ADMIN_PASSWORD", PASSWORD.into()),
        (
            "PORTAL_WEB_DIR",
            data_dir.join("no-web").display().to_string(),
        ),
        ("PORTAL_LOG", "warn".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    s.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    s
}

/// The report numbers of `gateway`'s device in `store`.
pub async fn stored(
    store: &Store,
    gateway: &str,
    numbers: &Numbers,
) -> Result<HashSet<i64>, Error> {
    let Some(device) = store.device_by_sn(&device_sn(gateway)).await? else {
        return Ok(HashSet::new());
    };
    let rows = store
        .samples(device.id, numbers.base_ts, i64::MAX, 1_000_000)
        .await?;
    Ok(rows.into_iter().map(|r| numbers.seq_of(r.ts)).collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_sqlite_backup_taken_while_the_portal_writes_serves_what_was_acknowledged_before_it()
-> TestResult {
    let dir = common::temp_dir("backup-sqlite")?;
    let (live, copy_dir) = (dir.join("live"), dir.join("restored"));
    std::fs::create_dir_all(&live)?;
    std::fs::create_dir_all(&copy_dir)?;
    let sns: Vec<String> = (0..4).map(|i| format!("BKGW{i}")).collect();
    {
        let store =
            Store::connect(&format!("sqlite://{}", live.join("portal.db").display())).await?;
        store.migrate().await?;
        for sn in &sns {
            store
                .create_gateway(sn, &format!("KEY-{sn}"), "deye-hybrid-1ph", 1)
                .await?;
        }
        store.close().await;
    }
    let mqtt_port = free_port()?;
    let live_settings = settings(&live, mqtt_port, &[]);
    let server = Portal::start("live", &live_settings)?;
    let numbers = Numbers::new(chrono::Utc::now().timestamp_millis() - 600_000);
    let mut gateways = Vec::new();
    for sn in &sns {
        gateways.push(Gateway::connect(sn, mqtt_port, Some(&format!("KEY-{sn}"))).await?);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let mut publishers = Vec::new();
    for gw in &gateways {
        let (gw, numbers, stop) = (gw.clone(), numbers.clone(), stop.clone());
        publishers.push(tokio::spawn(async move {
            let mut pace = tokio::time::interval(Duration::from_millis(10));
            while !stop.load(Ordering::Relaxed) {
                pace.tick().await;
                let (seq, ts) = numbers.take();
                if gw.publish(seq, ts).await.is_err() {
                    return;
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // Acknowledged (so committed) before the backup began: all of it must be in the copy.
    let before: Vec<HashSet<i64>> = gateways.iter().map(Gateway::acked).collect();
    let target = copy_dir.join("portal.db").display().to_string();
    let backup_settings = live_settings.clone();
    let said = tokio::task::spawn_blocking(move || {
        portal::run(&["admin", "backup", &target], &backup_settings)
    })
    .await??;
    assert!(said.contains("Database backed up"), "{said}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    stop.store(true, Ordering::Relaxed);
    for p in publishers {
        p.await?;
    }
    drop(server);

    let live_store =
        Store::connect(&format!("sqlite://{}", live.join("portal.db").display())).await?;
    let copy = Store::connect(&format!(
        "sqlite://{}",
        copy_dir.join("portal.db").display()
    ))
    .await?;
    let (mut in_copy, mut acked_before, mut in_live) = (0, 0, 0);
    for (gw, before) in gateways.iter().zip(&before) {
        let (have, all) = (
            stored(&copy, &gw.sn, &numbers).await?,
            stored(&live_store, &gw.sn, &numbers).await?,
        );
        let missing: Vec<&i64> = before.difference(&have).collect();
        assert!(
            missing.is_empty(),
            "{}: acknowledged before the backup, not in it: {missing:?}",
            gw.sn
        );
        assert!(
            have.is_subset(&all),
            "{}: the copy has reports the database never had",
            gw.sn
        );
        (in_copy, acked_before, in_live) = (
            in_copy + have.len(),
            acked_before + before.len(),
            in_live + all.len(),
        );
    }
    println!(
        "{acked_before} reports acknowledged before the backup, {in_copy} in the copy, {in_live} in the database at the end"
    );
    assert!(
        in_copy < in_live,
        "the backup was not taken while the portal wrote"
    );
    live_store.close().await;

    // `serve` on the copy: the newest report of each device, through the API.
    let restored = Portal::start("restored", &settings(&copy_dir, free_port()?, &[]))?;
    let token = http::sign_in(restored.http_port, ADMIN, PASSWORD).await?;
    for gw in &gateways {
        let newest = stored(&copy, &gw.sn, &numbers)
            .await?
            .into_iter()
            .max()
            .ok_or("empty")?;
        let path = format!("/api/v1/inverter/{}/realtime/input", device_sn(&gw.sn));
        let data = http::get(restored.http_port, &path, Some(&token))
            .await?
            .data()?;
        assert_eq!(
            data["pac"].as_f64(),
            Some(newest as f64),
            "{}: {data}",
            gw.sn
        );
    }
    copy.close().await;
    drop(restored);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
