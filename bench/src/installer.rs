//! A large installer's screens: the fleet fixture of `bench fleet` grown to what a large
//! installer company holds (5,000 plants, 20,000 devices, a year of daily energy per plant),
//! and the lists its staff page through, measured through the real router (`api::router`, no
//! socket) with concurrent clients, each signed in as a staff account of its own. The baseline,
//! `GET /api/v1/user`, runs with the same clients in the same run.

use std::time::Instant;

use anyhow::{Context, bail};
use chrono::{TimeZone, Utc};
use domain::{DeviceFamily, ids::DeviceId};
use store::telemetry::{SampleWrite, TelemetryBatch};

use crate::{
    db::{DbKind, FreshDb},
    fleet::{
        BenchCompany, BenchPlant, PhaseResult, bench_company, build_plants, fill, get, now, phase,
        sign_in, staff_account,
    },
};

const ADMIN: &str = "installer-admin@bench.example";
/// Inverters of the plant whose day energy is read.
const BIG_PLANT_INVERTERS: usize = 10;
/// Five-minute samples in a day.
const SLOTS: i64 = 288;

#[derive(Debug, Clone)]
pub struct InstallerOptions {
    pub db: DbKind,
    pub postgres_url: String,
    pub plants: usize,
    pub customers: usize,
    /// Days of daily energy per plant.
    pub days: i64,
    /// Clients of the list phases.
    pub clients: usize,
    /// Clients of the day energy phase.
    pub day_clients: usize,
    pub seconds: f64,
}

#[derive(Debug, Clone)]
pub struct InstallerResult {
    pub setup_secs: f64,
    pub devices: i64,
    pub energy_rows: i64,
    pub sample_rows: i64,
    /// (phase, clients, result).
    pub phases: Vec<(usize, PhaseResult)>,
}

/// The p99 every measured call must stay under.
pub const TARGET_MS: f64 = 50.0;

pub async fn run(o: &InstallerOptions) -> anyhow::Result<InstallerResult> {
    let db = FreshDb::create(o.db, &o.postgres_url, "installer").await?;
    let result = run_on(o, &db).await;
    if let Err(e) = db.remove().await {
        eprintln!("warning: could not remove the benchmark database: {e}");
    }
    result
}

async fn run_on(o: &InstallerOptions, db: &FreshDb) -> anyhow::Result<InstallerResult> {
    let store = db.store.clone();
    let started = Instant::now();
    let router = crate::app::in_process_router("installer-files", &store).await?;
    let clients = o.clients.max(o.day_clients).max(1);
    let BenchCompany {
        id: company,
        admin,
        actor,
        customers,
    } = bench_company(&store, "Large Installer", ADMIN, clients, o.customers).await?;
    let plants = build_plants(
        &store,
        &actor,
        admin.id,
        Some(company),
        &customers,
        o.plants,
        "L",
    )
    .await
    .context("the company's plants")?;
    let mut big_inverters = more_devices(&store, &plants).await?;
    fill(&store, &plants, o.days).await?;
    let big = plants.first().context("no plants")?;
    big_inverters.push(big.device);
    day_of_samples(&store, big, &big_inverters).await?;
    db.settle().await?;
    let devices = db.count("devices").await?;
    let energy_rows = db.count("plant_energy_daily").await?;
    let sample_rows = db.count_samples().await?;
    let setup_secs = started.elapsed().as_secs_f64();
    println!(
        "  data: {} plants, {devices} devices, {energy_rows} plant day rows, {sample_rows} samples ({setup_secs:.0} s to build)",
        o.plants
    );

    let token = sign_in(&router, ADMIN).await?;
    let count = get(&router, &token, "/api/v1/overview/plantCount").await?;
    let seen = count["data"]
        .as_i64()
        .or_else(|| count["data"]["total"].as_i64());
    if let Some(seen) = seen
        && seen != o.plants as i64
    {
        bail!(
            "the plant count says {seen}, not the company's {}",
            o.plants
        );
    }
    let day = get(
        &router,
        &token,
        &format!("/api/v1/plant/energy/{}/day", big.id.0),
    )
    .await?;
    let points: usize = day["data"]["infos"].as_array().map_or(0, |series| {
        series
            .iter()
            .filter_map(|c| c["records"].as_array())
            .map(Vec::len)
            .sum()
    });
    println!("  the 10-inverter plant's day: {points} curve points");

    let mut staff = Vec::with_capacity(clients);
    for n in 0..clients {
        staff.push(sign_in(&router, &staff_account(n)).await?);
    }
    let list = |q: &str| format!("/api/v1/plants?page=1&limit=20{q}");
    let plans: Vec<(&'static str, String, usize)> = vec![
        (
            "baseline GET /api/v1/user",
            "/api/v1/user".into(),
            o.clients,
        ),
        ("plant list, newest first", list(""), o.clients),
        (
            "plant list by name",
            list("&sort=name&order=asc"),
            o.clients,
        ),
        (
            "plant list by capacity",
            list("&sort=totalPower&order=desc"),
            o.clients,
        ),
        (
            "plant list, name filter",
            list("&name=plant%20L0012&sort=name"),
            o.clients,
        ),
        (
            "plant list, status fault",
            list("&status=3&sort=name"),
            o.clients,
        ),
        ("plant list, type storage", list("&type=3"), o.clients),
        (
            "gateway list",
            "/api/v1/gateways?page=1&limit=20".into(),
            o.clients,
        ),
        (
            "inverter list",
            "/api/v1/inverters?page=1&limit=20".into(),
            o.clients,
        ),
        (
            "plant count",
            "/api/v1/overview/plantCount".into(),
            o.clients,
        ),
        (
            "fleet summary, today",
            "/api/v1/fleet/summary?period=today".into(),
            o.clients,
        ),
        (
            "events list",
            "/api/v1/events?page=1&limit=20".into(),
            o.clients,
        ),
        (
            "baseline GET /api/v1/user",
            "/api/v1/user".into(),
            o.day_clients,
        ),
        (
            "day energy, 10-inverter plant",
            format!("/api/v1/plant/energy/{}/day", big.id.0),
            o.day_clients,
        ),
    ];
    let seconds = o.seconds.max(0.5);
    let mut phases = Vec::new();
    for (name, path, n) in plans {
        let n = n.max(1);
        let r = phase(&router, &staff[..n], name, &[path], n, seconds).await?;
        phases.push((n, r));
    }
    Ok(InstallerResult {
        setup_secs,
        devices,
        energy_rows,
        sample_rows,
        phases,
    })
}

/// Every plant's meter and battery and, on all plants but the last few, a second inverter, so
/// the company holds four devices per plant; the first plant has ten inverters (their ids, but
/// for the one `build_plants` made, are returned).
async fn more_devices(
    store: &store::Store,
    plants: &[BenchPlant],
) -> anyhow::Result<Vec<DeviceId>> {
    let mut big = Vec::new();
    let t = now();
    let second_inverters = plants.len().saturating_sub(BIG_PLANT_INVERTERS - 1);
    for p in plants {
        let sn = |what: &str, k: usize| format!("L-{what}-{:05}-{k}", p.n);
        let extra_inverters = if p.n == 0 {
            BIG_PLANT_INVERTERS - 1
        } else {
            usize::from(p.n <= second_inverters)
        };
        for k in 0..extra_inverters {
            let id = store
                .upsert_device(
                    &sn("INV", k),
                    p.gateway,
                    DeviceFamily::Inverter,
                    2,
                    "deye-hybrid-1ph",
                    "SUN-8K",
                    None,
                    t,
                )
                .await?;
            if p.n == 0 {
                big.push(id);
            }
        }
        store
            .upsert_device(
                &sn("MET", 0),
                p.gateway,
                DeviceFamily::Meter,
                1,
                "eastron-sdm",
                "SDM630",
                None,
                t,
            )
            .await?;
        store
            .upsert_device(
                &sn("BAT", 0),
                p.gateway,
                DeviceFamily::Battery,
                3,
                "pylontech",
                "US5000",
                None,
                t,
            )
            .await?;
        if (p.n + 1) % 1000 == 0 {
            println!("  {} plants' devices created", p.n + 1);
        }
    }
    Ok(big)
}

/// Five-minute samples of the plant's local day so far, for every inverter of the plant.
async fn day_of_samples(
    store: &store::Store,
    plant: &BenchPlant,
    inverters: &[DeviceId],
) -> anyhow::Result<()> {
    let today = Utc::now().with_timezone(&plant.zone).date_naive();
    let midnight = plant
        .zone
        .from_local_datetime(&today.and_hms_opt(0, 0, 0).context("midnight")?)
        .earliest()
        .context("local midnight")?
        .timestamp_millis();
    let until = now();
    let mut batch = TelemetryBatch::default();
    for &device_id in inverters {
        for slot in 0..SLOTS {
            let ts = midnight + slot * 300_000;
            if ts > until {
                break;
            }
            let pv = (1000 + (slot * 37) % 3000) as f64;
            batch.samples.push(SampleWrite {
                device_id,
                ts,
                payload: format!(
                    "{{\"pv1_power\":{pv},\"pv2_power\":{},\"load_power\":{},\"grid_power\":{},\"battery_power\":{},\"battery_soc\":{},\"today_pv_energy\":{}}}",
                    pv * 0.8,
                    400 + slot % 300,
                    -(200 + slot % 500),
                    slot % 400 - 200,
                    20 + slot % 80,
                    slot as f64 * 0.03
                ),
            });
        }
    }
    // The fixture's one sample per inverter (from `fill`) is ahead of these; no key clashes as
    // its time is a minute ago, not on a five-minute slot.
    for chunk in batch.samples.chunks(500) {
        let part = TelemetryBatch {
            samples: chunk.to_vec(),
            ..TelemetryBatch::default()
        };
        store.write_telemetry_batch(&part).await?;
    }
    Ok(())
}

/// The figures as printed by `bench installer`.
pub fn render(o: &InstallerOptions, r: &InstallerResult) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "== a large installer's screens: {} ==", o.db);
    let _ = writeln!(
        s,
        "data         {} plants, {} devices, {} plant day rows ({} days), {} samples; built in {:.0} s",
        o.plants, r.devices, r.energy_rows, o.days, r.sample_rows, r.setup_secs
    );
    let mut base = 0.0;
    let mut missed = Vec::new();
    for (clients, p) in &r.phases {
        let is_base = p.name.starts_with("baseline");
        if is_base {
            base = p.latency.p99_ms;
        }
        let ratio = if base > 0.0 {
            p.latency.p99_ms / base
        } else {
            0.0
        };
        let target = if is_base {
            String::new()
        } else if p.latency.p99_ms < TARGET_MS {
            format!("p99 < {TARGET_MS:.0} ms: met")
        } else {
            missed.push(p.name);
            format!("p99 < {TARGET_MS:.0} ms: NOT met")
        };
        let _ = writeln!(
            s,
            "{clients:>2} clients   {:<32} p50 {:>7.2} ms  p99 {:>7.2} ms  max {:>7.2} ms  {:>7.0} req/s  p99 x{ratio:>5.1} of baseline  {target}",
            p.name, p.latency.p50_ms, p.latency.p99_ms, p.latency.max_ms, p.per_second
        );
    }
    let _ = writeln!(
        s,
        "targets      {}",
        if missed.is_empty() {
            "all met".to_string()
        } else {
            format!("NOT met: {}", missed.join(", "))
        }
    );
    s
}
