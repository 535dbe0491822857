//! The VTN connections an administrator manages (`sys.energyhub.edit`). Client id and secret
//! are write-only: answers carry `hasSecret` and the client id's last 4 characters.

use super::ven;
use crate::AppState;
use crate::envelope::{Ack, ApiError, ApiResult, Data, Done, Envelope};
use crate::extract::{Body, num};
use crate::session::CurrentUser;
use crate::users::{create_at, path_id};
use axum::extract::{Path, State};
use domain::error::DomainError;
use domain::ids::VtnId;
use domain::permissions::SYS_ENERGYHUB_EDIT;
use domain::time::now_ms;
use serde::{Deserialize, Serialize};
use service::energy_hub::vtn::{self as hub, admin::SaveError, admin::VtnInput};
use store::energy_hub::vtn::VtnRow;
use utoipa::ToSchema;

/// What one sync did.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyncSummary {
    pub ven_id: String,
    pub programs: usize,
    pub events: usize,
    pub cancelled: u64,
    pub accepted: usize,
    pub rejected: usize,
    pub removed: usize,
    pub reports: usize,
    pub report_errors: usize,
    /// Programmes and events the VTN listed that the portal could not read (skipped).
    pub refused: usize,
    /// Requests of ours the VTN found malformed (400), with its problem detail.
    pub problems: Vec<String>,
}

impl From<hub::SyncSummary> for SyncSummary {
    fn from(s: hub::SyncSummary) -> Self {
        SyncSummary {
            ven_id: s.ven_id,
            programs: s.programs,
            events: s.events,
            cancelled: s.cancelled,
            accepted: s.accepted,
            rejected: s.rejected,
            removed: s.removed,
            reports: s.reports,
            report_errors: s.report_errors,
            refused: s.refused,
            problems: s.problems,
        }
    }
}

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
    #[schema(value_type = crate::text_enums::VtnNotifications)]
    pub notifications: String,
    /// Why it polls only: `noPublicUrl`, `notOffered` (the VTN has no webhooks), `failed`
    /// (see the note), '' with webhooks.
    #[schema(value_type = crate::text_enums::VtnPollingReason)]
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
    let (notifications, notifications_reason, notifications_note) = hub::webhooks::mode(&v.webhook);
    let hint = ven(app)
        .sealer()
        .ok()
        .and_then(|s| s.open(&v.client_id_enc).ok())
        .map(|id| {
            let chars: Vec<char> = id.chars().collect();
            chars[chars.len().saturating_sub(4)..].iter().collect()
        })
        .unwrap_or_default();
    Vtn {
        id: v.id.0,
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
    me.actor.require(SYS_ENERGYHUB_EDIT)?;
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
    #[schema(min_length = 1, max_length = 64)]
    pub name: Option<String>,
    /// The VTN's base URL (http or https), e.g. https://vtn.example.com/openadr3/3.1.0.
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(max_length = 256)]
    pub url: Option<String>,
    /// "3.0.1" or "3.1.0".
    #[serde(default, deserialize_with = "num::opt_text")]
    pub version: Option<String>,
    /// Required for a new connection; kept when absent on an edit.
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(max_length = 256)]
    pub client_id: Option<String>,
    /// Required for a new connection; kept when absent on an edit.
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(max_length = 256)]
    pub client_secret: Option<String>,
    /// Our ven's name on the VTN, 1-128 characters.
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(min_length = 1, max_length = 128)]
    pub ven_name: Option<String>,
    /// 10-3600; default 30.
    #[serde(default, deserialize_with = "num::opt_i64")]
    #[schema(minimum = 10, maximum = 3600)]
    pub poll_seconds: Option<i64>,
    /// Default true.
    #[serde(default, deserialize_with = "num::opt_bool")]
    pub enabled: Option<bool>,
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
    let input = VtnInput {
        id: req.id.map(VtnId),
        name: req.name,
        url: req.url,
        version: req.version,
        client_id: req.client_id,
        client_secret: req.client_secret,
        ven_name: req.ven_name,
        poll_seconds: req.poll_seconds,
        enabled: req.enabled,
    };
    let id = hub::admin::save(&app.store, &me.actor, &ven(&app), &input, now_ms())
        .await
        .map_err(|e| match e {
            SaveError::Service(e) => ApiError::from(e),
            SaveError::Key(e) => ApiError::internal("energy hub key", e),
        })?;
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
    me.actor.require(SYS_ENERGYHUB_EDIT)?;
    let id = path_id(&id)?;
    let summary = hub::sync::sync_now(&app.store, &me.actor, &ven(&app), id).await?;
    Ok(Data(summary.into()))
}

/// Removes a connection with its programmes, their enrollments and events.
#[utoipa::path(post, path = "/api/v1/oadr/vtn/{id}/remove", tag = "energy hub", params(("id" = i64, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Removed; 2, 4", body = Ack)))]
pub async fn remove(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    me.actor.require(SYS_ENERGYHUB_EDIT)?;
    let id = path_id(&id)?;
    hub::admin::remove(&app.store, &me.actor, &ven(&app), id, now_ms()).await?;
    Ok(Done)
}
