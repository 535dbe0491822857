//! Commands across replicas: each goes through A, which waits for the reply on the
//! `commands` row; the gateway's reply is ingested by whichever replica the broker picks.

use std::sync::atomic::Ordering;

use super::ingest::MESSAGES;
use crate::common::{
    Error, TestResult,
    fleet::{Gateway, respond},
    http,
    mosquitto::Mosquitto,
    portal::Portal,
};

/// Gateways answer commands now; each command goes through A and waits there for its reply.
/// Replies are spread over the replicas like every uplink message, so with several commands
/// some replies are ingested by B or C, which A learns through the `commands` row.
pub async fn through_a_complete_elsewhere(
    replicas: &[Portal],
    gateways: &[Gateway],
    broker: &Mosquitto,
    token: &str,
) -> TestResult {
    let before: Vec<f64> = metrics(replicas).await?;
    for gw in &gateways[..6] {
        let answered = respond(&gw.sn, broker.port).await?;
        let path = format!("/api/v1/gateway/{}/settings/switch", gw.sn);
        let command = http::post_json(
            replicas[0].http_port,
            &path,
            token,
            &serde_json::json!({"enable": true}),
        )
        .await?
        .data()?;
        assert_eq!(command["status"], "succeeded", "{}: {command}", gw.sn);
        assert_eq!(answered.load(Ordering::Relaxed), 1, "{}", gw.sn);
        let id = command["id"].as_i64().ok_or("no command id")?;
        let read = http::get(
            replicas[2].http_port,
            &format!("/api/v1/command/{id}"),
            Some(token),
        )
        .await?
        .data()?;
        assert_eq!(read["status"], "succeeded", "C reads the command: {read}");
    }
    let after = metrics(replicas).await?;
    let took: Vec<f64> = after.iter().zip(&before).map(|(a, b)| a - b).collect();
    println!(
        "command replies ingested: A {}, B {}, C {}",
        took[0], took[1], took[2]
    );
    assert!(
        took[1] + took[2] >= 1.0,
        "every reply landed on A: {took:?}"
    );
    Ok(())
}

async fn metrics(replicas: &[Portal]) -> Result<Vec<f64>, Error> {
    let mut out = Vec::new();
    for r in replicas {
        out.push(r.metric(MESSAGES).await?);
    }
    Ok(out)
}
