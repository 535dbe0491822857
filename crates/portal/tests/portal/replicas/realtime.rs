//! Realtime reads through the replicas: while reports arrive, never older than the newest row
//! stored before the request; afterwards, every replica answers each device's newest report.

use std::sync::{
    Arc,
    atomic::{AtomicBool, Ordering},
};

use store::Store;

use super::ingest::stored;
use crate::common::{
    Error, TestResult,
    fleet::{Gateway, Numbers, device_sn},
    http,
    portal::Portal,
};

/// Reads realtime values through `ports` while reports arrive: each answer's report number
/// (`pac`) must be at least the newest one stored before the request. Answers the count of
/// reads and the ones that were behind.
pub async fn checker(
    store: Store,
    gateways: Vec<String>,
    numbers: Numbers,
    ports: [u16; 2],
    token: String,
    stop: Arc<AtomicBool>,
) -> Result<(usize, Vec<String>), Error> {
    let (mut checks, mut behind) = (0, Vec::new());
    // Every gateway through each port in turn.
    for i in 0.. {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let gw = &gateways[i % gateways.len()];
        let port = ports[(i + i / gateways.len()) % ports.len()];
        let newest = stored(&store, gw, &numbers).await?.into_iter().max();
        let path = format!("/api/v1/inverter/{}/realtime/input", device_sn(gw));
        let pac = http::get(port, &path, Some(&token)).await?.data()?["pac"].as_f64();
        match (newest, pac) {
            (Some(n), Some(p)) if p < n as f64 => {
                behind.push(format!("{gw} on :{port}: {p} < {n}"))
            }
            (Some(n), None) => behind.push(format!("{gw} on :{port}: nothing, stored {n}")),
            _ => {}
        }
        checks += 1;
    }
    Ok((checks, behind))
}

/// After the burst every replica answers each device's newest stored report.
pub async fn newest_everywhere(
    replicas: &[Portal],
    store: &Store,
    gateways: &[Gateway],
    numbers: &Numbers,
    token: &str,
) -> TestResult {
    for gw in gateways {
        let newest = stored(store, &gw.sn, numbers)
            .await?
            .into_iter()
            .max()
            .ok_or("nothing stored")?;
        for r in replicas {
            let path = format!("/api/v1/inverter/{}/realtime/input", device_sn(&gw.sn));
            let data = http::get(r.http_port, &path, Some(token)).await?.data()?;
            assert_eq!(
                data["pac"].as_f64(),
                Some(newest as f64),
                "{} via {}: {data}",
                gw.sn,
                r.name
            );
        }
    }
    Ok(())
}
