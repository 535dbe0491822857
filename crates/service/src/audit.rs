//! Audit entries as use cases write them. An entry about rows a use case writes goes into the
//! same transaction as those rows (the store's write functions take it), so a crash between
//! the change and its record cannot keep one without the other.

use domain::{policy::Actor, user::UserKind};
use serde_json::Value;
use store::{Store, audit::NewAudit, log_pages::Author, plants::PlantRow};

/// The result of an entry whose change was made.
pub const SUCCEEDED: &str = "succeeded";
/// A command went to the device; its outcome is the command's status.
pub const SENT: &str = "sent";
/// The action waits its turn (an upgrade queued behind its gateway's running one); a later
/// entry records what became of it.
pub const QUEUED: &str = "queued";
pub const FAILED: &str = "failed";
/// The portal refused the action (offline, upgrading, forbidden state, invalid values).
pub const REFUSED: &str = "refused";

/// `detail` with the fields of `note` (a JSON object; anything else adds nothing) added.
pub fn with_note(mut detail: Value, note: &Value) -> Value {
    if let (Some(d), Some(n)) = (detail.as_object_mut(), note.as_object()) {
        for (k, v) in n {
            d.insert(k.clone(), v.clone());
        }
    }
    detail
}

/// The plant a device or gateway SN is on now, when the actor may see it: an entry the actor
/// reads back must not name a plant that is not theirs.
pub async fn plant_of(store: &Store, actor: &Actor, sn: &str) -> store::Result<Option<PlantRow>> {
    let plant_id = match store.device_by_sn(sn).await? {
        Some(d) => d.plant_id,
        None => store.gateway_by_sn(sn).await?.and_then(|g| g.plant_id),
    };
    Ok(match plant_id {
        Some(id) => store
            .plant(id, actor.id)
            .await?
            .filter(|p| actor.plant_access(&p.scope()).is_some()),
        None => None,
    })
}

/// Writes an entry on its own (a refusal: nothing else was written). A failure to write is
/// logged and swallowed: the caller answers the refusal either way.
pub async fn record_alone(store: &Store, entry: &NewAudit<'_>) {
    if let Err(e) = store.insert_audit(entry).await {
        tracing::error!(error = %e, action = entry.action, target = entry.target, "audit entry not written");
    }
}

/// The account the portal's own jobs write their entries as.
pub const SYSTEM: &str = "system";

/// The portal's own jobs as the author of an entry about no plant; an entry about a plant
/// sets its three plant fields.
pub fn system() -> Author<'static> {
    Author {
        user_id: None,
        account: SYSTEM,
        actor_company_id: None,
        plant_id: None,
        plant_owner_id: None,
        plant_company_id: None,
    }
}

/// `actor` as the author of an entry about `plant` (or about no plant: an account, a company,
/// the catalogue).
pub fn author<'a>(actor: &'a Actor, plant: Option<&PlantRow>) -> Author<'a> {
    let company_staff = actor.kind == UserKind::Company;
    Author {
        user_id: Some(actor.id),
        account: &actor.account,
        actor_company_id: if company_staff { actor.company } else { None },
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
