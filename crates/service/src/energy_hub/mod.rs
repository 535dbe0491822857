//! The energy hub's use cases (demand response, docs/energy-hub.md): enrolling plants with
//! their devices, the utility's built-in programmes and events, cancelling and opting out,
//! and the portal as a VEN toward utilities' OpenADR VTNs ([`vtn`]). Enrolling needs
//! `energyhub.enroll`, cancelling `energyhub.event.cancel`; acting as the utility (built-in
//! programmes and events, accepting and rejecting enrollments, VTN connections)
//! `sys.energyhub.edit`. Every write also needs a writable account, and writes its audit entry
//! in its own transaction.

pub mod dispatch;
pub mod enrollments;
pub mod events;
pub mod programs;
pub mod vtn;

use domain::ids::EnrollmentId;
use domain::{Code, policy::Actor};
use store::{Store, energy_hub::EnrollmentRow, log_pages::Author};

use crate::{Result, audit};

/// A write needs the key and a writable account.
pub fn require_write(actor: &Actor, key: &str) -> Result<()> {
    actor.require(key)?;
    Ok(actor.require_writable()?)
}

/// The enrollment if the actor may see it; 1002 otherwise.
pub async fn visible_enrollment(
    store: &Store,
    actor: &Actor,
    id: EnrollmentId,
) -> Result<EnrollmentRow> {
    Ok(store
        .enrollment_visible(id, actor.plant_visibility(), actor.id)
        .await?
        .ok_or(Code::EnrollmentMissing)?)
}

/// `actor` as the author of an entry about an enrollment, filed under its plant (which the
/// actor sees: they see the enrollment).
fn on_enrollment<'a>(actor: &'a Actor, e: &EnrollmentRow) -> Author<'a> {
    Author {
        plant_id: Some(e.plant_id),
        plant_owner_id: Some(e.plant_owner_id),
        plant_company_id: e.plant_company_id,
        ..audit::author(actor, None)
    }
}
