//! Registering many gateways at once (internal administrators, `sys.gateway.edit`): a JSON
//! list (`POST /gateway/batch`) or a spreadsheet (`mode=register` of the import routes) with
//! columns SN, Key, Model, Communication type, Protocol. Each row is checked on its own:
//! one bad row never stops the others, and each answers `created`, `duplicate` (the SN is
//! registered already, or repeated in the list) or `invalid` (the message names the field).
//! The rows that pass their checks are registered in one transaction with the batch's audit
//! entry.

use std::collections::HashSet;

use axum::extract::State;
use domain::{Code, DomainError, Lang};
use serde::Deserialize;
use serde_json::json;
use service::gateways::registry::{self, Registered, Registration};
use utoipa::ToSchema;

use super::{
    parse_new_key, parse_sn,
    registry::CreateRequest,
    sheet::{self, Column, KEY, SN},
    wire::{GatewayImport, GatewayImportRow, ImportResult},
};
use crate::{
    AppState,
    envelope::{ApiError, ApiResult, Data, Envelope, current_lang},
    extract::Body,
    session::CurrentUser,
};
use domain::time::now_ms;

/// The most gateways one JSON batch registers.
pub const BATCH_MAX: usize = 200;

const COLUMNS: &[Column] = &[
    SN,
    KEY,
    &["model", "型号", "modelo"],
    &["comm", "通信", "comunicaci"],
    &["protocol", "协议", "protocolo"],
];

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisterBatchRequest {
    /// 1 to 200 gateways.
    #[serde(default)]
    #[schema(min_items = 1, max_items = 200)]
    pub gateways: Vec<CreateRequest>,
}

/// Why a row is a duplicate, as its message's detail.
const REGISTERED: &str = "sn already registered";
const REPEATED: &str = "sn repeated in the list";

fn duplicate(why: &str) -> DomainError {
    DomainError::with_detail(Code::InvalidParameter, why)
}

/// One row's checks: its SN and key, or an error (a duplicate is an error with one of the
/// details above). A dry run also looks the SN up in the registry; a real one leaves that to
/// the registration itself.
async fn check(
    app: &AppState,
    req: &CreateRequest,
    seen: &mut HashSet<String>,
    dry: bool,
) -> ApiResult<(String, String)> {
    let sn = parse_sn(req.sn.as_deref())?;
    if !seen.insert(sn.clone()) {
        return Err(duplicate(REPEATED).into());
    }
    let key = parse_new_key(req.key.as_deref())?;
    registry::check_fields(&req.registration(&sn, &key))?;
    if dry && app.store.gateway_by_sn(&sn).await?.is_some() {
        return Err(duplicate(REGISTERED).into());
    }
    Ok((sn, key))
}

/// A row's answer to an error: its code, message and result.
fn refused(e: &DomainError, lang: Lang) -> (i64, String, ImportResult) {
    let dup = matches!(e.detail.as_deref(), Some(REGISTERED | REPEATED));
    let result = if dup {
        ImportResult::Duplicate
    } else {
        ImportResult::Invalid
    };
    (e.code.number(), e.message(lang), result)
}

/// The audit entry of a batch that registers: its action and, for an import, its mode.
struct Audited<'a> {
    action: &'a str,
    mode: Option<&'a str>,
}

/// Registers (or with `dry`, checks) every row, numbered from `rows`' own numbers. The rows
/// that pass their checks are registered together with the batch's entry (`audited`, with
/// the counts), in one transaction.
async fn register_all(
    app: &AppState,
    me: &CurrentUser,
    rows: Vec<(u32, CreateRequest)>,
    dry: bool,
    audited: Audited<'_>,
) -> ApiResult<GatewayImport> {
    registry::require_registry(&me.actor)?;
    let lang = current_lang();
    let mut seen = HashSet::new();
    let mut results = Vec::with_capacity(rows.len());
    // The rows to register: their place in `results`, their request, SN and key.
    let mut passed = Vec::new();
    for (row, req) in &rows {
        let (code, msg, result) = match check(app, req, &mut seen, dry).await {
            Ok((sn, key)) => {
                passed.push((results.len(), req, sn, key));
                (0, "Success".to_string(), ImportResult::Created)
            }
            Err(ApiError::Domain(e)) => refused(&e, lang),
            Err(other) => return Err(other),
        };
        results.push(GatewayImportRow {
            row: *row,
            sn: req.sn.clone().unwrap_or_default().trim().to_string(),
            code,
            msg,
            result,
        });
    }
    if !dry {
        let registrations: Vec<Registration> = passed
            .iter()
            .map(|(_, req, sn, key)| req.registration(sn, key))
            .collect();
        let detail = |outcomes: &[Registered]| {
            let before = |w: ImportResult| results.iter().filter(|r| r.result == w).count();
            let created = outcomes
                .iter()
                .filter(|o| matches!(o, Registered::Created(_)))
                .count();
            let counts = json!({
                "total": results.len(),
                "created": created,
                "duplicate": before(ImportResult::Duplicate) + outcomes.len() - created,
                "invalid": before(ImportResult::Invalid),
            });
            match audited.mode {
                Some(mode) => json!({"mode": mode, "counts": counts}),
                None => json!({"counts": counts}),
            }
        };
        let outcomes = registry::register_all(
            &app.store,
            &me.actor,
            &registrations,
            audited.action,
            &detail,
            now_ms(),
        )
        .await?;
        for ((at, ..), outcome) in passed.iter().zip(outcomes) {
            if outcome == Registered::Duplicate {
                let (code, msg, result) = refused(&duplicate(REGISTERED), lang);
                let r = &mut results[*at];
                (r.code, r.msg, r.result) = (code, msg, result);
            }
        }
    }
    let succeeded = results.iter().filter(|r| r.code == 0).count();
    Ok(GatewayImport {
        total: results.len(),
        succeeded,
        failed: results.len() - succeeded,
        results,
    })
}

/// The registry's spreadsheet import (`mode=register`); audited as `gateway.import` with its
/// counts unless it is a check.
pub(super) async fn run(
    app: &AppState,
    me: &CurrentUser,
    bytes: Vec<u8>,
    dry: bool,
) -> ApiResult<GatewayImport> {
    registry::require_registry(&me.actor)?;
    let rows = sheet::read(bytes, COLUMNS).await?;
    let text = |s: &str| (!s.is_empty()).then(|| s.to_string());
    let rows = rows
        .into_iter()
        .map(|r| {
            let req = CreateRequest {
                sn: text(r.cell(0)),
                key: text(r.cell(1)),
                model: text(r.cell(2)),
                comm_type: text(r.cell(3)),
                protocol: text(r.cell(4)),
            };
            (r.row, req)
        })
        .collect();
    let audited = Audited {
        action: domain::audit_action::GATEWAY_IMPORT,
        mode: Some("register"),
    };
    register_all(app, me, rows, dry, audited).await
}

/// Registers 1 to 200 gateways, each on its own: every row answers its code and `result`
/// (`row` is its 1-based place in the list). Audited as `gateway.batchRegister` with counts.
#[utoipa::path(post, path = "/api/v1/gateway/batch", tag = "gateways", request_body = RegisterBatchRequest,
    security(("bearer" = [])), responses((status = 200, description = "Totals and each row's answer; 2, 4 gateways (none or over 200)", body = Envelope<GatewayImport>)))]
pub async fn batch(
    State(app): State<AppState>,
    me: CurrentUser,
    Body(req): Body<RegisterBatchRequest>,
) -> ApiResult<Data<GatewayImport>> {
    registry::require_registry(&me.actor)?;
    if !(1..=BATCH_MAX).contains(&req.gateways.len()) {
        return Err(DomainError::invalid("gateways").into());
    }
    let rows = req
        .gateways
        .into_iter()
        .enumerate()
        .map(|(i, g)| (i as u32 + 1, g))
        .collect();
    let audited = Audited {
        action: domain::audit_action::GATEWAY_BATCH_REGISTER,
        mode: None,
    };
    Ok(Data(register_all(&app, &me, rows, false, audited).await?))
}
