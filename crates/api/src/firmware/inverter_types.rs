//! The inverter-type tree (`firmware.inverter.view` to read, `firmware.inverter.edit` to
//! change): primary titles hold secondary labels; a label names the inverter type codes its
//! firmware fits, each code on one label only. Changes are use cases of
//! `service::firmware::types`.

use domain::ids::InverterTypeId;
use domain::permissions::{FIRMWARE_INVERTER_EDIT, FIRMWARE_INVERTER_VIEW};
use std::collections::HashMap;

use axum::extract::{Path, State};
use domain::DomainError;
use serde::{Deserialize, Serialize};
use service::firmware::types::{self, TypeDraft};
use store::inverter_types::InverterTypeRow;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{require, require_change};
use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Body, Query, num},
    session::CurrentUser,
    users::path_id,
};
use domain::time::now_ms;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(tree))
        .routes(routes!(check))
        .routes(routes!(add))
        .routes(routes!(edit))
        .routes(routes!(move_label))
        .routes(routes!(delete))
}

/// A primary title with its labels, or a secondary label.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InverterTypeNode {
    pub id: i64,
    /// null for a primary title.
    pub parent_id: Option<i64>,
    pub name: String,
    pub sort: i64,
    /// The inverter type codes of a secondary label ([] for a primary title).
    pub codes: Vec<i64>,
    /// Firmware filed under the label (a title: under its labels).
    pub firmware_count: i64,
    /// A primary title's labels ([] for a label).
    #[schema(no_recursion)]
    pub children: Vec<InverterTypeNode>,
}

fn node(t: &InverterTypeRow, codes: &HashMap<InverterTypeId, Vec<i64>>) -> InverterTypeNode {
    InverterTypeNode {
        id: t.id.0,
        parent_id: t.parent_id.map(|v| v.0),
        name: t.name.clone(),
        sort: t.sort,
        codes: codes.get(&t.id).cloned().unwrap_or_default(),
        firmware_count: t.firmware_count,
        children: Vec::new(),
    }
}

/// The tree: primary titles by sort then id, each with its labels.
#[utoipa::path(get, path = "/api/v1/firmware/inverterTypes", tag = "firmware",
    security(("bearer" = [])),
    responses((status = 200, description = "The primary titles with their labels; 2", body = Envelope<Vec<InverterTypeNode>>)))]
pub async fn tree(
    State(app): State<AppState>,
    me: CurrentUser,
) -> ApiResult<Data<Vec<InverterTypeNode>>> {
    require(&me, FIRMWARE_INVERTER_VIEW)?;
    let rows = app.store.inverter_types().await?;
    let codes = super::codes_by_label(&app).await?;
    let mut titles: Vec<InverterTypeNode> = rows
        .iter()
        .filter(|t| t.parent_id.is_none())
        .map(|t| node(t, &codes))
        .collect();
    for title in &mut titles {
        title.children = rows
            .iter()
            .filter(|t| t.parent_id.map(|p| p.0) == Some(title.id))
            .map(|t| node(t, &codes))
            .collect();
        title.codes.clear();
        title.firmware_count = title.children.iter().map(|c| c.firmware_count).sum();
    }
    Ok(Data(titles))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct CheckQuery {
    #[serde(default, deserialize_with = "num::opt_text")]
    pub name: Option<String>,
    /// The parent (none: among the primary titles).
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub parent_id: Option<i64>,
    /// The node being edited (not compared with itself).
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub id: Option<i64>,
}

/// 0 when no sibling has the name; 4 `name` otherwise.
#[utoipa::path(get, path = "/api/v1/firmware/inverterType/check", tag = "firmware", params(CheckQuery),
    security(("bearer" = [])), responses((status = 200, description = "0 free; 2, 4 name", body = Ack)))]
pub async fn check(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CheckQuery>,
) -> ApiResult<Done> {
    require(&me, FIRMWARE_INVERTER_VIEW)?;
    let n = domain::inverter_type::name(q.name.as_deref())?;
    let parent = q.parent_id.filter(|p| *p > 0).map(InverterTypeId);
    if app
        .store
        .inverter_type_name_taken(parent, &n, q.id.filter(|i| *i > 0).map(InverterTypeId))
        .await?
    {
        return Err(DomainError::invalid("name").into());
    }
    Ok(Done)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InverterTypeRequest {
    /// The node being edited or moved.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub id: Option<i64>,
    /// 1 to 32 characters, unique among its siblings.
    #[serde(default, deserialize_with = "num::opt_text")]
    #[schema(min_length = 1, max_length = 32)]
    pub name: Option<String>,
    /// A primary title (a new secondary label, or a move's target); null for a primary title.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub parent_id: Option<i64>,
    /// Inverter type codes (secondary labels only), each 0..=9999 and on one label only.
    #[serde(default)]
    pub codes: Option<Vec<i64>>,
}

impl InverterTypeRequest {
    fn draft(&self) -> TypeDraft<'_> {
        TypeDraft {
            id: self.id,
            name: self.name.as_deref(),
            parent_id: self.parent_id,
            codes: self.codes.as_deref(),
        }
    }
}

/// Adds a primary title (`parentId` null) or a secondary label under a primary title.
#[utoipa::path(post, path = "/api/v1/firmware/inverterType/add", tag = "firmware", request_body = InverterTypeRequest,
    security(("bearer" = [])),
    responses((status = 200, description = "The new id; 2, 4 name/primaryTitle/codes", body = Envelope<i64>)))]
pub async fn add(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<InverterTypeRequest>,
) -> ApiResult<Data<InverterTypeId>> {
    let id = types::add(&app.store, &me.actor, &req.draft(), now_ms()).await?;
    Ok(Data(id))
}

/// Renames a title or label and (labels) replaces its codes when `codes` is sent.
#[utoipa::path(post, path = "/api/v1/firmware/inverterType/edit", tag = "firmware", request_body = InverterTypeRequest,
    security(("bearer" = [])),
    responses((status = 200, description = "Saved; 2, 4 id/name/codes", body = Ack)))]
pub async fn edit(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<InverterTypeRequest>,
) -> ApiResult<Done> {
    types::edit(&app.store, &me.actor, &req.draft(), now_ms()).await?;
    Ok(Done)
}

/// Moves a secondary label under another primary title (4 `primaryTitle` when either is not
/// what it should be, 4 `nameAtTarget` when a label there has its name).
#[utoipa::path(post, path = "/api/v1/firmware/inverterType/move", tag = "firmware", request_body = InverterTypeRequest,
    security(("bearer" = [])),
    responses((status = 200, description = "Moved; 2, 4 id/primaryTitle/nameAtTarget", body = Ack)))]
pub async fn move_label(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<InverterTypeRequest>,
) -> ApiResult<Done> {
    types::move_label(&app.store, &me.actor, &req.draft(), now_ms()).await?;
    Ok(Done)
}

/// Deletes a title or label: refused while it has labels (4 `hasSubtype`) or firmware (4
/// `hasFirmware`).
#[utoipa::path(get, path = "/api/v1/firmware/inverterType/{id}/delete", tag = "firmware",
    params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, description = "Deleted; 2, 4 id/hasSubtype/hasFirmware", body = Ack)))]
pub async fn delete(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Done> {
    // The permission before the id: an outsider learns nothing from a malformed one.
    require_change(&me, FIRMWARE_INVERTER_EDIT)?;
    types::delete(&app.store, &me.actor, path_id(&id)?, now_ms()).await?;
    Ok(Done)
}
