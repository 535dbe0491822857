//! PostgreSQL: `pg_dump` of the portal's schema while it runs, then `pg_restore` after the
//! schema was moved aside (as onto a new server): the same rows in every table, and the portal
//! on the restored schema serves the same samples, compacted blocks, realtime values and files.

use std::{
    collections::HashSet,
    time::{Duration, Instant},
};

use store::Store;

use super::{
    ADMIN, PASSWORD,
    pg_tools::{pg, quiet_rows, row_counts, tool},
    settings, stored,
};
use crate::common::{
    Error, TestResult,
    fleet::{Gateway, Numbers, device_sn},
    free_port, http,
    portal::Portal,
    postgres::Schema,
    skip,
    uploads::{firmware, firmware_image, png},
};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_pg_dump_restored_into_a_new_schema_serves_the_same_data() -> TestResult {
    let Some(schema) = Schema::create().await? else {
        return skip("no PostgreSQL at PORTAL_TEST_DATABASE_URL");
    };
    if !(tool("pg_dump") && tool("pg_restore") && tool("psql")) {
        schema.drop().await?;
        return skip("pg_dump, pg_restore or psql missing");
    }
    let base = std::env::var(store::testing::POSTGRES_URL_VAR)?;
    let moved = format!("{}0", schema.name);
    let dir = crate::common::temp_dir("backup-pg")?;
    let result = dump_and_restore(&base, &schema, &moved, &dir).await;
    store::testing::drop_postgres_schema(&moved).await?;
    schema.drop().await?;
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// What the portal answered before the dump, to be answered the same after the restore.
struct Seen {
    samples: Vec<HashSet<i64>>,
    blocks: i64,
    picture: (String, Vec<u8>),
    firmware: (i64, Vec<u8>),
}

async fn dump_and_restore(
    base: &str,
    schema: &Schema,
    moved: &str,
    dir: &std::path::Path,
) -> TestResult {
    let sns = ["PGBK0", "PGBK1"];
    let store = Store::connect(&schema.url).await?;
    store.migrate().await?;
    for sn in sns {
        store
            .create_gateway(sn, &format!("KEY-{sn}"), "deye-hybrid-1ph", 1)
            .await?;
    }
    let extra = [
        ("PORTAL_DATABASE_URL", schema.url.as_str()),
        ("PORTAL_HISTORY_GRACE_HOURS", "0"),
        ("PORTAL_HISTORY_INTERVAL_SECS", "10"),
    ];
    let mqtt_port = free_port()?;
    let server = Portal::start("live", &settings(&dir.join("live"), mqtt_port, &extra))?;
    // Three days and an hour of reports every 15 minutes (alternating gateways), the last one
    // now, so that today has at least one (also minutes after midnight): the closed days
    // become blocks, today's stay samples.
    let now = chrono::Utc::now().timestamp_millis();
    let numbers = Numbers::spaced(now - (73 * 4 - 1) * 15 * 60_000, 15 * 60_000);
    let mut gateways = Vec::new();
    for sn in sns {
        gateways.push(Gateway::connect(sn, mqtt_port, Some(&format!("KEY-{sn}"))).await?);
    }
    for _ in 0..(73 * 4 / 2) {
        for gw in &gateways {
            let (seq, ts) = numbers.take();
            gw.publish(seq, ts).await?;
        }
    }
    let seen = seen(&server, &store, &gateways, &numbers).await?;
    // The portal runs on, with nothing left to write: the rows as they stand now are what the
    // dump holds.
    let before = quiet_rows(base, &schema.name).await?;

    let dump = dir.join("portal.dump").display().to_string();
    let started = Instant::now();
    pg(
        "pg_dump",
        &[
            "-d",
            base,
            "--schema",
            &schema.name,
            "--format=custom",
            "--file",
            &dump,
        ],
    )?;
    println!(
        "pg_dump while the portal ran: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    drop(server);
    store.close().await;
    let rename = format!("ALTER SCHEMA \"{}\" RENAME TO \"{moved}\"", schema.name);
    pg(
        "psql",
        &[
            "-X",
            "-q",
            "-v",
            "ON_ERROR_STOP=1",
            "-d",
            base,
            "-c",
            &rename,
        ],
    )?;
    pg("pg_restore", &["-d", base, "--exit-on-error", &dump])?;
    let after = row_counts(base, &schema.name)?;
    assert_eq!(after, before, "rows per table after the restore");
    for table in ["samples", "sample_blocks", "files", "device_latest"] {
        assert!(
            before.get(table).is_some_and(|n| *n > 0),
            "{table} is empty: {before:?}"
        );
    }

    let store = Store::connect(&schema.url).await?;
    let restored = Portal::start(
        "restored",
        &settings(&dir.join("restored"), free_port()?, &extra[..1]),
    )?;
    let token = http::sign_in(restored.http_port, ADMIN, PASSWORD).await?;
    assert_eq!(store.history_size().await?.blocks, seen.blocks);
    for (gw, samples) in gateways.iter().zip(&seen.samples) {
        assert_eq!(
            &stored(&store, &gw.sn, &numbers).await?,
            samples,
            "{}",
            gw.sn
        );
        let newest = samples.iter().max().ok_or("empty")?;
        let path = format!("/api/v1/inverter/{}/realtime/input", device_sn(&gw.sn));
        let data = http::get(restored.http_port, &path, Some(&token))
            .await?
            .data()?;
        assert_eq!(
            data["pac"].as_f64(),
            Some(*newest as f64),
            "{}: {data}",
            gw.sn
        );
    }
    let picture = http::get(restored.http_port, &seen.picture.0, None).await?;
    assert!(
        picture.status == 200 && picture.body == seen.picture.1,
        "picture after the restore"
    );
    let download = format!("/api/v1/firmware/{}/download", seen.firmware.0);
    let got = http::get(restored.http_port, &download, Some(&token)).await?;
    assert!(
        got.status == 200 && got.body == seen.firmware.1,
        "firmware after the restore"
    );
    store.close().await;
    Ok(())
}

/// Waits until every report is acknowledged (committed) and the closed days are compacted,
/// uploads a picture and a firmware, and notes what the portal holds.
async fn seen(
    server: &Portal,
    store: &Store,
    gateways: &[Gateway],
    numbers: &Numbers,
) -> Result<Seen, Error> {
    let deadline = Instant::now() + Duration::from_secs(90);
    let closed_days = 3 * gateways.len() as i64;
    loop {
        let acked: usize = gateways.iter().map(|g| g.acked().len()).sum();
        let size = store.history_size().await?;
        if acked == 73 * 4 && size.blocks >= closed_days {
            break;
        }
        if Instant::now() > deadline {
            return Err(format!("not settled: {acked} acknowledged, {size:?}").into());
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let token = http::sign_in(server.http_port, ADMIN, PASSWORD).await?;
    let bytes = png(200, 100, 3)?;
    let urls = http::post_form(
        server.http_port,
        "/api/v1/plant/thumbnail",
        &token,
        &[],
        Some(("file", "p.png", &bytes)),
    )
    .await?
    .data()?;
    let url = urls["url"].as_str().ok_or("no url")?.to_string();
    let image = firmware_image(200 * 1024);
    let id = firmware(server.http_port, &token, "pg.bin", &image).await?;
    let mut samples = Vec::new();
    for gw in gateways {
        samples.push(stored(store, &gw.sn, numbers).await?);
    }
    Ok(Seen {
        samples,
        blocks: store.history_size().await?.blocks,
        picture: (url, bytes),
        firmware: (id, image),
    })
}
