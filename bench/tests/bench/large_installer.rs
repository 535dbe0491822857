//! The large installer's screens and the ingest bench's CPU attribution at a tiny size: the
//! fixture builds, every measured call answers, and the CPU is split between the portal, the
//! database and the gateways. The real runs are by hand, in release (docs/performance.md).

use bench::{
    DbKind, IngestBench,
    installer::{InstallerOptions, run},
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tiny_installer_run_measures_every_screen() -> anyhow::Result<()> {
    let o = InstallerOptions {
        db: DbKind::Sqlite,
        postgres_url: String::new(),
        plants: 30,
        customers: 3,
        days: 20,
        clients: 2,
        day_clients: 3,
        seconds: 0.2,
    };
    let r = run(&o).await?;
    // Four devices per plant on average: 30 plants, 120 devices.
    assert_eq!(r.devices, 120);
    assert_eq!(r.energy_rows, 30 * 20);
    // The ten-inverter plant's day so far, every five minutes, and one newest sample per
    // plant's first inverter.
    assert!(r.sample_rows > 30);
    assert_eq!(r.phases.len(), 14);
    assert!(r.phases.iter().all(|(_, p)| p.latency.count > 0));
    assert_eq!(r.phases.last().map(|(n, _)| *n), Some(3));
    let text = bench::installer::render(&o, &r);
    assert!(text.contains("day energy, 10-inverter plant"), "{text}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ingest_run_splits_its_cpu_between_portal_database_and_gateways() -> anyhow::Result<()>
{
    let mut b = IngestBench::quick(DbKind::Sqlite, 2, 1.5);
    b.baseline_seconds = Some(0.3);
    let r = bench::run_ingest(&b).await?;
    assert_eq!(r.e2e.rows_committed, r.e2e.rows_expected);
    let cpu = r.e2e.cpu;
    assert!(cpu.portal > 0.0, "{cpu:?}");
    assert!(cpu.database > 0.0, "{cpu:?}");
    // two gateways for a second and a half may spend less than one clock tick (10 ms)
    assert!(cpu.gateways >= 0.0, "{cpu:?}");
    let text = bench::render(&b, &r);
    assert!(text.contains("us per acknowledged report"), "{text}");
    Ok(())
}
