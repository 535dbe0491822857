//! Monitoring of one plant: live energy flow, realtime figures and income, power curves and
//! energy bars, the plant figures of a span (performance ratio and the rest), device checks,
//! weather and the generation download. Every handler starts from
//! [`PlantCtx::load`], which applies the same visibility rule as `GET /api/v1/plant/{id}` (a plant
//! the caller may not see answers 700 exactly like a missing one).

pub(crate) mod devices;
pub(crate) mod download;
pub(crate) mod energy;
pub(crate) mod figures;
pub(crate) mod flow;
pub(crate) mod latest_pv;
pub(crate) mod live;
pub(crate) mod summary;
pub mod totals_cache;
pub(crate) mod weather;
pub(crate) mod wire;

use chrono_tz::Tz;
use domain::DeviceFamily;
use store::{gateways::DeviceRow, plants::PlantRow};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::ApiResult,
    readings::{self, Reading},
    session::CurrentUser,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(energy::realtime))
        .routes(routes!(energy::power))
        .routes(routes!(flow::plant_flow))
        .routes(routes!(flow::inverter_flow))
        .routes(routes!(energy::generation_use))
        .routes(routes!(energy::energy))
        .routes(routes!(figures::figures))
        .routes(routes!(weather::check_device))
        .routes(routes!(devices::plant_devices))
        .routes(routes!(weather::station_info))
        .routes(routes!(weather::station_products))
        .routes(routes!(weather::weather))
        .routes(routes!(download::generation))
}

/// What monitoring reads keep between requests (each replica its own).
#[derive(Debug, Default)]
pub struct ReadCaches {
    /// The day curves' device means and bucket times.
    pub curves: service::curves::CurveCaches,
    pub energy_totals: totals_cache::TotalsCache,
    pub latest_pv: latest_pv::LatestPv,
    /// The fleet dashboard's summaries, per reader and filters, for a few seconds.
    pub fleet: service::fleet::SummaryCache,
}

/// A visible plant with what every monitoring answer needs: its zone and its devices.
pub(crate) struct PlantCtx {
    pub plant: PlantRow,
    pub tz: Tz,
    pub devices: Vec<DeviceRow>,
}

impl PlantCtx {
    pub async fn load(app: &AppState, me: &CurrentUser, raw_id: &str) -> ApiResult<PlantCtx> {
        let (plant, _) = crate::plants::visible(app, me, raw_id).await?;
        let devices = app.store.plant_devices(plant.id).await?;
        Ok(PlantCtx {
            tz: readings::zone(&plant.timezone),
            plant,
            devices,
        })
    }

    /// The plant and its devices as the curves and reports of `service` read them.
    pub fn view(&self) -> service::curves::PlantDevices<'_> {
        service::curves::PlantDevices {
            plant: &self.plant,
            tz: self.tz,
            devices: &self.devices,
        }
    }

    pub fn has(&self, family: DeviceFamily) -> bool {
        self.devices.iter().any(|d| d.family == family)
    }

    pub fn of(&self, family: DeviceFamily) -> impl Iterator<Item = &DeviceRow> {
        self.devices.iter().filter(move |d| d.family == family)
    }

    /// The newest reading of every device of the plant that has reported, with its device
    /// and whether it is fresh (the rule of [`live`], with each device's gateway cycle).
    pub async fn latest(&self, app: &AppState) -> ApiResult<Vec<Latest<'_>>> {
        let rows = app.store.plant_latest_samples(self.plant.id).await?;
        let cycles = live::Cycles::of_plant(app, self.plant.id).await?;
        let now = domain::time::now_ms();
        Ok(rows
            .iter()
            .filter_map(|s| {
                let device = self.devices.iter().find(|d| d.id == s.device_id)?;
                Some(Latest {
                    device,
                    reading: Reading::from_sample(s.ts, &s.payload),
                    fresh: !cycles.stale(device.gateway_id, Some(s.ts), now),
                })
            })
            .collect())
    }
}

/// A device's newest reading and whether it still describes the present.
pub(crate) struct Latest<'a> {
    pub device: &'a DeviceRow,
    pub reading: Reading,
    pub fresh: bool,
}

impl Latest<'_> {
    /// The reading as the flow computation takes it.
    pub fn source(&self) -> flow::Source<'_> {
        flow::Source {
            family: self.device.family,
            reading: &self.reading,
            fresh: self.fresh,
            battery_port: flow::battery_port(self.device.family, self.device.type_code),
        }
    }
}
