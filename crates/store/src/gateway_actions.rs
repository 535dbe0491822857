//! Writes of the gateway actions (issue 7) that the registry module does not already have:
//! handing a replaced gateway's devices to its successor and changing a gateway's protocol.

use crate::{Result, Store};

impl Store {
    /// Moves every device behind gateway `from` to gateway `to`, on `to`'s plant. Used when a
    /// plant's gateway is replaced: the inverters are the same hardware, now wired to the new
    /// gateway, so they keep their ids and with them their history on the plant.
    pub async fn move_gateway_devices(&self, from: i64, to: i64, now: i64) -> Result<u64> {
        Ok(exec!(
            self,
            "UPDATE devices SET gateway_id = $2, \
             plant_id = (SELECT plant_id FROM gateways WHERE id = $2), updated_at = $3 \
             WHERE gateway_id = $1",
            from,
            to,
            now
        )?)
    }

    /// Sets the protocol config a gateway's reports are decoded with; answers whether it exists.
    pub async fn set_gateway_protocol(
        &self,
        gateway: i64,
        protocol: &str,
        now: i64,
    ) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE gateways SET protocol = $2, updated_at = $3 WHERE id = $1",
            gateway,
            protocol,
            now
        )? == 1)
    }
}
