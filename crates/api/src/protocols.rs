//! Protocol configs (the spec's logger functions) for administrators: list, read, check a code,
//! save an edited or new config, and preview a config against a captured frame. Internal staff
//! read with `sys.protocol.view` and save with `sys.protocol.edit`. Ingest decodes with the
//! stored configs (from its next start).

use axum::{
    Json,
    extract::{Path, State},
};
use devices::protocol::{ProtocolConfig, stored};
use domain::{Code, DomainError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

mod preview;

use crate::{
    AppState,
    envelope::{Ack, ApiError, ApiResult, Data, Done, Envelope},
    extract::Query,
    session::CurrentUser,
    users::create_at,
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(check))
        .routes(routes!(save).layer(crate::limits::json(crate::limits::PROTOCOL_CONFIG)))
        .routes(
            routes!(preview::preview).layer(crate::limits::json(crate::limits::PROTOCOL_CONFIG)),
        )
        .routes(routes!(one))
}

const VIEW: &str = domain::permissions::SYS_PROTOCOL_VIEW;
const EDIT: &str = domain::permissions::SYS_PROTOCOL_EDIT;

/// What the portal decodes is for the platform's own administrators: internal staff with
/// `key` (code 2 otherwise).
fn require_admin(me: &CurrentUser, key: &str) -> ApiResult<()> {
    if me.actor.is_internal() && me.actor.has(key) {
        Ok(())
    } else {
        Err(Code::NoPermission.into())
    }
}

/// A stored protocol config, summed up.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoggerFunction {
    pub code: String,
    #[schema(value_type = crate::openapi::DeviceFamilySchema)]
    pub family: domain::DeviceFamily,
    pub name: String,
    /// Shipped with the portal.
    pub builtin: bool,
    /// How many points it decodes; null when the stored config does not parse.
    pub points: Option<usize>,
    /// Its revision; null when the stored config does not parse.
    pub version: Option<u32>,
    pub update_at: String,
}

/// A stored protocol config, the whole document (see docs/device-protocol.md).
/// Free-form to this layer (its shape is the protocol config format's), and answered as it was
/// stored, not re-serialized through the decoder's types.
#[derive(Debug, Serialize, ToSchema)]
#[schema(value_type = std::collections::HashMap<String, Value>)]
pub struct LoggerFunctionDocument(pub Value);

/// A config as a save sends it, as the document describes it: the fields with limits (those of
/// `devices::protocol`: `CODE_MAX`, `NAME_MAX`, `UNIT_MAX`); every other field of the format
/// (docs/device-protocol.md) is sent too, and checked as a whole.
#[derive(ToSchema)]
#[allow(dead_code)] // a description of the body, never built: `parse_config` reads it
pub(crate) struct ProtocolConfigBody {
    #[schema(min_length = 1, max_length = 64)]
    code: String,
    #[schema(min_length = 1, max_length = 100)]
    name: String,
    points: Vec<ProtocolPointBody>,
}

/// A point of a config as a save sends it (see [`ProtocolConfigBody`]).
#[derive(ToSchema)]
#[allow(dead_code)]
pub(crate) struct ProtocolPointBody {
    /// The engineering unit of the decoded value.
    #[schema(max_length = 16)]
    unit: Option<String>,
}

/// A saved config's code and its new revision.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoggerFunctionSaved {
    pub code: String,
    pub version: u32,
}

#[utoipa::path(get, path = "/api/v1/logger/functions", tag = "protocols", security(("bearer" = [])),
    responses((status = 200, description = "Every stored config; 2", body = Envelope<Vec<LoggerFunction>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<Vec<LoggerFunction>>> {
    require_admin(&me, VIEW)?;
    let rows = app.store.protocols().await?;
    Ok(Data(
        rows.iter()
            .map(|r| {
                let parsed = ProtocolConfig::from_json(&r.config).ok();
                LoggerFunction {
                    code: r.code.clone(),
                    family: r.family,
                    name: r.name.clone(),
                    builtin: r.builtin,
                    points: parsed.as_ref().map(|c| c.points.len()),
                    version: parsed.as_ref().map(|c| c.version),
                    update_at: create_at(r.updated_at),
                }
            })
            .collect(),
    ))
}

#[utoipa::path(get, path = "/api/v1/logger/function/{code}", tag = "protocols", params(("code" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "The whole config (see docs/device-protocol.md); 2, 4", body = Envelope<LoggerFunctionDocument>)))]
pub async fn one(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(code): Path<String>,
) -> ApiResult<Data<LoggerFunctionDocument>> {
    require_admin(&me, VIEW)?;
    let row = app
        .store
        .protocol(&code)
        .await?
        .ok_or_else(|| DomainError::invalid("code"))?;
    let config: Value =
        serde_json::from_str(&row.config).map_err(|e| ApiError::internal("stored config", e))?;
    Ok(Data(LoggerFunctionDocument(config)))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct CheckQuery {
    #[serde(default)]
    pub code: Option<String>,
}

/// 5000 when the code is taken.
#[utoipa::path(get, path = "/api/v1/logger/function/check", tag = "protocols", params(CheckQuery),
    security(("bearer" = [])), responses((status = 200, description = "The code is free; 2, 5000", body = Ack)))]
pub async fn check(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CheckQuery>,
) -> ApiResult<Done> {
    require_admin(&me, VIEW)?;
    let code = q.code.unwrap_or_default();
    if app.store.protocol(code.trim()).await?.is_some() {
        return Err(Code::DictCodeExists.into());
    }
    Ok(Done)
}

/// Saves a whole config (new or edited). Every problem is named in the message (code 4).
#[utoipa::path(post, path = "/api/v1/logger/function", tag = "protocols", security(("bearer" = [])),
    request_body(content = ProtocolConfigBody, content_type = "application/json", description = "A protocol config (see docs/device-protocol.md)"),
    responses((status = 200, description = "The config's code and new revision; 2, 4", body = Envelope<LoggerFunctionSaved>)))]
pub async fn save(
    State(app): State<AppState>,
    me: CurrentUser,
    body: Result<Json<Value>, axum::extract::rejection::JsonRejection>,
) -> ApiResult<Data<LoggerFunctionSaved>> {
    require_admin(&me, EDIT)?;
    let Json(body) = body.map_err(|_| DomainError::invalid("body"))?;
    let config = parse_config(body)?;
    match service::protocols::save(&app.store, &me.actor, config, now_ms()).await {
        Ok(saved) => Ok(Data(LoggerFunctionSaved {
            code: saved.code,
            version: saved.version,
        })),
        Err(stored::SaveError::Invalid(problems)) => Err(invalid_config(&problems).into()),
        Err(stored::SaveError::Store(e)) => Err(e.into()),
    }
}

/// A config as sent; a shape the format does not allow is 4 with serde's words.
pub(crate) fn parse_config(body: Value) -> Result<ProtocolConfig, DomainError> {
    serde_json::from_value(body).map_err(|e| {
        DomainError::with_detail(
            Code::InvalidParameter,
            e.to_string().chars().take(200).collect::<String>(),
        )
    })
}

/// A config the decoder's checks refuse: 4 listing the problems.
pub(crate) fn invalid_config(problems: &str) -> DomainError {
    DomainError::with_detail(
        Code::InvalidParameter,
        problems.chars().take(400).collect::<String>(),
    )
}
