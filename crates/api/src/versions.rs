//! The system update log: release notes anyone can read (`/version/...`, also before sign-in)
//! and internal administrators publish (`/api/v1/version...`, permission `sys.version.edit`).

use axum::{
    Router,
    extract::{Path, State},
    routing::get,
};
use domain::{DomainError, account::check_text};
use serde::Deserialize;
use serde_json::{Value, json};
use store::{
    StoreError,
    versions::{VersionFields, VersionRow},
};
use utoipa::{IntoParams, ToSchema};

use crate::{
    AppState,
    envelope::{ApiError, ApiResult, Data, Done, current_lang},
    extract::{Body, Query, num},
    now_ms,
    session::CurrentUser,
    users::path_id,
};

const CONTENT_MAX: usize = 4000;
const VERSION_MAX: usize = 20;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/version/timeline", get(timeline))
        .route("/version/latest", get(latest))
        .route("/version/check", get(check))
        .route("/api/v1/versions", get(list))
        .route("/api/v1/version", get(latest).post(save))
        .route("/api/v1/version/{id}", get(one))
        .route("/api/v1/version/{id}/delete", get(delete))
}

fn note(v: &VersionRow) -> Value {
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
    json!({
        "id": v.id, "version": v.version, "type": v.kind, "content": content,
        "contentEn": v.content_en, "contentCn": v.content_cn, "contentEs": v.content_es,
        "announcer": v.announcer, "releaseTime": format_time(v.release_time),
        "createAt": crate::users::create_at(v.created_at),
    })
}

fn format_time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .format("%Y-%m-%d %H:%M:%S")
        .to_string()
}

/// Every release note, newest first (at most 200).
#[utoipa::path(get, path = "/version/timeline", tag = "versions",
    responses((status = 200, description = "Envelope with [{id, version, type, content, contentEn, contentCn, contentEs, announcer, releaseTime}]")))]
pub async fn timeline(State(app): State<AppState>) -> ApiResult<Data<Vec<Value>>> {
    let (rows, _) = app.store.versions(200, 0).await?;
    Ok(Data(rows.iter().map(note).collect()))
}

/// The newest release note, or null.
#[utoipa::path(get, path = "/version/latest", tag = "versions",
    responses((status = 200, description = "Envelope with one note or null")))]
pub async fn latest(State(app): State<AppState>) -> ApiResult<Data<Option<Value>>> {
    let (rows, _) = app.store.versions(1, 0).await?;
    Ok(Data(rows.first().map(note)))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct CheckQuery {
    /// The version the client runs.
    #[serde(default)]
    pub version: Option<String>,
}

/// Whether `version` is the newest published one.
#[utoipa::path(get, path = "/version/check", tag = "versions", params(CheckQuery),
    responses((status = 200, description = "Envelope with {latest, upToDate}")))]
pub async fn check(
    State(app): State<AppState>,
    Query(q): Query<CheckQuery>,
) -> ApiResult<Data<Value>> {
    let (rows, _) = app.store.versions(1, 0).await?;
    let newest = rows.first();
    let up_to_date = match (newest, q.version.as_deref()) {
        (None, _) => true,
        (Some(n), Some(v)) => n.version == v.trim(),
        (Some(_), None) => false,
    };
    Ok(Data(
        json!({"latest": newest.map(note), "upToDate": up_to_date}),
    ))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct PageQuery {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub page: Option<i64>,
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub limit: Option<i64>,
}

#[utoipa::path(get, path = "/api/v1/versions", tag = "versions", params(PageQuery), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with a page of notes")))]
pub async fn list(
    State(app): State<AppState>,
    _me: CurrentUser,
    Query(q): Query<PageQuery>,
) -> ApiResult<Data<Value>> {
    let limit = q.limit.unwrap_or(10).clamp(1, 100);
    let page = q.page.unwrap_or(1).max(1);
    let (rows, total) = app.store.versions(limit, (page - 1) * limit).await?;
    let infos: Vec<Value> = rows.iter().map(note).collect();
    Ok(Data(
        json!({"pageSize": limit, "pageNumber": page, "total": total, "infos": infos}),
    ))
}

#[utoipa::path(get, path = "/api/v1/version/{id}", tag = "versions", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the note; 4 when missing")))]
pub async fn one(
    State(app): State<AppState>,
    _me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<Value>> {
    let row = app
        .store
        .version(path_id(&id)?)
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
    /// Release time in milliseconds; now when absent.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub release_time: Option<i64>,
}

fn fields(req: &VersionRequest, announcer: &str) -> Result<VersionFields, DomainError> {
    let version = req.version.as_deref().unwrap_or("").trim().to_string();
    let version_ok = !version.is_empty()
        && version.len() <= VERSION_MAX
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if !version_ok {
        return Err(DomainError::invalid("version"));
    }
    let kind = req.kind.unwrap_or(1);
    if !(1..=3).contains(&kind) {
        return Err(DomainError::invalid("type"));
    }
    let text =
        |field, v: &Option<String>| check_text(field, v.as_deref().unwrap_or(""), CONTENT_MAX);
    let content_en = text("contentEn", &req.content_en)?;
    let content_cn = text("contentCn", &req.content_cn)?;
    if content_en.is_empty() && content_cn.is_empty() {
        return Err(DomainError::invalid("contentEn"));
    }
    Ok(VersionFields {
        version,
        kind,
        content_en,
        content_cn,
        content_es: text("contentEs", &req.content_es)?,
        announcer: announcer.to_string(),
        release_time: req.release_time.filter(|t| *t > 0).unwrap_or_else(now_ms),
    })
}

/// Publishes a release note, or edits one when `id` is given. A taken version number is 4.
#[utoipa::path(post, path = "/api/v1/version", tag = "versions", request_body = VersionRequest, security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the note's id; 2, 4")))]
pub async fn save(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<VersionRequest>,
) -> ApiResult<Data<i64>> {
    me.actor.require("sys.version.edit")?;
    let announcer = if me.user.nickname.is_empty() {
        &me.user.account
    } else {
        &me.user.nickname
    };
    let f = fields(&req, announcer)?;
    let taken = |e: StoreError| -> ApiError {
        match e {
            StoreError::Conflict(_) => DomainError::invalid("version").into(),
            other => other.into(),
        }
    };
    match req.id {
        Some(id) => {
            if !app.store.update_version(id, &f).await.map_err(taken)? {
                return Err(DomainError::invalid("id").into());
            }
            Ok(Data(id))
        }
        None => Ok(Data(
            app.store
                .create_version(&f, now_ms())
                .await
                .map_err(taken)?,
        )),
    }
}

#[utoipa::path(get, path = "/api/v1/version/{id}/delete", tag = "versions", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Envelope; 2, 4")))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    me.actor.require("sys.version.edit")?;
    if !app.store.delete_version(path_id(&id)?).await? {
        return Err(DomainError::invalid("id").into());
    }
    Ok(Done)
}
