//! One inverter's detail: the list item plus its readings now, energy this month and year,
//! the plant's picture, address and owner, and the caller's keys on it. Typed clients (the
//! Home Assistant integrations, synkctl) show every field as a sensor.

use axum::extract::{Path, State};

use super::{
    Inverter,
    list::{figures, item, master_names},
    values, visible,
    wire::{InverterDetail, InverterUser},
};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    plants::update_at,
    session::CurrentUser,
};

/// The keys the caller holds on the inverter's plant (`plantPermission`), or their role's
/// device keys for an inverter not on a plant (behind a gateway they hold).
fn permissions_on(me: &CurrentUser, inv: &Inverter) -> Vec<String> {
    match &inv.plant {
        Some(p) => me
            .actor
            .plant_access(&p.scope())
            .map(|a| me.actor.plant_permissions(a))
            .unwrap_or_default(),
        None if me.actor.read_only => Vec::new(),
        None => [
            domain::permissions::INVERTER_ALIAS,
            domain::permissions::INVERTER_DELETE,
        ]
        .into_iter()
        .filter(|k| me.actor.has(k))
        .map(String::from)
        .collect(),
    }
}

/// One inverter: the list item plus what the detail screen shows (its readings now, the
/// plant's time zone, the caller's keys on it). Clients show every field as a sensor.
#[utoipa::path(get, path = "/api/v1/inverter/{sn}", tag = "inverters", params(("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "The list item plus readings and the caller's keys; 600", body = Envelope<InverterDetail>)))]
pub async fn detail(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<InverterDetail>> {
    let inv = visible(&app, &me, &sn).await?;
    let f = figures(&app, &inv).await?;
    let masters = master_names(&app, inv.plant.iter().map(|p| p.owner_id)).await?;
    let master = inv
        .plant
        .as_ref()
        .and_then(|p| masters.get(&p.owner_id))
        .map(String::as_str);
    let r = f.reading.as_ref();
    let [_, month, year, _] = inv.energy_spans(&app).await?;
    let owner = match &inv.plant {
        Some(p) => app.store.user(p.owner_id).await?,
        None => None,
    };
    let plant = inv.plant.as_ref();
    let filled = |s: &str| (!s.trim().is_empty()).then(|| s.to_string());
    Ok(Data(InverterDetail {
        item: item(&inv, &f, master),
        emonth: month.kwh("pv"),
        eyear: year.kwh("pv"),
        run_status: values::number(r, "running_state").and_then(run_status),
        thumb_url: plant.and_then(|p| filled(&p.thumb_url)),
        comm_type: inv
            .row
            .gateway_comm_type
            .as_deref()
            .and_then(crate::gateways::list::comm_type_code),
        brand: inv.row.protocol.starts_with("deye").then_some("Deye"),
        address: plant.map(|p| p.address.clone()),
        user: owner.map(|u| InverterUser {
            id: u.id.0,
            nickname: u.nickname,
            mobile: filled(&u.mobile),
            email: filled(&u.email),
        }),
        hybrid: inv.kind().is_hybrid(),
        protocol: inv.row.protocol.clone(),
        running_state: values::number(r, "running_state"),
        mppt_count: values::number(r, "mppt_count"),
        phase_count: values::number(r, "phase_count"),
        dc_temp: values::number(r, "dc_temperature"),
        igbt_temp: values::number(r, "inverter_temperature"),
        last_seen: inv.row.last_seen.map(update_at),
        plant_permission: permissions_on(&me, &inv),
        values: r.map(|r| r.values.clone()).unwrap_or_default(),
    }))
}

/// The original's name of a Deye running state (register 59).
fn run_status(code: f64) -> Option<&'static str> {
    match code as i64 {
        0 => Some("Standby"),
        1 => Some("SelfCheck"),
        2 => Some("Normal"),
        3 => Some("Alarm"),
        4 => Some("Fault"),
        _ => None,
    }
}
