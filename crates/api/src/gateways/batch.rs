//! Importing gateways from a spreadsheet (.xlsx, recognised by content). Two modes
//! share the upload: the claim import (columns SN, Key and an optional plant id; each row
//! claimed into the caller's stock or onto the plant) and, with the form field
//! `mode=register`, the registry's import (see `register_import`). Each row is checked and
//! written on its own and answered with its own code and `result`; `import/check` is the same
//! run without writing.

use std::collections::{HashMap, HashSet};

use axum::extract::{Multipart, State, multipart::MultipartRejection};
use domain::{Code, DomainError};
use serde::Deserialize;
use store::plants::PlantRow;
use utoipa::IntoParams;

use super::{
    claim::target_plant,
    parse_key, parse_sn, register_import, require_any,
    sheet::{self, Column, KEY, Row, SN},
    wire::{GatewayImport, GatewayImportRow, ImportResult},
};
use crate::{
    AppState,
    envelope::{ApiError, ApiResult, Data as Answer, Envelope, current_lang},
    extract::{Query, num},
    session::CurrentUser,
};
use domain::time::now_ms;

/// The claim import's columns: SN, key, plant id.
const CLAIM_COLUMNS: &[Column] = &[SN, KEY, &["plant", "station", "planta", "电站"]];

/// What a repeated SN answers (its `result` is `duplicate`).
pub(super) const REPEATED: &str = "sn repeated in the file";

#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct ModeQuery {
    /// `register` for the registry's import; the form field `mode` says the same.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub mode: Option<String>,
}

/// How a claim row's refusal reads in `result`: in use (301) or repeated is a duplicate.
fn claim_result(e: &DomainError) -> ImportResult {
    if e.code == Code::GatewayUsed || e.detail.as_deref() == Some(REPEATED) {
        ImportResult::Duplicate
    } else {
        ImportResult::Invalid
    }
}

/// Checks (and unless `dry`, claims) every row; one row's failure never stops the others.
async fn run(
    app: &AppState,
    me: &CurrentUser,
    rows: Vec<Row>,
    dry: bool,
) -> ApiResult<GatewayImport> {
    let lang = current_lang();
    let mut seen = HashSet::new();
    let mut plants = HashMap::new();
    let (mut succeeded, mut failed) = (0, 0);
    let mut results = Vec::with_capacity(rows.len());
    for r in &rows {
        let (code, msg, result) = match one(app, me, r, &mut seen, &mut plants, dry).await {
            Ok(()) => {
                succeeded += 1;
                (0, "Success".to_string(), ImportResult::Created)
            }
            Err(ApiError::Domain(e)) => {
                failed += 1;
                (e.code.number(), e.message(lang), claim_result(&e))
            }
            Err(other) => return Err(other),
        };
        results.push(GatewayImportRow {
            row: r.row,
            sn: r.cell(0).to_string(),
            code,
            msg,
            result,
        });
    }
    Ok(GatewayImport {
        total: rows.len(),
        succeeded,
        failed,
        results,
    })
}

async fn one(
    app: &AppState,
    me: &CurrentUser,
    r: &Row,
    seen: &mut HashSet<String>,
    plants: &mut HashMap<String, Result<PlantRow, DomainError>>,
    dry: bool,
) -> ApiResult<()> {
    let sn = parse_sn(Some(r.cell(0)))?;
    if !seen.insert(sn.clone()) {
        return Err(DomainError::with_detail(Code::InvalidParameter, REPEATED).into());
    }
    let key = parse_key(Some(r.cell(1)))?;
    let plant_cell = r.cell(2).to_string();
    let plant = if plant_cell.is_empty() {
        None
    } else {
        if !plants.contains_key(&plant_cell) {
            let found = match target_plant(app, me, &plant_cell).await {
                Ok(p) => Ok(p),
                Err(ApiError::Domain(e)) => Err(e),
                Err(other) => return Err(other),
            };
            plants.insert(plant_cell.clone(), found);
        }
        match plants.get(&plant_cell) {
            Some(Ok(p)) => Some(p.clone()),
            Some(Err(e)) => return Err(e.clone().into()),
            None => None,
        }
    };
    let (store, actor) = (&app.store, &me.actor);
    if dry {
        service::gateways::checked_claim(store, actor, &sn, &key, plant.as_ref()).await?;
    } else {
        service::gateways::claim(store, actor, &sn, &key, plant.as_ref(), now_ms()).await?;
    }
    Ok(())
}

/// Whether the upload (its `mode` field, or the query's) asks for the registry's import.
fn register_mode(upload: &sheet::Upload, q: &ModeQuery) -> ApiResult<bool> {
    match upload.mode.as_deref().or(q.mode.as_deref()).map(str::trim) {
        None | Some("") | Some("claim") => Ok(false),
        Some("register") => Ok(true),
        Some(_) => Err(DomainError::invalid("mode").into()),
    }
}

async fn answer(
    app: &AppState,
    me: &CurrentUser,
    multipart: Result<Multipart, MultipartRejection>,
    q: &ModeQuery,
    dry: bool,
) -> ApiResult<GatewayImport> {
    let upload = sheet::upload(multipart).await?;
    if register_mode(&upload, q)? {
        return register_import::run(app, me, upload.bytes, dry).await;
    }
    require_any(me, &[domain::permissions::GATEWAY_IMPORT])?;
    if !dry {
        me.actor.require_writable()?;
    }
    let rows = sheet::read(upload.bytes, CLAIM_COLUMNS).await?;
    run(app, me, rows, dry).await
}

/// Dry run of a batch import: every row's answer, nothing written.
#[utoipa::path(post, path = "/api/v1/gateway/import/check", tag = "gateways", params(ModeQuery), security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "field `file`: .xlsx, at most 2 MB and 1000 rows (within the first 2000, columns A to Z); columns SN, Key[, plant id], or with field `mode=register` SN, Key, Model, Communication type, Protocol"),
    responses((status = 200, description = "Totals and each row's answer; 2, 4, 11, 12", body = Envelope<GatewayImport>)))]
pub async fn check(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ModeQuery>,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Answer<GatewayImport>> {
    Ok(Answer(answer(&app, &me, multipart, &q, true).await?))
}

/// Imports gateways from a spreadsheet; each row is claimed (or with `mode=register`,
/// registered) on its own and answered with its own code (0, 4, 300, 301, 700, 2) and
/// `result` (`created`, `duplicate`, `invalid`).
#[utoipa::path(post, path = "/api/v1/gateway/import/batch", tag = "gateways", params(ModeQuery), security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "field `file`: .xlsx, at most 2 MB and 1000 rows (within the first 2000, columns A to Z); columns SN, Key[, plant id], or with field `mode=register` SN, Key, Model, Communication type, Protocol"),
    responses((status = 200, description = "Totals and each row's answer; 2, 4, 11, 12", body = Envelope<GatewayImport>)))]
pub async fn import(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ModeQuery>,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Answer<GatewayImport>> {
    Ok(Answer(answer(&app, &me, multipart, &q, false).await?))
}
