//! Saving a protocol config an administrator edited: what devices decode changes, so who did
//! it and to which revision is audited, in the same transaction as the config. Permissions are
//! the caller's.

use devices::protocol::{ProtocolConfig, stored};
use domain::policy::Actor;
use store::Store;

use crate::audit;

/// Validates `config`, stores it under its next version and answers it as stored.
pub async fn save(
    store: &Store,
    actor: &Actor,
    config: ProtocolConfig,
    now: i64,
) -> Result<ProtocolConfig, stored::SaveError> {
    let checked = stored::check(store, config).await?;
    let saved = &checked.config;
    let target = format!("protocol:{}", saved.code);
    let detail = serde_json::json!({"code": saved.code, "version": saved.version}).to_string();
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::PROTOCOL_SAVE,
        &target,
        &detail,
        now,
    );
    stored::save(store, &checked, actor.id, now, &entry)
        .await
        .map_err(stored::SaveError::Store)?;
    Ok(checked.config)
}
