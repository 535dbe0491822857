//! A two-second run with two gateways on SQLite: the benchmark works and commits what the
//! portal acknowledged. The real runs are by hand, in release (docs/performance.md).

use bench::{DbKind, IngestBench};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_sqlite_run_commits_what_was_acknowledged() -> anyhow::Result<()> {
    let mut b = IngestBench::quick(DbKind::Sqlite, 2, 2.0);
    b.baseline_seconds = Some(0.5);
    let r = bench::run_ingest(&b).await?;
    assert!(r.e2e.rows_committed > 0);
    assert_eq!(r.e2e.rows_committed, r.e2e.rows_expected);
    assert_eq!(r.e2e.points_per_row, 100);
    assert!(r.baseline.is_some_and(|x| x.rows_committed > 0));
    Ok(())
}
