//! DC combiner boxes (docs/api.md, "Combiner boxes"): list, status counts, realtime per
//! string with the weak-string flag, day curves of the string currents, energy per day of a
//! month, alias and delete. Lookup, visibility and the shared fields are
//! [`crate::device_common`]'s, as for meters.

use axum::extract::{Path, State};
use domain::{
    DeviceFamily,
    combiner::{self, CURRENT_KEYS, StringCheck, VOLTAGE_KEYS},
};
use serde::Serialize;
use store::{
    devices::DeviceListRow,
    telemetry::{Bucket, DayRange},
};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    device_common::{
        AliasBody, DateQuery, DeviceCounts, DeviceItem, DeviceListQuery, EDIT_KEY, Live, VIEW_KEY,
        device, energy_bars, family_counts, list_page, live_of, may_write, opt_round, remove,
        rename, zone_of,
    },
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, Query},
    paging::Page,
    plants::update_at,
    readings::{self, Column, Reading, SeriesList, month_param, round2},
    session::CurrentUser,
};

const FAMILY: DeviceFamily = DeviceFamily::Combiner;

/// `status_word` bits (docs/device-protocol.md, "Combiner boxes").
const FUSE_BIT: u32 = 0;
const SURGE_BIT: u32 = 1;
const SWITCH_BIT: u32 = 2;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(count))
        .routes(routes!(realtime))
        .routes(routes!(day))
        .routes(routes!(month))
        .routes(routes!(alias))
        .routes(routes!(delete))
}

/// One string of a combiner box.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct StringNow {
    /// 1-based string number.
    pub no: usize,
    /// A.
    pub current: f64,
    /// V.
    pub voltage: Option<f64>,
    /// W (current × voltage).
    pub power: Option<f64>,
    /// Below half of the median string current while the median is meaningful.
    pub weak: bool,
}

/// The strings of a reading and whether the weak-string rule could judge them.
fn strings_of(r: &Reading) -> (Vec<StringNow>, bool) {
    let currents = combiner::currents(|k| r.num(k));
    let check = combiner::check_strings(&currents);
    let strings = currents
        .iter()
        .map(|&(no, current)| {
            let voltage = r.num(VOLTAGE_KEYS[no - 1]);
            StringNow {
                no,
                current: round2(current),
                voltage: opt_round(voltage),
                power: voltage.map(|v| (v * current).round()),
                weak: check.weak().contains(&no),
            }
        })
        .collect();
    (strings, check != StringCheck::Undecided)
}

/// The state bits of `status_word`, `None` when the box does not send it.
fn bit(r: &Reading, bit: u32) -> Option<bool> {
    let word = r
        .num("status_word")
        .filter(|w| w.is_finite() && *w >= 0.0)?;
    Some((word as u64) >> bit & 1 == 1)
}

/// A combiner box of the list: the common device fields and its latest figures.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CombinerItem {
    #[serde(flatten)]
    pub device: DeviceItem,
    #[serde(flatten)]
    pub live: Live,
    /// W.
    pub power: Option<f64>,
    /// V.
    pub bus_voltage: Option<f64>,
    /// °C.
    pub temperature: Option<f64>,
    /// Strings that report a current.
    pub strings: usize,
    /// The numbers of the weak strings.
    pub weak_strings: Vec<usize>,
    /// kWh today, as the box counts it.
    pub etoday: Option<f64>,
}

fn combiner_item(
    _: &DeviceListRow,
    r: Option<&Reading>,
    device: DeviceItem,
    live: Live,
) -> CombinerItem {
    let num = |k: &str| r.and_then(|r| r.num(k));
    let strings = r.map(strings_of).map(|(s, _)| s).unwrap_or_default();
    CombinerItem {
        device,
        live,
        power: opt_round(num("power")),
        bus_voltage: opt_round(num("bus_voltage")),
        temperature: opt_round(num("temperature")),
        strings: strings.len(),
        weak_strings: strings.iter().filter(|s| s.weak).map(|s| s.no).collect(),
        etoday: opt_round(num("today_energy")),
    }
}

/// The combiner boxes the caller may see, paged, with their latest figures.
#[utoipa::path(get, path = "/api/v1/combiners", tag = "combiners", params(DeviceListQuery), security(("bearer" = [])),
    responses((status = 200, description = "A page of combiner boxes; 2", body = Envelope<Page<CombinerItem>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<Page<CombinerItem>>> {
    me.actor.require(VIEW_KEY)?;
    Ok(Data(list_page(&app, &me, &q, FAMILY, combiner_item).await?))
}

/// How many combiner boxes the caller may see, per status.
#[utoipa::path(get, path = "/api/v1/combiner/status/count", tag = "combiners", security(("bearer" = [])),
    params(("plantId" = Option<i64>, Query, description = "only this plant's combiner boxes")),
    responses((status = 200, description = "Combiner boxes per status; 2", body = Envelope<DeviceCounts>)))]
pub async fn count(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<DeviceListQuery>,
) -> ApiResult<Data<DeviceCounts>> {
    me.actor.require(VIEW_KEY)?;
    Ok(Data(family_counts(&app, &me, FAMILY, &q).await?))
}

/// A combiner box with its latest values.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CombinerNow {
    #[serde(flatten)]
    pub device: DeviceItem,
    #[serde(flatten)]
    pub live: Live,
    /// The caller may rename and delete it.
    pub editable: bool,
    /// Per string, in string order.
    pub strings: Vec<StringNow>,
    /// The currents were high enough for the weak-string rule to judge.
    pub judged: bool,
    /// W.
    pub power: Option<f64>,
    /// V.
    pub bus_voltage: Option<f64>,
    /// A.
    pub total_current: Option<f64>,
    /// °C.
    pub temperature: Option<f64>,
    /// A string fuse is blown (`null`: not reported).
    pub fuse_blown: Option<bool>,
    /// The surge protector has tripped.
    pub surge_tripped: Option<bool>,
    /// The DC switch is open.
    pub switch_open: Option<bool>,
    /// kWh today (plant-local), from the daily rollups.
    pub etoday: f64,
    /// kWh since commissioning, as the box counts it.
    pub etotal: Option<f64>,
    /// The newest report, plant-local `YYYY-MM-DD HH:MM:SS`.
    pub time: Option<String>,
}

/// The latest values of a combiner box: every string's current, voltage and power with the
/// weak-string flag, bus voltage, temperature, fuse, surge-protector and switch states.
#[utoipa::path(get, path = "/api/v1/combiner/{sn}/realtime", tag = "combiners", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The combiner box and its latest values; 600", body = Envelope<CombinerNow>)))]
pub async fn realtime(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Data<CombinerNow>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    let tz = zone_of(&app, &me, &d).await?;
    let r = readings::latest(&app, d.id).await?.unwrap_or_default();
    let today = app
        .store
        .device_energy(d.id, &DayRange::day(&readings::today(tz).to_string()))
        .await?;
    let etoday = today
        .iter()
        .filter(|e| e.metric == "pv")
        .map(|e| e.kwh)
        .sum();
    let (strings, judged) = strings_of(&r);
    let mut device = DeviceItem::of(&d);
    device.update_at = update_at(d.last_seen.unwrap_or(d.updated_at));
    let live = live_of(&d, (r.ts > 0).then_some(&r), tz);
    Ok(Data(CombinerNow {
        device,
        live,
        editable: may_write(&app, &me, &d, EDIT_KEY).await?,
        strings,
        judged,
        power: opt_round(r.num("power")),
        bus_voltage: opt_round(r.num("bus_voltage")),
        total_current: opt_round(r.num("total_current")),
        temperature: opt_round(r.num("temperature")),
        fuse_blown: bit(&r, FUSE_BIT),
        surge_tripped: bit(&r, SURGE_BIT),
        switch_open: bit(&r, SWITCH_BIT),
        etoday: round2(etoday),
        etotal: opt_round(r.num("total_energy")),
        time: (r.ts > 0).then(|| readings::local_time(r.ts, tz)),
    }))
}

/// The currents of every string over a plant-local day (A), and the box's power (W).
#[utoipa::path(get, path = "/api/v1/combiner/{sn}/day", tag = "combiners", params(("sn" = String, Path), DateQuery), security(("bearer" = [])),
    responses((status = 200, description = "Series labelled string1..string32 (A, only strings that reported) and power (W); 600", body = Envelope<SeriesList>)))]
pub async fn day(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesList>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    let tz = zone_of(&app, &me, &d).await?;
    let labels: Vec<String> = (1..=CURRENT_KEYS.len())
        .map(|n| format!("string{n}"))
        .collect();
    let mut columns: Vec<Column<'_>> = CURRENT_KEYS
        .iter()
        .zip(&labels)
        .map(|(&key, label)| Column {
            label,
            unit: "A",
            read: Box::new(move |r: &Reading| r.num(key)),
        })
        .collect();
    columns.push(Column {
        label: "power",
        unit: "W",
        read: Box::new(|r: &Reading| r.num("power")),
    });
    let (_, mut infos) = readings::day_series(&app, d.id, tz, q.date.as_deref(), &columns).await?;
    // A box of 12 strings has no strings 13 to 32: leave their empty series out.
    infos.retain(|s| s.label == "power" || !s.records.is_empty());
    Ok(Data(SeriesList { infos }))
}

/// Energy per day of a month (`date=YYYY-MM`), in kWh, from the daily rollups.
#[utoipa::path(get, path = "/api/v1/combiner/{sn}/month", tag = "combiners", params(("sn" = String, Path), DateQuery), security(("bearer" = [])),
    responses((status = 200, description = "Series energy (kWh), records per YYYY-MM-DD; 600", body = Envelope<SeriesList>)))]
pub async fn month(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<DateQuery>,
) -> ApiResult<Data<SeriesList>> {
    me.actor.require(VIEW_KEY)?;
    let d = device(&app, &me, &sn, FAMILY).await?;
    let (y, m) = month_param(q.date.as_deref(), zone_of(&app, &me, &d).await?);
    let days = DayRange::month(y, m);
    Ok(Data(
        energy_bars(&app, &d, days, Bucket::Day, &[("pv", "energy")]).await?,
    ))
}

/// Renames a combiner box (`station.edit` on its plant; empty restores the SN).
#[utoipa::path(post, path = "/api/v1/combiner/{sn}/alias", tag = "combiners", params(("sn" = String, Path), AliasBody), security(("bearer" = [])),
    request_body = AliasBody, responses((status = 200, description = "Envelope; 2, 4 alias, 600", body = Ack)))]
pub async fn alias(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Query(q): Query<AliasBody>,
    Body(b): Body<AliasBody>,
) -> ApiResult<Done> {
    let raw = b.alias.or(q.alias);
    rename(&app, &me, &sn, FAMILY, raw.as_deref()).await
}

/// Removes a combiner box from the registry (`station.edit` on its plant); its history stays.
#[utoipa::path(post, path = "/api/v1/combiner/{sn}/delete", tag = "combiners", params(("sn" = String, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope; 2, 600", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Done> {
    remove(&app, &me, &sn, FAMILY).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_carry_power_and_the_weak_flag() {
        let r = Reading::from_sample(
            1,
            r#"{"string1_current":8.0,"string1_voltage":600,"string2_current":8.2,
                "string3_current":3.0,"string3_voltage":590.5,"status_word":5}"#,
        );
        let (strings, judged) = strings_of(&r);
        assert!(judged);
        assert_eq!(strings.len(), 3);
        assert_eq!(strings[0].power, Some(4800.0));
        assert_eq!(strings[1].voltage, None);
        assert!(strings[2].weak && !strings[0].weak);
        assert_eq!(bit(&r, FUSE_BIT), Some(true));
        assert_eq!(bit(&r, SURGE_BIT), Some(false));
        assert_eq!(bit(&r, SWITCH_BIT), Some(true));
        assert_eq!(bit(&Reading::default(), FUSE_BIT), None);
    }

    #[test]
    fn at_dusk_no_string_is_flagged() {
        let r = Reading::from_sample(
            1,
            r#"{"string1_current":0.4,"string2_current":0.5,"string3_current":0.0}"#,
        );
        let (strings, judged) = strings_of(&r);
        assert!(!judged);
        assert!(strings.iter().all(|s| !s.weak));
    }
}
