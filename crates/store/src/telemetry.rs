//! Telemetry storage: raw samples, the latest sample per device, and energy per device and per
//! plant per plant-local day. The ingest pipeline writes a whole batch of reports in one
//! transaction ([`Store::write_telemetry_batch`]); month, year and total energy are sums of day
//! rows, so their cost does not grow with the number of samples.

use domain::ids::{DeviceId, GatewayId, PlantId};
use std::collections::{BTreeSet, HashMap};

mod pg;
mod sqlite;

use crate::{Db, Result, Store, sql::push_params};

/// Rows per multi-row INSERT: 3-8 parameters each stays far below both backends' limits, and a
/// fixed size keeps the number of distinct (prepared, cached) statements small.
const CHUNK: usize = 128;

/// Whose day rows an energy read sums: a device's own, or its plant's (each metric from the
/// best source, see `PLANT_DAY`).
#[derive(Debug, Clone, Copy)]
enum DayRows {
    Device(DeviceId),
    Plant(PlantId),
}

impl DayRows {
    /// `table WHERE key = $1`: the rows of the one device or plant `$1` (see [`DayRows::key`]).
    fn of_one(self) -> &'static str {
        match self {
            DayRows::Device(_) => "energy_daily WHERE device_id = $1",
            DayRows::Plant(_) => "plant_energy_daily WHERE plant_id = $1",
        }
    }

    /// The value of `$1` in [`DayRows::of_one`]: one query serves both kinds of row.
    fn key(self) -> i64 {
        match self {
            DayRows::Device(id) => id.0,
            DayRows::Plant(id) => id.0,
        }
    }
}

/// One report of one device: values as a JSON object text.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleWrite {
    pub device_id: DeviceId,
    pub ts: i64,
    pub payload: String,
}

/// How a device counts an energy metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CounterKind {
    /// Resets at the device's midnight (e.g. `today_pv_energy`): the day's energy is its
    /// highest reading within the day.
    Daily,
    /// Never resets (e.g. a meter's `import_energy`): the day's energy is the highest minus
    /// the lowest reading within the day.
    Lifetime,
    /// A part of the day's total that ingest integrated over one report interval (e.g. the
    /// battery's `grid_charge`): the day's value is the sum of its parts. Ingest writes each
    /// interval once (it integrates only forward from the device's newest report), so a
    /// report sent again adds nothing.
    Sum,
}

/// One energy counter reading, already placed on its plant-local day (`YYYY-MM-DD`).
#[derive(Debug, Clone, PartialEq)]
pub struct EnergyWrite {
    pub device_id: DeviceId,
    pub plant_id: Option<PlantId>,
    pub day: String,
    pub metric: String,
    pub value: f64,
    pub kind: CounterKind,
    /// Source priority inside a plant (lower wins); see the 0005 migration.
    pub rank: i64,
}

/// What one ingest batch writes, in one transaction.
#[derive(Debug, Clone, Default)]
pub struct TelemetryBatch {
    pub samples: Vec<SampleWrite>,
    pub energy: Vec<EnergyWrite>,
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SampleRow {
    pub device_id: DeviceId,
    pub ts: i64,
    pub payload: String,
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct EnergyDayRow {
    pub day: String,
    pub metric: String,
    pub kwh: f64,
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct EnergyTotal {
    pub metric: String,
    pub kwh: f64,
}

/// A bucket of an energy series: `YYYY-MM-DD`, `YYYY-MM` or `YYYY`.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct EnergyPoint {
    pub bucket: String,
    pub metric: String,
    pub kwh: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bucket {
    Day,
    Month,
    Year,
}

impl Bucket {
    fn len(self) -> i64 {
        match self {
            Bucket::Day => 10,
            Bucket::Month => 7,
            Bucket::Year => 4,
        }
    }
}

/// A span of plant-local days, inclusive, as `YYYY-MM-DD` texts (compared as text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayRange {
    pub from: String,
    pub to: String,
}

impl DayRange {
    pub fn day(day: &str) -> DayRange {
        DayRange {
            from: day.into(),
            to: day.into(),
        }
    }
    pub fn month(year: i32, month: u32) -> DayRange {
        DayRange {
            from: format!("{year:04}-{month:02}-01"),
            to: format!("{year:04}-{month:02}-31"),
        }
    }
    pub fn year(year: i32) -> DayRange {
        DayRange {
            from: format!("{year:04}-01-01"),
            to: format!("{year:04}-12-31"),
        }
    }
    pub fn total() -> DayRange {
        DayRange {
            from: "0000-00-00".into(),
            to: "9999-99-99".into(),
        }
    }
}

/// A gateway's status message, as stored.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GatewayStatusUpdate {
    pub online: bool,
    pub soft_ver: Option<String>,
    pub hard_ver: Option<String>,
    pub signal: Option<i64>,
    pub comm_type: Option<String>,
    pub upload_cycle: Option<i64>,
}

/// `INSERT`/`VALUES` text for `rows` tuples of `width` parameters.
fn values_sql(head: &str, rows: usize, width: usize, tail: &str, sqlite: bool) -> String {
    let mut sql = String::with_capacity(head.len() + tail.len() + rows * width * 5);
    sql.push_str(head);
    sql.push_str(" VALUES ");
    for r in 0..rows {
        if r > 0 {
            sql.push(',');
        }
        sql.push('(');
        push_params(&mut sql, r * width, width, sqlite);
        sql.push(')');
    }
    sql.push(' ');
    sql.push_str(tail);
    sql
}

/// Energy rows merged per (device, day, metric): a daily counter keeps its highest reading, a
/// lifetime counter its lowest and highest, a sum the sum of its parts (in `hi`).
struct MergedEnergy {
    device_id: DeviceId,
    plant_id: Option<PlantId>,
    day: String,
    metric: String,
    kind: CounterKind,
    rank: i64,
    lo: f64,
    hi: f64,
}

fn merge_energy(rows: &[EnergyWrite]) -> Vec<MergedEnergy> {
    let mut index: HashMap<(DeviceId, &str, &str), usize> = HashMap::new();
    let mut out: Vec<MergedEnergy> = Vec::new();
    for r in rows {
        let key = (r.device_id, r.day.as_str(), r.metric.as_str());
        match index.get(&key) {
            Some(&i) => {
                let m = &mut out[i];
                if m.kind == CounterKind::Sum {
                    m.hi += r.value;
                } else {
                    m.lo = m.lo.min(r.value);
                    m.hi = m.hi.max(r.value);
                }
                m.plant_id = r.plant_id;
            }
            None => {
                index.insert(key, out.len());
                out.push(MergedEnergy {
                    device_id: r.device_id,
                    plant_id: r.plant_id,
                    day: r.day.clone(),
                    metric: r.metric.clone(),
                    kind: r.kind,
                    rank: r.rank,
                    lo: r.value,
                    hi: r.value,
                });
            }
        }
    }
    out
}

const SAMPLES_HEAD: &str = "INSERT INTO samples (device_id, ts, payload)";
const SAMPLES_TAIL: &str = "ON CONFLICT (device_id, ts) DO NOTHING";
const LATEST_HEAD: &str = "INSERT INTO device_latest (device_id, ts, payload)";
const LATEST_TAIL: &str = "ON CONFLICT (device_id) DO UPDATE SET ts = excluded.ts, \
    payload = excluded.payload WHERE device_latest.ts <= excluded.ts";
const DAILY_HEAD: &str =
    "INSERT INTO energy_daily (device_id, day, metric, kwh, plant_id, source_rank)";
const DAILY_TAIL: &str = "ON CONFLICT (device_id, day, metric) DO UPDATE SET \
    kwh = excluded.kwh, plant_id = excluded.plant_id, source_rank = excluded.source_rank \
    WHERE excluded.kwh > energy_daily.kwh";
const SUM_TAIL: &str = "ON CONFLICT (device_id, day, metric) DO UPDATE SET \
    kwh = energy_daily.kwh + excluded.kwh, plant_id = excluded.plant_id, \
    source_rank = excluded.source_rank";
const LIFETIME_HEAD: &str =
    "INSERT INTO energy_daily (device_id, day, metric, kwh, lo, hi, plant_id, source_rank)";
const LIFETIME_TAIL: &str = "ON CONFLICT (device_id, day, metric) DO UPDATE SET \
    lo = CASE WHEN excluded.lo < COALESCE(energy_daily.lo, excluded.lo) THEN excluded.lo \
         ELSE COALESCE(energy_daily.lo, excluded.lo) END, \
    hi = CASE WHEN excluded.hi > COALESCE(energy_daily.hi, excluded.hi) THEN excluded.hi \
         ELSE COALESCE(energy_daily.hi, excluded.hi) END, \
    kwh = (CASE WHEN excluded.hi > COALESCE(energy_daily.hi, excluded.hi) THEN excluded.hi \
          ELSE COALESCE(energy_daily.hi, excluded.hi) END) \
        - (CASE WHEN excluded.lo < COALESCE(energy_daily.lo, excluded.lo) THEN excluded.lo \
          ELSE COALESCE(energy_daily.lo, excluded.lo) END), \
    plant_id = excluded.plant_id, source_rank = excluded.source_rank \
    WHERE energy_daily.lo IS NULL OR excluded.lo < energy_daily.lo OR excluded.hi > energy_daily.hi";
/// A plant's day: per metric, the sum over the devices of the best-ranked source present.
const PLANT_DAY: &str = "INSERT INTO plant_energy_daily (plant_id, day, metric, kwh) \
    SELECT e.plant_id, e.day, e.metric, SUM(e.kwh) FROM energy_daily e \
    WHERE e.plant_id = $1 AND e.day = $2 AND e.source_rank = (SELECT MIN(r.source_rank) \
      FROM energy_daily r WHERE r.plant_id = $1 AND r.day = $2 AND r.metric = e.metric) \
    GROUP BY e.plant_id, e.day, e.metric \
    ON CONFLICT (plant_id, day, metric) DO UPDATE SET kwh = excluded.kwh";

impl Store {
    /// Writes a batch of samples and energy readings in one transaction: samples (a repeated
    /// (device, ts) is ignored), the latest sample per device (never replaced by an older one),
    /// the devices' `last_seen`/`online`, energy per device and day (idempotent: repeated and
    /// late readings cannot count twice), and the touched plants' days. Answers the number of
    /// new sample rows.
    pub async fn write_telemetry_batch(&self, batch: &TelemetryBatch) -> Result<u64> {
        // Newest sample per device for device_latest (PostgreSQL refuses an upsert that touches
        // one row twice in a statement).
        let mut newest: HashMap<DeviceId, &SampleWrite> = HashMap::new();
        for s in &batch.samples {
            let e = newest.entry(s.device_id).or_insert(s);
            if s.ts > e.ts {
                *e = s;
            }
        }
        let mut newest: Vec<&SampleWrite> = newest.into_values().collect();
        newest.sort_by_key(|s| s.device_id);
        let energy = merge_energy(&batch.energy);
        let plant_days: BTreeSet<(PlantId, &str)> = energy
            .iter()
            .filter_map(|e| e.plant_id.map(|p| (p, e.day.as_str())))
            .collect();

        let inserted = match &self.db {
            Db::Postgres(pool) => {
                pg::write(pool, &batch.samples, &newest, &energy, &plant_days).await?
            }
            Db::Sqlite(pool) => {
                sqlite::write(pool, &batch.samples, &newest, &energy, &plant_days).await?
            }
        };
        Ok(inserted)
    }

    /// The newest sample of a device.
    pub async fn latest_sample(&self, device: DeviceId) -> Result<Option<SampleRow>> {
        Ok(rows!(
            self,
            fetch_optional,
            SampleRow,
            "SELECT device_id, ts, payload FROM device_latest WHERE device_id = $1",
            device
        )?)
    }

    /// The newest sample of each of `devices` that has one (ingest reads where a device's
    /// previous report left off, when it does not remember it).
    pub async fn latest_samples_of(&self, devices: &[DeviceId]) -> Result<Vec<SampleRow>> {
        let mut found = Vec::with_capacity(devices.len());
        for chunk in devices.chunks(CHUNK) {
            let mut sql = String::from(
                "SELECT device_id, ts, payload FROM device_latest WHERE device_id IN (",
            );
            match &self.db {
                Db::Sqlite(pool) => {
                    push_params(&mut sql, 0, chunk.len(), true);
                    sql.push(')');
                    let mut q = sqlx::query_as::<_, SampleRow>(sqlx::AssertSqlSafe(sql));
                    for d in chunk {
                        q = q.bind(*d);
                    }
                    found.extend(q.fetch_all(pool).await?);
                }
                Db::Postgres(pool) => {
                    push_params(&mut sql, 0, chunk.len(), false);
                    sql.push(')');
                    let mut q = sqlx::query_as::<_, SampleRow>(sqlx::AssertSqlSafe(sql));
                    for d in chunk {
                        q = q.bind(*d);
                    }
                    found.extend(q.fetch_all(pool).await?);
                }
            }
        }
        Ok(found)
    }

    /// The newest sample of every device of a plant.
    pub async fn plant_latest_samples(&self, plant: PlantId) -> Result<Vec<SampleRow>> {
        Ok(rows!(
            self,
            fetch_all,
            SampleRow,
            "SELECT l.device_id, l.ts, l.payload FROM device_latest l \
             JOIN devices d ON d.id = l.device_id WHERE d.plant_id = $1 ORDER BY l.device_id",
            plant
        )?)
    }

    /// A device's energy per metric over `days` (a day, month, year or all time).
    pub async fn device_energy(
        &self,
        device: DeviceId,
        days: &DayRange,
    ) -> Result<Vec<EnergyTotal>> {
        self.energy_totals(DayRows::Device(device), days).await
    }

    /// A plant's energy per metric over `days`.
    pub async fn plant_energy(&self, plant: PlantId, days: &DayRange) -> Result<Vec<EnergyTotal>> {
        self.energy_totals(DayRows::Plant(plant), days).await
    }

    /// The first day a plant has a row of `metric`, `YYYY-MM-DD` (the plant figures count a
    /// derived metric from when ingest first recorded it).
    pub async fn plant_metric_first_day(
        &self,
        plant: PlantId,
        metric: &str,
    ) -> Result<Option<String>> {
        Ok(scalar!(
            self,
            fetch_one,
            Option<String>,
            "SELECT MIN(day) FROM plant_energy_daily WHERE plant_id = $1 AND metric = $2",
            plant,
            metric
        )?)
    }

    /// A device's energy over `days` per day, month or year (for charts).
    pub async fn device_energy_series(
        &self,
        device: DeviceId,
        days: &DayRange,
        bucket: Bucket,
    ) -> Result<Vec<EnergyPoint>> {
        self.energy_points(DayRows::Device(device), days, bucket)
            .await
    }

    /// A plant's energy over `days` per day, month or year (for charts).
    pub async fn plant_energy_series(
        &self,
        plant: PlantId,
        days: &DayRange,
        bucket: Bucket,
    ) -> Result<Vec<EnergyPoint>> {
        self.energy_points(DayRows::Plant(plant), days, bucket)
            .await
    }

    async fn energy_totals(&self, rows: DayRows, days: &DayRange) -> Result<Vec<EnergyTotal>> {
        let sql = format!(
            "SELECT metric, SUM(kwh) AS kwh FROM {} \
             AND day >= $2 AND day <= $3 GROUP BY metric ORDER BY metric",
            rows.of_one()
        );
        Ok(rows!(
            self,
            fetch_all,
            EnergyTotal,
            &sql,
            rows.key(),
            &days.from,
            &days.to
        )?)
    }

    async fn energy_points(
        &self,
        rows: DayRows,
        days: &DayRange,
        bucket: Bucket,
    ) -> Result<Vec<EnergyPoint>> {
        let sql = format!(
            "SELECT SUBSTR(day, 1, CAST($4 AS INTEGER)) AS bucket, metric, SUM(kwh) AS kwh \
             FROM {} AND day >= $2 AND day <= $3 GROUP BY 1, 2 ORDER BY 1, 2",
            rows.of_one()
        );
        Ok(rows!(
            self,
            fetch_all,
            EnergyPoint,
            &sql,
            rows.key(),
            &days.from,
            &days.to,
            bucket.len()
        )?)
    }

    /// Records a gateway's status message. A gateway going offline takes the devices behind it
    /// offline with it. An online status that finds the gateway offline (after its last will,
    /// its goodbye or a silence) is a sign-in: its time becomes the gateway's `signed_in_at`.
    /// This is how a portal behind an external broker, which sees no connections, learns of
    /// one; the embedded broker also records the connection itself (`gateways_signed_in`).
    pub async fn update_gateway_status(
        &self,
        gateway: GatewayId,
        s: &GatewayStatusUpdate,
        now: i64,
    ) -> Result<bool> {
        // The right-hand sides read the row as it was before this update (both backends).
        let n = exec!(
            self,
            "UPDATE gateways SET online = $2, soft_ver = COALESCE($3, soft_ver), \
             hard_ver = COALESCE($4, hard_ver), signal = COALESCE($5, signal), \
             comm_type = COALESCE($6, comm_type), upload_cycle = COALESCE($7, upload_cycle), \
             last_online = CASE WHEN $2 THEN $8 ELSE last_online END, updated_at = $8, \
             signed_in_at = CASE WHEN $2 AND NOT online \
                 AND (signed_in_at IS NULL OR signed_in_at < $8) THEN $8 ELSE signed_in_at END \
             WHERE id = $1",
            gateway,
            s.online,
            s.soft_ver.as_deref(),
            s.hard_ver.as_deref(),
            s.signal,
            s.comm_type.as_deref(),
            s.upload_cycle,
            now
        )?;
        if !s.online {
            exec!(
                self,
                "UPDATE devices SET online = FALSE, status = 0, updated_at = $2 \
                 WHERE gateway_id = $1 AND upgrading = FALSE",
                gateway,
                now
            )?;
        }
        Ok(n == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_lists_have_every_parameter_in_the_backends_style() {
        assert_eq!(
            values_sql("INSERT INTO t (a, b)", 2, 2, "", false),
            "INSERT INTO t (a, b) VALUES ($1,$2),($3,$4) "
        );
        assert_eq!(
            values_sql("I", 2, 3, "X", true),
            "I VALUES (?,?,?),(?,?,?) X"
        );
    }

    #[test]
    fn repeated_readings_merge_to_their_lowest_and_highest() {
        let w = |v: f64| EnergyWrite {
            device_id: DeviceId(1),
            plant_id: Some(PlantId(2)),
            day: "2024-01-01".into(),
            metric: "pv".into(),
            value: v,
            kind: CounterKind::Daily,
            rank: 0,
        };
        let merged = merge_energy(&[w(3.0), w(1.0), w(5.0)]);
        assert_eq!(merged.len(), 1);
        assert_eq!((merged[0].lo, merged[0].hi), (1.0, 5.0));
    }

    #[test]
    fn parts_of_a_sum_add_up() {
        let w = |v: f64| EnergyWrite {
            device_id: DeviceId(1),
            plant_id: Some(PlantId(2)),
            day: "2024-01-01".into(),
            metric: "grid_charge".into(),
            value: v,
            kind: CounterKind::Sum,
            rank: 0,
        };
        let merged = merge_energy(&[w(0.5), w(0.25), w(1.0)]);
        assert_eq!(merged.len(), 1);
        assert_eq!(merged[0].hi, 1.75);
    }
}
