//! Protocol configs as stored data: shipped configs seed the database, administrators edit the
//! stored copies, and ingest decodes with what is stored.

use domain::ids::UserId;
use store::{Store, audit::NewAudit};

use super::{ProtocolConfig, shipped};

/// Stores every shipped config that is not in the database yet, and brings a stored copy no
/// administrator has edited up to a newer shipped version (an upgrade that adds points, such
/// as the inverters' `power_on`, reaches existing installations). Answers how many it wrote.
pub async fn seed(store: &Store, now: i64) -> store::Result<usize> {
    let mut written = 0;
    for config in shipped().unwrap_or_default() {
        let Ok(json) = serde_json::to_string(&config) else {
            continue;
        };
        if store
            .seed_protocol(&config.code, config.family, &config.name, &json, now)
            .await?
        {
            written += 1;
            continue;
        }
        let older = store.protocol(&config.code).await?.is_some_and(|row| {
            row.builtin
                && ProtocolConfig::from_json(&row.config)
                    .map_or(true, |stored| stored.version < config.version)
        });
        if older
            && store
                .refresh_builtin_protocol(&config.code, &config.name, &json, now)
                .await?
        {
            written += 1;
        }
    }
    Ok(written)
}

/// Every stored config that parses and validates. A stored config that does not (it should not
/// happen: saves are validated) is skipped with a warning, and its shipped version used instead.
pub async fn load(store: &Store) -> store::Result<Vec<ProtocolConfig>> {
    let shipped = shipped().unwrap_or_default();
    let mut configs = Vec::new();
    for row in store.protocols().await? {
        match ProtocolConfig::from_json(&row.config).and_then(|c| c.validate().map(|()| c)) {
            Ok(config) => configs.push(config),
            Err(e) => {
                tracing::warn!(code = %row.code, %e, "stored protocol config unusable; using the shipped one");
                configs.extend(shipped.iter().find(|c| c.code == row.code).cloned());
            }
        }
    }
    Ok(configs)
}

/// A config an administrator edited, validated and numbered (one above the stored copy's
/// version), ready for [`save`].
#[derive(Debug, Clone)]
pub struct Checked {
    pub config: ProtocolConfig,
    json: String,
}

/// Validates a config an administrator edited and gives it the next version.
pub async fn check(store: &Store, mut config: ProtocolConfig) -> Result<Checked, SaveError> {
    config
        .validate()
        .map_err(|e| SaveError::Invalid(e.to_string()))?;
    if let Some(old) = store
        .protocol(&config.code)
        .await
        .map_err(SaveError::Store)?
    {
        let previous = ProtocolConfig::from_json(&old.config)
            .map(|c| c.version)
            .unwrap_or(0);
        config.version = config.version.max(previous + 1);
    }
    let json = serde_json::to_string(&config).map_err(|e| SaveError::Invalid(e.to_string()))?;
    Ok(Checked { config, json })
}

/// Stores a [`check`]ed config as edited by user `by`, with `audit` (the edit's entry) in the
/// same transaction.
pub async fn save(
    store: &Store,
    checked: &Checked,
    by: UserId,
    now: i64,
    audit: &NewAudit<'_>,
) -> store::Result<()> {
    let config = &checked.config;
    store
        .save_protocol(
            &config.code,
            config.family,
            &config.name,
            &checked.json,
            by,
            now,
            Some(audit),
        )
        .await
}

#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("invalid config: {0}")]
    Invalid(String),
    #[error("store: {0}")]
    Store(store::StoreError),
}
