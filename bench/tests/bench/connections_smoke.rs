//! `bench connections` in small (a few hundred gateways reporting every second, a short rest,
//! the portal restarted once): every gateway signs in, comes back after the restart, and every
//! acknowledged report is stored. Needs the debug `portal` binary, which
//! `cargo test --workspace` builds (`cargo build -p portal` otherwise). The real runs are by
//! hand, in release (docs/performance.md).

use std::{path::PathBuf, time::Duration};

use bench::connections::{ConnectionsOptions, run};

fn portal_bin() -> PathBuf {
    // target/debug/deps/<this test> -> target/debug/portal
    let bin = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("portal")));
    match bin {
        Some(b) if b.is_file() => b,
        _ => panic!("no target/debug/portal: build it first (`cargo build -p portal`)"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_few_hundred_gateways_connect_come_back_after_a_restart_and_lose_no_report()
-> anyhow::Result<()> {
    let o = ConnectionsOptions {
        gateways: 300,
        report_every: Duration::from_secs(1),
        values: 10,
        sources: 0,
        ramp: 64,
        rest: Duration::from_secs(2),
        storm: true,
        patience: Duration::from_secs(60),
        portal_bin: portal_bin(),
        echo_bin: PathBuf::from(env!("CARGO_BIN_EXE_bench")),
        portal_env: Vec::new(),
        quiet: true,
    };
    let r = run(&o).await?;
    assert_eq!(r.connected, 300, "{r:?}");
    let storm = r.storm.as_ref().expect("the storm ran");
    assert!(storm.all_back_secs.is_some(), "not all back: {storm:?}");
    assert!(r.sign_ins >= 600, "{r:?}");
    // a report published as the portal stopped may go unanswered; one answered must be stored
    assert!(r.acked > 0 && r.acked <= r.published, "{r:?}");
    assert!(r.stored >= r.acked, "acknowledged but not stored: {r:?}");
    assert!(r.portal_full.rss_kib > 0 && r.echo_full.rss_kib > 0);
    Ok(())
}
