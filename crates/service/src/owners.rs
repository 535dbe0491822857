//! Owner accounts as internal administrators manage them: disabling one (a compromised or
//! abusive account) ends its sessions at once, and it gets 101 at sign-in until enabled again.

use domain::{Code, DomainError, ids::UserId, policy::Actor, user::UserKind};
use store::{Store, users::UserRow};

use crate::{Result, audit};

/// Disables or enables an owner account: internal staff holding `customer.edit` only (2 for
/// anyone else). Anything but a live owner account answers 4 `id`. Disabling ends every
/// session of the account in the same transaction, with the audit entry. Answers the account as
/// it was.
pub async fn set_disabled(
    store: &Store,
    actor: &Actor,
    user: UserId,
    disabled: bool,
    now: i64,
) -> Result<UserRow> {
    if !actor.is_internal() {
        return Err(Code::NoPermission.into());
    }
    actor.require(domain::permissions::CUSTOMER_EDIT)?;
    actor.require_writable()?;
    let owner = store
        .user(user)
        .await?
        .filter(|u| u.kind() == UserKind::Owner && u.deleted_at.is_none())
        .ok_or(DomainError::invalid("id"))?;
    let action = if disabled {
        domain::audit_action::OWNER_DISABLE
    } else {
        domain::audit_action::OWNER_ENABLE
    };
    let detail = serde_json::json!({"userId": owner.id, "disabled": disabled}).to_string();
    let entry = audit::admin_entry(
        audit::author(actor, None),
        action,
        &owner.account,
        &detail,
        now,
    );
    store
        .set_disabled(owner.id(), disabled, now, Some(&entry))
        .await?;
    tracing::info!(user = %owner.id(), disabled, by = %actor.id, "owner account disabled or enabled");
    Ok(owner)
}
