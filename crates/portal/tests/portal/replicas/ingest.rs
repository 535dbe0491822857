//! The fleet against the replicas: reports spread over all three, one replica killed and
//! restarted mid-ingest, no acknowledged report lost; then realtime reads (`realtime.rs`) and
//! commands (`commands.rs`).

use std::{
    collections::{HashMap, HashSet},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use store::Store;

use super::{Cluster, commands, realtime};
use crate::common::{
    Error, TestResult,
    fleet::{Gateway, Numbers, device_sn},
    mosquitto::Mosquitto,
    portal::Portal,
};

const GATEWAYS: usize = 30;
/// Reports per second per gateway: 600 a second over the fleet.
const RATE: u32 = 20;
pub const MESSAGES: &str = "portal_mqtt_messages_total";

/// The report numbers of `gateway`'s device in the database.
pub async fn stored(store: &Store, gateway: &str, numbers: &Numbers) -> Result<Vec<i64>, Error> {
    let Some(device) = store.device_by_sn(&device_sn(gateway)).await? else {
        return Ok(Vec::new());
    };
    let rows = store
        .samples(device.id, numbers.base_ts, i64::MAX, 1_000_000)
        .await?;
    Ok(rows.into_iter().map(|r| numbers.seq_of(r.ts)).collect())
}

pub async fn fleet_reports_survive_a_killed_replica(
    cluster: &Cluster,
    replicas: &mut [Portal],
    store: &Store,
    broker: &Mosquitto,
    token: &str,
) -> TestResult {
    let mut gateways = Vec::new();
    for i in 0..GATEWAYS {
        let sn = format!("REPGW{i:03}");
        store
            .create_gateway(&sn, &format!("KEY-{sn}"), "deye-hybrid-1ph", 1)
            .await?;
        gateways.push(Gateway::connect(&sn, broker.port, None).await?);
    }
    let numbers = Numbers::new(chrono::Utc::now().timestamp_millis() - 120_000);
    warm_up(replicas, store, &gateways, &numbers).await?;

    // The burst: every gateway at RATE; B is killed after 1.5 s and restarted 1.5 s later.
    let stop = Arc::new(AtomicBool::new(false));
    let mut publishers = Vec::new();
    for gw in &gateways {
        let (gw, numbers, stop) = (gw.clone(), numbers.clone(), stop.clone());
        publishers.push(tokio::spawn(async move {
            let mut pace = tokio::time::interval(Duration::from_secs(1) / RATE);
            while !stop.load(Ordering::Relaxed) {
                pace.tick().await;
                let (seq, ts) = numbers.take();
                if gw.publish(seq, ts).await.is_err() {
                    return;
                }
            }
        }));
    }
    let ports = [replicas[0].http_port, replicas[2].http_port];
    let checker = tokio::spawn(realtime::checker(
        store.clone(),
        gateways.iter().map(|g| g.sn.clone()).collect(),
        numbers.clone(),
        ports,
        token.to_string(),
        stop.clone(),
    ));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let b_before = replicas[1].metric(MESSAGES).await?;
    replicas[1].kill()?;
    let killed_at = Instant::now();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    replicas[1] = cluster.start(1).await?;
    println!("B was down {:.1} s", killed_at.elapsed().as_secs_f64());
    tokio::time::sleep(Duration::from_millis(1500)).await;
    stop.store(true, Ordering::Relaxed);
    for p in publishers {
        p.await?;
    }
    let (checks, behind) = checker.await??;

    let settled = settle(store, &gateways, &numbers).await?;
    let (mut sent, mut acked, mut lost) = (0, 0, Vec::new());
    for gw in &gateways {
        let have: HashSet<i64> = settled[&gw.sn].iter().copied().collect();
        assert_eq!(
            have.len(),
            settled[&gw.sn].len(),
            "{}: a report stored twice",
            gw.sn
        );
        let ack = gw.acked();
        sent += have.len();
        acked += ack.len();
        lost.extend(ack.difference(&have).map(|s| format!("{}#{s}", gw.sn)));
    }
    let a = replicas[0].metric(MESSAGES).await?;
    let b_after = replicas[1].metric(MESSAGES).await?;
    let c = replicas[2].metric(MESSAGES).await?;
    println!(
        "reports: {acked} acknowledged by the broker, {sent} stored; ingested by A {a}, \
         B {b_before} before the kill and {b_after} after its restart, C {c}; \
         realtime reads: {checks} during the burst, {} behind the database",
        behind.len()
    );
    assert!(
        lost.is_empty(),
        "acknowledged but not stored: {:?}",
        &lost[..lost.len().min(10)]
    );
    assert!(
        a > 0.0 && b_before > 0.0 && c > 0.0,
        "reports were not spread over A, B and C"
    );
    assert!(
        b_after > 0.0,
        "B's share queued while it was down did not reach it"
    );
    assert!(
        behind.is_empty(),
        "realtime reads behind the database: {behind:?}"
    );
    assert!(checks > 0, "no realtime read during the burst");

    realtime::newest_everywhere(replicas, store, &gateways, &numbers, token).await?;
    commands::through_a_complete_elsewhere(replicas, &gateways, broker, token).await
}

/// Probes until every gateway has a stored report and every replica has ingested something, so
/// all three subscriptions are in place before the measured burst.
async fn warm_up(
    replicas: &[Portal],
    store: &Store,
    gateways: &[Gateway],
    numbers: &Numbers,
) -> TestResult {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        for gw in gateways {
            let (seq, ts) = numbers.take();
            gw.publish(seq, ts).await?;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        let mut ready = true;
        for gw in gateways {
            ready &= !stored(store, &gw.sn, numbers).await?.is_empty();
        }
        for r in replicas {
            ready &= r.metric(MESSAGES).await? > 0.0;
        }
        if ready {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err("warm-up: not every gateway stored or not every replica ingesting".into());
        }
    }
}

/// Waits until every acknowledged report is stored, or nothing new arrives for 10 s (60 s at
/// most); answers what is stored per gateway.
async fn settle(
    store: &Store,
    gateways: &[Gateway],
    numbers: &Numbers,
) -> Result<HashMap<String, Vec<i64>>, Error> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last = (0, Instant::now());
    loop {
        let mut all = HashMap::new();
        let (mut count, mut complete) = (0, true);
        for gw in gateways {
            let have = stored(store, &gw.sn, numbers).await?;
            let set: HashSet<i64> = have.iter().copied().collect();
            complete &= gw.acked().is_subset(&set);
            count += have.len();
            all.insert(gw.sn.clone(), have);
        }
        if count != last.0 {
            last = (count, Instant::now());
        }
        if complete || last.1.elapsed() > Duration::from_secs(10) || Instant::now() > deadline {
            return Ok(all);
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
