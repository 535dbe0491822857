//! Built-in programmes, which the utility (`sys.energyhub.edit`) creates and edits; a VTN's
//! programmes are the VTN's (its sync writes them, [`super::vtn`]).

use domain::ids::ProgramId;
use domain::permissions::SYS_ENERGYHUB_EDIT;
use domain::{
    Code,
    energy_hub::{ProgramForm, ProgramInput},
    policy::Actor,
};
use serde_json::json;
use store::Store;

use super::require_write;
use crate::{Result, audit};

/// Creates (no `id`) or edits a built-in programme with its audit entry; answers its id. A VTN
/// programme: 2; an unknown id: 1008.
pub async fn save(
    store: &Store,
    actor: &Actor,
    id: Option<ProgramId>,
    input: ProgramInput,
    now: i64,
) -> Result<ProgramId> {
    require_write(actor, SYS_ENERGYHUB_EDIT)?;
    let form: ProgramForm = input.check()?;
    let detail = json!({"name": form.name, "active": form.active, "autoAccept": form.auto_accept})
        .to_string();
    let by = audit::author(actor, None);
    let id = match id {
        None => {
            let entry = audit::admin_entry(
                by,
                domain::audit_action::ENERGYHUB_PROGRAM_CREATE,
                "program",
                &detail,
                now,
            );
            store.create_program(&form, now, Some(&entry)).await?
        }
        Some(id) => {
            let current = store.program(id).await?.ok_or(Code::ProgramMissing)?;
            if current.is_vtn() {
                return Err(Code::NoPermission.into());
            }
            let target = format!("program:{id}");
            let entry = audit::admin_entry(
                by,
                domain::audit_action::ENERGYHUB_PROGRAM_EDIT,
                &target,
                &detail,
                now,
            );
            store.update_program(id, &form, now, &entry).await?;
            id
        }
    };
    tracing::info!(program = %id, by = %actor.id, "energy hub programme saved");
    Ok(id)
}
