//! What the device screens of meters, weather stations and batteries share: lookup by SN
//! with the visibility rule of `store::devices`, the common list item (with `stale` and the
//! plant's `timezone`), paging, status counts, alias, delete, the write check, the day curve
//! and the energy bars.

use domain::ids::DeviceId;
use domain::ids::PlantId;
use std::collections::HashMap;

use chrono_tz::Tz;
use domain::{Code, DeviceFamily};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use service::devices::{self, Rule};
use store::{
    devices::{DeviceFilter, DeviceListRow, StatusCounts},
    plants::PlantRow,
    telemetry::{Bucket, DayRange},
};
use utoipa::{IntoParams, ToSchema};

use crate::{
    AppState,
    envelope::{ApiResult, Done},
    extract::num,
    monitor::live::Cycles,
    paging::{Page, Paging},
    plants::update_at,
    readings::{self, Column, Reading, SeriesList, round2, zone},
    session::CurrentUser,
    users::create_at,
};
use domain::time::now_ms;

const MAX_PAGE: i64 = 100;
/// Meters and weather stations have no keys of their own in the catalogue: reading them is
/// part of the equipment menu, and changing them is editing the plant they belong to.
pub(crate) const VIEW_KEY: &str = domain::permissions::EQUIP_VIEW;
pub(crate) const EDIT_KEY: &str = domain::permissions::STATION_EDIT;

/// `page`, `limit` and the filters of a device list; `-1` and empty values mean "any".
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct DeviceListQuery {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub page: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub limit: Option<i64>,
    /// Device status (0 offline, 1 normal, 2 warning, 3 fault, 4 upgrading); -1 any.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub status: Option<i64>,
    /// Part of the SN, any case.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
    /// Only the devices of this plant.
    #[serde(default, alias = "stationId", deserialize_with = "num::opt_i64")]
    pub plant_id: Option<i64>,
    /// Only the devices behind this gateway.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub gsn: Option<String>,
}

fn given(s: &Option<String>) -> Option<String> {
    s.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "-1")
        .map(String::from)
}

impl DeviceListQuery {
    /// `(limit, page)`: 10 per page by default, at most 100, pages from 1.
    pub(crate) fn paging(&self) -> (i64, i64) {
        (
            self.limit.unwrap_or(10).clamp(1, MAX_PAGE),
            self.page.unwrap_or(1).max(1),
        )
    }

    pub(crate) fn status(&self) -> Option<i64> {
        self.status.filter(|s| *s >= 0)
    }

    pub(crate) fn sn(&self) -> Option<String> {
        given(&self.sn)
    }

    pub(crate) fn filter(&self, family: DeviceFamily) -> DeviceFilter {
        let (limit, page) = self.paging();
        DeviceFilter {
            family: Some(family),
            status: self.status(),
            sn: self.sn(),
            plant: self.plant_id.filter(|p| *p > 0).map(PlantId),
            gateway_sn: given(&self.gsn),
            limit,
            offset: (page - 1) * limit,
            ..DeviceFilter::default()
        }
    }
}

/// A device of `family` named by its SN (or, when no device has that SN, its numeric id), if
/// the caller may see it; 600 otherwise, exactly like a missing one.
pub(crate) async fn device(
    app: &AppState,
    me: &CurrentUser,
    raw: &str,
    family: DeviceFamily,
) -> ApiResult<DeviceListRow> {
    let raw = raw.trim();
    let visibility = me.actor.plant_visibility();
    let mut found = app.store.device_visible(visibility, me.id(), raw).await?;
    if found.is_none()
        && let Ok(id) = raw.parse::<i64>().map(DeviceId)
        && let Some(sn) = app.store.device_sn(id).await?
    {
        found = app.store.device_visible(visibility, me.id(), &sn).await?;
    }
    found
        .filter(|d| d.family == family)
        .ok_or_else(|| Code::InverterMissing.into())
}

/// The device's plant as the caller sees it.
pub(crate) async fn plant_of(
    app: &AppState,
    me: &CurrentUser,
    d: &DeviceListRow,
) -> ApiResult<Option<PlantRow>> {
    Ok(match d.plant_id {
        Some(id) => app.store.plant(id, me.id()).await?,
        None => None,
    })
}

/// The time zone series of this device are drawn in: its plant's, UTC when it has none.
pub(crate) async fn zone_of(app: &AppState, me: &CurrentUser, d: &DeviceListRow) -> ApiResult<Tz> {
    Ok(plant_of(app, me, d)
        .await?
        .map_or(Tz::UTC, |p| zone(&p.timezone)))
}

/// Changing a device needs a writable account, the role key `key`, and a plant the caller
/// owns or manages for their company (`service::devices::Rule::Managed`; code 2 otherwise).
pub(crate) async fn require_device_write(
    app: &AppState,
    me: &CurrentUser,
    d: &DeviceListRow,
    key: &str,
) -> ApiResult<()> {
    Ok(devices::require(&app.store, &me.actor, d, Rule::Managed(key)).await?)
}

/// Whether [`require_device_write`] would let the caller change the device (screens hide the
/// buttons otherwise).
pub(crate) async fn may_write(
    app: &AppState,
    me: &CurrentUser,
    d: &DeviceListRow,
    key: &str,
) -> ApiResult<bool> {
    match require_device_write(app, me, d, key).await {
        Ok(()) => Ok(true),
        Err(crate::envelope::ApiError::Domain(_)) => Ok(false),
        Err(e) => Err(e),
    }
}

fn versions(raw: &str) -> Map<String, Value> {
    serde_json::from_str::<Map<String, Value>>(raw).unwrap_or_default()
}

/// The plant a device belongs to.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DevicePlant {
    pub id: i64,
    pub name: String,
    /// The plant's type code.
    #[serde(rename = "type")]
    pub kind: Option<i64>,
}

/// The gateway a device reports through.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeviceGateway {
    pub gsn: String,
    /// 1 online, 0 offline.
    pub status: i64,
}

/// The fields every device list item and detail carries (meters, weather stations,
/// batteries); each family's answer adds its own with `#[serde(flatten)]`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceItem {
    pub id: i64,
    pub sn: String,
    pub alias: String,
    /// The alias, or the SN when there is none.
    pub dev_name: String,
    /// 0 offline, 1 normal, 2 warning, 3 fault, 4 upgrading.
    pub status: i64,
    pub online: bool,
    /// The device's type code.
    #[serde(rename = "type")]
    pub kind: i64,
    pub model: String,
    pub protocol: String,
    /// The device it hangs from (a battery's inverter or master).
    pub parent_sn: Option<String>,
    /// Firmware versions by component, as the device reported them (free-form: each
    /// protocol names its own components and versions).
    #[schema(value_type = Object)]
    pub versions: Map<String, Value>,
    pub plant_id: Option<i64>,
    pub plant_name: Option<String>,
    pub plant: Option<DevicePlant>,
    pub gsn: Option<String>,
    #[serde(rename = "gatewayVO")]
    pub gateway_vo: Option<DeviceGateway>,
    /// When the device last reported or changed, UTC (`YYYY-MM-DDTHH:MM:SSZ`).
    pub update_at: String,
    pub create_at: String,
}

impl DeviceItem {
    pub(crate) fn of(d: &DeviceListRow) -> Self {
        let seen = d.last_seen.unwrap_or(d.updated_at).max(d.updated_at);
        let plant = match (d.plant_id, &d.plant_name) {
            (Some(id), Some(name)) => Some(DevicePlant {
                id: id.0,
                name: name.clone(),
                kind: d.plant_type,
            }),
            _ => None,
        };
        DeviceItem {
            id: d.id.0,
            sn: d.sn.clone(),
            alias: d.alias.clone(),
            dev_name: if d.alias.is_empty() {
                d.sn.clone()
            } else {
                d.alias.clone()
            },
            status: d.status,
            online: d.online,
            kind: d.type_code,
            model: d.model.clone(),
            protocol: d.protocol.clone(),
            parent_sn: d.parent_sn.clone(),
            versions: versions(&d.versions),
            plant_id: d.plant_id.map(|v| v.0),
            plant_name: d.plant_name.clone(),
            plant,
            gsn: d.gateway_sn.clone(),
            gateway_vo: d.gateway_sn.as_ref().map(|gsn| DeviceGateway {
                gsn: gsn.clone(),
                status: i64::from(d.gateway_online.unwrap_or(false)),
            }),
            update_at: update_at(seen),
            create_at: create_at(d.created_at),
        }
    }
}

/// What every live device answer adds (see [`live_fields`]).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Live {
    /// The newest data is past the device's offline bound, or it never reported: the values
    /// are the last known, not live.
    pub stale: bool,
    /// The plant's zone, in which its times are shown; UTC without a plant.
    pub timezone: String,
}

/// A page of devices of `family`; `extra` makes each item from the common fields and the
/// device's latest values.
pub(crate) async fn list_page<T>(
    app: &AppState,
    me: &CurrentUser,
    q: &DeviceListQuery,
    family: DeviceFamily,
    extra: impl Fn(&DeviceListRow, Option<&Reading>, DeviceItem, Live) -> T,
) -> ApiResult<Page<T>> {
    let (limit, page) = q.paging();
    let (rows, total) = app
        .store
        .devices_visible(me.actor.plant_visibility(), me.id(), &q.filter(family))
        .await?;
    Ok(Page::new(
        Paging::new(page, limit),
        total,
        items(app, me, &rows, extra).await?,
    ))
}

/// The list items of `rows`: `extra` makes each from [`DeviceItem`], [`Live`] and the latest
/// values. The page's plants, gateways and newest values are read in one query each.
pub(crate) async fn items<'a, T>(
    app: &AppState,
    me: &CurrentUser,
    rows: impl IntoIterator<Item = &'a DeviceListRow>,
    extra: impl Fn(&DeviceListRow, Option<&Reading>, DeviceItem, Live) -> T,
) -> ApiResult<Vec<T>> {
    let rows: Vec<&DeviceListRow> = rows.into_iter().collect();
    let cycles = Cycles::of_rows(rows.iter().copied());
    let mut plants: Vec<PlantId> = rows.iter().filter_map(|d| d.plant_id).collect();
    plants.sort_unstable();
    plants.dedup();
    let zones: HashMap<_, Tz> = app
        .store
        .plants_by_ids(&plants, me.id())
        .await?
        .into_iter()
        .map(|p| (p.id, zone(&p.timezone)))
        .collect();
    let mut newest =
        readings::latest_of(app, &rows.iter().map(|d| d.id).collect::<Vec<_>>()).await?;
    let now = now_ms();
    let mut infos = Vec::new();
    for d in rows {
        let latest = newest.remove(&d.id);
        let tz = d
            .plant_id
            .and_then(|p| zones.get(&p).copied())
            .unwrap_or(Tz::UTC);
        let live = live(d, latest.as_ref(), &cycles, tz, now);
        infos.push(extra(d, latest.as_ref(), DeviceItem::of(d), live));
    }
    Ok(infos)
}

fn live(d: &DeviceListRow, latest: Option<&Reading>, cycles: &Cycles, tz: Tz, now: i64) -> Live {
    let last = latest.map(|r| r.ts).or(d.last_seen);
    Live {
        stale: cycles.stale(d.gateway_id, last, now),
        timezone: tz.name().to_string(),
    }
}

/// [`Live`] of one device.
pub(crate) fn live_of(d: &DeviceListRow, latest: Option<&Reading>, tz: Tz) -> Live {
    live(d, latest, &Cycles::of_rows([d]), tz, now_ms())
}

/// How many devices there are per status.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeviceCounts {
    pub total: i64,
    pub normal: i64,
    pub offline: i64,
    pub warning: i64,
    pub fault: i64,
    pub upgrading: i64,
}

impl From<&StatusCounts> for DeviceCounts {
    fn from(c: &StatusCounts) -> Self {
        DeviceCounts {
            total: c.total,
            normal: c.normal,
            offline: c.offline,
            warning: c.warning,
            fault: c.fault,
            upgrading: c.upgrading,
        }
    }
}

/// How many devices of `family` the caller may see (of one plant when asked), per status.
pub(crate) async fn family_counts(
    app: &AppState,
    me: &CurrentUser,
    family: DeviceFamily,
    q: &DeviceListQuery,
) -> ApiResult<DeviceCounts> {
    let c = app
        .store
        .device_counts(
            me.actor.plant_visibility(),
            me.id(),
            Some(family),
            q.plant_id.filter(|p| *p > 0).map(PlantId),
        )
        .await?;
    Ok(DeviceCounts::from(&c))
}

/// `{alias}` as JSON or a form; the query's `alias` is read too.
#[derive(Debug, Default, Deserialize, ToSchema, IntoParams)]
pub struct AliasBody {
    #[serde(default, alias = "name", deserialize_with = "num::opt_text")]
    pub alias: Option<String>,
}

pub(crate) async fn rename(
    app: &AppState,
    me: &CurrentUser,
    sn: &str,
    family: DeviceFamily,
    alias: Option<&str>,
) -> ApiResult<Done> {
    let d = device(app, me, sn, family).await?;
    let rule = Rule::Managed(EDIT_KEY);
    devices::rename(&app.store, &me.actor, &d, rule, alias, now_ms()).await?;
    Ok(Done)
}

pub(crate) async fn remove(
    app: &AppState,
    me: &CurrentUser,
    sn: &str,
    family: DeviceFamily,
) -> ApiResult<Done> {
    let d = device(app, me, sn, family).await?;
    devices::delete(&app.store, &me.actor, &d, Rule::Managed(EDIT_KEY), &[]).await?;
    Ok(Done)
}

/// `date=YYYY-MM-DD` (today in the plant's zone by default).
#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct DateQuery {
    #[serde(default, deserialize_with = "num::opt_text")]
    pub date: Option<String>,
}

/// The day curve of the device of `family` named `sn`: its samples of the plant-local day,
/// one series per `(label, unit, key)` column.
pub(crate) async fn day_curve(
    app: &AppState,
    me: &CurrentUser,
    sn: &str,
    family: DeviceFamily,
    date: Option<&str>,
    columns: &[(&str, &'static str, &str)],
) -> ApiResult<SeriesList> {
    let d = &device(app, me, sn, family).await?;
    let tz = zone_of(app, me, d).await?;
    let columns: Vec<Column<'_>> = columns
        .iter()
        .map(|&(label, unit, key)| Column {
            label,
            unit,
            read: Box::new(move |r: &Reading| r.num(key)),
        })
        .collect();
    let (_, infos) = readings::day_series(app, d.id, tz, date, &columns).await?;
    Ok(SeriesList { infos })
}

/// A number for numeric fields (2 decimals), `null` when missing.
pub(crate) fn opt_round(v: Option<f64>) -> Option<f64> {
    v.map(round2)
}

/// Energy bars of a device from its daily rollups (never from raw samples).
pub(crate) async fn energy_bars(
    app: &AppState,
    d: &DeviceListRow,
    days: DayRange,
    bucket: Bucket,
    metrics: &[(&str, &str)],
) -> ApiResult<SeriesList> {
    let points = app.store.device_energy_series(d.id, &days, bucket).await?;
    Ok(SeriesList {
        infos: readings::energy_series(&points, metrics),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_filters_read_minus_one_and_empty_as_any() {
        let q = DeviceListQuery {
            page: Some(3),
            limit: Some(500),
            status: Some(-1),
            sn: Some(" -1 ".into()),
            plant_id: Some(0),
            gsn: Some("GW1".into()),
        };
        let f = q.filter(DeviceFamily::Meter);
        assert_eq!((f.limit, f.offset), (100, 200));
        assert_eq!((f.status, f.sn, f.plant), (None, None, None));
        assert_eq!(f.gateway_sn.as_deref(), Some("GW1"));
        assert_eq!(f.family, Some(DeviceFamily::Meter));
    }
}
