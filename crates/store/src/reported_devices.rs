//! The registry as ingest sees it: where the devices a gateway reports belong, and registering
//! them. A device belongs to the gateway it is registered behind; another gateway cannot take
//! it over by reporting its SN.

use domain::DeviceFamily;
use domain::ids::{DeviceId, GatewayId, PlantId};

use crate::{Db, Result, Store, sql::push_params};

/// Where a device belongs, as ingest needs it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DeviceContext {
    pub id: DeviceId,
    pub sn: String,
    pub gateway_id: Option<GatewayId>,
    pub plant_id: Option<PlantId>,
    /// The plant's IANA time zone; `None` for a device not bound to a plant.
    pub timezone: Option<String>,
    /// The plant's location (degrees), for the sun over it; `None` without a plant.
    pub lat: Option<f64>,
    pub lon: Option<f64>,
}

/// What a gateway says about a device it reports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReportedDevice<'a> {
    pub sn: &'a str,
    pub family: DeviceFamily,
    pub type_code: i64,
    pub protocol: &'a str,
    pub model: &'a str,
    pub parent_sn: Option<&'a str>,
}

/// SNs looked up per statement are padded up to one of these counts (repeating the last), so a
/// few prepared statements serve every message.
const LOOKUP_SIZES: [usize; 3] = [8, 32, 128];

impl Store {
    /// Where the devices with these SNs belong (unknown SNs are absent from the answer).
    pub async fn device_contexts(&self, sns: &[&str]) -> Result<Vec<DeviceContext>> {
        let mut found = Vec::new();
        for chunk in sns.chunks(LOOKUP_SIZES[LOOKUP_SIZES.len() - 1]) {
            let Some(&last) = chunk.last() else {
                continue;
            };
            let size = LOOKUP_SIZES
                .into_iter()
                .find(|&n| n >= chunk.len())
                .unwrap_or(chunk.len());
            let padded = chunk
                .iter()
                .copied()
                .chain(std::iter::repeat(last))
                .take(size);
            let mut sql = String::from(
                "SELECT d.id, d.sn, d.gateway_id, d.plant_id, p.timezone, p.lat, p.lon FROM devices d \
                 LEFT JOIN plants p ON p.id = d.plant_id WHERE d.sn IN (",
            );
            match &self.db {
                Db::Sqlite(pool) => {
                    push_params(&mut sql, 0, size, true);
                    sql.push(')');
                    let mut q = sqlx::query_as::<_, DeviceContext>(sqlx::AssertSqlSafe(sql));
                    for sn in padded {
                        q = q.bind(sn);
                    }
                    found.extend(q.fetch_all(pool).await?);
                }
                Db::Postgres(pool) => {
                    push_params(&mut sql, 0, size, false);
                    sql.push(')');
                    let mut q = sqlx::query_as::<_, DeviceContext>(sqlx::AssertSqlSafe(sql));
                    for sn in padded {
                        q = q.bind(sn);
                    }
                    found.extend(q.fetch_all(pool).await?);
                }
            }
        }
        Ok(found)
    }

    /// Registers a reported device behind `gateway` (on the gateway's plant), or updates what
    /// the gateway says about it, unless it belongs to another gateway: then nothing changes
    /// and the answer is `None`. A device whose gateway was deleted is free to be registered.
    pub async fn register_reported_device(
        &self,
        d: &ReportedDevice<'_>,
        gateway: GatewayId,
        now: i64,
    ) -> Result<Option<DeviceId>> {
        Ok(scalar!(
            self,
            fetch_optional,
            DeviceId,
            "INSERT INTO devices (sn, gateway_id, plant_id, family, type_code, protocol, model, \
             parent_sn, created_at, updated_at) \
             VALUES ($1, $2, (SELECT plant_id FROM gateways WHERE id = $2), $3, $4, $5, $6, $7, $8, $8) \
             ON CONFLICT (sn) DO UPDATE SET gateway_id = $2, \
               plant_id = (SELECT plant_id FROM gateways WHERE id = $2), family = $3, \
               type_code = $4, protocol = $5, model = $6, parent_sn = $7, updated_at = $8 \
             WHERE devices.gateway_id IS NULL OR devices.gateway_id = $2 \
             RETURNING id",
            d.sn,
            gateway,
            d.family.as_str(),
            d.type_code,
            d.protocol,
            d.model,
            d.parent_sn,
            now
        )?)
    }

    /// Devices registered behind a gateway.
    pub async fn gateway_device_count(&self, gateway: GatewayId) -> Result<i64> {
        Ok(scalar!(
            self,
            fetch_one,
            i64,
            "SELECT COUNT(*) FROM devices WHERE gateway_id = $1",
            gateway
        )?)
    }
}
