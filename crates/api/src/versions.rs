//! The system update log: release notes anyone can read (`/version/...`, also before sign-in)
//! and internal administrators publish (`/api/v1/version...`, permission `sys.version.edit`).

use axum::extract::State;
use domain::DomainError;
use domain::ids::VersionId;
use serde::{Deserialize, Serialize};
use service::versions::{self, NoteInput};
use store::versions::VersionRow;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope, current_lang},
    extract::{Body, PathId, Query, num},
    paging::{Page, Paging},
    session::CurrentUser,
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(timeline))
        .routes(routes!(latest))
        .routes(routes!(check))
        .routes(routes!(list))
        .routes(routes!(latest_signed_in, save))
        .routes(routes!(one))
        .routes(routes!(delete))
}

/// A release note, its text in the caller's language (English when that one is empty).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Note {
    pub id: i64,
    pub version: String,
    /// 1 portal, 2 mobile app, 3 device firmware.
    #[serde(rename = "type")]
    pub kind: i64,
    pub content: String,
    pub content_en: String,
    pub content_cn: String,
    pub content_es: String,
    pub announcer: String,
    /// `YYYY-MM-DD HH:MM:SS`, UTC.
    pub release_time: String,
    pub create_at: String,
}

fn note(v: &VersionRow) -> Note {
    let content = match current_lang() {
        domain::Lang::En => &v.content_en,
        domain::Lang::Zh => &v.content_cn,
        domain::Lang::Es => &v.content_es,
    };
    let content = if content.is_empty() {
        &v.content_en
    } else {
        content
    };
    Note {
        id: v.id.0,
        version: v.version.clone(),
        kind: v.kind,
        content: content.clone(),
        content_en: v.content_en.clone(),
        content_cn: v.content_cn.clone(),
        content_es: v.content_es.clone(),
        announcer: v.announcer.clone(),
        release_time: format_time(v.release_time),
        create_at: crate::users::create_at(v.created_at),
    }
}

fn format_time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .format("%Y-%m-%d %H:%M:%S")
        .to_string()
}

/// Every release note, newest first (at most 200).
#[utoipa::path(get, path = "/version/timeline", tag = "versions",
    responses((status = 200, description = "Every note, newest first", body = Envelope<Vec<Note>>)))]
pub async fn timeline(State(app): State<AppState>) -> ApiResult<Data<Vec<Note>>> {
    let (rows, _) = app.store.versions(200, 0).await?;
    Ok(Data(rows.iter().map(note).collect()))
}

/// The newest release note, or null.
#[utoipa::path(get, path = "/version/latest", tag = "versions",
    responses((status = 200, description = "The newest note or null", body = Envelope<Option<Note>>)))]
pub async fn latest(State(app): State<AppState>) -> ApiResult<Data<Option<Note>>> {
    let (rows, _) = app.store.versions(1, 0).await?;
    Ok(Data(rows.first().map(note)))
}

/// The same for the administrator's screen.
// Under `/api/v1/` like every signed-in call, so it asks for the token (the public reading is
// `/version/latest`).
#[utoipa::path(get, path = "/api/v1/version", tag = "versions", security(("bearer" = [])),
    responses((status = 200, description = "The newest note or null", body = Envelope<Option<Note>>)))]
pub async fn latest_signed_in(
    _me: CurrentUser,
    app: State<AppState>,
) -> ApiResult<Data<Option<Note>>> {
    latest(app).await
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct CheckQuery {
    /// The version the client runs.
    #[serde(default)]
    pub version: Option<String>,
}

/// Whether `version` is the newest published one.
#[utoipa::path(get, path = "/version/check", tag = "versions", params(CheckQuery),
    responses((status = 200, description = "The newest note and whether `version` is it", body = Envelope<VersionCheck>)))]
pub async fn check(
    State(app): State<AppState>,
    Query(q): Query<CheckQuery>,
) -> ApiResult<Data<VersionCheck>> {
    let (rows, _) = app.store.versions(1, 0).await?;
    let newest = rows.first();
    let up_to_date = match (newest, q.version.as_deref()) {
        (None, _) => true,
        (Some(n), Some(v)) => n.version == v.trim(),
        (Some(_), None) => false,
    };
    Ok(Data(VersionCheck {
        latest: newest.map(note),
        up_to_date,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VersionCheck {
    pub latest: Option<Note>,
    pub up_to_date: bool,
}

#[utoipa::path(get, path = "/api/v1/versions", tag = "versions", params(Paging), security(("bearer" = [])),
    responses((status = 200, description = "A page of notes, newest first", body = Envelope<Page<Note>>)))]
pub async fn list(
    State(app): State<AppState>,
    _me: CurrentUser,
    paging: Paging,
) -> ApiResult<Data<Page<Note>>> {
    let (rows, total) = app.store.versions(paging.limit(), paging.offset()).await?;
    Ok(Data(Page::new(
        paging,
        total,
        rows.iter().map(note).collect(),
    )))
}

#[utoipa::path(get, path = "/api/v1/version/{id}", tag = "versions", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "The note; 4 when missing", body = Envelope<Note>)))]
pub async fn one(
    State(app): State<AppState>,
    _me: CurrentUser,
    PathId(id): PathId<VersionId>,
) -> ApiResult<Data<Note>> {
    let row = app
        .store
        .version(id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    Ok(Data(note(&row)))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VersionRequest {
    /// Present to edit an existing note.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub id: Option<i64>,
    #[serde(default)]
    pub version: Option<String>,
    /// 1 portal, 2 mobile app, 3 device firmware.
    #[serde(default, rename = "type", deserialize_with = "num::opt_i64")]
    pub kind: Option<i64>,
    #[serde(default)]
    pub content_en: Option<String>,
    #[serde(default, alias = "contentZh")]
    pub content_cn: Option<String>,
    #[serde(default)]
    pub content_es: Option<String>,
    /// Release time in milliseconds; when absent, now for a new note and unchanged for an edit.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub release_time: Option<i64>,
}

impl VersionRequest {
    fn input(self) -> NoteInput {
        NoteInput {
            version: self.version,
            kind: self.kind,
            content_en: self.content_en,
            content_cn: self.content_cn,
            content_es: self.content_es,
            release_time: self.release_time,
        }
    }
}

/// Publishes a release note, or edits one when `id` is given (its announcer stays, and so does
/// its release time when none is sent). A taken version label is 4 `version`, an unknown id 4
/// `id`. Audited `version.publish` / `version.edit`.
#[utoipa::path(post, path = "/api/v1/version", tag = "versions", request_body = VersionRequest, security(("bearer" = [])),
    responses((status = 200, description = "The note's id; 2, 4", body = Envelope<i64>)))]
pub async fn save(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<VersionRequest>,
) -> ApiResult<Data<VersionId>> {
    let announcer = me.user.shown_name().to_string();
    let id = req.id.map(VersionId);
    let input = req.input();
    let id = match id {
        Some(id) => {
            versions::edit(&app.store, &me.actor, id, &input, now_ms()).await?;
            id
        }
        None => {
            versions::publish(&app.store, &me.actor, &announcer, &input, now_ms())
                .await?
                .0
        }
    };
    Ok(Data(id))
}

/// Deletes a release note. Audited `version.delete`.
#[utoipa::path(get, path = "/api/v1/version/{id}/delete", tag = "versions", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Deleted; 2, 4", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    PathId(id): PathId<VersionId>,
) -> ApiResult<Done> {
    versions::delete(&app.store, &me.actor, id, now_ms()).await?;
    Ok(Done)
}
