//! The firmware catalogue: the inverter-type tree (`inverter_types`), inverter firmware filed
//! under its secondary labels and gateway software (`page`, `save`, `enable`, `delete`,
//! `download`, `gateway`), and what upgrade screens are offered (`GET /api/v1/firmware`).
//! Everything but the offer is for internal staff with the catalogue's keys; the use cases
//! (with the file and version rules) are `service::firmware`'s, the one storage path of files is
//! `storage`.

use domain::ids::FirmwareId;
use domain::ids::InverterTypeId;
mod delete;
mod download;
mod enable;
mod form;
mod gateway;
mod inverter_types;
mod page;
mod save;
pub mod storage;

use domain::permissions::{FIRMWARE_GATEWAY_VIEW, FIRMWARE_INVERTER_VIEW};
use std::collections::HashMap;

use axum::extract::State;
use domain::{Code, DomainError, firmware::MAX_SIZE};
use serde::{Deserialize, Serialize};
use store::firmware::{FirmwareListRow, FirmwareRow, FirmwareTarget};
use utoipa::ToSchema;
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    extract::{Query, num},
    paging::Page,
    plants::update_at,
    session::CurrentUser,
    users::{create_at, path_id},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(save::save).layer(crate::limits::upload(MAX_SIZE)))
        .routes(routes!(gateway::add).layer(crate::limits::upload(MAX_SIZE)))
        .routes(routes!(gateway::one, gateway::edit).layer(crate::limits::upload(MAX_SIZE)))
        .routes(routes!(gateway::page))
        .routes(routes!(gateway::check))
        .routes(routes!(gateway::software))
        .routes(routes!(page::page))
        .routes(routes!(page::check))
        .routes(routes!(page::versions))
        .routes(routes!(page::inverter))
        .routes(routes!(enable::change_enable))
        .routes(routes!(delete::delete))
        .routes(routes!(delete::batch_delete_post, delete::batch_delete_get))
        .routes(routes!(download::download))
        .merge(inverter_types::router())
}

pub(crate) use service::firmware::view_key;

/// The catalogue is internal: the caller must be internal staff holding `key` (2 otherwise).
pub(crate) fn require(me: &CurrentUser, key: &str) -> ApiResult<()> {
    Ok(service::firmware::require(&me.actor, key)?)
}

/// As [`require`], for a change (a read-only session may not).
pub(crate) fn require_change(me: &CurrentUser, key: &str) -> ApiResult<()> {
    Ok(service::firmware::require_change(&me.actor, key)?)
}

/// A firmware file of the catalogue.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FirmwareItem {
    pub id: i64,
    pub name: String,
    /// The uploaded file's name.
    pub file_name: String,
    /// Bytes.
    pub size: i64,
    pub version: String,
    /// `inverter` or `gateway`.
    #[schema(value_type = crate::text_enums::FirmwareTarget)]
    pub target: String,
    /// The secondary label it is filed under; 0 for gateway software.
    #[serde(rename = "type")]
    pub kind: i64,
    /// The secondary label's name ("" for gateway software).
    pub type_name: String,
    /// The label's primary title.
    pub parent_type_id: Option<i64>,
    pub parent_type_name: String,
    /// The inverter type codes the label holds (which inverters the file fits).
    pub codes: Vec<i64>,
    pub product_id: Option<i64>,
    pub manufacturer: String,
    pub product_name: String,
    pub part_number: String,
    pub hardware_version: String,
    /// `iap` or `isp`.
    #[schema(value_type = crate::text_enums::UpgradeMode)]
    pub upgrade_mode: String,
    pub firmware_type: String,
    /// Offered to upgrade screens.
    pub enabled: bool,
    /// The change log in Chinese.
    pub change_log: String,
    pub change_log_en: String,
    /// Who uploaded it ("" when unknown).
    pub creator: String,
    pub create_at: String,
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub update_at: String,
    /// An upgrade queued, sending or upgrading uses it (it cannot be deleted).
    pub in_use: bool,
}

/// Every label's codes, by label id.
pub(crate) async fn codes_by_label(app: &AppState) -> ApiResult<HashMap<InverterTypeId, Vec<i64>>> {
    let mut out: HashMap<_, Vec<i64>> = HashMap::new();
    for (code, label) in app.store.inverter_type_codes().await? {
        out.entry(label).or_default().push(code);
    }
    Ok(out)
}

/// A firmware as every answer shows it.
pub(crate) fn item(r: &FirmwareListRow, codes: &HashMap<InverterTypeId, Vec<i64>>) -> FirmwareItem {
    let f = &r.firmware;
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    FirmwareItem {
        id: f.id.0,
        name: f.name.clone(),
        file_name: f.file_name.clone(),
        size: f.size,
        version: f.version.clone(),
        target: f.target.clone(),
        kind: f.type_id.0,
        type_name: text(&r.type_name),
        parent_type_id: r.parent_type_id.map(|v| v.0),
        parent_type_name: text(&r.parent_type_name),
        codes: codes.get(&f.type_id).cloned().unwrap_or_default(),
        product_id: f.product_id.map(|v| v.0),
        manufacturer: text(&r.manufacturer),
        product_name: text(&r.product_name),
        part_number: text(&r.part_number),
        hardware_version: f.hardware_version.clone(),
        upgrade_mode: f.upgrade_mode.clone(),
        firmware_type: f.firmware_type.clone(),
        enabled: f.enabled,
        change_log: f.change_log.clone(),
        change_log_en: f.change_log_en.clone(),
        creator: text(&r.creator),
        create_at: create_at(f.created_at),
        update_at: update_at(f.updated_at),
        in_use: r.in_use,
    }
}

/// One firmware as answered, or 4 `id` when it is gone.
pub(crate) async fn load_item(app: &AppState, id: FirmwareId) -> ApiResult<FirmwareItem> {
    let row = app
        .store
        .firmware_item(id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    Ok(item(&row, &codes_by_label(app).await?))
}

/// Firmware `id` from a path, answered as `item` only when it is for `target` (4 `id` otherwise,
/// as for a missing one): each target's route reads only its own files.
pub(crate) async fn load_item_for(
    app: &AppState,
    raw_id: &str,
    target: FirmwareTarget,
) -> ApiResult<FirmwareItem> {
    let f = load_item(app, path_id(raw_id)?).await?;
    if f.target == target.as_str() {
        Ok(f)
    } else {
        Err(DomainError::invalid("id").into())
    }
}

/// Firmware `id`, or 4 `id` when it is gone.
pub(crate) async fn load(app: &AppState, id: FirmwareId) -> ApiResult<FirmwareRow> {
    Ok(service::firmware::load(&app.store, id).await?)
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    /// An inverter type code.
    #[serde(default, rename = "type", deserialize_with = "num::opt_i64")]
    pub type_code: Option<i64>,
    /// A device or gateway SN: its type decides.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
    /// `inverter` or `gateway` (with neither `type` nor `sn`).
    #[serde(default, deserialize_with = "num::opt_text")]
    pub target: Option<String>,
}

/// The enabled firmware that fits a device, newest first: for the inverter or gateway `sn`
/// (which the caller must see), else for inverter type code `type`, else for
/// `target=gateway`. Inverter firmware fits when its label holds the inverter's type code.
#[utoipa::path(get, path = "/api/v1/firmware", tag = "firmware",
    params(("type" = Option<i64>, Query), ("sn" = Option<String>, Query), ("target" = Option<String>, Query)),
    security(("bearer" = [])),
    responses((status = 200, description = "Every enabled firmware on one page; 4 when no type is given, 305/600 for an unseen SN", body = Envelope<Page<FirmwareItem>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Page<FirmwareItem>>> {
    if ![
        domain::permissions::INVERTER_VIEW,
        domain::permissions::GATEWAY_VIEW,
        domain::permissions::FIRMWARE_MANAGEMENT,
        FIRMWARE_INVERTER_VIEW,
        FIRMWARE_GATEWAY_VIEW,
    ]
    .iter()
    .any(|k| me.actor.has(k))
    {
        return Err(Code::NoPermission.into());
    }
    let (target, type_code) = match (&q.sn, q.type_code, q.target.as_deref()) {
        (Some(sn), _, _) => crate::upgrades::firmware_key(&app, &me, sn).await?,
        (None, Some(t), _) => (FirmwareTarget::Inverter, t),
        (None, None, Some("gateway")) => (FirmwareTarget::Gateway, 0),
        _ => return Err(DomainError::invalid("type").into()),
    };
    let rows = match target {
        FirmwareTarget::Inverter => app.store.enabled_firmware_for_code(type_code).await?,
        FirmwareTarget::Gateway => {
            app.store
                .enabled_firmware(target, InverterTypeId(0))
                .await?
        }
    };
    let mut infos = Vec::with_capacity(rows.len());
    let codes = codes_by_label(&app).await?;
    for f in rows {
        if let Some(row) = app.store.firmware_item(f.id).await? {
            infos.push(item(&row, &codes));
        }
    }
    Ok(Data(Page::whole(infos)))
}
