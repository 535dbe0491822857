//! `portal serve --demo`: a demo owner with plants whose simulated gateways report to the
//! embedded broker, so a new user sees live plants within seconds. Plants are created through
//! the plants service like any other, and their gateways are registered and bound to them.

use anyhow::Context;
use api::plants::edit::{ChargeRequest, PlantRequest, create_plant};
use domain::user::BuiltinRole;
use sim::fleet::GatewaySpec;
use store::Store;

use crate::admin;

pub const DEMO_ACCOUNT: &str = "demo@example.com";
pub const DEMO_PASSWORD: &str = "demo1234";

/// Makes sure the demo owner, the fleet's plants and their registered, bound gateways exist,
/// and gives each simulated gateway the key the portal holds for it (a rotated key survives a
/// restart, as a real gateway keeps the key it was sent). Returns how many plants were created
/// now (0 on later starts).
pub async fn prepare(store: &Store, fleet: &mut [GatewaySpec]) -> anyhow::Result<usize> {
    let created = create_plants(store, fleet).await?;
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
    let actor = api::session::actor_of(store, &owner)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut created = 0;
    for gw in fleet {
        if store
            .gateway_by_sn(&gw.sn)
            .await?
            .is_some_and(|g| g.plant_id.is_some())
        {
            continue;
        }
        let storage = gw.plant.battery_kwh > 0.0;
        let request = PlantRequest {
            name: Some(gw.plant_name.clone()),
            total_power: Some(gw.plant.pv_kwp),
            kind: Some(if storage { 3 } else { 1 }),
            currency: Some(if gw.plant.lon < -30.0 { "USD" } else { "EUR" }.into()),
            timezone: Some(gw.plant.tz.name().into()),
            address: Some(gw.plant_name.clone()),
            lon: Some(gw.plant.lon),
            lat: Some(gw.plant.lat),
            principal: Some("Demo owner".into()),
            installer: Some("Simulated installer".into()),
            invest: Some((gw.plant.pv_kwp * 900.0).round()),
            charges: Some(vec![ChargeRequest {
                price: Some(0.18),
                kind: Some(1),
                start_range: None,
                end_range: None,
                status: None,
            }]),
            ..PlantRequest::default()
        };
        let plant = create_plant(store, &actor, &request)
            .await
            .map_err(|e| anyhow::anyhow!("demo plant: {e}"))?;
        let gateway = match store.gateway_by_sn(&gw.sn).await? {
            Some(g) => g.id,
            None => {
                store
                    .create_gateway(&gw.sn, &gw.key, gw.devices[0].protocol, api::now_ms())
                    .await?
            }
        };
        store
            .bind_gateway(gateway, plant, owner.id, None, api::now_ms())
            .await?;
        created += 1;
    }
    Ok(created)
}

/// Replays `days` of history for each gateway straight into ingest (hourly reports), so month
/// and year views have data at once. The gateways' models continue live from where it ends.
pub async fn backfill(
    fleet: &mut [sim::fleet::SimGateway],
    tx: &devices::report::SubmissionTx,
    configs: &[devices::protocol::ProtocolConfig],
    days: i64,
) -> anyhow::Result<usize> {
    use devices::report::{Item, Submission};
    let now = chrono::Utc::now();
    // Reports at five past each hour: the simulator's trips start at the top of an hour and
    // last 10-40 minutes, so the history catches them (and their recovery an hour later) and
    // the demo has past events to show.
    let top_of_hour = now.timestamp() - now.timestamp().rem_euclid(3600);
    let start = chrono::DateTime::from_timestamp(top_of_hour + 300, 0).unwrap_or(now)
        - chrono::Duration::days(days);
    let steps = days * 24;
    let mut pending = Vec::new();
    let mut sent = 0;
    for gw in fleet.iter_mut() {
        for i in 1..=steps {
            let at = start + chrono::Duration::hours(i);
            if at > now {
                break;
            }
            let (_, telemetry) = gw.telemetry(at, 3600.0, configs);
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
