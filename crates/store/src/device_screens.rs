//! What the battery, meter and weather-station screens read and write beyond the shared
//! device listing (`devices.rs`): a device's SN from its id, and the plant's master meter.

use domain::DeviceFamily;
use domain::ids::{DeviceId, PlantId};

use crate::{Result, Store};

impl Store {
    /// The SN of the device with this id (paths that name a device by id).
    pub async fn device_sn(&self, device: DeviceId) -> Result<Option<String>> {
        Ok(scalar!(
            self,
            fetch_optional,
            String,
            "SELECT sn FROM devices WHERE id = $1",
            device
        )?)
    }

    /// Makes `device` the master meter of `plant` (clearing the others of that plant in the
    /// same statement), or clears its flag when `master` is false.
    pub async fn set_master_meter(
        &self,
        plant: PlantId,
        device: DeviceId,
        master: bool,
    ) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE devices SET is_master = (id = $2 AND $3) \
             WHERE family = $4 AND (plant_id = $1 OR id = $2) AND (id = $2 OR $3)",
            plant,
            device,
            master,
            DeviceFamily::Meter.as_str()
        )? > 0)
    }

    /// Whether the device is marked as its plant's master meter.
    pub async fn is_master_meter(&self, device: DeviceId) -> Result<bool> {
        Ok(scalar!(
            self,
            fetch_optional,
            bool,
            "SELECT is_master FROM devices WHERE id = $1",
            device
        )?
        .unwrap_or(false))
    }
}
