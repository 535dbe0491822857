//! Scale-out for real: three `portal serve` replicas on one PostgreSQL schema and one Mosquitto
//! (the test's own, on loopback), each with a data directory, HTTP port and MQTT client id of its
//! own, sharing the shared-subscription group and the secrets replicas must share.
//!
//! - They start together on the empty schema (migrations, built-in roles, the first
//!   administrator and the keys race), and a token issued by one is accepted by the others.
//! - 30 simulated gateways publish numbered QoS 1 reports straight to the broker, spread over
//!   the replicas by `$share`; one replica is killed with SIGKILL mid-ingest and restarted with
//!   the same client id (as systemd would). Every report whose PUBACK a gateway received is then
//!   in the database once; meanwhile realtime reads through the live replicas are never older
//!   than the newest stored row, and after the burst every replica answers the newest one.
//! - A command sent through replica A completes on a reply ingested by another replica.
//! - Files uploaded through A (plant picture, company logo, firmware) are served byte-identical
//!   by B and C, and a firmware deleted through B is gone for C (`replicas/files.rs`).
//!
//! Needs `PORTAL_TEST_DATABASE_URL` and `/usr/sbin/mosquitto`; skipped without them, except
//! under `CI=true`.

#[path = "replicas/commands.rs"]
mod commands;
use crate::common;
#[path = "replicas/files.rs"]
mod files;
#[path = "replicas/ingest.rs"]
mod ingest;
#[path = "replicas/realtime.rs"]
mod realtime;

use std::time::Instant;

use common::{
    Error, TestResult, http, mosquitto::Mosquitto, portal::Portal, postgres::Schema, skip,
};
use store::Store;

pub const ADMIN: &str = "admin@example.com";
const PASSWORD: &str = "replica-pass1";
pub const NAMES: [&str; 3] = ["a", "b", "c"];

/// What every replica is started with: the settings shared by all, and each one's own.
pub struct Cluster {
    shared: Vec<(String, String)>,
    dir: std::path::PathBuf,
    tag: String,
}

impl Cluster {
    /// The settings of replica `i`. Shared: the database, the broker and its group, the first
    /// administrator, and `PORTAL_DR_KEY` (the energy hub's credential key, which would
    /// otherwise be a file in each data directory). Own: data directory and MQTT client id
    /// (stable across restarts: the broker keeps the replica's session and queue under it).
    pub fn settings(&self, i: usize) -> Vec<(String, String)> {
        let mut s = self.shared.clone();
        let name = NAMES[i];
        s.push((
            "PORTAL_DATA_DIR".into(),
            self.dir.join(name).display().to_string(),
        ));
        s.push((
            "PORTAL_MQTT_CLIENT_ID".into(),
            format!("portal-{name}-{}", self.tag),
        ));
        s
    }

    pub async fn start(&self, i: usize) -> Result<Portal, Error> {
        let settings = self.settings(i);
        tokio::task::spawn_blocking(move || Portal::start(NAMES[i], &settings)).await?
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_replicas_share_ingest_commands_realtime_reads_and_files() -> TestResult {
    let Some(schema) = Schema::create().await? else {
        return skip("no PostgreSQL at PORTAL_TEST_DATABASE_URL");
    };
    let dir = common::temp_dir("replicas")?;
    let Some(broker) = Mosquitto::start(&dir).await? else {
        schema.drop().await?;
        return skip("no Mosquitto at /usr/sbin/mosquitto");
    };
    let started = Instant::now();
    let result = scenario(&schema, &broker, &dir).await;
    println!(
        "replicas scenario: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    drop(broker);
    schema.drop().await?;
    let _ = std::fs::remove_dir_all(&dir);
    result
}

async fn scenario(schema: &Schema, broker: &Mosquitto, dir: &std::path::Path) -> TestResult {
    let shared = [
        ("PORTAL_DATABASE_URL", schema.url.as_str()),
        ("PORTAL_MQTT_EMBEDDED", "false"),
        ("PORTAL_MQTT_URL", &broker.url()),
        ("PORTAL_MQTT_SHARED_GROUP", "portal"),
        ("PORTAL_ADMIN_USER", ADMIN),
        ("PORTAL_ADMIN_PASSWORD", PASSWORD),
        (
            "PORTAL_DR_KEY",
            "cmVwbGljYXMtc2hhcmUtb25lLWtleS0zMi1ieXRlcyE=",
        ),
        ("PORTAL_WEB_DIR", &dir.join("no-web").display().to_string()),
        ("PORTAL_LOG", "warn"),
    ];
    let cluster = Cluster {
        shared: shared
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        dir: dir.to_path_buf(),
        tag: common::tag(),
    };
    // Together, on the empty schema: every start step must tolerate the others.
    let (a, b, c) = tokio::join!(cluster.start(0), cluster.start(1), cluster.start(2));
    let mut replicas = vec![a?, b?, c?];
    let store = Store::connect(&schema.url).await?;

    let token = http::sign_in(replicas[0].http_port, ADMIN, PASSWORD).await?;
    for r in &replicas {
        let me = http::get(r.http_port, "/api/v1/user", Some(&token)).await?;
        me.data()
            .map_err(|e| format!("{}: A's token refused: {e}", r.name))?;
    }

    ingest::fleet_reports_survive_a_killed_replica(&cluster, &mut replicas, &store, broker, &token)
        .await?;
    files::uploads_are_served_by_every_replica(&replicas, &store, &token).await?;
    for name in NAMES {
        for folder in ["uploads", "firmware"] {
            let local = dir.join(name).join(folder);
            assert!(
                !local.exists(),
                "{} was written: nothing is shared through the disk",
                local.display()
            );
        }
    }
    store.close().await;
    Ok(())
}
