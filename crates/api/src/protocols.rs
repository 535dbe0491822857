//! Protocol configs (the spec's logger functions) for administrators: list, read, check a code,
//! save an edited or new config. Ingest decodes with the stored configs (from its next start).

use axum::{
    Json, Router,
    extract::{Path, State},
    routing::get,
};
use devices::protocol::{ProtocolConfig, stored};
use domain::{Code, DomainError};
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::IntoParams;

use crate::{
    AppState,
    envelope::{ApiError, ApiResult, Data, Done},
    extract::Query,
    now_ms,
    session::CurrentUser,
    users::create_at,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/logger/functions", get(list))
        .route("/api/v1/logger/function/check", get(check))
        .route(
            "/api/v1/logger/function",
            axum::routing::post(save).layer(crate::limits::json(crate::limits::PROTOCOL_CONFIG)),
        )
        .route("/api/v1/logger/function/{code}", get(one))
}

/// Editing what the portal decodes is for the platform's own administrators.
fn require_admin(me: &CurrentUser) -> ApiResult<()> {
    if me.actor.is_internal() && me.actor.has("logger.management") {
        Ok(())
    } else {
        Err(Code::NoPermission.into())
    }
}

#[utoipa::path(get, path = "/api/v1/logger/functions", tag = "protocols", security(("bearer" = [])),
    responses((status = 200, description = "Envelope with [{code, family, name, builtin, points, version, updateAt}]; 2")))]
pub async fn list(State(app): State<AppState>, me: CurrentUser) -> ApiResult<Data<Vec<Value>>> {
    require_admin(&me)?;
    let rows = app.store.protocols().await?;
    Ok(Data(
        rows.iter()
            .map(|r| {
                let parsed = ProtocolConfig::from_json(&r.config).ok();
                json!({
                    "code": r.code, "family": r.family, "name": r.name, "builtin": r.builtin,
                    "points": parsed.as_ref().map(|c| c.points.len()),
                    "version": parsed.as_ref().map(|c| c.version),
                    "updateAt": create_at(r.updated_at),
                })
            })
            .collect(),
    ))
}

#[utoipa::path(get, path = "/api/v1/logger/function/{code}", tag = "protocols", params(("code" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Envelope with the whole config; 2, 4")))]
pub async fn one(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(code): Path<String>,
) -> ApiResult<Data<Value>> {
    require_admin(&me)?;
    let row = app
        .store
        .protocol(&code)
        .await?
        .ok_or_else(|| DomainError::invalid("code"))?;
    let config: Value =
        serde_json::from_str(&row.config).map_err(|e| ApiError::internal("stored config", e))?;
    Ok(Data(config))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct CheckQuery {
    #[serde(default)]
    pub code: Option<String>,
}

/// 5000 when the code is taken.
#[utoipa::path(get, path = "/api/v1/logger/function/check", tag = "protocols", params(CheckQuery),
    security(("bearer" = [])), responses((status = 200, description = "Envelope; 2, 5000")))]
pub async fn check(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CheckQuery>,
) -> ApiResult<Done> {
    require_admin(&me)?;
    let code = q.code.unwrap_or_default();
    if app.store.protocol(code.trim()).await?.is_some() {
        return Err(Code::DictCodeExists.into());
    }
    Ok(Done)
}

/// Saves a whole config (new or edited). Every problem is named in the message (code 4).
#[utoipa::path(post, path = "/api/v1/logger/function", tag = "protocols", security(("bearer" = [])),
    request_body(content_type = "application/json", description = "A protocol config (see docs/device-protocol.md)"),
    responses((status = 200, description = "Envelope with {code, version}; 2, 4")))]
pub async fn save(
    State(app): State<AppState>,
    me: CurrentUser,
    body: Result<Json<Value>, axum::extract::rejection::JsonRejection>,
) -> ApiResult<Data<Value>> {
    require_admin(&me)?;
    let Json(body) = body.map_err(|_| DomainError::invalid("body"))?;
    let config: ProtocolConfig = serde_json::from_value(body).map_err(|e| {
        DomainError::with_detail(
            Code::InvalidParameter,
            e.to_string().chars().take(200).collect::<String>(),
        )
    })?;
    match stored::save(&app.store, config, me.user.id, now_ms()).await {
        Ok(saved) => Ok(Data(json!({"code": saved.code, "version": saved.version}))),
        Err(stored::SaveError::Invalid(problems)) => Err(DomainError::with_detail(
            Code::InvalidParameter,
            problems.chars().take(400).collect::<String>(),
        )
        .into()),
        Err(stored::SaveError::Store(e)) => Err(e.into()),
    }
}
