//! `portal serve --demo`: a demo owner with plants whose simulated gateways report to the
//! embedded broker, so a new user sees live plants within seconds. Plants are created by the
//! plants use case (`service::plants::create`) like any other, and their gateways are
//! registered and bound to them.

use anyhow::Context;
use chrono::{DateTime, Duration, Utc};
use domain::{
    plant::{PlantType, TariffSegment, Valuation},
    user::BuiltinRole,
};
use service::plants::PlantDraft;
use sim::{
    fleet::{GatewaySpec, SimGateway},
    resume::LastReport,
};
use store::{Store, plants::PlantFields};

use crate::admin;

pub const DEMO_ACCOUNT: &str = "demo@example.com";
pub const DEMO_PASSWORD: &str = "demo1234";

/// Makes sure the demo owner, the fleet's plants and their registered, bound gateways exist,
/// and gives each simulated gateway the key the portal holds for it (a rotated key survives a
/// restart, as a real gateway keeps the key it was sent). Returns how many plants were created
/// now (0 on later starts).
pub async fn prepare(
    store: &Store,
    files: api::FileStore<'_>,
    fleet: &mut [GatewaySpec],
) -> anyhow::Result<usize> {
    crate::demo_catalogue::prepare(store, files).await?;
    let created = create_plants(store, fleet).await?;
    crate::demo_products::prepare(store, fleet).await?;
    crate::demo_manuals::prepare(store, files).await?;
    crate::demo_predicted::prepare(store, fleet).await?;
    for gw in fleet.iter_mut() {
        if let Some(g) = store.gateway_by_sn(&gw.sn).await? {
            gw.key = g.reg_key;
        }
    }
    Ok(created)
}

async fn create_plants(store: &Store, fleet: &[GatewaySpec]) -> anyhow::Result<usize> {
    let owner = match store.user_by_account(DEMO_ACCOUNT).await? {
        Some(u) => u,
        None => {
            admin::create_user(
                store,
                DEMO_ACCOUNT,
                DEMO_PASSWORD,
                BuiltinRole::PlantOwner,
                None,
                "Demo owner",
                false,
            )
            .await?;
            store
                .user_by_account(DEMO_ACCOUNT)
                .await?
                .context("demo owner")?
        }
    };
    crate::demo_company::prepare(store, &owner).await?;
    let actor = service::actors::actor_of(store, &owner).await?;
    let mut created = 0;
    for gw in fleet {
        if store
            .gateway_by_sn(&gw.sn)
            .await?
            .is_some_and(|g| g.plant_id.is_some())
        {
            continue;
        }
        let storage = gw.plant.battery.is_some();
        let money = local_money(gw.plant.tz);
        let kind = if storage {
            PlantType::StorageDc
        } else {
            PlantType::GridTied
        };
        let draft = PlantDraft {
            fields: PlantFields {
                name: gw.plant_name.clone(),
                plant_type: kind as i64,
                total_power: gw.plant.pv_kwp,
                join_date: Utc::now().format("%Y-%m-%d").to_string(),
                currency: money.currency.into(),
                timezone: gw.plant.tz.name().into(),
                address: gw.plant_name.clone(),
                lon: gw.plant.lon,
                lat: gw.plant.lat,
                image_url: String::new(),
                thumb_url: String::new(),
                principal: "Demo owner".into(),
                phone: String::new(),
                email: String::new(),
                installer: "Simulated installer".into(),
                invest: (gw.plant.pv_kwp * money.invest_per_kwp).round(),
                tilt: gw.declares_orientation.then_some(gw.plant.tilt),
                azimuth: gw.declares_orientation.then_some(gw.plant.azimuth),
            },
            tariff: money.segments(),
            owner: None,
        };
        let plant = service::plants::create(store, &actor, &draft, domain::time::now_ms())
            .await
            .map_err(|e| anyhow::anyhow!("demo plant: {e}"))?;
        let gateway = match store.gateway_by_sn(&gw.sn).await? {
            Some(g) => g.id,
            None => {
                store
                    .create_gateway(
                        &gw.sn,
                        &random_key(),
                        gw.devices[0].protocol,
                        domain::time::now_ms(),
                    )
                    .await?
            }
        };
        store
            .bind_gateway(gateway, plant, owner.id, None, domain::time::now_ms())
            .await?;
        created += 1;
    }
    Ok(created)
}

/// A registration key for a demo gateway, drawn on the first start and kept in the database
/// (the simulated gateway is given it by [`prepare`]): a key derived from the fleet's seed
/// would be the same on every install, and anyone could sign in as a demo gateway or claim
/// the demo's stock.
pub(crate) fn random_key() -> String {
    use rand::{Rng, distributions::Alphanumeric};
    rand::rngs::OsRng
        .sample_iter(&Alphanumeric)
        .take(16)
        .map(char::from)
        .collect()
}

/// What a demo plant costs and earns where it stands: the local currency, a typical
/// installed price per kWp and the local grid tariff per kWh (time of use where households
/// usually have one).
struct LocalMoney {
    currency: &'static str,
    invest_per_kwp: f64,
    /// (from, to, price per kWh); one segment over the whole day is a constant price.
    tariff: &'static [(&'static str, &'static str, f64)],
}

impl LocalMoney {
    fn segments(&self) -> Vec<TariffSegment> {
        let kind = if self.tariff.len() == 1 {
            Valuation::Constant
        } else {
            Valuation::TimeOfUse
        };
        self.tariff
            .iter()
            .map(|(from, to, price)| TariffSegment {
                kind,
                start: (*from).to_string(),
                end: (*to).to_string(),
                price: *price,
                direction: None,
            })
            .collect()
    }
}

const WHOLE_DAY: &str = "00:00";

fn local_money(tz: chrono_tz::Tz) -> LocalMoney {
    use chrono_tz::{Africa, America, Asia, Australia, Europe};
    let (currency, invest_per_kwp, tariff): (_, _, &'static [_]) = match tz {
        Asia::Shanghai => ("CNY", 3500.0, &[(WHOLE_DAY, "24:00", 0.62)]),
        Europe::London => ("GBP", 1300.0, &[(WHOLE_DAY, "24:00", 0.25)]),
        Australia::Sydney => (
            "AUD",
            1100.0,
            &[
                (WHOLE_DAY, "07:00", 0.22),
                ("07:00", "14:00", 0.30),
                ("14:00", "20:00", 0.45),
                ("20:00", "24:00", 0.30),
            ],
        ),
        America::Los_Angeles => (
            "USD",
            2800.0,
            &[
                (WHOLE_DAY, "16:00", 0.31),
                ("16:00", "21:00", 0.52),
                ("21:00", "24:00", 0.31),
            ],
        ),
        America::Mexico_City => ("MXN", 17000.0, &[(WHOLE_DAY, "24:00", 2.9)]),
        Africa::Johannesburg => ("ZAR", 14000.0, &[(WHOLE_DAY, "24:00", 3.4)]),
        _ => ("EUR", 900.0, &[(WHOLE_DAY, "24:00", 0.18)]),
    };
    LocalMoney {
        currency,
        invest_per_kwp,
        tariff,
    }
}

/// Brings every gateway's history up to now straight into ingest, so day, month and year views
/// have data at once, and the gateways' models continue live from where it ends. A gateway
/// that reported before (a restart) first resumes from its devices' last reports (counters,
/// switch, charge: see `sim::resume`) and fills the gap since then; one that never did gets
/// `days` of history. Older history is hourly, the last day every five minutes.
pub async fn catch_up(
    store: &Store,
    fleet: &mut [SimGateway],
    tx: &devices::report::SubmissionTx,
    configs: &[devices::protocol::ProtocolConfig],
    days: i64,
) -> anyhow::Result<usize> {
    use devices::report::{Item, Submission};
    let now = Utc::now();
    let window = now - Duration::days(days);
    let mut pending = Vec::new();
    let mut sent = 0;
    for gw in fleet.iter_mut() {
        let reports = last_reports(store, gw).await?;
        let since = match sim::resume::resume(gw, &reports) {
            Some(last) => last.max(window),
            None if days > 0 => window,
            None => continue,
        };
        for (at, dt_secs) in history_times(since, now) {
            let (_, telemetry) = gw.telemetry(at, dt_secs, configs);
            let (done, answer) = tokio::sync::oneshot::channel();
            let submission = Submission {
                gateway_sn: gw.spec.sn.clone(),
                item: Item::Telemetry(telemetry.into()),
                done,
            };
            tx.send(submission)
                .await
                .context("ingest stopped during the backfill")?;
            pending.push(answer);
            sent += 1;
            // Keep a bounded number of answers outstanding.
            if pending.len() >= 4096 {
                for answer in pending.drain(..) {
                    let _ = answer.await;
                }
            }
        }
    }
    for answer in pending {
        let _ = answer.await;
    }
    Ok(sent)
}

/// The newest stored report of each of the gateway's devices.
async fn last_reports(store: &Store, gw: &SimGateway) -> anyhow::Result<Vec<LastReport>> {
    let mut reports = Vec::new();
    for d in &gw.spec.devices {
        let Some(device) = store.device_by_sn(&d.sn).await? else {
            continue;
        };
        if let Some(sample) = store.latest_sample(device.id).await? {
            reports.push(LastReport {
                sn: d.sn.clone(),
                ts_ms: sample.ts,
                payload: sample.payload,
            });
        }
    }
    Ok(reports)
}

/// When the history reports and how long each covers (seconds), after `since` up to `now`:
/// hourly at five past the hour until a day before `now`, then every five minutes. The
/// simulator's trips start at the top of an hour and last 10-40 minutes, so the hourly
/// reports catch them (and their recovery an hour later) and the demo has past events to
/// show; the five-minute reports give today's and yesterday's curves their shape and let the
/// portal integrate each PV input's energy of the day.
fn history_times(since: DateTime<Utc>, now: DateTime<Utc>) -> Vec<(DateTime<Utc>, f64)> {
    let next_mark = |after: DateTime<Utc>, every: i64, offset: i64| {
        let t = after.timestamp() - offset;
        DateTime::from_timestamp(t - t.rem_euclid(every) + every + offset, 0).unwrap_or(now)
    };
    let dense_from = now - Duration::days(1);
    let mut times = Vec::new();
    let mut prev = since;
    let mut at = next_mark(since, 3600, 300);
    while at <= dense_from {
        times.push((at, (at - prev).num_seconds() as f64));
        prev = at;
        at = next_mark(at, 3600, 300);
    }
    at = next_mark(prev, 300, 0);
    while at <= now {
        times.push((at, (at - prev).num_seconds() as f64));
        prev = at;
        at = next_mark(at, 300, 0);
    }
    times
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn history_is_hourly_then_every_five_minutes_for_the_last_day_without_gaps() {
        let now = Utc.with_ymd_and_hms(2025, 3, 20, 12, 34, 56).unwrap();
        let times = history_times(now - Duration::days(3), now);
        assert_eq!(
            times[0].0,
            Utc.with_ymd_and_hms(2025, 3, 17, 13, 5, 0).unwrap()
        );
        let mut prev = now - Duration::days(3);
        for (at, dt) in &times {
            assert_eq!(
                (*at - prev).num_seconds() as f64,
                *dt,
                "covers the time since the last"
            );
            assert!(*at <= now);
            prev = *at;
        }
        let dense = times.iter().filter(|(_, dt)| *dt <= 300.0).count();
        // A day of them, from the last hourly report on.
        assert!((288..=300).contains(&dense), "{dense} five-minute reports");
        assert!(now - times.last().unwrap().0 < Duration::minutes(5));
        // A restart a few minutes later fills only the gap.
        let later = history_times(now - Duration::minutes(12), now);
        assert_eq!(later.len(), 2);
    }

    #[test]
    fn demo_plants_are_priced_in_their_local_currency() {
        use domain::currency::CURRENCIES;
        let fleet = sim::fleet::demo_fleet(7, 2024);
        let mut seen = Vec::new();
        for gw in &fleet {
            let money = local_money(gw.plant.tz);
            assert!(
                CURRENCIES.iter().any(|c| c.code == money.currency),
                "{} is in the catalogue",
                money.currency
            );
            seen.push((
                gw.plant_name.split(' ').next().unwrap_or(""),
                money.currency,
            ));
            let segments = money.segments();
            assert!(!segments.is_empty());
        }
        for (city, currency) in [
            ("Sydney", "AUD"),
            ("Shanghai", "CNY"),
            ("London", "GBP"),
            ("Cape", "ZAR"),
            ("Los", "USD"),
            ("Mexico", "MXN"),
            ("Madrid", "EUR"),
        ] {
            assert!(
                seen.contains(&(city, currency)),
                "{city} in {currency}: {seen:?}"
            );
        }
    }
}
