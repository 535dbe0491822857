//! Inverters: the list and counts, one inverter's detail, alias and delete, and its readings
//! (realtime values per port and day, month, year and total series). Every inverter is found
//! through `store::devices`, so an inverter on another tenant's plant answers 600 exactly like
//! one that does not exist. Temperatures are sent in °C; the web app converts them.

pub(crate) mod list;
pub(crate) mod realtime;
pub(crate) mod series;
pub(crate) mod values;

use std::collections::HashMap;

use axum::{
    Router,
    extract::{Path, State},
    routing::{get, post},
};
use chrono::Datelike;
use chrono_tz::Tz;
use domain::{Code, device::InverterKind};
use store::{
    devices::DeviceListRow,
    plants::PlantRow,
    telemetry::{DayRange, EnergyTotal},
};

use crate::{
    AppState,
    envelope::ApiResult,
    extract::Query,
    monitor::live,
    readings::{self, Reading},
    session::CurrentUser,
};

pub(crate) use series::port::Port;

pub fn router() -> Router<AppState> {
    let mut r = Router::new()
        .route("/api/v1/inverters", get(list::list))
        .route("/api/v1/inverters/count", get(list::count))
        .route("/api/v1/plant/{id}/inverters", get(list::plant_list))
        .route("/api/v1/inverter/{sn}", get(list::detail))
        .route("/api/v1/inverter/{sn}/alias", post(list::alias))
        .route("/api/v1/inverter/{sn}/delete", post(list::delete))
        .route("/api/v1/inverter/{sn}/realtime/input", get(realtime::input))
        .route(
            "/api/v1/inverter/{sn}/realtime/output",
            get(realtime::output),
        )
        .route(
            "/api/v1/inverter/{sn}/pvIVRealtime",
            get(realtime::pv_iv_realtime),
        )
        .route(
            "/api/v1/inverter/{sn}/input/day",
            get(series::curves::input_day),
        )
        .route(
            "/api/v1/inverter/{sn}/output/day",
            get(series::curves::output_day),
        )
        .route("/api/v1/inverter/{sn}/day", get(series::curves::day))
        .route("/api/v1/inverter/{sn}/month", get(series::energy::month))
        .route("/api/v1/inverter/{sn}/year", get(series::energy::year))
        .route("/api/v1/inverter/{sn}/total", get(series::energy::total))
        .route(
            "/api/v1/inverter/gen/{sn}/realtime",
            get(realtime::gen_realtime),
        )
        .route(
            "/api/v1/inverter/genMi/{sn}/day",
            get(series::generator::gen_day),
        )
        .route(
            "/api/v1/inverter/gen/{sn}/byDate",
            get(series::generator::gen_by_date),
        );
    // The per-port series share one handler each; the port is fixed by the route (static
    // segments, so they never shadow an inverter SN's own routes).
    for port in Port::ALL {
        let name = port.path();
        r = r
            .route(
                &format!("/api/v1/inverter/{name}/{{sn}}/realtime"),
                get(
                    move |s: State<AppState>, me: CurrentUser, p: Path<String>| async move {
                        realtime::port(port, s, me, p).await
                    },
                ),
            )
            .route(
                &format!("/api/v1/inverter/{name}/{{sn}}/day"),
                get(
                    move |s: State<AppState>,
                          me: CurrentUser,
                          p: Path<String>,
                          q: Query<series::DateQuery>| async move {
                        series::port::port_day(port, s, me, p, q).await
                    },
                ),
            );
        for span in series::Span::ALL {
            r = r.route(
                &format!("/api/v1/inverter/{name}/{{sn}}/{}", span.path()),
                get(
                    move |s: State<AppState>,
                          me: CurrentUser,
                          p: Path<String>,
                          q: Query<series::DateQuery>| async move {
                        series::port::port_energy(port, span, s, me, p, q).await
                    },
                ),
            );
        }
    }
    r
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
        live::is_stale(last, self.upload_cycle, crate::now_ms())
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
    Ok(me.actor.require("inverter.view")?)
}

/// The inverter with this SN if the caller may see it; 600 otherwise.
pub(crate) async fn visible(app: &AppState, me: &CurrentUser, sn: &str) -> ApiResult<Inverter> {
    require_view(me)?;
    let row = app
        .store
        .device_visible(me.actor.plant_visibility(), me.id(), sn.trim())
        .await?
        .filter(|d| d.family == "inverter")
        .ok_or(Code::InverterMissing)?;
    let plant = match row.plant_id {
        Some(id) => app.store.plant(id, me.id()).await?,
        None => None,
    };
    let tz = plant
        .as_ref()
        .map_or(Tz::UTC, |p| readings::zone(&p.timezone));
    let upload_cycle = live::Cycles::of_gateways(app, &[row.gateway_id])
        .await?
        .cycle(row.gateway_id);
    Ok(Inverter {
        row,
        plant,
        tz,
        upload_cycle,
    })
}

/// Plants of a page of devices, read once each.
pub(crate) async fn plants_of(
    app: &AppState,
    me: &CurrentUser,
    rows: &[DeviceListRow],
) -> ApiResult<HashMap<i64, PlantRow>> {
    let mut out = HashMap::new();
    for id in rows.iter().filter_map(|r| r.plant_id) {
        if !out.contains_key(&id)
            && let Some(p) = app.store.plant(id, me.id()).await?
        {
            out.insert(id, p);
        }
    }
    Ok(out)
}
