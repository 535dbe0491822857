//! The per-port routes (grid, load, battery, EPS, meter): one documented handler per port and
//! reading, so each route has its own entry in the OpenAPI document. The port is a static path
//! segment, never a parameter, so these routes cannot shadow an inverter SN's own routes.

use axum::extract::{Path, State};

use super::{
    realtime,
    series::{self, DateQuery, Span, port::Port},
    wire::{BatteryRealtime, EpsRealtime, GridRealtime, LoadRealtime, SeriesAnswer},
};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::Query,
    session::CurrentUser,
};

macro_rules! port_routes {
    ($module:ident, $port:expr, $now:path, $answer:ty, $realtime:tt, $day:tt, $month:tt, $year:tt, $total:tt) => {
        pub mod $module {
            use super::*;

            /// The port's values now.
            #[utoipa::path(get, path = $realtime, tag = "inverters", params(("sn" = String, Path)),
                security(("bearer" = [])), responses((status = 200, description = "The port's values now; 600", body = Envelope<$answer>)))]
            pub async fn realtime(
                s: State<AppState>,
                me: CurrentUser,
                sn: Path<String>,
            ) -> ApiResult<Data<$answer>> {
                $now(s, me, sn).await
            }

            /// The port's day curve in the plant's time zone.
            #[utoipa::path(get, path = $day, tag = "inverters", params(("sn" = String, Path), DateQuery),
                security(("bearer" = [])), responses((status = 200, description = "The port's day curve; 600", body = Envelope<SeriesAnswer>)))]
            pub async fn day(
                s: State<AppState>,
                me: CurrentUser,
                sn: Path<String>,
                q: Query<DateQuery>,
            ) -> ApiResult<Data<SeriesAnswer>> {
                series::port::port_day($port, s, me, sn, q).await
            }

            port_routes!(@energy month, $port, Span::Month, $month);
            port_routes!(@energy year, $port, Span::Year, $year);
            port_routes!(@energy total, $port, Span::Total, $total);
        }
    };
    (@energy $name:ident, $port:expr, $span:expr, $path:tt) => {
        /// The port's energy bars: a month per day, a year per month, all time per year.
        #[utoipa::path(get, path = $path, tag = "inverters", params(("sn" = String, Path), DateQuery),
            security(("bearer" = [])), responses((status = 200, description = "Energy bars (kWh from day rollups; grid/meter import and export, load/eps load, battery charge and discharge); 600", body = Envelope<SeriesAnswer>)))]
        pub async fn $name(
            s: State<AppState>,
            me: CurrentUser,
            sn: Path<String>,
            q: Query<DateQuery>,
        ) -> ApiResult<Data<SeriesAnswer>> {
            series::port::port_energy($port, $span, s, me, sn, q).await
        }
    };
}

port_routes!(
    grid,
    Port::Grid,
    realtime::grid,
    GridRealtime,
    "/api/v1/inverter/grid/{sn}/realtime",
    "/api/v1/inverter/grid/{sn}/day",
    "/api/v1/inverter/grid/{sn}/month",
    "/api/v1/inverter/grid/{sn}/year",
    "/api/v1/inverter/grid/{sn}/total"
);
port_routes!(
    load,
    Port::Load,
    realtime::load_now,
    LoadRealtime,
    "/api/v1/inverter/load/{sn}/realtime",
    "/api/v1/inverter/load/{sn}/day",
    "/api/v1/inverter/load/{sn}/month",
    "/api/v1/inverter/load/{sn}/year",
    "/api/v1/inverter/load/{sn}/total"
);
port_routes!(
    battery,
    Port::Battery,
    realtime::battery_now,
    BatteryRealtime,
    "/api/v1/inverter/battery/{sn}/realtime",
    "/api/v1/inverter/battery/{sn}/day",
    "/api/v1/inverter/battery/{sn}/month",
    "/api/v1/inverter/battery/{sn}/year",
    "/api/v1/inverter/battery/{sn}/total"
);
port_routes!(
    eps,
    Port::Eps,
    realtime::eps_now,
    EpsRealtime,
    "/api/v1/inverter/eps/{sn}/realtime",
    "/api/v1/inverter/eps/{sn}/day",
    "/api/v1/inverter/eps/{sn}/month",
    "/api/v1/inverter/eps/{sn}/year",
    "/api/v1/inverter/eps/{sn}/total"
);
port_routes!(
    meter,
    Port::Meter,
    realtime::meter,
    GridRealtime,
    "/api/v1/inverter/meter/{sn}/realtime",
    "/api/v1/inverter/meter/{sn}/day",
    "/api/v1/inverter/meter/{sn}/month",
    "/api/v1/inverter/meter/{sn}/year",
    "/api/v1/inverter/meter/{sn}/total"
);
