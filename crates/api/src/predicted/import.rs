//! Importing predicted generation from a spreadsheet (.xlsx, at most 2 MB and 1000 rows,
//! read within [`sheet_read::IMPORT`]): columns Plant ID, Year, Month, Day (blank for the whole month), Expected kWh, with
//! an optional header row. Every row is checked on its own and answered with its reason in
//! the caller's language; the valid rows are stored together in one transaction (replacing
//! earlier figures of the same plant and period), or not at all with `dryRun`.

use axum::{
    extract::{Multipart, State, multipart::MultipartRejection},
    response::Response,
};
use calamine::Data as Cell;
use domain::{Code, DomainError, Lang};
use serde::{Deserialize, Serialize};
use service::predictions::{self, Cells};
use store::reports::Prediction;
use utoipa::{IntoParams, ToSchema};

use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope, current_lang},
    extract::{Query, num},
    gateways::sheet::{self, IMPORT_MAX_ROWS},
    session::CurrentUser,
    sheet_read::{self, Grid},
    xlsx::{self, Sheet},
};
use domain::time::now_ms;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ImportQuery {
    /// `true`: check every row, store nothing. Also accepted as a multipart field.
    #[serde(default, deserialize_with = "num::opt_bool")]
    pub dry_run: Option<bool>,
}

/// One row's answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PredictedImportRow {
    /// The sheet's own row number (1-based).
    pub row: u32,
    #[schema(required)]
    pub plant_id: Option<i64>,
    #[schema(required)]
    pub year: Option<i64>,
    #[schema(required)]
    pub month: Option<i64>,
    /// 0 for the whole month.
    #[schema(required)]
    pub day: Option<i64>,
    pub success: bool,
    /// `Success` or the reason, in the caller's language.
    pub msg: String,
}

/// What an import did (or, with `dryRun`, would do).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PredictedImport {
    pub total: usize,
    /// Valid rows: stored, or with `dryRun` storable.
    pub imported: usize,
    pub failed: usize,
    pub dry_run: bool,
    pub rows: Vec<PredictedImportRow>,
}

fn text(cell: Option<&Cell>) -> String {
    match cell {
        None | Some(Cell::Empty) => String::new(),
        Some(Cell::String(s)) => s.trim().to_string(),
        Some(Cell::Int(i)) => i.to_string(),
        Some(Cell::Float(f)) if f.fract() == 0.0 && f.abs() < 1e15 => (*f as i64).to_string(),
        Some(other) => other.to_string().trim().to_string(),
    }
}

/// The data rows: (sheet row number, the five cells). A first row whose plant cell is not a
/// number is a header.
fn rows(grid: &Grid) -> Result<Vec<(u32, Cells)>, DomainError> {
    let mut out = Vec::new();
    let mut first = true;
    for (row, cells) in grid.rows() {
        let cell = |c: usize| text(cells.get(c));
        let five = [cell(0), cell(1), cell(2), cell(3), cell(4)];
        if five.iter().all(String::is_empty) {
            continue;
        }
        if std::mem::take(&mut first) && five[0].parse::<i64>().is_err() {
            continue;
        }
        if out.len() == IMPORT_MAX_ROWS {
            return Err(DomainError::with_detail(
                Code::InvalidParameter,
                "rows (at most 1000)",
            ));
        }
        out.push((row, five));
    }
    if out.is_empty() {
        return Err(DomainError::invalid("rows"));
    }
    Ok(out)
}

/// Each row's answer, in the caller's language.
fn answers(
    rows: &[(u32, Cells)],
    outcomes: &[Result<Prediction, DomainError>],
    lang: Lang,
) -> Vec<PredictedImportRow> {
    rows.iter()
        .zip(outcomes)
        .map(|((row, cells), outcome)| {
            let num = |i: usize| cells[i].parse::<i64>().ok();
            PredictedImportRow {
                row: *row,
                plant_id: num(0),
                year: num(1),
                month: num(2),
                day: if cells[3].is_empty() { Some(0) } else { num(3) },
                success: outcome.is_ok(),
                msg: match outcome {
                    Ok(_) => success(lang).into(),
                    Err(e) => e.message(lang),
                },
            }
        })
        .collect()
}

fn success(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Success",
        Lang::Zh => "成功",
        Lang::Es => "Correcto",
    }
}

/// Imports predicted generation from a spreadsheet, row by row (see the module comment).
#[utoipa::path(post, path = "/api/v1/predicted/import", tag = "predicted", params(ImportQuery), security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "field `file`: .xlsx, at most 2 MB and 1000 rows (within the first 2000, columns A to Z); columns Plant ID, Year, Month, Day (blank = whole month), Expected kWh; optional field `dryRun=true`"),
    responses((status = 200, description = "Totals and each row's answer (4 plantId for a plant the caller cannot edit or see, 4 year, month, day, kwh); 4 file, 4 rows, 11, 12", body = Envelope<PredictedImport>)))]
pub async fn import(
    State(app): State<AppState>,
    me: CurrentUser,
    Query(q): Query<ImportQuery>,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Data<PredictedImport>> {
    let upload = sheet::upload(multipart).await?;
    let dry = match upload.dry_run.as_deref() {
        Some("true" | "1") => true,
        Some("false" | "0" | "") => false,
        Some(_) => return Err(DomainError::invalid("dryRun").into()),
        None => q.dry_run.unwrap_or(false),
    };
    if !dry {
        // Answered before the sheet is read, as the import's own check would.
        me.actor.require_writable()?;
    }
    let rows = rows(&sheet_read::read(upload.bytes, sheet_read::IMPORT).await?)?;
    let cells: Vec<Cells> = rows.iter().map(|(_, c)| c.clone()).collect();
    let outcomes = predictions::import(&app.store, &me.actor, &cells, dry, now_ms()).await?;
    let answers = answers(&rows, &outcomes, current_lang());
    let imported = outcomes.iter().filter(|o| o.is_ok()).count();
    Ok(Data(PredictedImport {
        total: answers.len(),
        imported,
        failed: answers.len() - imported,
        dry_run: dry,
        rows: answers,
    }))
}

/// The import template: the headers in the caller's language and one example row.
#[utoipa::path(get, path = "/api/v1/predicted/template", tag = "predicted", security(("bearer" = [])),
    responses((status = 200, content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body = Vec<u8>, description = "An .xlsx attachment `predicted-generation.xlsx`")))]
pub async fn template(_me: CurrentUser) -> ApiResult<Response> {
    let headers: [&str; 5] = match current_lang() {
        Lang::En => [
            "Plant ID",
            "Year",
            "Month",
            "Day (blank = whole month)",
            "Expected kWh",
        ],
        Lang::Zh => ["电站ID", "年", "月", "日（留空 = 整月）", "预计发电量 kWh"],
        Lang::Es => [
            "ID de planta",
            "Año",
            "Mes",
            "Día (vacío = todo el mes)",
            "kWh previstos",
        ],
    };
    let mut sheet = Sheet::new("Predicted", headers.iter().map(|h| h.to_string()).collect());
    sheet.push(vec![
        1_i64.into(),
        2026_i64.into(),
        1_i64.into(),
        xlsx::Cell::Empty,
        350.0.into(),
    ]);
    xlsx::download("predicted-generation.xlsx", &[sheet])
}
