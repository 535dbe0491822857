//! Audit entries as use cases write them. An entry about rows a use case writes goes into the
//! same transaction as those rows (the store's write functions take it), so a crash between
//! the change and its record cannot keep one without the other.

use domain::{policy::Actor, user::UserKind};
use store::{audit::NewAudit, log_pages::Author, plants::PlantRow};

/// The result of an entry whose change was made.
pub const SUCCEEDED: &str = "succeeded";

/// The results of an entry about a command (besides [`SUCCEEDED`]).
pub mod result {
    /// A command went to the device; its outcome is the command's status.
    pub const SENT: &str = "sent";
    pub const FAILED: &str = "failed";
    /// The portal refused the action (offline, upgrading, forbidden state, invalid values).
    pub const REFUSED: &str = "refused";
}

/// `actor` as the author of an entry about `plant` (or about no plant: an account, a company,
/// the catalogue).
pub fn author<'a>(actor: &'a Actor, plant: Option<&PlantRow>) -> Author<'a> {
    let company_staff = actor.kind == UserKind::Company;
    Author {
        user_id: Some(actor.id.0),
        account: &actor.account,
        actor_company_id: if company_staff {
            actor.company.map(|c| c.0)
        } else {
            None
        },
        plant_id: plant.map(|p| p.id),
        plant_owner_id: plant.map(|p| p.owner_id),
        plant_company_id: plant.and_then(|p| p.company_id),
    }
}

/// An entry about an account, a company relation or the catalogue: filed under no plant,
/// result `succeeded`.
pub fn admin_entry<'a>(
    by: Author<'a>,
    action: &'a str,
    target: &'a str,
    detail: &'a str,
    now: i64,
) -> NewAudit<'a> {
    NewAudit {
        by,
        action,
        target,
        detail,
        result: SUCCEEDED,
        command_id: None,
        now,
    }
}
