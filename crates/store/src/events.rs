//! Device events (faults, warnings and notices that open and close) and the inputs and outputs
//! of the periodic status job. At most one event per (device, code) is open at a time.
//!
//! Events of one occurrence share an `occurrence_id` (the id of the occurrence's first event):
//! the same code on the same plant while an earlier one is still open, or within
//! [`OCCURRENCE_WINDOW_MS`] of its end. A grid outage seen by the ten inverters behind one
//! gateway is then one occurrence of ten events, and the screens show it as one row.

use crate::{Db, Result, Store};
use domain::ids::{DeviceId, EventId, PlantId};

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct EventRow {
    pub id: EventId,
    pub device_id: DeviceId,
    pub plant_id: Option<PlantId>,
    pub code: String,
    /// `warning` or `fault`.
    pub severity: String,
    pub opened_at: i64,
    pub closed_at: Option<i64>,
}

/// What a listing of events asks for.
#[derive(Debug, Clone, Default)]
pub struct EventFilter {
    pub plant: Option<PlantId>,
    pub device: Option<DeviceId>,
    pub open_only: bool,
    /// Events opened at or after this time.
    pub from: Option<i64>,
    /// Events opened before this time.
    pub to: Option<i64>,
    pub limit: i64,
    pub offset: i64,
}

/// What the status job reads per device.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DeviceStatusInput {
    pub id: DeviceId,
    pub plant_id: Option<PlantId>,
    pub last_seen: Option<i64>,
    /// The gateway's upload cycle in seconds (300 when the device has no gateway).
    pub upload_cycle: i64,
    pub upgrading: bool,
    pub status: i64,
    pub online: bool,
    /// 0 none (or notices only), 1 warning, 2 fault: the worst open event.
    pub worst_event: i64,
}

const EVENT_COLUMNS: &str = "id, device_id, plant_id, code, severity, opened_at, closed_at";

/// How long after an occurrence ended the same code on the same plant still belongs to it: two
/// upload cycles of the default five minutes, so devices behind several gateways of a plant,
/// or one that reports a little late, join the occurrence instead of starting another.
pub const OCCURRENCE_WINDOW_MS: i64 = 10 * 60_000;

/// Where the occurrence an opening event joins is looked up: the newest occurrence of code `$2`
/// on plant `$1` (other than the new event `$3`), if it still has an open event or ended at or
/// after `$4`, and began no later than `$5`; else the new event starts its own (`$3`).
const JOIN_OCCURRENCE: &str = "SELECT CAST(COALESCE((\
    SELECT o.occurrence_id FROM events o \
    WHERE o.plant_id = $1 AND o.code = $2 AND o.id <> $3 AND o.occurrence_id = (\
        SELECT MAX(m.occurrence_id) FROM events m \
        WHERE m.plant_id = $1 AND m.code = $2 AND m.id <> $3) \
    GROUP BY o.occurrence_id \
    HAVING (SUM(CASE WHEN o.closed_at IS NULL THEN 1 ELSE 0 END) > 0 OR MAX(o.closed_at) >= $4) \
       AND MIN(o.opened_at) <= $5\
    ), $3) AS BIGINT)";

/// Namespace of the PostgreSQL advisory lock that serialises openings on one plant.
const OCCURRENCE_LOCK: i32 = 0x4556_4e54; // "EVNT"

impl Store {
    /// Opens an event unless one with this code is already open for the device; answers
    /// whether it opened a new one. The new event joins its plant's occurrence of the same code
    /// (see the module's rule) or starts one.
    pub async fn open_event(
        &self,
        device: DeviceId,
        plant: Option<PlantId>,
        code: &str,
        severity: &str,
        at: i64,
    ) -> Result<bool> {
        let insert = "INSERT INTO events (device_id, plant_id, code, severity, opened_at) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (device_id, code) WHERE closed_at IS NULL DO NOTHING";
        let new_id = "SELECT CAST(MAX(id) AS BIGINT) FROM events \
             WHERE device_id = $1 AND code = $2 AND closed_at IS NULL";
        let opened = in_tx!(self, |tx, sqlite| {
            if !sqlite && let Some(p) = plant {
                // Two gateways of one plant report the same outage at once: the second
                // opening must see the first one's occurrence.
                tx_exec!(
                    tx,
                    sqlite,
                    "SELECT pg_advisory_xact_lock($1, CAST($2 AS INTEGER))",
                    OCCURRENCE_LOCK,
                    p.0.rem_euclid(i64::from(i32::MAX))
                )?;
            }
            // On SQLite the write comes first: it takes the database's write lock, so the
            // lookup below cannot race another opening.
            if tx_exec!(tx, sqlite, insert, device, plant, code, severity, at)? == 0 {
                false
            } else {
                let id = tx_scalar!(tx, sqlite, i64, new_id, device, code)?;
                let occurrence = match plant {
                    Some(p) => tx_scalar!(
                        tx,
                        sqlite,
                        i64,
                        JOIN_OCCURRENCE,
                        p,
                        code,
                        id,
                        at - OCCURRENCE_WINDOW_MS,
                        at + OCCURRENCE_WINDOW_MS
                    )?,
                    None => id,
                };
                tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE events SET occurrence_id = $2 WHERE id = $1",
                    id,
                    occurrence
                )?;
                true
            }
        });
        Ok(opened)
    }

    /// Closes the open event of this code, if any; answers whether one was closed. A close
    /// time before the opening time is raised to the opening time.
    pub async fn close_event(&self, device: DeviceId, code: &str, at: i64) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE events SET closed_at = CASE WHEN opened_at > $3 THEN opened_at ELSE $3 END \
             WHERE device_id = $1 AND code = $2 AND closed_at IS NULL",
            device,
            code,
            at
        )? == 1)
    }

    /// Events matching `f`, newest first, and the total before paging.
    pub async fn events(&self, f: &EventFilter) -> Result<(Vec<EventRow>, i64)> {
        let filter = "($1 IS NULL OR plant_id = $1) AND ($2 IS NULL OR device_id = $2) \
            AND ($3 = FALSE OR closed_at IS NULL) AND ($4 IS NULL OR opened_at >= $4) \
            AND ($5 IS NULL OR opened_at < $5)";
        let bounds = crate::sql::page(f.limit, f.offset);
        let sql = format!(
            "SELECT {EVENT_COLUMNS} FROM events WHERE {filter} \
             ORDER BY opened_at DESC, id DESC {bounds}"
        );
        let rows = rows!(
            self,
            fetch_all,
            EventRow,
            &sql,
            f.plant,
            f.device,
            f.open_only,
            f.from,
            f.to
        )?;
        let count = format!("SELECT COUNT(*) FROM events WHERE {filter}");
        let total = scalar!(
            self,
            fetch_one,
            i64,
            &count,
            f.plant,
            f.device,
            f.open_only,
            f.from,
            f.to
        )?;
        Ok((rows, total))
    }

    /// Marks a device as being upgraded (or not); the status job shows it as Upgrading.
    pub async fn set_device_upgrading(&self, device: DeviceId, upgrading: bool) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE devices SET upgrading = $2 WHERE id = $1",
            device,
            upgrading
        )? == 1)
    }

    /// Everything the status job needs about every device, in one query.
    pub async fn device_status_inputs(&self) -> Result<Vec<DeviceStatusInput>> {
        Ok(rows!(
            self,
            fetch_all,
            DeviceStatusInput,
            "SELECT d.id, d.plant_id, d.last_seen, COALESCE(g.upload_cycle, 300) AS upload_cycle, \
             d.upgrading, d.status, d.online, \
             CAST(COALESCE((SELECT MAX(CASE e.severity WHEN 'fault' THEN 2 WHEN 'info' THEN 0 ELSE 1 END) \
                FROM events e WHERE e.device_id = d.id AND e.closed_at IS NULL), 0) AS BIGINT) \
               AS worst_event \
             FROM devices d LEFT JOIN gateways g ON g.id = d.gateway_id ORDER BY d.id"
        )?)
    }

    /// (plant id, stored status) of every plant.
    pub async fn plant_statuses(&self) -> Result<Vec<(PlantId, i64)>> {
        Ok(rows!(
            self,
            fetch_all,
            (PlantId, i64),
            "SELECT id, status FROM plants ORDER BY id"
        )?)
    }

    /// Writes the status job's results in one transaction: (device, status, online) and
    /// (plant, status).
    pub async fn apply_statuses(
        &self,
        devices: &[(DeviceId, i64, bool)],
        plants: &[(PlantId, i64)],
    ) -> Result<()> {
        if devices.is_empty() && plants.is_empty() {
            return Ok(());
        }
        let device_sql = "UPDATE devices SET status = $2, online = $3 WHERE id = $1";
        let plant_sql = "UPDATE plants SET status = $2 WHERE id = $1";
        match &self.db {
            Db::Sqlite(pool) => {
                let mut tx = pool.begin().await?;
                let d = crate::sql::for_sqlite(device_sql).into_owned();
                let p = crate::sql::for_sqlite(plant_sql).into_owned();
                for (id, status, online) in devices {
                    sqlx::query(sqlx::AssertSqlSafe(d.clone()))
                        .bind(id)
                        .bind(status)
                        .bind(online)
                        .execute(&mut *tx)
                        .await?;
                }
                for (id, status) in plants {
                    sqlx::query(sqlx::AssertSqlSafe(p.clone()))
                        .bind(id)
                        .bind(status)
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
            }
            Db::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                for (id, status, online) in devices {
                    sqlx::query(device_sql)
                        .bind(id)
                        .bind(status)
                        .bind(online)
                        .execute(&mut *tx)
                        .await?;
                }
                for (id, status) in plants {
                    sqlx::query(plant_sql)
                        .bind(id)
                        .bind(status)
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
            }
        }
        Ok(())
    }
}
