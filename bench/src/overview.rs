//! Monitoring read benchmark: the plant overview endpoints, energy periods and the plant list,
//! answered by the real router (`api::router`, no socket: server time) over a SQLite or
//! PostgreSQL database filled with plants, a year of daily energy rollups per device and plant,
//! and 5-minute samples. Baseline in the same run: `GET /api/v1/user`, the cheapest signed-in
//! endpoint, through the same router (token check, permission load, envelope).

use domain::DeviceFamily;
use std::time::Instant;

use anyhow::{Context, bail};
use axum::{
    Router,
    body::Body,
    http::{Request, StatusCode, header},
};
use chrono::{Duration as Days, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use domain::{
    ids::{DeviceId, PlantId, UserId},
    plant::{PlantType, TariffSegment, Valuation},
    user::{BuiltinRole, UserKind},
};
use http_body_util::BodyExt;
use service::plants::PlantDraft;
use store::{
    Store,
    plants::PlantFields,
    telemetry::{CounterKind, EnergyWrite, SampleWrite, TelemetryBatch},
    users::NewUser,
};
use tower::ServiceExt;

use crate::{
    db::{DbKind, FreshDb},
    stats::Latency,
};

const ACCOUNT: &str = "bench-owner@example.com";
const PASSWORD: &str = "bench1234";
const ZONE: &str = "Europe/Madrid";
/// Seconds between samples: a gateway's usual upload cycle.
const SAMPLE_EVERY_S: i64 = 300;

#[derive(Debug, Clone)]
pub struct OverviewOptions {
    pub db: DbKind,
    pub postgres_url: String,
    pub plants: usize,
    /// Days of daily energy rollups per plant (and per device).
    pub days: i64,
    /// Plants that also get every 5-minute sample of those days (the rest get today's).
    pub sampled_plants: usize,
    /// Requests per endpoint.
    pub requests: usize,
}

/// One endpoint's server-time latencies.
#[derive(Debug, Clone)]
pub struct EndpointResult {
    pub name: &'static str,
    pub path: String,
    pub latency: Latency,
    /// What the target asks of its p99, in ms.
    pub target_ms: Option<f64>,
}

#[derive(Debug, Clone)]
pub struct OverviewResult {
    pub samples: i64,
    pub energy_rows: i64,
    pub setup_secs: f64,
    pub baseline: Latency,
    pub endpoints: Vec<EndpointResult>,
}

pub async fn run(o: &OverviewOptions) -> anyhow::Result<OverviewResult> {
    let db = FreshDb::create(o.db, &o.postgres_url, "overview").await?;
    let result = run_on(o, &db).await;
    if let Err(e) = db.remove().await {
        eprintln!("warning: could not remove the benchmark database: {e}");
    }
    result
}

async fn run_on(o: &OverviewOptions, db: &FreshDb) -> anyhow::Result<OverviewResult> {
    let store = db.store.clone();
    let started = Instant::now();
    let router = crate::app::in_process_router("overview-files", &store).await?;
    let owner = owner(&store).await?;
    let actor = service::actors::actor_of(&store, &owner).await?;
    let tz: Tz = ZONE.parse().map_err(|_| anyhow::anyhow!("zone"))?;
    let today = Utc::now().with_timezone(&tz).date_naive();
    let mut plants = Vec::with_capacity(o.plants);
    let mut devices = Vec::with_capacity(o.plants);
    for p in 0..o.plants {
        let (plant, device) = plant(&store, &actor, owner.id, p).await?;
        plants.push(plant);
        devices.push(device);
        if (p + 1) % 200 == 0 {
            println!("  {} plants created", p + 1);
        }
    }
    for (i, (plant, device)) in plants.iter().zip(&devices).enumerate() {
        rollups(&store, *plant, *device, today, o.days).await?;
        let first_day = if i < o.sampled_plants {
            today - Days::days(o.days - 1)
        } else {
            today
        };
        samples(&store, *device, tz, first_day).await?;
        if (i + 1) % 100 == 0 {
            println!("  {} plants filled", i + 1);
        }
    }
    let samples_total = db.count("samples").await?;
    let energy_rows = db.count("energy_daily").await? + db.count("plant_energy_daily").await?;
    let setup_secs = started.elapsed().as_secs_f64();
    println!(
        "  data: {} plants, {samples_total} samples, {energy_rows} daily energy rows ({setup_secs:.0} s to build)",
        plants.len()
    );

    let token = sign_in(&router).await?;
    // A sampled plant (a year of samples behind it) is the one measured.
    let plant = plants[0];
    let sn = format!("BENCH-INV-{:05}", 0);
    let day = today.format("%Y-%m-%d").to_string();
    let month = today.format("%Y-%m").to_string();
    let year = today.format("%Y").to_string();
    let baseline = measure(&router, &token, "/api/v1/user", o.requests).await?;
    let plans: Vec<(&'static str, String, Option<f64>)> = vec![
        ("plant detail", format!("/api/v1/plant/{plant}"), Some(20.0)),
        (
            "realtime",
            format!("/api/v1/plant/{plant}/realtime"),
            Some(20.0),
        ),
        (
            "flow",
            format!("/api/v1/plant/energy/{plant}/flow"),
            Some(20.0),
        ),
        (
            "power day",
            format!("/api/v1/plant/{plant}/power/day?date={day}"),
            Some(20.0),
        ),
        (
            "energy day",
            format!("/api/v1/plant/energy/{plant}/day?date={day}"),
            Some(20.0),
        ),
        (
            "energy month",
            format!("/api/v1/plant/energy/{plant}/month?date={month}"),
            Some(20.0),
        ),
        (
            "energy year",
            format!("/api/v1/plant/energy/{plant}/year?date={year}"),
            Some(10.0),
        ),
        (
            "energy total",
            format!("/api/v1/plant/energy/{plant}/total"),
            Some(10.0),
        ),
        (
            "generation/use",
            format!("/api/v1/plant/energy/{plant}/generation/use"),
            Some(20.0),
        ),
        (
            "inverterCount",
            format!("/api/v1/plant/{plant}/inverterCount"),
            Some(20.0),
        ),
        (
            "eventCount",
            format!("/api/v1/plant/{plant}/eventCount"),
            Some(20.0),
        ),
        (
            "events",
            format!("/api/v1/plant/{plant}/events?page=1&limit=10"),
            Some(20.0),
        ),
        (
            "inverters",
            format!("/api/v1/plant/{plant}/inverters?page=1&limit=10"),
            Some(20.0),
        ),
        (
            "check/device",
            format!("/api/v1/plant/{plant}/check/device"),
            Some(20.0),
        ),
        (
            "inverter flow",
            format!("/api/v1/inverter/{sn}/flow"),
            Some(20.0),
        ),
        (
            "plant list (50)",
            "/api/v1/plants?page=1&limit=50".to_string(),
            Some(50.0),
        ),
    ];
    // An empty day answers fast: the day curves measured must carry the sampled plant's day.
    for (name, path, _) in plans.iter().filter(|(n, ..)| n.ends_with(" day")) {
        let points = day_points(&router, &token, path).await?;
        if points == 0 {
            bail!("{name} ({path}) answered no points: nothing would be measured");
        }
    }
    let mut endpoints = Vec::with_capacity(plans.len());
    for (name, path, target_ms) in plans {
        let latency = measure(&router, &token, &path, o.requests).await?;
        endpoints.push(EndpointResult {
            name,
            path,
            latency,
            target_ms,
        });
    }
    Ok(OverviewResult {
        samples: samples_total,
        energy_rows,
        setup_secs,
        baseline,
        endpoints,
    })
}

async fn owner(store: &Store) -> anyhow::Result<store::users::UserRow> {
    let hash = service::passwords::hash(PASSWORD.to_string())
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let role = store.builtin_role(BuiltinRole::PlantOwner).await?;
    store
        .create_user(&NewUser {
            account: ACCOUNT,
            email: ACCOUNT,
            mobile: "",
            password_hash: &hash,
            nickname: "Bench owner",
            kind: UserKind::Owner,
            company: None,
            role: Some(role),
            user_src: "web",
            now: domain::time::now_ms(),
        })
        .await?;
    store.user_by_account(ACCOUNT).await?.context("bench owner")
}

/// A storage plant with a tariff, a gateway and one hybrid inverter; the plant is made by the
/// plants use case (`service::plants::create`).
async fn plant(
    store: &Store,
    actor: &domain::policy::Actor,
    owner: UserId,
    n: usize,
) -> anyhow::Result<(PlantId, DeviceId)> {
    let fields = PlantFields {
        name: format!("Bench plant {n:05}"),
        plant_type: PlantType::StorageDc as i64,
        total_power: 8.0,
        join_date: Utc::now().format("%Y-%m-%d").to_string(),
        currency: "EUR".into(),
        timezone: ZONE.into(),
        address: "Madrid".into(),
        lon: -3.7 + n as f64 * 0.001,
        lat: 40.4,
        image_url: String::new(),
        thumb_url: String::new(),
        principal: String::new(),
        phone: String::new(),
        email: String::new(),
        installer: String::new(),
        invest: 0.0,
        tilt: None,
        azimuth: None,
    };
    let tariff = vec![TariffSegment {
        kind: Valuation::Constant,
        start: String::new(),
        end: String::new(),
        price: 0.18,
        direction: None,
    }];
    let draft = PlantDraft {
        fields,
        tariff,
        owner: None,
    };
    let plant = service::plants::create(store, actor, &draft, domain::time::now_ms())
        .await
        .map_err(|e| anyhow::anyhow!("plant: {e}"))?;
    let now = domain::time::now_ms();
    let gateway = store
        .create_gateway(&format!("BENCH-GW-{n:05}"), "K", "deye-hybrid-1ph", now)
        .await?;
    store.bind_gateway(gateway, plant, owner, None, now).await?;
    let device = store
        .upsert_device(
            &format!("BENCH-INV-{n:05}"),
            gateway,
            DeviceFamily::Inverter,
            2,
            "deye-hybrid-1ph",
            "SUN-8K",
            None,
            now,
        )
        .await?;
    Ok((plant, device))
}

/// A year (or `days`) of daily energy per metric for the device, rolled up to the plant by the
/// store exactly as ingest does.
async fn rollups(
    store: &Store,
    plant: PlantId,
    device: DeviceId,
    today: NaiveDate,
    days: i64,
) -> anyhow::Result<()> {
    let mut batch = TelemetryBatch::default();
    for d in 0..days {
        let day = (today - Days::days(d)).format("%Y-%m-%d").to_string();
        let pv = 20.0 + (d % 30) as f64 * 0.5;
        for (metric, kwh) in [
            ("pv", pv),
            ("load", pv * 0.8),
            ("grid_import", 3.0),
            ("grid_export", pv * 0.3),
            ("charge", 5.0),
            ("discharge", 4.5),
        ] {
            batch.energy.push(EnergyWrite {
                device_id: device,
                plant_id: Some(plant),
                day: day.clone(),
                metric: metric.into(),
                value: kwh,
                kind: CounterKind::Daily,
                rank: 0,
            });
        }
    }
    store.write_telemetry_batch(&batch).await?;
    Ok(())
}

/// Every 5-minute sample from `first` to now (today up to this moment), with the value keys of
/// the shipped single-phase hybrid config (about 100 values, as a real report).
async fn samples(store: &Store, device: DeviceId, tz: Tz, first: NaiveDate) -> anyhow::Result<()> {
    let keys = hybrid_keys()?;
    let start = tz
        .from_local_datetime(&first.and_hms_opt(0, 0, 0).context("midnight")?)
        .earliest()
        .context("local midnight")?
        .timestamp_millis();
    let now = domain::time::now_ms();
    let mut batch = TelemetryBatch::default();
    let mut ts = start;
    while ts <= now {
        let minute_of_day = (ts / 60_000) % 1440;
        let sun = ((minute_of_day as f64 - 360.0) / 720.0 * std::f64::consts::PI)
            .sin()
            .max(0.0);
        batch.samples.push(SampleWrite {
            device_id: device,
            ts,
            payload: payload(&keys, sun * 6000.0, ts),
        });
        if batch.samples.len() == 2000 {
            store.write_telemetry_batch(&batch).await?;
            batch.samples.clear();
        }
        ts += SAMPLE_EVERY_S * 1000;
    }
    if !batch.samples.is_empty() {
        store.write_telemetry_batch(&batch).await?;
    }
    Ok(())
}

fn hybrid_keys() -> anyhow::Result<Vec<String>> {
    let configs = devices::protocol::shipped()?;
    let config = configs
        .iter()
        .find(|c| c.code == "deye-hybrid-1ph")
        .context("shipped config deye-hybrid-1ph")?;
    Ok(config.points.iter().map(|p| p.key.clone()).collect())
}

fn payload(keys: &[String], pv_w: f64, ts: i64) -> String {
    let mut map = serde_json::Map::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        let v = match k.as_str() {
            "pv1_power" | "pv2_power" => pv_w / 2.0,
            "load_power" => 900.0,
            "grid_power" | "grid_ct_power" => 900.0 - pv_w,
            "battery_power" => -200.0,
            "battery_soc" => 40.0 + (ts / 300_000 % 50) as f64,
            _ => 100.0 + i as f64 * 0.5,
        };
        map.insert(k.clone(), serde_json::Value::from(v));
    }
    serde_json::Value::Object(map).to_string()
}

async fn sign_in(router: &Router) -> anyhow::Result<String> {
    let body = serde_json::json!({
        "username": ACCOUNT, "password": PASSWORD,
        "grant_type": "password", "client_id": "csp-web"
    });
    let request = Request::post("/oauth/token")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))?;
    let (status, json) = call(router, request).await?;
    if status != StatusCode::OK {
        bail!("sign-in answered HTTP {status}");
    }
    json["data"]["access_token"]
        .as_str()
        .map(str::to_string)
        .with_context(|| format!("sign-in refused: {json}"))
}

async fn call(
    router: &Router,
    request: Request<Body>,
) -> anyhow::Result<(StatusCode, serde_json::Value)> {
    let response = router.clone().oneshot(request).await?;
    let status = response.status();
    let bytes = response.into_body().collect().await?.to_bytes();
    let json = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
    Ok((status, json))
}

/// How many points the series of a day answer (`data.infos[].records`) hold together.
async fn day_points(router: &Router, token: &str, path: &str) -> anyhow::Result<usize> {
    let request = Request::get(path)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::empty())?;
    let (_, json) = call(router, request).await?;
    Ok(json["data"]["infos"]
        .as_array()
        .map(|infos| {
            infos
                .iter()
                .filter_map(|s| s["records"].as_array())
                .map(Vec::len)
                .sum()
        })
        .unwrap_or(0))
}

/// `requests` sequential calls (after 10 unmeasured ones); every answer must be a success.
async fn measure(
    router: &Router,
    token: &str,
    path: &str,
    requests: usize,
) -> anyhow::Result<Latency> {
    let mut times: Vec<std::time::Duration> = Vec::with_capacity(requests);
    for i in 0..requests + 10 {
        let request = Request::get(path)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())?;
        let started = Instant::now();
        let (status, json) = call(router, request).await?;
        let elapsed = started.elapsed();
        if status != StatusCode::OK || json["code"] != 0 {
            bail!("{path} answered HTTP {status}: {json}");
        }
        if i >= 10 {
            times.push(elapsed);
        }
    }
    Ok(Latency::of(&mut times))
}

/// The figures as printed by `bench overview`.
pub fn render(o: &OverviewOptions, r: &OverviewResult) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "== monitoring reads: {} ==", o.db);
    let _ = writeln!(
        s,
        "data         {} plants, {} samples, {} daily energy rows",
        o.plants, r.samples, r.energy_rows
    );
    let _ = writeln!(
        s,
        "baseline     {:<16} p50 {:>7.3} ms  p99 {:>7.3} ms  (GET /api/v1/user)",
        "signed-in floor", r.baseline.p50_ms, r.baseline.p99_ms
    );
    let mut missed = Vec::new();
    for e in &r.endpoints {
        let ratio = if r.baseline.p99_ms > 0.0 {
            e.latency.p99_ms / r.baseline.p99_ms
        } else {
            0.0
        };
        let verdict = match e.target_ms {
            Some(t) if e.latency.p99_ms < t => format!("< {t} ms: met"),
            Some(t) => {
                missed.push(e.name);
                format!("< {t} ms: NOT met")
            }
            None => String::new(),
        };
        let _ = writeln!(
            s,
            "endpoint     {:<16} p50 {:>7.3} ms  p99 {:>7.3} ms  max {:>7.3} ms  p99 x{ratio:>5.1} of baseline  {verdict}",
            e.name, e.latency.p50_ms, e.latency.p99_ms, e.latency.max_ms
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
