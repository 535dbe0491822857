//! The fleet dashboard's reads: every plant a reader sees that matches the plant list's
//! filters (the list's own rule, `plants::Matching`), with what the dashboard sums and ranks.
//! Each read is one set-based query over all those plants, whatever their number: the plants
//! with their devices' counts and newest message, their open warnings and faults, their PV
//! energy summed per period from the plant day rows, and their inverters' newest sample times.

use domain::{
    DeviceFamily,
    ids::{DeviceId, PlantId, UserId},
    policy::PlantVisibility,
};

use crate::{
    Result, Store,
    plants::{MATCHING_FROM, Matching, PlantFilter},
};

/// A plant as the dashboard counts it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct FleetPlantRow {
    pub id: PlantId,
    pub name: String,
    pub plant_type: i64,
    pub status: i64,
    /// Installed capacity, kWp (0 when not given).
    pub total_power: f64,
    pub timezone: String,
    pub lon: f64,
    pub lat: f64,
    /// Gateways and devices bound to the plant.
    pub gateways: i64,
    pub devices: i64,
    /// The newest message of any of its gateways (`last_online`), and of its devices
    /// (`last_seen`), ms.
    pub gateway_heard: Option<i64>,
    pub device_heard: Option<i64>,
}

impl FleetPlantRow {
    /// The newest message of any of its gateways or devices, ms.
    pub fn last_heard(&self) -> Option<i64> {
        self.gateway_heard.max(self.device_heard)
    }
}

/// An open warning or fault on a plant.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct OpenAlarmRow {
    pub plant_id: PlantId,
    pub occurrence_id: i64,
    pub code: String,
    pub severity: String,
    pub opened_at: i64,
    /// The device's family (`None` when the device was deleted since).
    #[sqlx(try_from = "crate::family::NullableFamily")]
    pub family: Option<DeviceFamily>,
}

/// The days whose energy the dashboard sums. Plants live in different zones, so "today" is one
/// of three UTC-relative days (yesterday, today or tomorrow in UTC): the read sums each of the
/// three, and the caller takes the one of the plant's own zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnergyDays {
    /// The three candidate todays, `YYYY-MM-DD`, oldest first.
    pub todays: [String; 3],
    /// The first day of the period ending on each of them (the period's length in days is the
    /// caller's: today itself for a period of one day).
    pub period_starts: [String; 3],
}

/// A plant's PV energy of today and of the period ending today, for each candidate today
/// (indexes as in [`EnergyDays`]), kWh.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct FleetEnergyRow {
    pub plant_id: PlantId,
    pub today0: f64,
    pub today1: f64,
    pub today2: f64,
    pub period0: f64,
    pub period1: f64,
    pub period2: f64,
}

/// When an inverter of a plant last reported, with its gateway's upload cycle.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct InverterStamp {
    pub plant_id: PlantId,
    pub device_id: DeviceId,
    pub upload_cycle: i64,
    pub ts: i64,
}

/// The plant's gateways and devices and their newest messages. Correlated on the plant (an
/// index range per plant), so only the matching plants' devices and gateways are read.
const HEARD: &str = "(SELECT COUNT(*) FROM gateways g WHERE g.plant_id = p.id) AS gateways, \
    (SELECT COUNT(*) FROM devices d WHERE d.plant_id = p.id) AS devices, \
    (SELECT MAX(g.last_online) FROM gateways g WHERE g.plant_id = p.id) AS gateway_heard, \
    (SELECT MAX(d.last_seen) FROM devices d WHERE d.plant_id = p.id) AS device_heard";

impl Store {
    /// Every plant `visibility` allows that matches `filter` (its sort and page are ignored),
    /// with its gateways, devices and newest message.
    pub async fn fleet_plants(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        filter: &PlantFilter,
    ) -> Result<Vec<FleetPlantRow>> {
        let m = Matching::new(visibility, reader, filter);
        let sql = format!(
            "SELECT p.id, p.name, p.plant_type, p.status, p.total_power, p.timezone, p.lon, \
             p.lat, {HEARD} {MATCHING_FROM} WHERE {} ORDER BY p.id",
            m.conditions
        );
        Ok(matching_rows!(self, fetch_all, FleetPlantRow, &sql, m)?)
    }

    /// The open warnings and faults of those plants (notices need nobody), oldest first.
    pub async fn fleet_open_alarms(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        filter: &PlantFilter,
    ) -> Result<Vec<OpenAlarmRow>> {
        let m = Matching::new(visibility, reader, filter);
        let sql = format!(
            "SELECT e.plant_id, e.occurrence_id, e.code, e.severity, e.opened_at, d.family \
             FROM events e JOIN plants p ON p.id = e.plant_id \
             LEFT JOIN plant_shares s ON s.plant_id = p.id AND s.user_id = $1 \
             LEFT JOIN devices d ON d.id = e.device_id \
             WHERE e.closed_at IS NULL AND e.severity IN ('warning', 'fault') AND {} \
             ORDER BY e.opened_at, e.id",
            m.conditions
        );
        Ok(matching_rows!(self, fetch_all, OpenAlarmRow, &sql, m)?)
    }

    /// The PV energy (`metric`) of those plants on each candidate today and over the period
    /// ending on it, summed from the plant day rows. Plants without a row in the range are
    /// left out.
    pub async fn fleet_energy(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        filter: &PlantFilter,
        metric: &str,
        days: &EnergyDays,
    ) -> Result<Vec<FleetEnergyRow>> {
        let m = Matching::new(visibility, reader, filter);
        // $10 metric; $11..$13 the todays; $14..$16 the period starts. The range read is the
        // earliest start to the latest today, one index range per plant.
        let sql = format!(
            "SELECT p.id AS plant_id, \
             COALESCE(SUM(CASE WHEN e.day = $11 THEN e.kwh END), 0.0) AS today0, \
             COALESCE(SUM(CASE WHEN e.day = $12 THEN e.kwh END), 0.0) AS today1, \
             COALESCE(SUM(CASE WHEN e.day = $13 THEN e.kwh END), 0.0) AS today2, \
             COALESCE(SUM(CASE WHEN e.day >= $14 AND e.day <= $11 THEN e.kwh END), 0.0) AS period0, \
             COALESCE(SUM(CASE WHEN e.day >= $15 AND e.day <= $12 THEN e.kwh END), 0.0) AS period1, \
             COALESCE(SUM(CASE WHEN e.day >= $16 AND e.day <= $13 THEN e.kwh END), 0.0) AS period2 \
             {MATCHING_FROM} JOIN plant_energy_daily e ON e.plant_id = p.id \
             AND e.day >= $14 AND e.day <= $13 AND e.metric = $10 \
             WHERE {} GROUP BY p.id",
            m.conditions
        );
        let [t0, t1, t2] = &days.todays;
        let [s0, s1, s2] = &days.period_starts;
        Ok(matching_rows!(
            self,
            fetch_all,
            FleetEnergyRow,
            &sql,
            m,
            metric,
            t0,
            t1,
            t2,
            s0,
            s1,
            s2
        )?)
    }

    /// When each inverter of those plants last reported (from its newest values), with its
    /// gateway's upload cycle (the gateways' default without one).
    pub async fn fleet_inverter_stamps(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        filter: &PlantFilter,
    ) -> Result<Vec<InverterStamp>> {
        let m = Matching::new(visibility, reader, filter);
        let sql = format!(
            "SELECT p.id AS plant_id, d.id AS device_id, \
             COALESCE(g.upload_cycle, 300) AS upload_cycle, l.ts \
             {MATCHING_FROM} JOIN devices d ON d.plant_id = p.id AND d.family = 'inverter' \
             JOIN device_latest l ON l.device_id = d.id \
             LEFT JOIN gateways g ON g.id = d.gateway_id WHERE {} ORDER BY d.id",
            m.conditions
        );
        Ok(matching_rows!(self, fetch_all, InverterStamp, &sql, m)?)
    }
}
