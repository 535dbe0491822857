//! The debug log: every raw Modbus frame sent from the toolbox, refused ones included, with
//! who sent it where and what became of it.

use domain::ids::CommandId;
use domain::ids::DebugEntryId;
use domain::{DomainError, Lang, policy::Actor};
use store::{Store, debug_log::NewDebugEntry, plants::PlantRow};

use crate::{Result, audit};

/// Where a frame goes and who may read about it.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    /// `inverter` or `gateway`.
    pub kind: &'a str,
    pub device_sn: &'a str,
    pub gateway_sn: &'a str,
    pub plant: Option<&'a PlantRow>,
}

/// Writes the entry of the exchange of `frame` with `target` whose send ended in `outcome`:
/// the command it became, or the refusal. Answers the entry's id.
pub async fn record(
    store: &Store,
    actor: &Actor,
    target: &Target<'_>,
    frame: &str,
    outcome: std::result::Result<CommandId, &DomainError>,
    now: i64,
) -> Result<DebugEntryId> {
    // The log keeps the reason in English: staff of any language read it later.
    let (command_id, result, message) = match outcome {
        Ok(id) => (Some(id), audit::SENT, String::new()),
        Err(e) => (None, audit::REFUSED, e.message(Lang::En)),
    };
    Ok(store
        .insert_debug_entry(&NewDebugEntry {
            by: audit::author(actor, target.plant),
            target_kind: target.kind,
            device_sn: target.device_sn,
            gateway_sn: target.gateway_sn,
            request: frame,
            result,
            message: &message,
            command_id,
            now,
        })
        .await?)
}
