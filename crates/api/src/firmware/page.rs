//! Reading the inverter firmware catalogue: the paged list, one firmware, the versions of a
//! label, and the name/version check an upload form runs before it sends the file.

use axum::extract::{Path, State};
use domain::DomainError;
use domain::ids::FirmwareId;
use domain::ids::InverterTypeId;
use domain::permissions::FIRMWARE_INVERTER_VIEW;
use serde::{Deserialize, Serialize};
use store::firmware::{FirmwareFilter, FirmwareTarget};
use utoipa::{IntoParams, ToSchema};

use super::{FirmwareItem, codes_by_label, item, load, load_item_for, require, view_key};
use crate::{
    AppState,
    envelope::{Ack, ApiResult, Data, Done, Envelope},
    extract::{Query, num},
    paging::{Page, Paging},
    session::CurrentUser,
};

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct PageQuery {
    /// Part of the name, file name, version or part number.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub keyword: Option<String>,
    /// A secondary label, or a primary title (every label under it).
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub type_id: Option<i64>,
    /// `true` or `false`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub enabled: Option<String>,
}

fn enabled(raw: Option<&str>) -> Option<bool> {
    match raw {
        Some("true" | "1") => Some(true),
        Some("false" | "0") => Some(false),
        _ => None,
    }
}

/// A page of `target`'s firmware, newest first.
pub(crate) async fn firmware_page(
    app: &AppState,
    target: FirmwareTarget,
    paging: Paging,
    q: &PageQuery,
) -> ApiResult<Page<FirmwareItem>> {
    let filter = FirmwareFilter {
        target: Some(target),
        keyword: q.keyword.clone(),
        type_id: q.type_id.filter(|t| *t > 0).map(InverterTypeId),
        enabled: enabled(q.enabled.as_deref()),
        limit: paging.limit(),
        offset: paging.offset(),
    };
    let (rows, total) = app.store.firmware_page(&filter).await?;
    let codes = codes_by_label(app).await?;
    Ok(Page::new(
        paging,
        total,
        rows.iter().map(|r| item(r, &codes)).collect(),
    ))
}

/// Inverter firmware, newest first (`keyword`, `typeId`, `enabled`, `page`, `limit`).
#[utoipa::path(get, path = "/api/v1/firmware/page", tag = "firmware", params(PageQuery, Paging),
    security(("bearer" = [])),
    responses((status = 200, description = "A page of firmware; 2", body = Envelope<Page<FirmwareItem>>)))]
pub async fn page(
    State(app): State<AppState>,
    me: CurrentUser,
    paging: Paging,
    Query(q): Query<PageQuery>,
) -> ApiResult<Data<Page<FirmwareItem>>> {
    require(&me, FIRMWARE_INVERTER_VIEW)?;
    Ok(Data(
        firmware_page(&app, FirmwareTarget::Inverter, paging, &q).await?,
    ))
}

/// One inverter firmware.
#[utoipa::path(get, path = "/api/v1/firmware/inverter/{id}", tag = "firmware", params(("id" = i64, Path)),
    security(("bearer" = [])),
    responses((status = 200, description = "The firmware; 2, 4 id", body = Envelope<FirmwareItem>)))]
pub async fn inverter(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Data<FirmwareItem>> {
    require(&me, FIRMWARE_INVERTER_VIEW)?;
    Ok(Data(
        load_item_for(&app, &id, FirmwareTarget::Inverter).await?,
    ))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct CheckQuery {
    #[serde(default, deserialize_with = "num::opt_text")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "num::opt_text")]
    pub version: Option<String>,
    /// The secondary label (inverter firmware).
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub type_id: Option<i64>,
    /// The firmware being edited.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub id: Option<i64>,
}

/// Runs the name and version rules of `target` for a form.
pub(crate) async fn run_check(
    app: &AppState,
    target: FirmwareTarget,
    q: &CheckQuery,
) -> ApiResult<()> {
    let old = match q.id.filter(|i| *i > 0) {
        Some(id) => Some(load(app, FirmwareId(id)).await?).filter(|o| o.target == target.as_str()),
        None => None,
    };
    let type_id = match target {
        FirmwareTarget::Gateway => InverterTypeId(0),
        FirmwareTarget::Inverter => match q.type_id.filter(|t| *t > 0) {
            Some(t) => service::firmware::secondary(&app.store, InverterTypeId(t)).await?,
            None => old.as_ref().map_or(InverterTypeId(0), |o| o.type_id),
        },
    };
    let name = q.name.as_deref().unwrap_or("").trim();
    let version = match q.version.as_deref().map(str::trim) {
        Some(v) if !v.is_empty() => domain::firmware::version(v)?,
        _ => String::new(),
    };
    if version.is_empty() {
        // Only the name asked about.
        if !name.is_empty()
            && app
                .store
                .firmware_name_taken(target, name, old.as_ref().map(|o| o.id))
                .await?
        {
            return Err(domain::Code::FirmwareNameTaken.into());
        }
        return Ok(());
    }
    if target == FirmwareTarget::Inverter && type_id == InverterTypeId(0) {
        return Err(DomainError::invalid("typeId").into());
    }
    Ok(service::firmware::check(&app.store, target, name, &version, type_id, old.as_ref()).await?)
}

/// Checks an inverter firmware form: 0 free; 4000 name taken; 4002 version taken on the label;
/// 4 "version lower than the latest (X)".
#[utoipa::path(get, path = "/api/v1/firmware/check", tag = "firmware", params(CheckQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "0 free; 2, 4, 4000, 4002", body = Ack)))]
pub async fn check(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<CheckQuery>,
) -> ApiResult<Done> {
    require(&me, FIRMWARE_INVERTER_VIEW)?;
    run_check(&app, FirmwareTarget::Inverter, &q).await?;
    Ok(Done)
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct VersionsQuery {
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub type_id: Option<i64>,
    /// `inverter` (default) or `gateway`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub target: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FirmwareVersionItem {
    pub id: i64,
    pub version: String,
    pub enabled: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FirmwareVersionList {
    pub infos: Vec<FirmwareVersionItem>,
    pub total: usize,
}

/// Every version of a label (or of gateway software), newest first.
#[utoipa::path(get, path = "/api/v1/firmware/versions", tag = "firmware", params(VersionsQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "The versions; 2, 4 target", body = Envelope<FirmwareVersionList>)))]
pub async fn versions(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<VersionsQuery>,
) -> ApiResult<Data<FirmwareVersionList>> {
    let target = match q.target.as_deref() {
        None | Some("") => FirmwareTarget::Inverter,
        Some(t) => FirmwareTarget::parse(t).ok_or(DomainError::invalid("target"))?,
    };
    require(&me, view_key(target.as_str()))?;
    let type_id = match target {
        FirmwareTarget::Gateway => InverterTypeId(0),
        FirmwareTarget::Inverter => InverterTypeId(q.type_id.unwrap_or(0)),
    };
    let rows = app.store.firmware_versions(target, type_id).await?;
    let infos: Vec<FirmwareVersionItem> = rows
        .into_iter()
        .map(|f| FirmwareVersionItem {
            id: f.id.0,
            version: f.version,
            enabled: f.enabled,
        })
        .collect();
    Ok(Data(FirmwareVersionList {
        total: infos.len(),
        infos,
    }))
}
