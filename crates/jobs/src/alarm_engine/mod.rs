//! The alarm engine (docs/alarms.md): every [`EVERY`], each enabled rule of each company is
//! evaluated over the plants it watches, a batch of [`BATCH`] plants at a time (a tick's memory
//! does not grow with the fleet), and its verdicts become cases: a firing subject without a
//! live case opens one, a live case whose severity rises is escalated, a cleared (or vanished)
//! subject closes its case; an unknown verdict (night, stale data) leaves a case as it is.
//! Each change is one transaction with its history row and the delivery hook
//! (`store::alarm_engine::hook`). One replica ticks at a time (lease
//! `store::leases::ALARM_ENGINE`); the unique live case per (rule, plant, subject) keeps a
//! second opening out anyway.

mod evaluate;
mod strings;
mod yields;

use std::{collections::HashMap, time::Duration};

use domain::alarm_rules::{Severity, Verdict};
use domain::ids::PlantId;
use service::alarm_engine::rules::{self, Rule};
use store::{
    Store,
    alarm_engine::cases::{LiveCase, NewCase},
    alarm_engine::rules::RuleRow,
    leases,
};

pub use evaluate::Finding;

/// How often the engine ticks.
pub const EVERY: Duration = Duration::from_secs(30);
/// Plants evaluated together.
pub const BATCH: i64 = 200;

/// What one tick did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tick {
    pub rules: usize,
    pub plants: usize,
    pub opened: usize,
    pub escalated: usize,
    pub closed: usize,
}

/// One pass at `now` over every enabled rule.
pub async fn tick(store: &Store, now: i64) -> store::Result<Tick> {
    for company in store.companies_without_alarm_rules().await? {
        if let Err(e) = rules::seed(store, company, now).await {
            tracing::warn!(%company, %e, "default alarm rules not given");
        }
    }
    let mut done = Tick::default();
    for row in store.enabled_alarm_rules().await? {
        let Some(rule) = rules::parse(&row) else {
            continue;
        };
        done.rules += 1;
        run_rule(store, &row, &rule, now, &mut done).await?;
    }
    Ok(done)
}

async fn run_rule(
    store: &Store,
    row: &RuleRow,
    rule: &Rule,
    now: i64,
    done: &mut Tick,
) -> store::Result<()> {
    let mut live: HashMap<(PlantId, String), LiveCase> = store
        .live_cases_of_rule(rule.id)
        .await?
        .into_iter()
        .map(|c| ((c.plant_id, c.subject.clone()), c))
        .collect();
    let mut after = PlantId(0);
    loop {
        let plants = store
            .alarm_scope_plants(
                row.company_id,
                rule.scope.kind(),
                rule.scope.id(),
                after,
                BATCH,
            )
            .await?;
        let Some(last) = plants.last() else {
            break;
        };
        after = last.id;
        done.plants += plants.len();
        for f in evaluate::batch(store, rule, &plants, now).await? {
            let existing = live.remove(&(f.plant, f.subject.clone()));
            apply(store, row, rule, &f, existing.as_ref(), now, done).await?;
        }
        if (plants.len() as i64) < BATCH {
            break;
        }
    }
    // Live cases no verdict spoke of: their device, string or event is gone, or their plant
    // left the rule's scope.
    for c in live.values() {
        store.close_alarm_case(c.id, now).await?;
        done.closed += 1;
    }
    Ok(())
}

async fn apply(
    store: &Store,
    row: &RuleRow,
    rule: &Rule,
    f: &Finding,
    existing: Option<&LiveCase>,
    now: i64,
    done: &mut Tick,
) -> store::Result<()> {
    let detail = f.detail.to_string();
    match (f.verdict, existing) {
        (Verdict::Firing { severity, value }, None) => {
            let case = NewCase {
                rule_id: rule.id,
                company_id: row.company_id,
                plant_id: f.plant,
                kind: rule.kind.as_str(),
                subject: &f.subject,
                device_id: f.device.as_ref().map(|d| d.0),
                device_sn: f.device.as_ref().map(|d| d.1.as_str()),
                severity: severity.as_str(),
                value,
                detail: &detail,
            };
            if store.open_alarm_case(&case, now).await?.is_some() {
                done.opened += 1;
            }
        }
        (Verdict::Firing { severity, value }, Some(c)) => {
            let higher = Severity::parse(&c.severity).is_none_or(|s| severity > s);
            if higher {
                store
                    .refresh_alarm_case(c.id, value, &detail, Some(severity.as_str()), now)
                    .await?;
                done.escalated += 1;
            } else if value != c.value {
                store
                    .refresh_alarm_case(c.id, value, &detail, None, now)
                    .await?;
            }
        }
        (Verdict::Clear, Some(c)) => {
            store.close_alarm_case(c.id, now).await?;
            done.closed += 1;
        }
        (Verdict::Clear | Verdict::Unknown, None) | (Verdict::Unknown, Some(_)) => {}
    }
    Ok(())
}

/// Runs the engine every `period` until the process ends, on one replica at a time.
pub async fn run(store: Store, period: Duration) {
    let mut every = tokio::time::interval(period);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let lease = match store.try_lease(leases::ALARM_ENGINE).await {
            Ok(Some(lease)) => lease,
            Ok(None) => continue,
            Err(e) => {
                tracing::warn!(%e, "alarm engine lease not read");
                continue;
            }
        };
        let started = std::time::Instant::now();
        match tick(&store, domain::time::now_ms()).await {
            Ok(t) if t.opened + t.escalated + t.closed > 0 => tracing::info!(
                opened = t.opened,
                escalated = t.escalated,
                closed = t.closed,
                rules = t.rules,
                plants = t.plants,
                ms = started.elapsed().as_millis() as u64,
                "alarm cases changed"
            ),
            Ok(_) => {}
            Err(e) => tracing::warn!(%e, "alarm engine tick failed"),
        }
        if let Err(e) = lease.release().await {
            tracing::warn!(%e, "alarm engine lease not released");
        }
    }
}
