//! Inverter listings (all the caller may see, or one plant's), status counts, one inverter's
//! detail, renaming and removal. The list item is the original API's, field by field:
//! third-party clients parse `sn` as a string, `type`/`custCode` as ints, `sunsynkEquip` as a
//! bool, `plant.master` as a string, `equipMode` as an int or null and `updateAt` strictly
//! (docs/clients.md).

use domain::ids::CompanyId;
use domain::ids::{DeviceId, PlantId};
use std::collections::HashMap;

use axum::extract::{Path, State};
use domain::{DeviceFamily, ids::UserId};
use serde::Deserialize;
use serde_json::{Map, Value};
use service::{
    agent_filter::CompanyFilter,
    devices::{self, Rule},
};
use store::devices::{DeviceFilter, DeviceListRow};
use utoipa::IntoParams;

use super::{
    Inverter, plants_of, require_view, values, visible,
    wire::{FirmwareVersions, InverterGateway, InverterItem, InverterPlant, InverterStatusCounts},
};
use crate::{
    AppState,
    device_common::AliasBody,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, Query, num},
    monitor::live::Cycles,
    paging::{Page, Paging},
    plants::update_at,
    readings::{Reading, round2},
    session::CurrentUser,
    users::create_at,
};
use domain::time::now_ms;

const MAX_PAGE: i64 = 100;
/// The metric of `etoday` and `etotal`.
const PV: &str = "pv";

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub page: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub limit: Option<i64>,
    /// 0 offline, 1 normal, 2 warning, 3 fault, 4 upgrading; -1 any.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub status: Option<i64>,
    /// Part of the SN, any case.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
    #[serde(default, alias = "stationId", deserialize_with = "num::opt_i64")]
    pub plant_id: Option<i64>,
    /// Device type code (docs/overview.md); -1 or -2 any.
    #[serde(default, rename = "type", deserialize_with = "num::opt_i64")]
    pub kind: Option<i64>,
    /// Part of the software version.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub soft_ver: Option<String>,
    /// Part of the HMI version.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub hmi_ver: Option<String>,
    /// Only the inverters of this agent company (on its plants or behind its gateways; one of
    /// the caller's agents, internal staff any company); -1 any.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub agent_company_id: Option<i64>,
    /// The gateway's SN, exactly.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub gsn: Option<String>,
}

fn given(s: &Option<String>) -> Option<String> {
    s.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "-1")
        .map(String::from)
}

impl ListQuery {
    fn filter(&self, plant: Option<PlantId>, limit: i64, offset: i64) -> DeviceFilter {
        DeviceFilter {
            family: Some(DeviceFamily::Inverter),
            status: self.status.filter(|s| *s >= 0),
            // -1 and -2 mean "any"; 0 is a real code (string inverters).
            type_code: self.kind.filter(|t| *t >= 0),
            sn: given(&self.sn),
            plant: plant.or(self.plant_id.filter(|p| *p > 0).map(PlantId)),
            gateway_sn: given(&self.gsn),
            parent_sn: None,
            // The versions column is JSON text: a software or HMI version is matched inside it.
            version: given(&self.soft_ver).or_else(|| given(&self.hmi_ver)),
            company: self.agent_company_id.filter(|c| *c > 0).map(CompanyId),
            limit,
            offset,
        }
    }
}

/// The `version` object: what the device reported about its firmware (strings or null).
fn version(row: &DeviceListRow) -> FirmwareVersions {
    let v: Map<String, Value> = serde_json::from_str(&row.versions).unwrap_or_default();
    let pick = |k: &str| match v.get(k) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    FirmwareVersions {
        master_ver: pick("masterVer"),
        soft_ver: pick("softVer"),
        hard_ver: pick("hardVer"),
        hmi_ver: pick("hmiVer"),
        bms_ver: pick("bmsVer"),
        comm_ver: pick("commVer"),
    }
}

/// Customer (manufacturer) code the device reported in its versions; 0 when unknown.
fn cust_code(row: &DeviceListRow) -> i64 {
    serde_json::from_str::<Map<String, Value>>(&row.versions)
        .ok()
        .and_then(|v| v.get("custCode").and_then(Value::as_i64))
        .unwrap_or(0)
}

/// One inverter with the figures a list shows: `pac` now (W), `etoday`/`etotal` PV energy
/// (kWh, from the day rollups so they agree with the day/month/year/total series).
pub(crate) struct Figures {
    pub reading: Option<Reading>,
    pub etoday: f64,
    pub etotal: f64,
}

pub(crate) async fn figures(app: &AppState, inv: &Inverter) -> ApiResult<Figures> {
    // Two rollup reads (today, all time): a list page runs this once per row.
    let day = crate::readings::today(inv.tz).to_string();
    let today = inv
        .energy(app, &store::telemetry::DayRange::day(&day))
        .await?;
    let total = inv
        .energy(app, &store::telemetry::DayRange::total())
        .await?;
    Ok(Figures {
        reading: inv.latest(app).await?,
        etoday: today.kwh("pv"),
        etotal: total.kwh("pv"),
    })
}

/// Today's and all-time PV energy and the newest values of a page of inverters, as
/// [`figures`] reads them for one, in a few queries whatever the page holds: one for the
/// newest values, one for the days from the page's earliest today on, one for all time.
pub(crate) async fn page_figures(app: &AppState, page: &[Inverter]) -> ApiResult<Vec<Figures>> {
    let ids: Vec<DeviceId> = page.iter().map(|inv| inv.row.id).collect();
    let todays: Vec<String> = page
        .iter()
        .map(|inv| crate::readings::today(inv.tz).to_string())
        .collect();
    let Some(since) = todays.iter().min() else {
        return Ok(Vec::new());
    };
    let mut latest = crate::readings::latest_of(app, &ids).await?;
    let days = app.store.devices_energy_since(&ids, PV, since).await?;
    let totals: HashMap<DeviceId, f64> = app
        .store
        .devices_energy_total(&ids, PV)
        .await?
        .into_iter()
        .map(|t| (t.device_id, t.kwh))
        .collect();
    Ok(page
        .iter()
        .zip(&todays)
        .map(|(inv, today)| {
            let id = inv.row.id;
            let etoday = days
                .iter()
                .find(|d| d.device_id == id && d.day == *today)
                .map_or(0.0, |d| round2(d.kwh));
            Figures {
                reading: latest.remove(&id),
                etoday,
                etotal: totals.get(&id).map_or(0.0, |kwh| round2(*kwh)),
            }
        })
        .collect())
}

/// The display names (nickname, else account) of the accounts owning the given plants: the
/// list item's `plant.master`. One query.
pub(super) async fn master_names(
    app: &AppState,
    owners: impl IntoIterator<Item = UserId>,
) -> ApiResult<HashMap<UserId, String>> {
    Ok(app
        .store
        .users_by_ids(owners)
        .await?
        .into_iter()
        .map(|(id, u)| (id, u.shown_name().to_string()))
        .collect())
}

/// The list item of the original API; `master` is the display name of the plant's owner.
pub(crate) fn item(inv: &Inverter, f: &Figures, master: Option<&str>) -> InverterItem {
    let d = &inv.row;
    let plant = inv.plant.as_ref();
    let r = f.reading.as_ref();
    let stale = inv.stale(r);
    let kind = inv.kind();
    let opened = i64::from(d.online && r.is_none_or(values::switched_on));
    let rated = if d.rated_power > 0.0 {
        Some(d.rated_power)
    } else {
        r.and_then(|r| r.num("rated_power"))
    };
    InverterItem {
        id: d.id.0,
        sn: d.sn.clone(),
        alias: d.alias.clone(),
        gsn: d.gateway_sn.clone(),
        status: d.status,
        kind: d.type_code,
        type_key: kind.key(),
        // Inverters talk Modbus RTU over RS485 to their gateway (every shipped protocol).
        comm_type_name: "RS485",
        cust_code: cust_code(d),
        version: version(d),
        model: d.model.clone(),
        // Current power counts fresh values only (as the plant's): 0 once they are stale.
        pac: r
            .filter(|_| !stale)
            .and_then(values::pv_power)
            .map_or(0.0, round2),
        etoday: f.etoday,
        etotal: f.etotal,
        update_at: update_at(d.last_seen.unwrap_or(d.updated_at)),
        create_at: create_at(d.created_at),
        opened,
        plant: plant.map(|p| InverterPlant {
            id: p.id.0,
            name: p.name.clone(),
            kind: p.plant_type,
            master: master.map(String::from),
            installer: p.installer.clone(),
            email: p.email.clone(),
            phone: p.phone.clone(),
        }),
        plant_id: d.plant_id.map(|v| v.0),
        gateway_vo: d.gateway_sn.as_ref().map(|g| InverterGateway {
            gsn: g.clone(),
            status: i64::from(d.gateway_online.unwrap_or(false)),
        }),
        // The Deye/Sunsynk family: every protocol config named deye-*.
        sunsynk_equip: d.protocol.starts_with("deye"),
        protocol_identifier: d.protocol.clone(),
        // The original's numeric mode has no counterpart here; the kind is `typeKey`, and
        // text would break the clients that read this as an int.
        equip_mode: None,
        equip_type: d.type_code,
        rate_power: rated.map(round2),
        online: d.online,
        // The newest values are past the offline bound: `pac` is the last known, not live.
        stale,
        // The plant's zone: the screens show the inverter's times in it.
        timezone: inv.tz.name().to_string(),
        product_id: d.product_id.map(|v| v.0),
        product_name: d.product_name.clone(),
    }
}

async fn page(
    app: &AppState,
    me: &CurrentUser,
    q: &ListQuery,
    plant: Option<PlantId>,
) -> ApiResult<Page<InverterItem>> {
    let limit = q.limit.unwrap_or(10).clamp(1, MAX_PAGE);
    let page = q.page.unwrap_or(1).max(1);
    let mut filter = q.filter(plant, limit, (page - 1) * limit);
    match service::agent_filter::agent_company(&app.store, &me.actor, q.agent_company_id).await? {
        CompanyFilter::Any => filter.company = None,
        CompanyFilter::Only(c) => filter.company = Some(c),
        CompanyFilter::Nothing => return Ok(Page::new(Paging::new(page, limit), 0, Vec::new())),
    }
    let (rows, total) = app
        .store
        .devices_visible(me.actor.plant_visibility(), me.id(), &filter)
        .await?;
    let plants = plants_of(app, me, &rows).await?;
    let masters = master_names(app, plants.values().map(|p| p.owner_id)).await?;
    let cycles = Cycles::of_rows(&rows);
    let inverters: Vec<Inverter> = rows
        .into_iter()
        .map(|row| {
            let plant = row.plant_id.and_then(|id| plants.get(&id)).cloned();
            let tz = plant
                .as_ref()
                .map_or(chrono_tz::Tz::UTC, |p| crate::readings::zone(&p.timezone));
            let upload_cycle = cycles.cycle(row.gateway_id);
            Inverter {
                row,
                plant,
                tz,
                upload_cycle,
            }
        })
        .collect();
    let figures = page_figures(app, &inverters).await?;
    let infos = inverters
        .iter()
        .zip(&figures)
        .map(|(inv, f)| {
            let master = inv
                .plant
                .as_ref()
                .and_then(|p| masters.get(&p.owner_id))
                .map(String::as_str);
            item(inv, f, master)
        })
        .collect();
    Ok(Page::new(Paging::new(page, limit), total, infos))
}

/// The inverters the caller may see, paged (`page` from 1, `limit` up to 100).
#[utoipa::path(get, path = "/api/v1/inverters", tag = "inverters", params(ListQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of inverters", body = Envelope<Page<InverterItem>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Page<InverterItem>>> {
    require_view(&me)?;
    Ok(Data(page(&app, &me, &q, None).await?))
}

/// One plant's inverters (the list item); 700 when the caller may not see the plant.
#[utoipa::path(get, path = "/api/v1/plant/{id}/inverters", tag = "inverters", params(("id" = i64, Path), ListQuery),
    security(("bearer" = [])), responses((status = 200, description = "A page of the plant's inverters; 700", body = Envelope<Page<InverterItem>>)))]
pub async fn plant_list(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Page<InverterItem>>> {
    let (plant, _) = crate::plants::visible(&app, &me, &id).await?;
    Ok(Data(page(&app, &me, &q, Some(plant.id)).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct CountQuery {
    /// Only this plant's inverters.
    #[serde(default, alias = "stationId", deserialize_with = "num::opt_i64")]
    pub plant_id: Option<i64>,
}

/// How many inverters the caller may see, per status.
#[utoipa::path(get, path = "/api/v1/inverters/count", tag = "inverters", params(CountQuery), security(("bearer" = [])),
    responses((status = 200, description = "Inverters per status", body = Envelope<InverterStatusCounts>)))]
pub async fn count(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CountQuery>,
) -> ApiResult<Data<InverterStatusCounts>> {
    require_view(&me)?;
    let c = app
        .store
        .device_counts(
            me.actor.plant_visibility(),
            me.id(),
            Some(DeviceFamily::Inverter),
            q.plant_id.filter(|p| *p > 0).map(PlantId),
        )
        .await?;
    Ok(Data(InverterStatusCounts {
        total: c.total,
        normal: c.normal,
        offline: c.offline,
        warning: c.warning,
        fault: c.fault,
        upgrading: c.upgrading,
    }))
}

/// Requires `key` on the inverter's plant (700 cannot happen: the inverter was visible), or
/// the role's key for an inverter behind a gateway the caller holds.
pub(crate) fn require_on(me: &CurrentUser, inv: &Inverter, key: &str) -> ApiResult<()> {
    me.actor.require_writable()?;
    match &inv.plant {
        Some(p) => {
            me.actor.require_on_plant(&p.scope(), key)?;
        }
        None => me.actor.require(key)?,
    }
    Ok(())
}

/// Renames an inverter (`inverter.alias` on its plant); the name is sent as JSON, a form or
/// in the query (`alias`).
#[utoipa::path(post, path = "/api/v1/inverter/{sn}/alias", tag = "inverters", params(("sn" = String, Path), AliasBody),
    request_body = AliasBody, security(("bearer" = [])), responses((status = 200, description = "Renamed; 2, 4 alias (over 32 bytes), 600", body = Ack)))]
pub async fn alias(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<AliasBody>,
    Body(b): Body<AliasBody>,
) -> ApiResult<Done> {
    let inv = visible(&app, &me, &sn).await?;
    let rule = Rule::OnPlant {
        on_plant: domain::permissions::INVERTER_ALIAS,
        off_plant: domain::permissions::INVERTER_ALIAS,
    };
    // No name sent clears it, as an empty one does.
    let alias = b.alias.as_deref().or(q.alias.as_deref()).unwrap_or("");
    devices::rename(&app.store, &me.actor, &inv.row, rule, Some(alias), now_ms()).await?;
    tracing::info!(device = %inv.row.id, sn = %inv.row.sn, by = %me.id(), "inverter renamed");
    Ok(Done)
}

/// Removes an inverter from the registry (the plant's edit permission, `station.edit`; an
/// unbound one needs `inverter.delete`). Its history stays; reporting again registers it anew.
#[utoipa::path(post, path = "/api/v1/inverter/{sn}/delete", tag = "inverters", params(("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Removed; 2, 600", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Done> {
    let inv = visible(&app, &me, &sn).await?;
    let rule = Rule::OnPlant {
        on_plant: domain::permissions::STATION_EDIT,
        off_plant: domain::permissions::INVERTER_DELETE,
    };
    devices::delete(&app.store, &me.actor, &inv.row, rule, &[]).await?;
    tracing::info!(device = %inv.row.id, sn = %inv.row.sn, plant = ?inv.row.plant_id, by = %me.id(), "inverter deleted");
    Ok(Done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_power_state_is_the_reported_switch_else_the_running_state() {
        let on = |json: &str| values::switched_on(&Reading::from_sample(1, json));
        assert!(
            !on(r#"{"power_on":false,"running_state":2}"#),
            "the switch wins"
        );
        assert!(on(r#"{"power_on":true,"running_state":0}"#));
        assert!(!on(r#"{"running_state":0}"#), "standby without a switch");
        assert!(on(r#"{"running_state":2}"#));
        assert!(on("{}"));
    }
}
