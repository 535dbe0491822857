//! Fleet dashboard benchmark: the calls the web app's home screen makes, answered by the real
//! router (`api::router`, no socket: server time plus queueing) over a fresh database holding
//! one installer company with thousands of plants (each with a gateway, an inverter that
//! reported, and a month and more of daily PV energy), some open warnings and faults, some
//! silent plants, and another company's plants beside them. Concurrent clients (tasks on the
//! portal's runtime) send one request after another; the baseline, `GET /api/v1/user`, runs with
//! the same clients in the same run.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use axum::{
    Router,
    body::Body,
    http::{Request, StatusCode, header},
};
use chrono::{Duration as Days, Utc};
use chrono_tz::Tz;
use domain::{
    DeviceFamily,
    ids::{CompanyId, DeviceId, GatewayId, PlantId, UserId},
    plant::{PlantType, TariffSegment, Valuation},
    user::BuiltinRole,
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

pub(crate) const PASSWORD: &str = "bench1234";
const ADMIN: &str = "fleet-admin@bench.example";
/// The company's staff, one per client in the phases where each client is someone else.
pub(crate) fn staff_account(n: usize) -> String {
    format!("fleet-staff{n:02}@bench.example")
}
/// Plant-local zones the fleet spreads over (a plant's today differs between them).
pub(crate) const ZONES: [&str; 4] = [
    "Europe/Madrid",
    "Europe/Berlin",
    "Europe/London",
    "Atlantic/Canary",
];

#[derive(Debug, Clone)]
pub struct FleetOptions {
    pub db: DbKind,
    pub postgres_url: String,
    /// Plants of the measured company.
    pub plants: usize,
    /// Plants of another company, never counted.
    pub other_plants: usize,
    /// Customers the company's plants belong to.
    pub customers: usize,
    /// Days of daily PV energy per plant.
    pub days: i64,
    pub clients: usize,
    /// Length of each measured phase.
    pub seconds: f64,
}

/// One phase: every client calls `paths` in turn for `seconds`.
#[derive(Debug, Clone)]
pub struct PhaseResult {
    pub name: &'static str,
    /// Whether each client signed in as an account of its own (else all as the administrator).
    pub own_accounts: bool,
    pub latency: Latency,
    pub per_second: f64,
    /// Per path, when the phase calls several.
    pub per_path: Vec<(String, Latency)>,
}

#[derive(Debug, Clone)]
pub struct FleetResult {
    pub setup_secs: f64,
    pub energy_rows: i64,
    pub plants_seen: i64,
    /// The use case itself (`service::fleet::summary`, no kept summary), one call at a time:
    /// what one read of the dashboard costs.
    pub uncached: Vec<(&'static str, Latency)>,
    pub phases: Vec<PhaseResult>,
}

pub async fn run(o: &FleetOptions) -> anyhow::Result<FleetResult> {
    let db = FreshDb::create(o.db, &o.postgres_url, "fleet").await?;
    let result = run_on(o, &db).await;
    if let Err(e) = db.remove().await {
        eprintln!("warning: could not remove the benchmark database: {e}");
    }
    result
}

async fn run_on(o: &FleetOptions, db: &FreshDb) -> anyhow::Result<FleetResult> {
    let store = db.store.clone();
    let started = Instant::now();
    let router = crate::app::in_process_router("fleet-files", &store).await?;
    let BenchCompany {
        id: company,
        admin,
        actor,
        customers,
    } = bench_company(&store, "Bench Installers", ADMIN, o.clients, o.customers).await?;
    let fleet = build_plants(
        &store,
        &actor,
        admin.id,
        Some(company),
        &customers,
        o.plants,
        "B",
    )
    .await
    .context("the company's plants")?;
    fill(&store, &fleet, o.days).await?;
    // Another company's plants, with energy and events of their own: never counted.
    if o.other_plants > 0 {
        let other = store.create_company("Other Installers", now()).await?;
        let other_admin = user(
            &store,
            "other-admin@bench.example",
            BuiltinRole::CompanyAdmin,
            Some(other),
        )
        .await?;
        let other_actor = service::actors::actor_of(&store, &other_admin).await?;
        let theirs = build_plants(
            &store,
            &other_actor,
            other_admin.id,
            Some(other),
            &[],
            o.other_plants,
            "O",
        )
        .await
        .context("the other company's plants")?;
        fill(&store, &theirs, o.days.min(3)).await?;
    }
    let energy_rows = db.count("plant_energy_daily").await?;
    let setup_secs = started.elapsed().as_secs_f64();
    println!(
        "  data: {} plants of the company, {} of another, {energy_rows} plant day rows ({setup_secs:.0} s to build)",
        o.plants, o.other_plants
    );

    let token = sign_in(&router, ADMIN).await?;
    let summary = get(&router, &token, "/api/v1/fleet/summary").await?;
    let plants_seen = summary["data"]["plants"]["total"].as_i64().unwrap_or(0);
    if plants_seen != o.plants as i64 {
        bail!(
            "the dashboard counts {plants_seen} plants, not the company's {}",
            o.plants
        );
    }
    for p in ["today", "7d", "30d"] {
        let s = get(
            &router,
            &token,
            &format!("/api/v1/fleet/summary?period={p}"),
        )
        .await?;
        if s["data"]["ranking"]["ranked"].as_i64().unwrap_or(0) == 0 {
            bail!("period {p}: nothing ranked, nothing would be measured: {s}");
        }
    }

    // The use case alone, each period, one call at a time (no kept summary).
    let mut uncached = Vec::new();
    for (name, period) in [
        (
            ("summary, today, cold", "summary, today, warm"),
            service::fleet::Period::Today,
        ),
        (
            ("summary, 7 days, cold", "summary, 7 days, warm"),
            service::fleet::Period::Days7,
        ),
        (
            ("summary, 30 days, cold", "summary, 30 days, warm"),
            service::fleet::Period::Days30,
        ),
    ] {
        let ask = service::fleet::FleetAsk {
            period,
            silent_minutes: service::fleet::SILENT_MINUTES_DEFAULT,
        };
        let filter = store::plants::PlantFilter::default();
        // Cold: nothing kept, the closed days summed too; warm: the plants' closed days kept
        // (as between two summaries of a running portal).
        let (mut cold, mut warm) = (Vec::new(), Vec::new());
        let kept = service::fleet::ClosedDays::default();
        for i in 0..23 {
            let fresh = service::fleet::ClosedDays::default();
            let started = Instant::now();
            service::fleet::summary(&store, &fresh, &actor, &filter, ask, now()).await?;
            let cold_time = started.elapsed();
            let started = Instant::now();
            service::fleet::summary(&store, &kept, &actor, &filter, ask, now()).await?;
            if i >= 3 {
                cold.push(cold_time);
                warm.push(started.elapsed());
            }
        }
        uncached.push((name.0, Latency::of(&mut cold)));
        uncached.push((name.1, Latency::of(&mut warm)));
    }

    // Its reads, one at a time: where a read's time goes.
    {
        let vis = actor.plant_visibility();
        let filter = store::plants::PlantFilter::default();
        let today = Utc::now().date_naive();
        let day = |d: i64| (today - Days::days(d)).format("%Y-%m-%d").to_string();
        let days = store::fleet::EnergyDays {
            todays: [day(1), day(0), day(-1)],
            period_starts: [day(1), day(0), day(-1)],
        };
        let mut parts: Vec<(&'static str, Vec<Duration>)> = vec![
            ("store: plants", Vec::new()),
            ("store: open alarms", Vec::new()),
            ("store: energy of today", Vec::new()),
            ("store: inverter stamps", Vec::new()),
        ];
        for _ in 0..20 {
            let t = Instant::now();
            store.fleet_plants(vis, actor.id, &filter).await?;
            parts[0].1.push(t.elapsed());
            let t = Instant::now();
            store.fleet_open_alarms(vis, actor.id, &filter).await?;
            parts[1].1.push(t.elapsed());
            let t = Instant::now();
            store
                .fleet_energy(vis, actor.id, &filter, "pv", &days)
                .await?;
            parts[2].1.push(t.elapsed());
            let t = Instant::now();
            store.fleet_inverter_stamps(vis, actor.id, &filter).await?;
            parts[3].1.push(t.elapsed());
        }
        for (name, mut times) in parts {
            uncached.push((name, Latency::of(&mut times)));
        }
    }

    let mut staff = Vec::with_capacity(o.clients);
    for n in 0..o.clients {
        staff.push(sign_in(&router, &staff_account(n)).await?);
    }
    let admin_only = vec![token.clone()];
    let customer = customer_id(&store, &customers[0]).await?;
    // What the home screen asks when it opens (then the summary again every 10 s).
    let opening = vec![
        "/api/v1/overview/plantCount".to_string(),
        "/api/v1/fleet/summary?period=today".to_string(),
        "/api/v1/dict/plantTypes".to_string(),
        "/api/v1/agents/list".to_string(),
        "/api/v1/customers/list".to_string(),
    ];
    let plans: Vec<(&'static str, Vec<String>, &Vec<String>)> = vec![
        (
            "baseline GET /api/v1/user",
            vec!["/api/v1/user".into()],
            &admin_only,
        ),
        (
            "summary, today",
            vec!["/api/v1/fleet/summary?period=today".into()],
            &admin_only,
        ),
        (
            "summary, 7 days",
            vec!["/api/v1/fleet/summary?period=7d".into()],
            &admin_only,
        ),
        (
            "summary, 30 days",
            vec!["/api/v1/fleet/summary?period=30d".into()],
            &admin_only,
        ),
        (
            "summary, filtered (type, customer)",
            vec![format!(
                "/api/v1/fleet/summary?period=30d&type=2&customerId={customer}"
            )],
            &admin_only,
        ),
        (
            "baseline GET /api/v1/user",
            vec!["/api/v1/user".into()],
            &staff,
        ),
        (
            "summary, 30 days",
            vec!["/api/v1/fleet/summary?period=30d".into()],
            &staff,
        ),
        ("the screen's opening calls", opening, &staff),
    ];
    let seconds = o.seconds.max(1.0);
    let mut phases = Vec::new();
    for (name, paths, tokens) in &plans {
        phases.push(phase(&router, tokens, name, paths, o.clients, seconds).await?);
    }
    Ok(FleetResult {
        setup_secs,
        energy_rows,
        plants_seen,
        uncached,
        phases,
    })
}

pub(crate) fn now() -> i64 {
    domain::time::now_ms()
}

/// An installer company as the benches need it: its administrator `admin_account` (and the
/// actor acting as them), `staff` staff accounts (`staff_account(n)`) and at least one plant
/// owner who is its customer (`customerNNNN@bench.example`).
pub(crate) struct BenchCompany {
    pub id: CompanyId,
    pub admin: store::users::UserRow,
    pub actor: domain::policy::Actor,
    pub customers: Vec<String>,
}

pub(crate) async fn bench_company(
    store: &Store,
    name: &str,
    admin_account: &str,
    staff: usize,
    customers: usize,
) -> anyhow::Result<BenchCompany> {
    let company = store.create_company(name, now()).await?;
    let admin = user(
        store,
        admin_account,
        BuiltinRole::CompanyAdmin,
        Some(company),
    )
    .await?;
    let actor = service::actors::actor_of(store, &admin).await?;
    for n in 0..staff {
        user(
            store,
            &staff_account(n),
            BuiltinRole::CompanyStaff,
            Some(company),
        )
        .await?;
    }
    let mut accounts = Vec::with_capacity(customers.max(1));
    for c in 0..customers.max(1) {
        let account = format!("customer{c:04}@bench.example");
        let owner = user(store, &account, BuiltinRole::PlantOwner, None).await?;
        store
            .insert_customer(company, owner.id, None, "bench", now())
            .await?;
        accounts.push(account);
    }
    Ok(BenchCompany {
        id: company,
        admin,
        actor,
        customers: accounts,
    })
}

pub(crate) async fn user(
    store: &Store,
    account: &str,
    role: BuiltinRole,
    company: Option<CompanyId>,
) -> anyhow::Result<store::users::UserRow> {
    let hash = service::passwords::hash(PASSWORD.to_string())
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let role_id = store.builtin_role(role).await?;
    store
        .create_user(&NewUser {
            account,
            email: account,
            mobile: "",
            password_hash: &hash,
            nickname: account.split('@').next().unwrap_or_default(),
            kind: role.user_kind(),
            company,
            role: Some(role_id),
            user_src: "web",
            now: now(),
        })
        .await?;
    store.user_by_account(account).await?.context("bench user")
}

pub(crate) async fn customer_id(store: &Store, account: &str) -> anyhow::Result<i64> {
    Ok(store
        .user_by_account(account)
        .await?
        .context("customer")?
        .id
        .0)
}

/// A plant of the fleet with what it reports.
pub(crate) struct BenchPlant {
    pub(crate) id: PlantId,
    pub(crate) gateway: GatewayId,
    pub(crate) device: DeviceId,
    pub(crate) zone: Tz,
    pub(crate) n: usize,
}

/// `count` plants made by the plants use case as `actor` (for the customers in turn, when
/// given), each with a bound gateway and one inverter; a tenth has no capacity entered.
pub(crate) async fn build_plants(
    store: &Store,
    actor: &domain::policy::Actor,
    staff: UserId,
    company: Option<CompanyId>,
    customers: &[String],
    count: usize,
    tag: &str,
) -> anyhow::Result<Vec<BenchPlant>> {
    let mut out = Vec::with_capacity(count);
    for n in 0..count {
        let zone = ZONES[n % ZONES.len()];
        let fields = PlantFields {
            name: format!("Fleet plant {tag}{n:05}"),
            plant_type: if n % 3 == 0 {
                PlantType::StorageDc as i64
            } else {
                PlantType::GridTied as i64
            },
            total_power: if n % 10 == 9 {
                0.0
            } else {
                5.0 + (n % 20) as f64
            },
            join_date: Utc::now().format("%Y-%m-%d").to_string(),
            currency: "EUR".into(),
            timezone: zone.into(),
            address: "Bench".into(),
            lon: -9.0 + (n % 390) as f64 * 0.1,
            lat: 36.0 + (n % 240) as f64 * 0.1,
            image_url: String::new(),
            thumb_url: String::new(),
            tilt: None,
            azimuth: None,
            principal: String::new(),
            phone: String::new(),
            email: String::new(),
            installer: String::new(),
            invest: 0.0,
        };
        let draft = PlantDraft {
            fields,
            tariff: vec![TariffSegment {
                kind: Valuation::Constant,
                start: String::new(),
                end: String::new(),
                price: 0.18,
                direction: None,
            }],
            owner: (!customers.is_empty()).then(|| customers[n % customers.len()].clone()),
        };
        let id = service::plants::create(store, actor, &draft, now())
            .await
            .map_err(|e| anyhow::anyhow!("plant: {e}"))?;
        let t = now();
        let gateway = store
            .create_gateway(&format!("FLEET-GW-{tag}{n:05}"), "K", "deye-hybrid-1ph", t)
            .await?;
        let owner = store.plant(id, staff).await?.context("plant")?.owner_id;
        store.bind_gateway(gateway, id, owner, company, t).await?;
        let device = store
            .upsert_device(
                &format!("FLEET-INV-{tag}{n:05}"),
                gateway,
                DeviceFamily::Inverter,
                2,
                "deye-hybrid-1ph",
                "SUN-8K",
                None,
                t,
            )
            .await?;
        out.push(BenchPlant {
            id,
            gateway,
            device,
            zone: zone.parse().map_err(|_| anyhow::anyhow!("zone {zone}"))?,
            n,
        });
        if (n + 1) % 1000 == 0 {
            println!("  {} plants created ({tag})", n + 1);
        }
    }
    Ok(out)
}

/// `days` of daily PV energy per plant (as ingest writes them, rolled up to the plant), a
/// newest report per inverter (a tenth silent for three hours), and open warnings and faults
/// on one plant in twenty.
pub(crate) async fn fill(store: &Store, plants: &[BenchPlant], days: i64) -> anyhow::Result<()> {
    let t = now();
    for chunk in plants.chunks(100) {
        let mut batch = TelemetryBatch::default();
        for p in chunk {
            let today = Utc::now().with_timezone(&p.zone).date_naive();
            for d in 0..days {
                let kwh = 10.0 + ((p.n * 7 + d as usize * 3) % 40) as f64;
                batch.energy.push(EnergyWrite {
                    device_id: p.device,
                    plant_id: Some(p.id),
                    day: (today - Days::days(d)).format("%Y-%m-%d").to_string(),
                    metric: "pv".into(),
                    value: kwh,
                    kind: CounterKind::Daily,
                    rank: 0,
                });
            }
            let silent = p.n % 10 == 3;
            let ts = if silent {
                t - 3 * 3_600_000
            } else {
                t - 60_000
            };
            batch.samples.push(SampleWrite {
                device_id: p.device,
                ts,
                payload: format!(
                    "{{\"pv1_power\":{},\"pv2_power\":{},\"today_pv_energy\":12.5}}",
                    1000 + p.n % 3000,
                    800 + p.n % 2000
                ),
            });
        }
        store.write_telemetry_batch(&batch).await?;
    }
    for p in plants.iter().filter(|p| p.n % 20 == 7) {
        let (code, severity) = if p.n % 40 == 7 {
            ("F01", "fault")
        } else {
            ("W02", "warning")
        };
        store
            .open_event(
                p.device,
                Some(p.id),
                code,
                severity,
                t - (p.n as i64 % 50) * 600_000,
            )
            .await?;
    }
    Ok(())
}

pub(crate) async fn sign_in(router: &Router, account: &str) -> anyhow::Result<String> {
    let body = serde_json::json!({
        "username": account, "password": PASSWORD,
        "grant_type": "password", "client_id": "csp-web"
    });
    let request = Request::post("/oauth/token")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))?;
    let response = router.clone().oneshot(request).await?;
    let bytes = response.into_body().collect().await?.to_bytes();
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    json["data"]["access_token"]
        .as_str()
        .map(str::to_string)
        .with_context(|| format!("sign-in refused: {json}"))
}

/// One successful call; its JSON.
pub(crate) async fn get(
    router: &Router,
    token: &str,
    path: &str,
) -> anyhow::Result<serde_json::Value> {
    let request = Request::get(path)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::empty())?;
    let response = router.clone().oneshot(request).await?;
    let status = response.status();
    let bytes = response.into_body().collect().await?.to_bytes();
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    if status != StatusCode::OK || json["code"] != 0 {
        bail!("{path} answered HTTP {status}: {json}");
    }
    Ok(json)
}

/// One call answered with HTTP 200, whatever its envelope's code: a screen's calls include some
/// a caller may not make (the agent picker for staff without the agents screen answers 2, which
/// the screen takes as "no agents"), and they cost what they cost.
async fn answered(router: &Router, token: &str, path: &str) -> anyhow::Result<()> {
    let request = Request::get(path)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::empty())?;
    let response = router.clone().oneshot(request).await?;
    let status = response.status();
    response.into_body().collect().await?;
    if status != StatusCode::OK {
        bail!("{path} answered HTTP {status}");
    }
    Ok(())
}

/// `clients` tasks calling `paths` in turn for `seconds` (after one unmeasured round), client
/// `c` signed in as `tokens[c % len]`.
pub(crate) async fn phase(
    router: &Router,
    tokens: &[String],
    name: &'static str,
    paths: &[String],
    clients: usize,
    seconds: f64,
) -> anyhow::Result<PhaseResult> {
    for token in tokens {
        for p in paths {
            answered(router, token, p).await?;
        }
    }
    let until = Instant::now() + Duration::from_secs_f64(seconds);
    let mut tasks = Vec::with_capacity(clients);
    for c in 0..clients {
        let router = router.clone();
        let token = tokens[c % tokens.len()].clone();
        let paths = paths.to_vec();
        tasks.push(tokio::spawn(async move {
            let mut times: Vec<(usize, Duration)> = Vec::new();
            let mut i = c;
            while Instant::now() < until {
                let which = i % paths.len();
                let started = Instant::now();
                answered(&router, &token, &paths[which]).await?;
                times.push((which, started.elapsed()));
                i += 1;
            }
            anyhow::Ok(times)
        }));
    }
    let started = Instant::now();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await??);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let count = all.len();
    let per_path = if paths.len() > 1 {
        paths
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let mut mine: Vec<Duration> = all
                    .iter()
                    .filter(|(w, _)| *w == k)
                    .map(|(_, d)| *d)
                    .collect();
                (p.clone(), Latency::of(&mut mine))
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut times: Vec<Duration> = all.into_iter().map(|(_, d)| d).collect();
    Ok(PhaseResult {
        name,
        own_accounts: tokens.len() > 1,
        latency: Latency::of(&mut times),
        per_second: count as f64 / elapsed.max(1e-9),
        per_path,
    })
}

/// The figures as printed by `bench fleet`.
pub fn render(o: &FleetOptions, r: &FleetResult) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "== fleet dashboard: {} ==", o.db);
    let _ = writeln!(
        s,
        "data         {} plants seen by the company's administrator (of {} + {} another company's), {} plant day rows, {} days each",
        r.plants_seen, o.plants, o.other_plants, r.energy_rows, o.days
    );
    for (name, l) in &r.uncached {
        let _ = writeln!(
            s,
            "use case     {:<35} p50 {:>8.2} ms  p99 {:>8.2} ms  max {:>8.2} ms  (one call at a time, no summary kept, {} calls)",
            name, l.p50_ms, l.p99_ms, l.max_ms, l.count
        );
    }
    let mut base = 0.0;
    let mut missed = Vec::new();
    for p in &r.phases {
        if p.name.starts_with("baseline") {
            base = p.latency.p99_ms;
        }
        let ratio = if base > 0.0 {
            p.latency.p99_ms / base
        } else {
            0.0
        };
        let target = if p.name.starts_with("baseline") {
            String::new()
        } else if p.latency.p99_ms < 100.0 {
            "p99 < 100 ms: met".into()
        } else {
            missed.push(p.name);
            "p99 < 100 ms: NOT met".into()
        };
        let who = if p.own_accounts {
            "each its own staff account"
        } else {
            "all as the administrator"
        };
        let _ = writeln!(
            s,
            "{} clients   {:<36} p50 {:>8.2} ms  p99 {:>8.2} ms  max {:>8.2} ms  {:>7.0} req/s  p99 x{ratio:>5.1} of baseline  {target}  ({who})",
            o.clients, p.name, p.latency.p50_ms, p.latency.p99_ms, p.latency.max_ms, p.per_second
        );
        for (path, l) in &p.per_path {
            let _ = writeln!(
                s,
                "               {:<46} p50 {:>8.2} ms  p99 {:>8.2} ms  max {:>8.2} ms  ({} requests)",
                path, l.p50_ms, l.p99_ms, l.max_ms, l.count
            );
        }
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
