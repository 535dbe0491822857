//! Whether gateways are live: when each was last heard from (written by the device link as
//! messages arrive) and the status job's reads and writes (`devices::ingest::status`).

use crate::{Result, Store};
use domain::ids::{DeviceId, GatewayId};

/// What the status job weighs of a gateway: whether it counts as online, when the portal last
/// heard from it, and its upload cycle.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct GatewayLiveness {
    pub id: GatewayId,
    pub online: bool,
    /// When its newest message arrived (any message: telemetry, status, event, reply).
    pub last_online: Option<i64>,
    pub upload_cycle: i64,
}

impl Store {
    /// Every gateway's liveness, for the status job.
    pub async fn gateway_liveness(&self) -> Result<Vec<GatewayLiveness>> {
        Ok(rows!(
            self,
            fetch_all,
            GatewayLiveness,
            "SELECT id, online, last_online, upload_cycle FROM gateways ORDER BY id"
        )?)
    }

    /// (device, its gateway) for every device.
    pub async fn device_gateways(&self) -> Result<Vec<(DeviceId, Option<GatewayId>)>> {
        Ok(rows!(
            self,
            fetch_all,
            (DeviceId, Option<GatewayId>),
            "SELECT id, gateway_id FROM devices ORDER BY id"
        )?)
    }

    /// Messages arrived from these gateways (SN, when): they are online and were last heard of
    /// then. A gateway marked offline after `at` (its last will or goodbye, the status job)
    /// stays offline: that came later than the message.
    pub async fn gateways_heard(&self, heard: &[(String, i64)]) -> Result<()> {
        if heard.is_empty() {
            return Ok(());
        }
        in_tx!(self, |tx, sqlite| {
            for (sn, at) in heard {
                tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE gateways SET online = TRUE, last_online = $2 WHERE sn = $1 \
                     AND (last_online IS NULL OR last_online < $2) \
                     AND (online OR updated_at <= $2)",
                    sn,
                    at
                )?;
            }
        });
        Ok(())
    }

    /// Gateways signed in (SN, when): each one's sign-in time moves to `at` unless it already
    /// holds a later one. Nothing else changes: a sign-in is not a message (the status that
    /// follows it is).
    pub async fn gateways_signed_in(&self, signed_in: &[(String, i64)]) -> Result<()> {
        if signed_in.is_empty() {
            return Ok(());
        }
        in_tx!(self, |tx, sqlite| {
            for (sn, at) in signed_in {
                tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE gateways SET signed_in_at = $2 WHERE sn = $1 \
                     AND (signed_in_at IS NULL OR signed_in_at < $2)",
                    sn,
                    at
                )?;
            }
        });
        Ok(())
    }

    /// Marks a gateway offline that went silent: only while nothing newer than `last_heard`
    /// arrived from it (a message racing the status job wins).
    pub async fn set_gateway_silent(
        &self,
        gateway: GatewayId,
        last_heard: Option<i64>,
        now: i64,
    ) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE gateways SET online = FALSE, updated_at = $3 WHERE id = $1 AND online \
             AND (last_online IS NULL OR last_online <= $2)",
            gateway,
            last_heard.unwrap_or(i64::MIN),
            now
        )? == 1)
    }
}
