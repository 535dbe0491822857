//! The firmware catalogue, minimal: internal administrators upload firmware for an inverter
//! type code or for gateways (`POST /api/v1/firmware/save`, the spec's file rules), and
//! upgrade screens list what is enabled for a device (`GET /api/v1/firmware`). The full
//! firmware management screens belong to a later issue.

pub(crate) mod rules;

use axum::extract::{Multipart, State, multipart::MultipartRejection};
use domain::{Code, DomainError};
use serde::{Deserialize, Serialize};
use serde_json::json;
use store::firmware::{FirmwareRow, FirmwareTarget, NewFirmware};
use utoipa::ToSchema;
use utoipa_axum::{
    router::{OpenApiRouter, UtoipaMethodRouterExt},
    routes,
};

use crate::{
    AppState,
    envelope::{ApiError, ApiResult, Data, Envelope},
    extract::{Query, num},
    now_ms,
    paging::Page,
    plants::update_at,
    session::{CurrentUser, random_bytes},
    users::create_at,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(save).layer(crate::limits::upload(rules::MAX_SIZE)))
}

/// A firmware file of the catalogue.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Firmware {
    pub id: i64,
    pub name: String,
    /// The uploaded file's name.
    pub file_name: String,
    /// Bytes.
    pub size: i64,
    pub version: String,
    /// `inverter` or `gateway`.
    pub target: String,
    /// The inverter type code it is for; 0 for gateway firmware.
    #[serde(rename = "type")]
    pub kind: i64,
    /// Offered to upgrade screens.
    pub enabled: bool,
    pub change_log: String,
    pub create_at: String,
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub update_at: String,
}

/// A firmware file as lists show it.
pub(crate) fn item(f: &FirmwareRow) -> Firmware {
    Firmware {
        id: f.id,
        name: f.name.clone(),
        file_name: f.file_name.clone(),
        size: f.size,
        version: f.version.clone(),
        target: f.target.clone(),
        kind: f.type_code,
        enabled: f.enabled,
        change_log: f.change_log.clone(),
        create_at: create_at(f.created_at),
        update_at: update_at(f.updated_at),
    }
}

/// The upload form's fields besides the file.
#[derive(Default)]
struct Form {
    file: Option<(String, Vec<u8>)>,
    fields: std::collections::HashMap<String, String>,
}

async fn read_form(multipart: Result<Multipart, MultipartRejection>) -> ApiResult<Form> {
    let mut multipart = multipart.map_err(|_| DomainError::invalid("file"))?;
    let mut form = Form::default();
    let too_large = |e: &axum::extract::multipart::MultipartError| {
        e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE
    };
    loop {
        let mut field = match multipart.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => return Ok(form),
            Err(e) if too_large(&e) => return Err(Code::FileTooLarge.into()),
            Err(_) => return Err(DomainError::invalid("file").into()),
        };
        let name = field.name().unwrap_or_default().to_string();
        if let Some(file_name) = field.file_name().map(str::to_string) {
            let mut bytes = Vec::new();
            loop {
                match field.chunk().await {
                    Ok(Some(chunk)) => {
                        // Stop reading early: the rule is checked again on the whole file.
                        if bytes.len() + chunk.len() > rules::MAX_SIZE {
                            return Err(Code::FileTooLarge.into());
                        }
                        bytes.extend_from_slice(&chunk);
                    }
                    Ok(None) => break,
                    Err(e) if too_large(&e) => return Err(Code::FileTooLarge.into()),
                    Err(_) => return Err(DomainError::invalid("file").into()),
                }
            }
            form.file = Some((file_name, bytes));
        } else {
            let text = field
                .text()
                .await
                .map_err(|_| DomainError::invalid(name.clone()))?;
            form.fields.insert(name, text);
        }
    }
}

/// Uploads a firmware file (multipart: `file`, `version`, `target` `inverter` (default) or
/// `gateway`, `type` the inverter type code, optional `name`, `changeLog`, `enabled`).
/// Internal staff with `firmware.management` only.
#[utoipa::path(post, path = "/api/v1/firmware/save", tag = "firmware",
    security(("bearer" = [])),
    responses((status = 200, description = "The firmware; 2, 4 fileName/version/type or version lower than the latest, 11 not .bin/.hex, 12 over 1.5 MB, 4002 duplicate version", body = Envelope<Firmware>)))]
pub async fn save(
    State(app): State<AppState>,
    me: CurrentUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Data<Firmware>> {
    me.actor.require_writable()?;
    if !me.actor.is_internal() {
        return Err(Code::NoPermission.into());
    }
    me.actor.require("firmware.management")?;
    let form = read_form(multipart).await?;
    let field = |k: &str| form.fields.get(k).map(|s| s.trim()).unwrap_or_default();
    let (file_name, bytes) = form.file.as_ref().ok_or(DomainError::invalid("file"))?;
    let ext = rules::file_name(file_name)?;
    rules::size(bytes.len())?;
    let version = rules::version(field("version"))?;
    let target = match field("target") {
        "" => FirmwareTarget::Inverter,
        t => FirmwareTarget::parse(t).ok_or(DomainError::invalid("target"))?,
    };
    let type_code = match target {
        FirmwareTarget::Gateway => 0,
        FirmwareTarget::Inverter => {
            let raw = if field("type").is_empty() {
                field("typeCode")
            } else {
                field("type")
            };
            raw.parse::<i64>()
                .ok()
                .filter(|t| (0..=9999).contains(t))
                .ok_or(DomainError::invalid("type"))?
        }
    };
    let existing = app.store.firmware_versions(target, type_code).await?;
    rules::version_order(&version, existing.iter().map(|f| f.version.as_str()))?;
    let name = match field("name") {
        "" => file_name.as_str(),
        n if n.chars().count() <= 64 => n,
        _ => return Err(DomainError::invalid("name").into()),
    };
    let change_log = field("changeLog");
    if change_log.chars().count() > 2000 {
        return Err(DomainError::invalid("changeLog").into());
    }
    let enabled = !matches!(field("enabled"), "false" | "0");
    let stored_name = format!("{}.{ext}", hex::encode(random_bytes::<12>()));
    let dir = app.config.data_dir.join("firmware");
    let path = dir.join(&stored_name);
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(|e| ApiError::internal("firmware dir", e))?;
    tokio::fs::write(&path, bytes)
        .await
        .map_err(|e| ApiError::internal("firmware write", e))?;
    let now = now_ms();
    let inserted = app
        .store
        .insert_firmware(&NewFirmware {
            target,
            type_code,
            name,
            file_name,
            stored_name: &stored_name,
            size: i64::try_from(bytes.len()).unwrap_or(i64::MAX),
            version: &version,
            change_log,
            enabled,
            created_by: Some(me.id().0),
            now,
        })
        .await;
    let id = match inserted {
        Ok(id) => id,
        Err(e) => {
            // The row is the catalogue: a file without one is garbage.
            let _ = tokio::fs::remove_file(&path).await;
            return Err(match e {
                store::StoreError::Conflict(_) => Code::FirmwareVersionTaken.into(),
                e => e.into(),
            });
        }
    };
    let row = app
        .store
        .firmware(id)
        .await?
        .ok_or_else(|| ApiError::internal("firmware", "row missing after insert"))?;
    tracing::info!(firmware = id, version = %row.version, target = %row.target, by = %me.id(), "firmware uploaded");
    crate::audit::record(
        &app,
        &me,
        "firmware.upload",
        &row.file_name,
        json!({"firmId": id, "version": row.version, "target": row.target, "type": row.type_code}),
        "succeeded",
    )
    .await;
    Ok(Data(item(&row)))
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

/// The enabled firmware for a device type, newest first: for the inverter or gateway `sn`
/// (which the caller must see), else for inverter type `type`, else for `target=gateway`.
#[utoipa::path(get, path = "/api/v1/firmware", tag = "firmware",
    params(("type" = Option<i64>, Query), ("sn" = Option<String>, Query), ("target" = Option<String>, Query)),
    security(("bearer" = [])),
    responses((status = 200, description = "Every enabled firmware on one page; 4 when no type is given, 305/600 for an unseen SN", body = Envelope<Page<Firmware>>)))]
pub async fn list(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Data<Page<Firmware>>> {
    if !["inverter.view", "gateway.view", "firmware.management"]
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
    let rows = app.store.enabled_firmware(target, type_code).await?;
    Ok(Data(Page::whole(rows.iter().map(item).collect())))
}
