//! Rotating a gateway's registration key (its MQTT password). The next key is kept beside the
//! current one until the gateway has taken it: the broker accepts either meanwhile, and the
//! first sign of the gateway holding the new key (its reply to the rotation command, or a
//! sign-in with it) makes it the only key.

use crate::{Result, Store};
use domain::ids::GatewayId;

impl Store {
    /// Records `key` as the gateway's next key, replacing any rotation still under way.
    pub async fn set_pending_gateway_key(
        &self,
        gateway: GatewayId,
        key: &str,
        now: i64,
    ) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE gateways SET pending_key = $2, updated_at = $3 WHERE id = $1",
            gateway,
            key,
            now
        )? == 1)
    }

    /// Makes `key` the gateway's only key if it is the pending one; `false` when another
    /// rotation replaced it meanwhile (or it was already taken).
    pub async fn take_pending_gateway_key(
        &self,
        gateway: GatewayId,
        key: &str,
        now: i64,
    ) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE gateways SET reg_key = pending_key, pending_key = NULL, key_changed_at = $3, \
             updated_at = $3 WHERE id = $1 AND pending_key = $2",
            gateway,
            key,
            now
        )? == 1)
    }

    /// Forgets a rotation the gateway refused; the current key stays.
    pub async fn drop_pending_gateway_key(&self, gateway: GatewayId, key: &str) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE gateways SET pending_key = NULL WHERE id = $1 AND pending_key = $2",
            gateway,
            key
        )? == 1)
    }
}
