//! One inverter's step of the dispatch: follow the command under way, then bring the device to
//! what the winning event asks (snapshotting the keys first changed), or give the snapshot
//! back when no event holds it any more.

use std::collections::BTreeMap;

use domain::settings::Family;
use serde_json::{Map, Value};
use store::{
    commands::CommandStatus,
    energy_hub::dispatch::{DispatchDevice, DispatchState},
};

use super::{rules, send};
use crate::Context;
use service::Result;

/// Tries per event (and per restore) before the inverter is left as it is.
pub const MAX_ATTEMPTS: i64 = 3;

const APPLY: &str = "apply";
const RESTORE: &str = "restore";

type Values = BTreeMap<String, String>;

fn parse(json: &str) -> Values {
    serde_json::from_str(json).unwrap_or_default()
}

fn text(v: &Values) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "{}".into())
}

fn fresh(sn: &str, want: &rules::Want, now: i64) -> DispatchState {
    DispatchState {
        sn: sn.into(),
        plant_id: Some(want.plant_id),
        event_id: Some(want.event_id),
        mode: APPLY.into(),
        snapshot: "{}".into(),
        sent: "{}".into(),
        sending: "{}".into(),
        command_id: None,
        state: "pending".into(),
        error: String::new(),
        attempts: 0,
        updated_at: now,
    }
}

/// Saves `s`; its event's outcome follows its state while applying, and says failed once a
/// restore gives up.
async fn save(ctx: &Context, s: &DispatchState) -> Result<()> {
    let gave_up = s.state == "failed" && s.attempts >= MAX_ATTEMPTS;
    let (state, error) = match s.mode.as_str() {
        APPLY => (s.state.as_str(), s.error.clone()),
        _ if gave_up => ("failed", format!("restore: {}", s.error)),
        _ => ("", String::new()),
    };
    let outcome = s
        .event_id
        .filter(|_| !state.is_empty())
        .map(|e| (e, state, error.as_str()));
    ctx.store.dispatch_save(s, outcome).await?;
    Ok(())
}

/// Whether `dev` cannot take a command now (offline, or its state forbids).
fn unreachable(dev: &DispatchDevice) -> bool {
    service::commands::reachable(domain::command::CommandKind::SetParams, dev.into()).is_err()
}

/// Follows the command under way: `true` while it is still open (nothing else to do now).
async fn follow(ctx: &Context, s: &mut DispatchState, now: i64) -> Result<bool> {
    let Some(id) = s.command_id else {
        return Ok(false);
    };
    let Some(c) = ctx.store.command(id).await? else {
        s.command_id = None;
        return Ok(false);
    };
    match c.status() {
        CommandStatus::Sent | CommandStatus::Acknowledged => return Ok(true),
        CommandStatus::Succeeded => {
            service::setting_offers::remember_applied(&ctx.store, &c).await?;
            let mut sent = parse(&s.sent);
            sent.extend(parse(&s.sending));
            s.sent = text(&sent);
            s.state = "applied".into();
            s.error.clear();
        }
        CommandStatus::Failed | CommandStatus::TimedOut => {
            s.state = "failed".into();
            s.error = match (c.result_msg.as_str(), c.status()) {
                ("", CommandStatus::TimedOut) => "no answer before the deadline".into(),
                ("", _) => format!("refused ({})", c.result_code.unwrap_or_default()),
                (msg, _) => msg.into(),
            };
        }
    }
    s.command_id = None;
    s.sending = "{}".into();
    s.updated_at = now;
    save(ctx, s).await?;
    Ok(false)
}

/// The values the device has now: what the job sent, else what it confirmed, else defaults.
fn on_device(family: Family, confirmed: &[(String, String)], sent: &Values, key: &str) -> String {
    sent.get(key)
        .cloned()
        .unwrap_or_else(|| rules::current(family, confirmed, key))
}

/// One tick for inverter `sn`: `want` is what an event asks now (`None`: nothing any more).
pub(crate) async fn step(
    ctx: &Context,
    sn: &str,
    want: Option<&rules::Want>,
    state: Option<DispatchState>,
    now: i64,
) -> Result<()> {
    let mut s = match (state, want) {
        (Some(s), _) => s,
        (None, Some(w)) => fresh(sn, w, now),
        (None, None) => return Ok(()),
    };
    if follow(ctx, &mut s, now).await? {
        return Ok(());
    }
    let Some(dev) = ctx.store.dispatch_device(sn).await? else {
        return Ok(());
    };
    // Only what the device's register map can write is ever sent.
    let Ok(offer) =
        service::setting_offers::offer_for(&ctx.store, dev.type_code, &dev.protocol).await
    else {
        return Ok(());
    };
    let family = offer.family();
    let confirmed = ctx.store.device_settings(sn).await?;
    let mut snapshot = parse(&s.snapshot);
    let sent = parse(&s.sent);
    let mut target = snapshot.clone();
    match want {
        Some(w) => {
            if s.mode != APPLY || s.event_id != Some(w.event_id) {
                s.mode = APPLY.into();
                s.event_id = Some(w.event_id);
                s.plant_id = Some(w.plant_id);
                s.attempts = 0;
                s.error.clear();
            }
            let mut desired = rules::settings(family, w, &confirmed);
            desired.retain(|k, _| offer.field(k).is_some());
            for k in desired.keys() {
                snapshot
                    .entry(k.clone())
                    .or_insert_with(|| on_device(family, &confirmed, &sent, k));
            }
            target.extend(desired);
        }
        None if s.mode != RESTORE => {
            s.mode = RESTORE.into();
            s.attempts = 0;
            s.error.clear();
        }
        None => {}
    }
    s.snapshot = text(&snapshot);
    let diff: Map<String, Value> = target
        .iter()
        .filter(|(k, v)| on_device(family, &confirmed, &sent, k) != **v)
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    if diff.is_empty() {
        return settled(ctx, s, now).await;
    }
    if s.attempts >= MAX_ATTEMPTS {
        return Ok(());
    }
    // A restore waits for an offline inverter as long as it takes, without a try (and an
    // audit entry) per tick.
    if s.mode == RESTORE && unreachable(&dev) {
        if s.state != "offline" {
            s.state = "offline".into();
            s.updated_at = now;
            save(ctx, &s).await?;
        }
        return Ok(());
    }
    send_diff(ctx, &dev, s, diff, now).await
}

/// Nothing left to send: applied, or (restoring) given back.
async fn settled(ctx: &Context, mut s: DispatchState, now: i64) -> Result<()> {
    if s.mode == RESTORE {
        s.updated_at = now;
        ctx.store.dispatch_forget(&s, s.event_id).await?;
        return Ok(());
    }
    if s.state != "applied" {
        s.state = "applied".into();
        s.error.clear();
        s.updated_at = now;
        save(ctx, &s).await?;
    }
    Ok(())
}

async fn send_diff(
    ctx: &Context,
    dev: &DispatchDevice,
    mut s: DispatchState,
    diff: Map<String, Value>,
    now: i64,
) -> Result<()> {
    let restoring = s.mode == RESTORE;
    let action = if restoring {
        domain::audit_action::ENERGYHUB_RESTORE
    } else {
        domain::audit_action::ENERGYHUB_DISPATCH
    };
    let sending: Values = diff
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
        .collect();
    s.updated_at = now;
    match send::set_params(ctx, dev, action, s.event_id, diff).await {
        Ok(id) => {
            s.command_id = Some(id);
            s.sending = text(&sending);
            s.state = "pending".into();
            s.attempts += 1;
        }
        Err(refused) => {
            s.state = if refused.offline { "offline" } else { "failed" }.into();
            s.error = refused.error;
            // Only an apply's offline tries count: a restore waits for the inverter.
            if !(restoring && refused.offline) {
                s.attempts += 1;
            }
        }
    }
    save(ctx, &s).await
}
