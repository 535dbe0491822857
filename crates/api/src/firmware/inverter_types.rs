//! The inverter-type tree (`firmware.inverter.view` to read, `firmware.inverter.edit` to
//! change): primary titles hold secondary labels; a label names the inverter type codes its
//! firmware fits, each code on one label only. The tree rules are the `tree_rules` below.

use std::collections::HashMap;

use axum::extract::{Path, State};
use domain::DomainError;
use serde::{Deserialize, Serialize};
use serde_json::json;
use store::inverter_types::InverterTypeRow;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{INVERTER_EDIT, INVERTER_VIEW, require, require_change};
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

/// The longest name of a title or label.
const NAME_MAX: usize = 32;
/// Inverter type codes run from 0 to 9999 (SPEC section 3).
const CODE_MAX: i64 = 9999;

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

fn node(t: &InverterTypeRow, codes: &HashMap<i64, Vec<i64>>) -> InverterTypeNode {
    InverterTypeNode {
        id: t.id,
        parent_id: t.parent_id,
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
    require(&me, INVERTER_VIEW)?;
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
            .filter(|t| t.parent_id == Some(title.id))
            .map(|t| node(t, &codes))
            .collect();
        title.codes.clear();
        title.firmware_count = title.children.iter().map(|c| c.firmware_count).sum();
    }
    Ok(Data(titles))
}

/// A title or label name: 1 to 32 characters, trimmed.
fn name(raw: Option<&str>) -> Result<String, DomainError> {
    let n = raw.unwrap_or("").trim();
    if n.is_empty() || n.chars().count() > NAME_MAX {
        Err(DomainError::invalid("name"))
    } else {
        Ok(n.to_string())
    }
}

/// A label's codes: each 0..=9999, no repeats, none held by another label (4 `codes`
/// naming the code).
async fn codes(app: &AppState, raw: &[i64], label: Option<i64>) -> ApiResult<Vec<i64>> {
    let mut out: Vec<i64> = Vec::with_capacity(raw.len());
    for &c in raw {
        if !(0..=CODE_MAX).contains(&c) {
            return Err(DomainError::invalid(format!("codes: {c}")).into());
        }
        if !out.contains(&c) {
            out.push(c);
        }
    }
    for (code, holder) in app.store.inverter_type_codes().await? {
        if out.contains(&code) && Some(holder) != label {
            return Err(DomainError::invalid(format!("codes: {code}")).into());
        }
    }
    Ok(out)
}

/// The node `id`, or 4 `id`.
async fn node_row(app: &AppState, id: i64) -> ApiResult<InverterTypeRow> {
    Ok(app
        .store
        .inverter_type(id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?)
}

/// `id` when it is a primary title; 4 `primaryTitle` otherwise.
async fn primary(app: &AppState, id: i64) -> ApiResult<i64> {
    match app.store.inverter_type(id).await? {
        Some(t) if t.parent_id.is_none() => Ok(id),
        _ => Err(DomainError::invalid("primaryTitle").into()),
    }
}

async fn audit(
    app: &AppState,
    me: &CurrentUser,
    action: &str,
    name: &str,
    detail: serde_json::Value,
) {
    crate::audit::record_admin(app, me, action, &format!("inverterType:{name}"), detail).await;
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
    require(&me, INVERTER_VIEW)?;
    let n = name(q.name.as_deref())?;
    let parent = q.parent_id.filter(|p| *p > 0);
    if app
        .store
        .inverter_type_name_taken(parent, &n, q.id.filter(|i| *i > 0))
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
    pub name: Option<String>,
    /// A primary title (a new secondary label, or a move's target); null for a primary title.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub parent_id: Option<i64>,
    /// Inverter type codes (secondary labels only), each 0..=9999 and on one label only.
    #[serde(default)]
    pub codes: Option<Vec<i64>>,
}

/// Adds a primary title (`parentId` null) or a secondary label under a primary title.
#[utoipa::path(post, path = "/api/v1/firmware/inverterType/add", tag = "firmware", request_body = InverterTypeRequest,
    security(("bearer" = [])),
    responses((status = 200, description = "The new id; 2, 4 name/primaryTitle/codes", body = Envelope<i64>)))]
pub async fn add(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<InverterTypeRequest>,
) -> ApiResult<Data<i64>> {
    require_change(&me, INVERTER_EDIT)?;
    let n = name(req.name.as_deref())?;
    let parent = match req.parent_id.filter(|p| *p > 0) {
        Some(p) => Some(primary(&app, p).await?),
        None => None,
    };
    let codes = match (parent, req.codes.as_deref()) {
        (Some(_), Some(raw)) => codes(&app, raw, None).await?,
        (None, Some(raw)) if !raw.is_empty() => return Err(DomainError::invalid("codes").into()),
        _ => Vec::new(),
    };
    if app.store.inverter_type_name_taken(parent, &n, None).await? {
        return Err(DomainError::invalid("name").into());
    }
    let id = app
        .store
        .insert_inverter_type(parent, &n, &codes, now_ms())
        .await?;
    audit(
        &app,
        &me,
        "inverterType.add",
        &n,
        json!({"typeId": id, "parentId": parent, "codes": codes}),
    )
    .await;
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
    require_change(&me, INVERTER_EDIT)?;
    let t = node_row(&app, req.id.unwrap_or(0)).await?;
    let n = name(req.name.as_deref())?;
    let codes = match (t.parent_id, req.codes.as_deref()) {
        (Some(_), Some(raw)) => Some(codes(&app, raw, Some(t.id)).await?),
        (None, Some(raw)) if !raw.is_empty() => return Err(DomainError::invalid("codes").into()),
        _ => None,
    };
    if app
        .store
        .inverter_type_name_taken(t.parent_id, &n, Some(t.id))
        .await?
    {
        return Err(DomainError::invalid("name").into());
    }
    app.store
        .update_inverter_type(t.id, &n, codes.as_deref(), now_ms())
        .await?;
    let detail = json!({"typeId": t.id, "before": t.name, "codes": codes});
    audit(&app, &me, "inverterType.edit", &n, detail).await;
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
    require_change(&me, INVERTER_EDIT)?;
    let t = node_row(&app, req.id.unwrap_or(0)).await?;
    if t.parent_id.is_none() {
        return Err(DomainError::invalid("primaryTitle").into());
    }
    let target = primary(&app, req.parent_id.unwrap_or(0)).await?;
    if t.parent_id == Some(target) {
        return Ok(Done);
    }
    if app
        .store
        .inverter_type_name_taken(Some(target), &t.name, Some(t.id))
        .await?
    {
        return Err(DomainError::invalid("nameAtTarget").into());
    }
    app.store.move_inverter_type(t.id, target, now_ms()).await?;
    let detail = json!({"typeId": t.id, "from": t.parent_id, "to": target});
    audit(&app, &me, "inverterType.move", &t.name, detail).await;
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
    require_change(&me, INVERTER_EDIT)?;
    let t = node_row(&app, path_id(&id)?).await?;
    let rows = app.store.inverter_types().await?;
    if rows.iter().any(|c| c.parent_id == Some(t.id)) {
        return Err(DomainError::invalid("hasSubtype").into());
    }
    if t.firmware_count > 0 {
        return Err(DomainError::invalid("hasFirmware").into());
    }
    if !app.store.delete_inverter_type(t.id).await? {
        // Something was filed under it meanwhile.
        return Err(DomainError::invalid("hasFirmware").into());
    }
    audit(
        &app,
        &me,
        "inverterType.delete",
        &t.name,
        json!({"typeId": t.id, "parentId": t.parent_id}),
    )
    .await;
    Ok(Done)
}
