//! Writes of the gateway actions (issue 7) that the registry module does not already have:
//! replacing a plant's gateway with another and changing a gateway's protocol.

use crate::{
    Result, Store,
    audit::NewAudit,
    gateways::{DEVICES_FOLLOW, Holder, TAKE},
};
use domain::ids::{CompanyId, GatewayId, PlantId, UserId};

impl Store {
    /// Replaces gateway `old` with `new` in one transaction: `new` is taken for `to` (the
    /// plant's holder) on the same terms as a claim by `by`, every device behind `old` moves to
    /// `new` (the inverters are the same hardware, now wired to the new gateway, so they keep
    /// their ids and with them their history on the plant), and `old` is unbound. Answers how
    /// many devices moved, or `None` when `new` could not be taken (then nothing changed, and
    /// `audit` is not written). A `new` already on the plant stays as it is.
    pub async fn replace_gateway(
        &self,
        old: GatewayId,
        new: GatewayId,
        to: &Holder,
        by: (UserId, Option<CompanyId>),
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<Option<u64>> {
        Ok(in_tx!(self, |tx, sqlite| {
            // A plant with two gateways may hand one's devices to the other: no take then.
            let on = tx_scalar!(
                tx,
                sqlite,
                Option<PlantId>,
                "SELECT plant_id FROM gateways WHERE id = $1",
                new
            )?;
            let taken = to.plant.is_some() && on == to.plant
                || tx_exec!(
                    tx, sqlite, TAKE, new, to.plant, to.owner, to.company, now, by.0, by.1
                )? == 1;
            if taken {
                tx_exec!(tx, sqlite, DEVICES_FOLLOW, new, to.plant, now)?;
                let moved = tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE devices SET gateway_id = $2, plant_id = $3, updated_at = $4 \
                     WHERE gateway_id = $1",
                    old,
                    new,
                    to.plant,
                    now
                )?;
                tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE gateways SET plant_id = NULL, owner_id = NULL, company_id = NULL, \
                     updated_at = $2 WHERE id = $1",
                    old,
                    now
                )?;
                audit_in_tx!(tx, sqlite, audit)?;
                Some(moved)
            } else {
                None
            }
        }))
    }

    /// Sets the protocol config a gateway's reports are decoded with, with its audit entry, in
    /// one transaction; answers whether it exists (nothing written when not).
    pub async fn set_gateway_protocol(
        &self,
        gateway: GatewayId,
        protocol: &str,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        let found = in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE gateways SET protocol = $2, updated_at = $3 WHERE id = $1",
                gateway,
                protocol,
                now
            )?;
            if n == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            n == 1
        });
        Ok(found)
    }
}
