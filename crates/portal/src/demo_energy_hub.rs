//! The energy hub of the demo: a built-in programme, two demo plants with batteries enrolled
//! and accepted (in one time zone where the fleet allows), and an evening event every day
//! (18:00-20:00 in the enrolled plants' time zone, 3 kW discharge) from yesterday on. The dispatch job then discharges the demo
//! batteries every evening, and the plants' curves show it. A later start keeps what is there,
//! including what users changed (a cancelled event stays cancelled).

use domain::ids::ProgramId;
use std::time::Duration;

use chrono::{NaiveDate, TimeZone};
use chrono_tz::Tz;
use domain::energy_hub::{
    Address, Device, EnrollmentForm, EnrollmentStatus, EventForm, EventKind, Interval, ProgramForm,
};
use sim::fleet::GatewaySpec;
use store::{
    Store,
    energy_hub::{EventFilter, NewEnrollment, NewEvent},
};

pub const PROGRAM: &str = "Evening peak relief";
const EVENT_NAME: &str = "Evening peak";
const EVENT_HOURS: (u32, u32) = (18, 20);
const EVENT_KW: f64 = 3.0;
/// How often the demo makes sure tomorrow's event exists.
const KEEP_GOING_EVERY: Duration = Duration::from_secs(3600);

/// Seeds the programme, the enrollments and the events around today (idempotent); answers the
/// programme's id and the time zone its events follow.
pub async fn prepare(
    store: &Store,
    fleet: &[GatewaySpec],
) -> anyhow::Result<Option<(ProgramId, Tz)>> {
    let now_ms = domain::time::now_ms();
    let program = match store
        .programs(true)
        .await?
        .into_iter()
        .find(|p| p.vtn_id.is_none() && p.name == PROGRAM)
    {
        Some(p) => p.id,
        None => {
            store
                .create_program(
                    &ProgramForm {
                        name: PROGRAM.into(),
                        long_name: "Evening peak relief (demo utility)".into(),
                        description: "Batteries discharge for two hours on weekday and weekend \
                                      evenings, when the grid is most loaded."
                            .into(),
                        retailer: "Demo Grid Co.".into(),
                        auto_accept: false,
                        active: true,
                    },
                    now_ms,
                    None,
                )
                .await?
        }
    };
    // Plants with batteries, those in the first one's time zone first: the evening is the
    // same evening for both.
    let mut candidates: Vec<&GatewaySpec> =
        fleet.iter().filter(|g| g.plant.battery.is_some()).collect();
    let first_zone = candidates.first().map(|g| g.plant.tz);
    candidates.sort_by_key(|g| Some(g.plant.tz) != first_zone);
    let mut zone = None;
    let mut enrolled = 0;
    for (n, gw) in candidates.into_iter().enumerate() {
        if enrolled == 2 {
            break;
        }
        let Some(plant) = store.gateway_by_sn(&gw.sn).await?.and_then(|g| g.plant_id) else {
            continue;
        };
        let inverters: Vec<_> = store
            .enrollable_inverters(plant)
            .await?
            .into_iter()
            .filter(|i| i.has_battery)
            .collect();
        if inverters.is_empty() {
            continue;
        }
        enrolled += 1;
        zone.get_or_insert(gw.plant.tz);
        if store
            .enrollments_of_program(program)
            .await?
            .iter()
            .any(|e| e.plant_id == plant)
        {
            continue;
        }
        let share = inverters.len() as f64;
        let storage = gw.plant.battery.map_or(0.0, |b| b.kwh()) / share;
        let power = gw
            .plant
            .battery
            .map_or(0.0, |b| b.max_kw() / share)
            .min(gw.plant.inverter_kw);
        let power = (power * 10.0).round() / 10.0;
        let devices = inverters
            .iter()
            .map(|i| Device {
                sn: i.sn.clone(),
                manufacturer: "Deye".into(),
                model: i.product_name.clone().unwrap_or_else(|| i.model.clone()),
                install_date: chrono::DateTime::from_timestamp_millis(i.created_at)
                    .map(|d| d.date_naive().to_string())
                    .unwrap_or_default(),
                charge_kw: power,
                discharge_kw: power,
                storage_kwh: (storage * 10.0).round() / 10.0,
            })
            .collect();
        let service = Address {
            country: "Germany".into(),
            region: "Berlin".into(),
            locality: "Berlin".into(),
            extended_address: String::new(),
            street_address: format!("Sonnenallee {}", 10 + n),
            postal_code: "12045".into(),
        };
        let form = EnrollmentForm {
            source_account: format!("40021{:03}", 100 + n),
            utility_account: format!("demo-{:02}", n + 1),
            first_name: "Demo".into(),
            last_name: "Owner".into(),
            email: crate::demo::DEMO_ACCOUNT.into(),
            mailing: service.clone(),
            service,
            participation: 80,
            time_zone: gw.plant.tz.name().into(),
            devices,
        };
        store
            .create_enrollment(
                &NewEnrollment {
                    program,
                    plant,
                    created_by: None,
                    status: EnrollmentStatus::Accepted,
                    form: &form,
                },
                now_ms,
                None,
            )
            .await?;
    }
    let Some(zone) = zone else {
        return Ok(None);
    };
    let today = chrono::Utc::now().with_timezone(&zone).date_naive();
    for day in [today.pred_opt(), Some(today), today.succ_opt()]
        .into_iter()
        .flatten()
    {
        ensure_event(store, program, zone, day).await?;
    }
    Ok(Some((program, zone)))
}

/// Makes sure tomorrow's evening event exists, every hour while the demo runs.
pub async fn keep_going(store: Store, program: ProgramId, zone: Tz) {
    let mut tick = tokio::time::interval(KEEP_GOING_EVERY);
    loop {
        tick.tick().await;
        let today = chrono::Utc::now().with_timezone(&zone).date_naive();
        for day in [Some(today), today.succ_opt()].into_iter().flatten() {
            if let Err(e) = ensure_event(&store, program, zone, day).await {
                tracing::warn!(%e, "demo evening event not created");
            }
        }
    }
}

/// The evening event of `day`, unless one of the programme starts then already (in any
/// state: an event a user cancelled is not brought back).
async fn ensure_event(
    store: &Store,
    program: ProgramId,
    zone: Tz,
    day: NaiveDate,
) -> anyhow::Result<()> {
    let at = |hour: u32| {
        day.and_hms_opt(hour, 0, 0)
            .and_then(|t| zone.from_local_datetime(&t).earliest())
            .map(|t| t.timestamp())
    };
    let (Some(start), Some(end)) = (at(EVENT_HOURS.0), at(EVENT_HOURS.1)) else {
        return Ok(());
    };
    let existing = store
        .hub_events(&EventFilter {
            programs: Some(vec![program]),
            limit: 10,
        })
        .await?;
    if existing.iter().any(|e| e.start_at == start) {
        return Ok(());
    }
    let form = EventForm {
        name: format!("{EVENT_NAME} {day}"),
        start,
        end,
        kind: EventKind::Discharge,
        target_kw: EVENT_KW,
        priority: 10,
    };
    let intervals = serde_json::to_string(&[Interval {
        id: 0,
        start,
        end,
        kind: form.kind.as_db().into(),
        target_kw: form.target_kw,
    }])?;
    store
        .create_hub_event(
            &NewEvent {
                program,
                form: &form,
                intervals: &intervals,
                created_by: None,
            },
            domain::time::now_ms() / 1000,
            None,
        )
        .await?;
    Ok(())
}
