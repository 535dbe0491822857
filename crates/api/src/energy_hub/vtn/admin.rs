//! The VTN connections an administrator manages (`sys.energyhub.edit`). Client id and secret
//! are write-only: answers carry `hasSecret` and the client id's last 4 characters.

use super::{EDIT, SyncSummary, sealer, sync_vtn};
use crate::AppState;
use crate::envelope::{Ack, ApiResult, Data, Done, Envelope};
use crate::extract::{Body, num};
use crate::session::CurrentUser;
use crate::users::{create_at, path_id};
use axum::extract::{Path, State};
use domain::error::{Code, DomainError};
use domain::time::now_ms;
use serde::{Deserialize, Serialize};
use store::dr_vtn::{VtnRow, VtnWrite};
use utoipa::ToSchema;

/// A VTN connection.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Vtn {
    pub id: i64,
    pub name: String,
    pub url: String,
    /// "3.0.1" or "3.1.0".
    pub version: String,
    pub ven_name: String,
    /// The VTN's id of our ven, once the first sync created or found it.
    pub ven_id: Option<String>,
    pub poll_seconds: i64,
    pub enabled: bool,
    pub last_sync_at: Option<String>,
    /// The last sync's problem, '' when it worked.
    pub last_error: String,
    /// What the last sync skipped because the portal could not read it (the rest applied).
    pub refused_events: Vec<RefusedEvent>,
    /// `webhook`: the VTN calls the portal on changes (and it still polls); `polling`: polls only.
    pub notifications: String,
    /// Why it polls only: `noPublicUrl`, `notOffered` (the VTN has no webhooks), `failed`
    /// (see the note), '' with webhooks.
    pub notifications_reason: &'static str,
    /// The reason in words, with the VTN's problem for `failed` ('' with webhooks).
    pub notifications_note: String,
    /// The client id's last 4 characters.
    pub client_id_hint: String,
    pub has_secret: bool,
}

/// A programme or event the VTN listed that the portal could not read.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefusedEvent {
    /// The VTN's programme id.
    #[serde(default)]
    pub program: String,
    /// The VTN's id of the object (`#<position>` when it had none).
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub reason: String,
}

fn view(app: &AppState, v: VtnRow) -> Vtn {
    let (notifications, notifications_reason, notifications_note) =
        super::webhooks::mode(&v.webhook);
    let hint = sealer(app)
        .ok()
        .and_then(|s| s.open(&v.client_id_enc).ok())
        .map(|id| {
            let chars: Vec<char> = id.chars().collect();
            chars[chars.len().saturating_sub(4)..].iter().collect()
        })
        .unwrap_or_default();
    Vtn {
        id: v.id,
        name: v.name,
        url: v.url,
        version: v.version,
        ven_name: v.ven_name,
        ven_id: v.ven_id,
        poll_seconds: v.poll_seconds,
        enabled: v.enabled != 0,
        last_sync_at: v.last_sync_at.map(create_at),
        last_error: v.last_error,
        refused_events: serde_json::from_str(&v.refused_events).unwrap_or_default(),
        notifications,
        notifications_reason,
        notifications_note,
        client_id_hint: hint,
        has_secret: !v.client_secret_enc.is_empty(),
    }
}

/// The VTN connections.
#[utoipa::path(get, path = "/api/v1/oadr/vtns", tag = "energy hub",
    security(("bearer" = [])), responses((status = 200, description = "Every connection; 2", body = Envelope<Vec<Vtn>>)))]
pub async fn list(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Data<Vec<Vtn>>> {
    me.actor.require(EDIT)?;
    let rows = app.store.vtns().await?;
    Ok(Data(rows.into_iter().map(|v| view(&app, v)).collect()))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VtnRequest {
    /// Absent: a new connection.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub id: Option<i64>,
    /// 1-64 characters.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub name: Option<String>,
    /// The VTN's base URL (http or https), e.g. https://vtn.example.com/openadr3/3.1.0.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub url: Option<String>,
    /// "3.0.1" or "3.1.0".
    #[serde(default, deserialize_with = "num::opt_text")]
    pub version: Option<String>,
    /// Required for a new connection; kept when absent on an edit.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub client_id: Option<String>,
    /// Required for a new connection; kept when absent on an edit.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub client_secret: Option<String>,
    /// Our ven's name on the VTN, 1-128 characters.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub ven_name: Option<String>,
    /// 10-3600; default 30.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub poll_seconds: Option<i64>,
    /// Default true.
    #[serde(default, deserialize_with = "num::opt_bool")]
    pub enabled: Option<bool>,
}

fn text(v: &Option<String>, field: &str, max: usize) -> Result<String, DomainError> {
    let t = v.as_deref().map(str::trim).unwrap_or_default();
    if t.is_empty() || t.chars().count() > max {
        return Err(DomainError::invalid(field));
    }
    Ok(t.to_owned())
}

/// Checks a request; the secrets come back in plain text for sealing.
fn checked(r: &VtnRequest) -> Result<(VtnWrite, Option<String>, Option<String>), DomainError> {
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

/// Creates or edits a VTN connection. A new one needs clientId and clientSecret; on an edit an
/// absent one keeps the stored value. Unknown id: 4 `id`.
#[utoipa::path(post, path = "/api/v1/oadr/vtn", tag = "energy hub", request_body = VtnRequest,
    security(("bearer" = [])), responses((status = 200, description = "The connection; 2, 4", body = Envelope<Vtn>)))]
pub async fn save(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<VtnRequest>,
) -> ApiResult<Data<Vtn>> {
    me.actor.require(EDIT)?;
    let (mut w, client_id, secret) = checked(&req)?;
    let sealer = sealer(&app)?;
    let seal = |s: &str| {
        sealer
            .seal(s)
            .map_err(|e| crate::envelope::ApiError::internal("seal", e))
    };
    let now = now_ms();
    let id = match req.id {
        None => {
            let (Some(cid), Some(sec)) = (client_id, secret) else {
                return Err(DomainError::invalid("clientSecret").into());
            };
            (w.client_id_enc, w.client_secret_enc) = (seal(&cid)?, seal(&sec)?);
            app.store.insert_vtn(&w, now).await?
        }
        Some(id) => {
            let old = app
                .store
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
            app.store.update_vtn(id, &w, now).await?;
            id
        }
    };
    let detail = serde_json::json!({"name": w.name, "url": w.url, "version": w.version});
    crate::audit::record_admin(
        &app,
        &me,
        "energyhub.vtn.save",
        &format!("vtn:{id}"),
        detail,
    )
    .await;
    let row = app
        .store
        .vtn(id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    Ok(Data(view(&app, row)))
}

/// Syncs a connection now: the summary, or 1011 with the VTN's problem.
#[utoipa::path(post, path = "/api/v1/oadr/vtn/{id}/sync", tag = "energy hub", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "What the sync did; 2, 4, 1011", body = Envelope<SyncSummary>)))]
pub async fn sync_now(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<SyncSummary>> {
    me.actor.require(EDIT)?;
    let vtn = app
        .store
        .vtn(path_id(&id)?)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    match sync_vtn(&app, &vtn).await {
        Ok(s) => Ok(Data(s)),
        Err(super::sync::SyncError::Store(e)) => Err(e.into()),
        Err(e) => Err(DomainError::with_detail(
            Code::VtnFailed,
            e.to_string().chars().take(300).collect::<String>(),
        )
        .into()),
    }
}

/// Removes a connection with its programmes, their enrollments and events.
#[utoipa::path(post, path = "/api/v1/oadr/vtn/{id}/remove", tag = "energy hub", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Removed; 2, 4", body = Ack)))]
pub async fn remove(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    me.actor.require(EDIT)?;
    let id = path_id(&id)?;
    // Best effort: the VTN stops calling back a connection that is gone.
    if let Some(row) = app.store.vtn(id).await?
        && let Ok(client) = super::sync::client(&app, &row)
    {
        super::webhooks::unsubscribe_all(&client, &row.webhook).await;
    }
    if !app.store.delete_vtn(id).await? {
        return Err(DomainError::invalid("id").into());
    }
    crate::audit::record_admin(
        &app,
        &me,
        "energyhub.vtn.remove",
        &format!("vtn:{id}"),
        serde_json::json!({}),
    )
    .await;
    Ok(Done)
}
