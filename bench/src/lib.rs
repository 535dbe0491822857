//! Ingest benchmark: simulated gateways over MQTT into the portal's device side (embedded
//! broker, MQTT client, ingest) on SQLite or PostgreSQL, measured end to end (committed and
//! queryable), against two baselines measured in the same run on a fresh database of the same
//! kind: every row ingest writes per report, written by the store's batched prepared statements
//! (the target's baseline), and only the `samples` rows with one plain multi-row INSERT (the
//! raw ceiling). Run by hand in release; see docs/performance.md.

pub mod agent;
pub mod app;
pub mod baseline;
pub mod connections;
pub mod cpu;
pub mod db;
pub mod e2e;
pub mod fleet;
pub mod gateway_client;
pub mod history;
pub mod idle_gateway;
pub mod installer;
pub mod load;
pub mod overview;
pub mod payload;
pub mod portal_process;
pub mod procstat;
pub mod reads;
pub mod rss;
pub mod stats;

use std::time::Duration;

pub use db::DbKind;

/// Everything one `bench ingest` run needs.
#[derive(Debug, Clone)]
pub struct IngestBench {
    pub e2e: e2e::E2eOptions,
    /// `None` skips the baseline.
    pub baseline_seconds: Option<f64>,
    pub batch_rows: usize,
    /// Also run end to end with the communication log off (before the run with it on, as
    /// `e2e.comm_log` says), to compare the two.
    pub comm_log_off_too: bool,
}

impl IngestBench {
    /// Small defaults for a quick check.
    pub fn quick(db: DbKind, gateways: usize, seconds: f64) -> IngestBench {
        IngestBench {
            e2e: e2e::E2eOptions {
                db,
                postgres_url: default_postgres_url(),
                gateways,
                devices_per_message: 1,
                values: 100,
                seconds,
                window: 16,
                report_every: Duration::from_secs(10),
                read_every: Duration::from_millis(5),
                drain_timeout: Duration::from_secs(60),
                quiet: true,
                comm_log: true,
                writes_in_flight: 0,
                max_wait: Duration::ZERO,
                calm_wait: devices::ingest::DEFAULT_CALM_WAIT,
            },
            baseline_seconds: Some(seconds),
            batch_rows: 1000,
            comm_log_off_too: false,
        }
    }
}

pub fn default_postgres_url() -> String {
    std::env::var(store::testing::POSTGRES_URL_VAR)
        .ok()
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1/test".into())
}

#[derive(Debug, Clone, Default)]
pub struct IngestReport {
    pub e2e: e2e::E2eResult,
    /// The same run with the communication log off, when asked for.
    pub e2e_comm_off: Option<e2e::E2eResult>,
    /// The same rows ingest writes (sample, latest, device, energy) through the store.
    pub baseline: Option<baseline::BaselineResult>,
    /// Only the `samples` rows, one raw multi-row INSERT per transaction.
    pub raw_inserts: Option<baseline::BaselineResult>,
}

impl IngestReport {
    /// End-to-end points/s over the same-rows baseline's points/s.
    pub fn ratio(&self, devices_per_message: usize) -> Option<f64> {
        self.ratio_to(self.baseline.as_ref(), devices_per_message)
    }

    /// End-to-end points/s over the raw-insert ceiling's points/s.
    pub fn raw_ratio(&self, devices_per_message: usize) -> Option<f64> {
        self.ratio_to(self.raw_inserts.as_ref(), devices_per_message)
    }

    /// The run with the communication log off over the same baseline.
    pub fn ratio_comm_off(&self, devices_per_message: usize) -> Option<f64> {
        let off = self.e2e_comm_off.as_ref()?;
        let b = self.baseline.as_ref()?.points_per_sec();
        (b > 0.0).then(|| off.points_per_sec(devices_per_message) / b)
    }

    fn ratio_to(
        &self,
        base: Option<&baseline::BaselineResult>,
        devices_per_message: usize,
    ) -> Option<f64> {
        let b = base?.points_per_sec();
        (b > 0.0).then(|| self.e2e.points_per_sec(devices_per_message) / b)
    }
}

/// The communication log's lines: what it wrote and dropped, its size on disk, and with a run
/// without it the two ratios to the baseline side by side.
fn render_comm_log(s: &mut String, r: &IngestReport, dpm: usize) {
    use std::fmt::Write;
    let e = &r.e2e;
    let _ = writeln!(
        s,
        "comm log     {}: {} messages written, {} dropped (buffer full){}",
        if e.comm_log { "on" } else { "off" },
        e.comm_log_written,
        e.comm_log_dropped,
        match e.comm_log_bytes {
            Some(bytes) if e.comm_log_written > 0 => format!(
                "; {bytes} bytes on disk = {:.0} bytes per stored message",
                bytes as f64 / e.comm_log_written as f64
            ),
            _ => String::new(),
        }
    );
    if let Some(off) = &r.e2e_comm_off {
        let _ = writeln!(
            s,
            "comm log off {:>12.0} data points/s  {:>9.0} messages/s ({} messages in {:.1} s)",
            off.points_per_sec(dpm),
            off.messages_per_sec(),
            off.messages_in_window,
            off.secs
        );
        if let (Some(on), Some(off_ratio)) = (r.ratio(dpm), r.ratio_comm_off(dpm)) {
            let _ = writeln!(
                s,
                "comm log     ratio to baseline: on {on:.3}, off {off_ratio:.3}; on / off = {:.3}",
                on / off_ratio
            );
        }
    }
}

/// Runs the end-to-end measurement and then the baseline.
pub async fn run_ingest(b: &IngestBench) -> anyhow::Result<IngestReport> {
    let o = &b.e2e;
    if !o.quiet {
        println!(
            "end to end: {} gateways x {} device(s) x {} values per report, QoS 1, {} in flight end to end per gateway, {} s on {}",
            o.gateways, o.devices_per_message, o.values, o.window, o.seconds, o.db
        );
    }
    let e2e_comm_off = if b.comm_log_off_too {
        if !o.quiet {
            println!("end to end with the communication log off");
        }
        let off = e2e::E2eOptions {
            comm_log: false,
            ..o.clone()
        };
        Some(e2e::run(&off).await?)
    } else {
        None
    };
    if !o.quiet {
        println!(
            "end to end with the communication log {}",
            if o.comm_log { "on" } else { "off" }
        );
    }
    let e2e = e2e::run(o).await?;
    let (baseline, raw_inserts) = match b.baseline_seconds {
        Some(seconds) => {
            let devices = o.gateways * o.devices_per_message;
            // Ingest writes a device's latest values, its `last_seen` and its day's energy
            // once per report: a gateway has one report in flight, so a batch never holds two
            // of one device (nor does a real fleet's, with a report every few minutes). The
            // store merges repeats inside a transaction, so the baseline's transactions hold
            // each device at most once too, or it would write fewer rows than ingest does.
            let options = baseline::BaselineOptions {
                db: o.db,
                postgres_url: o.postgres_url.clone(),
                devices,
                values: o.values,
                seconds,
                batch_rows: b.batch_rows.min(devices).max(1),
            };
            if !o.quiet {
                println!(
                    "baseline: the rows ingest writes per report (sample, latest, device, day energy) through the store, {} reports of {} distinct devices per transaction, {} s on {}",
                    options.batch_rows, options.batch_rows, seconds, o.db
                );
            }
            let same_rows = baseline::run_store(&options).await?;
            let raw = baseline::BaselineOptions {
                batch_rows: b.batch_rows,
                ..options
            };
            if !o.quiet {
                println!(
                    "raw inserts: multi-row INSERT of {} rows per transaction into samples only, {} s on {}",
                    raw.batch_rows, seconds, o.db
                );
            }
            (Some(same_rows), Some(baseline::run(&raw).await?))
        }
        None => (None, None),
    };
    Ok(IngestReport {
        e2e,
        e2e_comm_off,
        baseline,
        raw_inserts,
    })
}

/// CPU per acknowledged report in the measured window, per party: what each spends is
/// readable on a machine where they share the cores, where the rates alone are not.
fn render_cpu(s: &mut String, db: DbKind, label: &str, e: &e2e::E2eResult) {
    use std::fmt::Write;
    let reports = e.messages_in_window.max(1) as f64;
    let us = |secs: f64| secs * 1e6 / reports;
    let (portal, database) = (us(e.cpu.portal), us(e.cpu.database));
    let whose = match db {
        DbKind::Sqlite => "SQLite's connection threads",
        DbKind::Postgres => "the PostgreSQL backends serving the portal",
    };
    let _ = writeln!(
        s,
        "cpu{label}  portal {portal:.1} us per acknowledged report, database {database:.1} us ({whose}), simulated gateways {:.1} us; portal / database = {:.2}; target portal <= database: {}",
        us(e.cpu.gateways),
        portal / database.max(1e-9),
        if portal <= database { "met" } else { "NOT met" }
    );
}

/// The figures as printed by `bench ingest`.
pub fn render(b: &IngestBench, r: &IngestReport) -> String {
    use std::fmt::Write;
    let o = &b.e2e;
    let e = &r.e2e;
    let dpm = o.devices_per_message;
    let mut s = String::new();
    let _ = writeln!(s, "== ingest benchmark: {} ==", o.db);
    let _ = writeln!(
        s,
        "end to end   {:>12.0} data points/s  {:>9.0} messages/s  {:>9.0} rows/s   ({} messages acknowledged in {:.1} s)",
        e.points_per_sec(dpm),
        e.messages_per_sec(),
        e.rows_per_sec(dpm),
        e.messages_in_window,
        e.secs
    );
    let verdict = if e.rows_committed == e.rows_expected {
        "OK"
    } else if e.rows_committed > e.rows_expected {
        "OK (more committed than acknowledged)"
    } else {
        "MISSING ROWS"
    };
    let _ = writeln!(
        s,
        "committed    {} rows in samples, {} values each; the portal acknowledged {} of {} published messages after commit -> {} rows expected: {verdict}",
        e.rows_committed, e.points_per_row, e.messages_acked, e.messages_published, e.rows_expected
    );
    if e.connection_errors > 0 || e.portal_not_committed > 0 {
        let _ = writeln!(
            s,
            "problems     {} gateway connection errors, {} messages the portal could not commit",
            e.connection_errors, e.portal_not_committed
        );
    }
    let base_line = |s: &mut String, label: &str, base: &baseline::BaselineResult| {
        let _ = writeln!(
            s,
            "{label} {:>12.0} data points/s  {:>9.0} rows/s ({} rows of {} values in {:.1} s of writing, {} per transaction; {} committed)",
            base.points_per_sec(),
            base.rows_per_sec(),
            base.rows,
            base.points_per_row,
            base.secs,
            base.batch_rows,
            base.rows_committed
        );
    };
    if let Some(base) = &r.baseline {
        base_line(&mut s, "baseline    ", base);
    }
    if let Some(base) = &r.raw_inserts {
        base_line(&mut s, "raw inserts ", base);
    }
    if let Some(ratio) = r.ratio(dpm) {
        let _ = writeln!(s, "ratio        end to end / baseline = {ratio:.3}");
    }
    if let Some(ratio) = r.raw_ratio(dpm) {
        let _ = writeln!(s, "             end to end / raw inserts = {ratio:.3}");
    }
    render_comm_log(&mut s, r, dpm);
    render_cpu(&mut s, o.db, "", e);
    if let Some(off) = &r.e2e_comm_off {
        render_cpu(&mut s, o.db, " (comm log off)", off);
    }
    let _ = writeln!(
        s,
        "memory RSS   start {:.1} MiB, peak {:.1} MiB, end {:.1} MiB",
        e.rss_start_mib, e.rss_peak_mib, e.rss_end_mib
    );
    if e.rss_trace_mib.len() > 1 {
        let trace: Vec<String> = e.rss_trace_mib.iter().map(|m| format!("{m:.0}")).collect();
        let _ = writeln!(
            s,
            "             every {} s: {} MiB",
            o.report_every.as_secs(),
            trace.join(" ")
        );
    }
    let _ = writeln!(s, "latest read  Ingest::latest      {}", e.latest_cache);
    let _ = writeln!(s, "             store.latest_sample {}", e.latest_db);
    if o.db == DbKind::Sqlite {
        let points = e.points_per_sec(dpm);
        let mark = |ok: bool| if ok { "met" } else { "NOT met" };
        let _ = writeln!(
            s,
            "targets      >= 100,000 points/s end to end: {}; >= 0.5 x baseline: {}; p99 latest read < 20 ms: {}",
            mark(points >= 100_000.0),
            r.ratio(dpm)
                .map(|x| mark(x >= 0.5))
                .unwrap_or("no baseline"),
            mark(e.latest_cache.p99_ms < 20.0)
        );
    }
    s
}
