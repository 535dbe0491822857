//! The factory registry: internal administrators add and remove gateways; anyone who works
//! with gateways may check whether an SN is known and free.

use axum::extract::{Path, State};
use domain::Code;
use serde::Deserialize;
use service::gateways::{GatewayRef, registry};
use utoipa::ToSchema;

use super::{parse_new_key, parse_sn, require_any};
use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, num},
    session::CurrentUser,
};
use domain::time::now_ms;

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateRequest {
    /// Serial number: letters, digits and `-`, 6-32 characters.
    #[serde(default, alias = "gsn", deserialize_with = "num::opt_text")]
    #[schema(min_length = 6, max_length = 32)]
    pub sn: Option<String>,
    /// Registration key: 8-32 visible characters, at least 4 of them different, not a
    /// straight run (`domain::gateway_key`).
    #[serde(default, alias = "regKey", deserialize_with = "num::opt_text")]
    #[schema(min_length = 8, max_length = 32)]
    pub key: Option<String>,
    /// Protocol config name (optional, at most 40 characters).
    #[serde(default, alias = "protocolType", deserialize_with = "num::opt_text")]
    #[schema(max_length = 40)]
    pub protocol: Option<String>,
    /// Model name (optional, at most 32 characters).
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(max_length = 32)]
    pub model: Option<String>,
    /// Communication type (optional): `wifi`, `4g`, `ethernet`, `rs485`... at most 16
    /// characters.
    #[serde(default, alias = "commTypeName", deserialize_with = "num::opt_text")]
    #[schema(max_length = 16)]
    pub comm_type: Option<String>,
}

impl CreateRequest {
    /// The registration, once SN and key pass their rules (4 `sn` / `key`).
    pub fn checked(&self) -> Result<(String, String), domain::DomainError> {
        Ok((
            parse_sn(self.sn.as_deref())?,
            parse_new_key(self.key.as_deref())?,
        ))
    }

    pub fn registration<'a>(&'a self, sn: &'a str, key: &'a str) -> registry::Registration<'a> {
        registry::Registration {
            sn,
            key,
            protocol: self.protocol.as_deref().unwrap_or_default(),
            model: self.model.as_deref().unwrap_or_default(),
            comm_type: self.comm_type.as_deref().unwrap_or_default(),
        }
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SnRequest {
    #[serde(default, alias = "gsn", deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
}

/// Adds a gateway to the factory registry (internal administrators with `sys.gateway.edit`).
/// A known SN answers code 4 with detail `sn`.
#[utoipa::path(post, path = "/api/v1/gateway/create", tag = "gateways", request_body = CreateRequest,
    security(("bearer" = [])), responses((status = 200, description = "The new gateway's id; 2, 4", body = Envelope<i64>)))]
pub async fn create(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<CreateRequest>,
) -> ApiResult<Data<i64>> {
    let (sn, key) = req.checked()?;
    let r = req.registration(&sn, &key);
    let id = registry::register(&app.store, &me.actor, &r, now_ms()).await?;
    Ok(Data(id.0))
}

/// 0 when the caller may use the SN (free, or their own stock), 301 when it is in use where
/// the caller can see it, 305 when it is unknown or someone else's.
async fn answer(app: &AppState, me: &CurrentUser, raw: Option<&str>) -> ApiResult<Done> {
    require_any(
        me,
        &[
            domain::permissions::GATEWAY_VIEW,
            domain::permissions::SYS_GATEWAY_VIEW,
        ],
    )?;
    let sn = parse_sn(raw)?;
    let g = app
        .store
        .gateway_by_sn(&sn)
        .await?
        .ok_or(Code::GatewayMissing)?;
    let (scope, _) = service::gateways::scope_of(&app.store, &me.actor, &g).await?;
    if me.actor.can_take_gateway(&scope) {
        Ok(Done)
    } else if me.actor.can_see_gateway(&scope) {
        Err(Code::GatewayUsed.into())
    } else {
        Err(Code::GatewayMissing.into())
    }
}

/// Whether an SN is known and free: 0 free, 301 in use, 305 unknown (or another tenant's).
#[utoipa::path(post, path = "/api/v1/gateways/check", tag = "gateways", request_body = SnRequest,
    security(("bearer" = [])), responses((status = 200, description = "Free; 2, 4, 301 in use, 305 unknown", body = Ack)))]
pub async fn check(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<SnRequest>,
) -> ApiResult<Done> {
    answer(&app, &me, req.sn.as_deref()).await
}

/// The same check with the SN in the path.
#[utoipa::path(post, path = "/api/v1/gateway/{sn}/check", tag = "gateways", params(("sn" = String, Path)),
    security(("bearer" = [])), responses((status = 200, description = "Free; 2, 4, 301 in use, 305 unknown", body = Ack)))]
pub async fn check_path(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
) -> ApiResult<Done> {
    answer(&app, &me, Some(&sn)).await
}

/// Removes a gateway from the registry (internal administrators), only while nobody holds it
/// (301 otherwise).
#[utoipa::path(get, path = "/api/v1/gateway/{id}/delete", tag = "gateways", params(("id" = String, Path, description = "id or SN")),
    security(("bearer" = [])), responses((status = 200, description = "Removed; 2, 301 in use, 305", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    registry::remove(&app.store, &me.actor, GatewayRef::parse(&id), now_ms()).await?;
    Ok(Done)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GatewayCustomerRequest {
    /// The owner account's user id; null frees the gateway.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub customer_id: Option<i64>,
}

/// Makes a gateway that is on no plant the stock of an owner account (internal administrators
/// with `sys.gateway.edit`), held with a company that has the account as its customer; null
/// frees it. 301 on a plant, 105 unknown account, 4 `customerId` not an owner.
#[utoipa::path(post, path = "/api/v1/gateway/{id}/customer", tag = "gateways", params(("id" = String, Path, description = "id or SN")),
    request_body = GatewayCustomerRequest, security(("bearer" = [])),
    responses((status = 200, description = "Saved; 2, 4, 105, 301, 305", body = Ack)))]
pub async fn customer(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
    Body(req): Body<GatewayCustomerRequest>,
) -> ApiResult<Done> {
    let gateway = GatewayRef::parse(&id);
    registry::assign_customer(&app.store, &me.actor, gateway, req.customer_id, now_ms()).await?;
    Ok(Done)
}
