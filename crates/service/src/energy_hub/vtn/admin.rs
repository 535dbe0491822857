//! The VTN connections an administrator (`sys.energyhub.edit`) saves and removes. Client id
//! and secret are sealed before they are stored ([`super::secrets`]); each change is written
//! with its audit entry (`energyhub.vtn.save`, `energyhub.vtn.remove`).

use domain::ids::VtnId;
use domain::permissions::SYS_ENERGYHUB_EDIT;
use domain::{DomainError, policy::Actor};
use serde_json::json;
use store::{Store, energy_hub::vtn::VtnWrite};

use super::{Ven, webhooks};
use crate::{ServiceError, audit};

/// A connection as the administrator's form sends it.
#[derive(Debug, Clone, Default)]
pub struct VtnInput {
    /// Absent: a new connection.
    pub id: Option<VtnId>,
    pub name: Option<String>,
    pub url: Option<String>,
    pub version: Option<String>,
    /// Required for a new connection; kept when absent on an edit.
    pub client_id: Option<String>,
    /// Required for a new connection; kept when absent on an edit.
    pub client_secret: Option<String>,
    pub ven_name: Option<String>,
    /// 10-3600; default 30.
    pub poll_seconds: Option<i64>,
    /// Default true.
    pub enabled: Option<bool>,
}

/// Why a save failed: a refusal or the database, or the credential key (which the caller
/// reports as an internal problem).
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error(transparent)]
    Service(#[from] ServiceError),
    #[error("energy hub key: {0}")]
    Key(String),
}

impl From<DomainError> for SaveError {
    fn from(e: DomainError) -> Self {
        SaveError::Service(e.into())
    }
}

impl From<store::StoreError> for SaveError {
    fn from(e: store::StoreError) -> Self {
        SaveError::Service(e.into())
    }
}

fn text(v: &Option<String>, field: &str, max: usize) -> Result<String, DomainError> {
    let t = v.as_deref().map(str::trim).unwrap_or_default();
    if t.is_empty() || t.chars().count() > max {
        return Err(DomainError::invalid(field));
    }
    Ok(t.to_owned())
}

/// Checks a request; the secrets come back in plain text for sealing.
fn checked(r: &VtnInput) -> Result<(VtnWrite, Option<String>, Option<String>), DomainError> {
    let url = text(&r.url, "url", 256)?;
    let parsed = url::Url::parse(&url).map_err(|_| DomainError::invalid("url"))?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err(DomainError::invalid("url"));
    }
    let version = text(&r.version, "version", 8)?;
    oadr::Version::parse(&version).ok_or_else(|| DomainError::invalid("version"))?;
    let poll_seconds = r.poll_seconds.unwrap_or(30);
    if !(10..=3600).contains(&poll_seconds) {
        return Err(DomainError::invalid("pollSeconds"));
    }
    let secret = |v: &Option<String>, f: &str| match v.as_deref().map(str::trim) {
        None | Some("") => Ok(None),
        Some(s) if s.chars().count() <= 256 => Ok(Some(s.to_owned())),
        Some(_) => Err(DomainError::invalid(f)),
    };
    let w = VtnWrite {
        name: text(&r.name, "name", 64)?,
        url: url.trim_end_matches('/').to_owned(),
        version,
        client_id_enc: String::new(),
        client_secret_enc: String::new(),
        ven_name: text(&r.ven_name, "venName", 128)?,
        poll_seconds,
        enabled: r.enabled.unwrap_or(true),
    };
    Ok((
        w,
        secret(&r.client_id, "clientId")?,
        secret(&r.client_secret, "clientSecret")?,
    ))
}

/// Creates or edits a connection with its audit entry; answers its id. A new one needs
/// clientId and clientSecret (4 `clientSecret`); on an edit an absent one keeps the stored
/// value. Unknown id: 4 `id`.
pub async fn save(
    store: &Store,
    actor: &Actor,
    ven: &Ven,
    input: &VtnInput,
    now: i64,
) -> Result<VtnId, SaveError> {
    actor.require(SYS_ENERGYHUB_EDIT)?;
    let (mut w, client_id, secret) = checked(input)?;
    let sealer = ven.sealer().map_err(SaveError::Key)?;
    let seal = |s: &str| sealer.seal(s).map_err(|e| SaveError::Key(e.to_string()));
    let detail = json!({"name": w.name, "url": w.url, "version": w.version}).to_string();
    let by = audit::author(actor, None);
    let id = match input.id {
        None => {
            let (Some(cid), Some(sec)) = (client_id, secret) else {
                return Err(DomainError::invalid("clientSecret").into());
            };
            (w.client_id_enc, w.client_secret_enc) = (seal(&cid)?, seal(&sec)?);
            let entry = audit::admin_entry(
                by,
                domain::audit_action::ENERGYHUB_VTN_SAVE,
                "vtn",
                &detail,
                now,
            );
            store.insert_vtn(&w, now, Some(&entry)).await?
        }
        Some(id) => {
            let old = store
                .vtn(id)
                .await?
                .ok_or_else(|| DomainError::invalid("id"))?;
            w.client_id_enc = match client_id {
                Some(c) => seal(&c)?,
                None => old.client_id_enc,
            };
            w.client_secret_enc = match secret {
                Some(s) => seal(&s)?,
                None => old.client_secret_enc,
            };
            let target = format!("vtn:{id}");
            let entry = audit::admin_entry(
                by,
                domain::audit_action::ENERGYHUB_VTN_SAVE,
                &target,
                &detail,
                now,
            );
            store.update_vtn(id, &w, now, &entry).await?;
            id
        }
    };
    Ok(id)
}

/// Removes a connection with its programmes, their enrollments and events, and its audit
/// entry. Unknown id: 4 `id`. The VTN is asked first, best effort, to stop calling back.
pub async fn remove(
    store: &Store,
    actor: &Actor,
    ven: &Ven,
    id: VtnId,
    now: i64,
) -> crate::Result<()> {
    actor.require(SYS_ENERGYHUB_EDIT)?;
    if let Some(row) = store.vtn(id).await?
        && let Ok(client) = ven.client(&row)
    {
        webhooks::unsubscribe_all(&client, &row.webhook).await;
    }
    let target = format!("vtn:{id}");
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::ENERGYHUB_VTN_REMOVE,
        &target,
        "{}",
        now,
    );
    if !store.delete_vtn(id, &entry).await? {
        return Err(DomainError::invalid("id").into());
    }
    Ok(())
}
