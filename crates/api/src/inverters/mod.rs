//! Inverters: the list and counts, one inverter's detail, alias and delete, and its readings
//! (realtime values per port and day, month, year and total series). Every inverter is found
//! through `store::devices`, so an inverter on another tenant's plant answers 600 exactly like
//! one that does not exist. Temperatures are sent in °C; the web app converts them.

use domain::ids::PlantId;
mod detail;
pub(crate) mod list;
mod ports;
pub(crate) mod realtime;
pub(crate) mod series;
pub(crate) mod values;
pub(crate) mod wire;

use std::collections::HashMap;
use utoipa_axum::{router::OpenApiRouter, routes};

use chrono::Datelike;
use chrono_tz::Tz;
use domain::{Code, DeviceFamily, device::InverterKind};
use store::{
    devices::DeviceListRow,
    plants::PlantRow,
    telemetry::{DayRange, EnergyTotal},
};

use crate::{
    AppState,
    envelope::ApiResult,
    monitor::live,
    readings::{self, Reading},
    session::CurrentUser,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list::list))
        .routes(routes!(list::count))
        .routes(routes!(list::plant_list))
        .routes(routes!(detail::detail))
        .routes(routes!(list::alias))
        .routes(routes!(list::delete))
        .routes(routes!(realtime::input))
        .routes(routes!(realtime::output))
        .routes(routes!(realtime::pv_iv_realtime))
        .routes(routes!(series::curves::input_day))
        .routes(routes!(series::curves::output_day))
        .routes(routes!(series::curves::day))
        .routes(routes!(series::energy::month))
        .routes(routes!(series::energy::year))
        .routes(routes!(series::energy::total))
        .routes(routes!(realtime::gen_realtime))
        .routes(routes!(series::generator::gen_day))
        .routes(routes!(series::generator::gen_by_date))
        .routes(routes!(ports::grid::realtime))
        .routes(routes!(ports::grid::day))
        .routes(routes!(ports::grid::month))
        .routes(routes!(ports::grid::year))
        .routes(routes!(ports::grid::total))
        .routes(routes!(ports::load::realtime))
        .routes(routes!(ports::load::day))
        .routes(routes!(ports::load::month))
        .routes(routes!(ports::load::year))
        .routes(routes!(ports::load::total))
        .routes(routes!(ports::battery::realtime))
        .routes(routes!(ports::battery::day))
        .routes(routes!(ports::battery::month))
        .routes(routes!(ports::battery::year))
        .routes(routes!(ports::battery::total))
        .routes(routes!(ports::eps::realtime))
        .routes(routes!(ports::eps::day))
        .routes(routes!(ports::eps::month))
        .routes(routes!(ports::eps::year))
        .routes(routes!(ports::eps::total))
        .routes(routes!(ports::meter::realtime))
        .routes(routes!(ports::meter::day))
        .routes(routes!(ports::meter::month))
        .routes(routes!(ports::meter::year))
        .routes(routes!(ports::meter::total))
}

/// One inverter as the caller may see it, with its plant (for the time zone and permissions)
/// and its gateway's upload cycle (for telling live values from stale ones).
pub(crate) struct Inverter {
    pub row: DeviceListRow,
    pub plant: Option<PlantRow>,
    pub tz: Tz,
    pub upload_cycle: i64,
}

impl Inverter {
    /// Whether `reading` (the newest, if any) is past the inverter's offline bound.
    pub fn stale(&self, reading: Option<&Reading>) -> bool {
        let last = reading.map(|r| r.ts).or(self.row.last_seen);
        live::is_stale(last, self.upload_cycle, domain::time::now_ms())
    }

    pub fn kind(&self) -> InverterKind {
        InverterKind::from_code(self.row.type_code)
    }

    pub async fn latest(&self, app: &AppState) -> ApiResult<Option<Reading>> {
        Ok(readings::latest(app, self.row.id).await?)
    }

    /// This inverter's energy per metric over `days`, in kWh.
    pub async fn energy(&self, app: &AppState, days: &DayRange) -> ApiResult<Energy> {
        Ok(Energy(app.store.device_energy(self.row.id, days).await?))
    }

    /// Energy today, this month, this year and in total (plant-local calendar), from rollups.
    pub async fn energy_spans(&self, app: &AppState) -> ApiResult<[Energy; 4]> {
        let today = readings::today(self.tz);
        Ok([
            self.energy(app, &DayRange::day(&today.to_string())).await?,
            self.energy(app, &DayRange::month(today.year(), today.month()))
                .await?,
            self.energy(app, &DayRange::year(today.year())).await?,
            self.energy(app, &DayRange::total()).await?,
        ])
    }
}

/// Sums of day rows per metric.
pub(crate) struct Energy(pub Vec<EnergyTotal>);

impl Energy {
    /// A metric's kWh, 0 when the inverter has no rows for it (nothing was produced).
    pub fn kwh(&self, metric: &str) -> f64 {
        self.0
            .iter()
            .find(|e| e.metric == metric)
            .map_or(0.0, |e| readings::round2(e.kwh))
    }
}

/// Read endpoints need the inverter menu key.
fn require_view(me: &CurrentUser) -> ApiResult<()> {
    Ok(me.actor.require(domain::permissions::INVERTER_VIEW)?)
}

/// The inverter with this SN if the caller may see it; 600 otherwise.
pub(crate) async fn visible(app: &AppState, me: &CurrentUser, sn: &str) -> ApiResult<Inverter> {
    require_view(me)?;
    let row = app
        .store
        .device_visible(me.actor.plant_visibility(), me.id(), sn.trim())
        .await?
        .filter(|d| d.family == DeviceFamily::Inverter)
        .ok_or(Code::InverterMissing)?;
    let plant = match row.plant_id {
        Some(id) => app.store.plant(id, me.id()).await?,
        None => None,
    };
    let tz = plant
        .as_ref()
        .map_or(Tz::UTC, |p| readings::zone(&p.timezone));
    let upload_cycle = live::Cycles::of_rows([&row]).cycle(row.gateway_id);
    Ok(Inverter {
        row,
        plant,
        tz,
        upload_cycle,
    })
}

/// Plants of a page of devices, in one query.
pub(crate) async fn plants_of(
    app: &AppState,
    me: &CurrentUser,
    rows: &[DeviceListRow],
) -> ApiResult<HashMap<PlantId, PlantRow>> {
    let mut ids: Vec<PlantId> = rows.iter().filter_map(|r| r.plant_id).collect();
    ids.sort_unstable();
    ids.dedup();
    Ok(app
        .store
        .plants_by_ids(&ids, me.id())
        .await?
        .into_iter()
        .map(|p| (p.id, p))
        .collect())
}
