//! Rollups against the simulator: simulated plants report every five minutes for three days
//! through ingest (in process, on every backend), and each plant's stored day energy must match
//! the plant model's own counters: per metric and plant-local day, the model's `today` at the last
//! step of that day; over all days, the model's `total`. Then a share of the reports is sent again
//! out of order (duplicates and late arrivals), which must change nothing.
//!
//! The plants are in different time zones, and one inverter (type code 2) reports raw register
//! blocks, so the portal's decoder is in the loop. A plant's day takes each metric from its best
//! source (inverter, then meter, then battery): here always the inverter's daily counters.

use domain::ids::PlantId;
use std::collections::BTreeMap;

use chrono::{DateTime, Duration, DurationRound, NaiveDate, Utc};
use devices::{
    ingest::{Ingest, IngestOptions},
    report::{Item, Submission, SubmissionTx, Telemetry},
};
use domain::user::UserKind;
use sim::{
    fleet::{SimGateway, demo_fleet},
    plant::Energy,
};
use store::{
    Store,
    plants::PlantFields,
    telemetry::{Bucket, DayRange, EnergyTotal},
    testing,
    users::NewUser,
};
use tokio::sync::{mpsc, oneshot};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const DAYS: i64 = 3;
const STEP_MINUTES: i64 = 5;
/// Readings carry counters rounded to 0.1 kWh (the registers' resolution too), so a day's
/// stored energy is within 0.05 kWh of the model's.
const DAY_TOLERANCE: f64 = 0.05 + 1e-6;

/// Demo fleet entries: Madrid with a type 2 hybrid reporting raw registers and a battery,
/// Shanghai with a type 93 three-phase hybrid, Los Angeles with a type 94, Mexico City with a
/// grid-tied type 1 inverter and no battery.
const PICKS: [usize; 4] = [0, 1, 2, 5];

const METRICS: [&str; 6] = [
    "pv",
    "load",
    "grid_import",
    "grid_export",
    "charge",
    "discharge",
];

fn metric(e: &Energy, name: &str) -> f64 {
    match name {
        "pv" => e.pv,
        "load" => e.load,
        "grid_import" => e.import,
        "grid_export" => e.export,
        "charge" => e.charge,
        "discharge" => e.discharge,
        _ => f64::NAN,
    }
}

fn kwh(totals: &[EnergyTotal], metric: &str) -> f64 {
    totals
        .iter()
        .find(|t| t.metric == metric)
        .map_or(0.0, |t| t.kwh)
}

/// One simulated plant: its gateway, the plant id, what it sent and the model's day counters.
struct Plant {
    gw: SimGateway,
    plant_id: PlantId,
    sent: Vec<Telemetry>,
    /// The model's `today` at the last step of each local day.
    days: BTreeMap<NaiveDate, Energy>,
    total: Energy,
}

async fn setup(s: &Store) -> Result<Vec<Plant>, Box<dyn std::error::Error>> {
    let owner = s
        .create_user(&NewUser {
            account: "sim@example.com",
            email: "sim@example.com",
            mobile: "",
            password_hash: "h",
            nickname: "Sim",
            kind: UserKind::Owner,
            company: None,
            role: None,
            user_src: "web",
            now: 1,
        })
        .await?;
    let fleet = demo_fleet(PICKS.iter().max().map_or(1, |m| m + 1), 2024);
    let mut plants = Vec::new();
    for &i in &PICKS {
        let spec = fleet[i].clone();
        let fields = PlantFields {
            name: spec.plant_name.clone(),
            plant_type: if spec.plant.battery.is_some() { 3 } else { 1 },
            total_power: spec.plant.pv_kwp,
            join_date: "2024-01-01".into(),
            currency: "EUR".into(),
            timezone: spec.plant.tz.name().into(),
            address: String::new(),
            lon: spec.plant.lon,
            lat: spec.plant.lat,
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
        let plant_id = s.create_plant(owner, None, owner, &fields, 1).await?;
        let gateway = s
            .create_gateway(&spec.sn, &spec.key, spec.devices[0].protocol, 1)
            .await?;
        s.bind_gateway(gateway, plant_id, owner, None, 1).await?;
        plants.push(Plant {
            gw: SimGateway::new(spec),
            plant_id,
            sent: Vec::new(),
            days: BTreeMap::new(),
            total: Energy::default(),
        });
    }
    Ok(plants)
}

/// Sends reports and waits for every answer, keeping a bounded number outstanding.
async fn send_all(
    tx: &SubmissionTx,
    reports: impl IntoIterator<Item = (String, Telemetry)>,
) -> Result<usize, Box<dyn std::error::Error>> {
    let mut pending = Vec::new();
    let mut sent = 0;
    for (gateway_sn, t) in reports {
        let (done, answer) = oneshot::channel();
        tx.send(Submission {
            gateway_sn,
            item: Item::Telemetry(t.into()),
            done,
        })
        .await?;
        pending.push(answer);
        sent += 1;
        if pending.len() >= 1000 {
            for a in pending.drain(..) {
                a.await?
                    .map_err(|e| format!("ingest refused a report: {e}"))?;
            }
        }
    }
    for a in pending {
        a.await?
            .map_err(|e| format!("ingest refused a report: {e}"))?;
    }
    Ok(sent)
}

/// Compares the stored energy of every plant with the model; answers the largest difference.
async fn compare(s: &Store, plants: &[Plant]) -> Result<f64, Box<dyn std::error::Error>> {
    let mut worst: f64 = 0.0;
    let mut errors = Vec::new();
    for p in plants {
        let name = &p.gw.spec.plant_name;
        for (day, today) in &p.days {
            let day = day.format("%Y-%m-%d").to_string();
            let stored = s.plant_energy(p.plant_id, &DayRange::day(&day)).await?;
            for m in METRICS {
                let (got, want) = (kwh(&stored, m), metric(today, m));
                worst = worst.max((got - want).abs());
                if (got - want).abs() > DAY_TOLERANCE {
                    errors.push(format!(
                        "{name} {day} {m}: stored {got:.3}, model {want:.3}"
                    ));
                }
            }
        }
        let stored = s.plant_energy(p.plant_id, &DayRange::total()).await?;
        let months = s
            .plant_energy_series(p.plant_id, &DayRange::total(), Bucket::Month)
            .await?;
        let tolerance = DAY_TOLERANCE * p.days.len() as f64;
        for m in METRICS {
            let (got, want) = (kwh(&stored, m), metric(&p.total, m));
            if (got - want).abs() > tolerance {
                errors.push(format!(
                    "{name} total {m}: stored {got:.3}, model {want:.3}"
                ));
            }
            let by_month: f64 = months.iter().filter(|e| e.metric == m).map(|e| e.kwh).sum();
            if (by_month - got).abs() > 1e-6 {
                errors.push(format!(
                    "{name} {m}: months add up to {by_month:.3}, total is {got:.3}"
                ));
            }
        }
        println!(
            "{name} ({}): {} days, model pv {:.1} load {:.1} import {:.1} export {:.1} \
             charge {:.1} discharge {:.1} kWh; stored pv {:.1} load {:.1} import {:.1} \
             export {:.1} charge {:.1} discharge {:.1}",
            p.gw.spec.plant.tz.name(),
            p.days.len(),
            p.total.pv,
            p.total.load,
            p.total.import,
            p.total.export,
            p.total.charge,
            p.total.discharge,
            kwh(&stored, "pv"),
            kwh(&stored, "load"),
            kwh(&stored, "grid_import"),
            kwh(&stored, "grid_export"),
            kwh(&stored, "charge"),
            kwh(&stored, "discharge"),
        );
    }
    if !errors.is_empty() {
        return Err(errors.join("\n").into());
    }
    Ok(worst)
}

async fn run(s: Store) -> TestResult {
    let mut plants = setup(&s).await?;
    let configs = devices::protocol::shipped().map_err(|e| format!("shipped configs: {e}"))?;
    let (tx, rx) = mpsc::channel(10_000);
    let options = IngestOptions {
        max_wait: std::time::Duration::from_millis(5),
        ..IngestOptions::default()
    };
    let ingest = Ingest::spawn(s.clone(), rx, options);

    // Three days ending now, on five-minute marks.
    let end: DateTime<Utc> = Utc::now().duration_trunc(Duration::minutes(STEP_MINUTES))?;
    let start = end - Duration::days(DAYS);
    let steps = DAYS * 24 * 60 / STEP_MINUTES;
    let mut reports = Vec::new();
    for p in &mut plants {
        for i in 1..=steps {
            let at = start + Duration::minutes(STEP_MINUTES * i);
            let (snapshot, t) = p.gw.telemetry(at, (STEP_MINUTES * 60) as f64, &configs);
            p.days.insert(snapshot.local_day, snapshot.today);
            p.total = snapshot.total;
            p.sent.push(t.clone());
            reports.push((p.gw.spec.sn.clone(), t));
        }
    }
    assert!(
        plants[0].sent[0].devices[0].raw.len() > 1
            && plants[0].sent[0].devices[0].values.is_empty(),
        "the first plant's inverter reports raw register blocks"
    );
    // Interleave the plants as live gateways would.
    reports.sort_by_key(|(_, t)| t.ts);
    let sent = send_all(&tx, reports).await?;
    let worst = compare(&s, &plants).await?;
    println!(
        "{:?}: {sent} reports, largest day difference {worst:.3} kWh",
        s.backend()
    );

    // Every third report of the middle day again, newest first: duplicates arriving late.
    let again: Vec<(String, Telemetry)> = plants
        .iter()
        .flat_map(|p| {
            let day = steps as usize / DAYS as usize;
            p.sent[day..2 * day]
                .iter()
                .step_by(3)
                .rev()
                .map(|t| (p.gw.spec.sn.clone(), t.clone()))
        })
        .collect();
    let resent = send_all(&tx, again).await?;
    let after = compare(&s, &plants).await?;
    println!("{resent} reports sent again: largest day difference {after:.3} kWh");
    assert!((after - worst).abs() < 1e-9, "repeats changed the energy");

    drop(tx);
    ingest.join().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_plant_energy_matches_the_simulators_own_totals() -> TestResult {
    for store in testing::all().await? {
        let backend = store.backend();
        run(store.clone())
            .await
            .map_err(|e| format!("{backend:?}: {e}"))?;
        store.close().await;
    }
    Ok(())
}
