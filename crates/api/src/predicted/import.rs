//! Importing predicted generation from a spreadsheet (.xlsx, at most 2 MB and 1000 rows,
//! read within [`sheet_read::IMPORT`]): columns Plant ID, Year, Month, Day (blank for the whole month), Expected kWh, with
//! an optional header row. Every row is checked on its own and answered with its reason in
//! the caller's language; the valid rows are stored together in one transaction (replacing
//! earlier figures of the same plant and period), or not at all with `dryRun`.

use std::collections::{HashMap, HashSet};

use axum::{
    extract::{Multipart, State, multipart::MultipartRejection},
    response::Response,
};
use calamine::Data as Cell;
use domain::{Code, DomainError, Lang, ids::PlantId};
use serde::{Deserialize, Serialize};
use store::reports::Prediction;
use utoipa::{IntoParams, ToSchema};

use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope, current_lang},
    extract::{Query, num},
    gateways::sheet::{self, IMPORT_MAX_ROWS},
    reports::period::days_in_month,
    session::CurrentUser,
    sheet_read::{self, Grid},
    xlsx::{self, Sheet},
};
use domain::time::now_ms;

/// Largest figure a row may carry, kWh (a 1 GWp plant makes about 0.2 TWh a month).
const MAX_KWH: f64 = 1e9;

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
fn rows(grid: &Grid) -> Result<Vec<(u32, [String; 5])>, DomainError> {
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

/// Checks one row's figures; the plant is checked by the caller.
fn parse(cells: &[String; 5]) -> Result<Prediction, DomainError> {
    let int = |s: &str, field: &str| s.parse::<i64>().map_err(|_| DomainError::invalid(field));
    let plant_id = int(&cells[0], "plantId")?;
    let year = int(&cells[1], "year").and_then(|y| {
        (2000..=2100)
            .contains(&y)
            .then_some(y)
            .ok_or_else(|| DomainError::invalid("year"))
    })?;
    let month = int(&cells[2], "month").and_then(|m| {
        (1..=12)
            .contains(&m)
            .then_some(m)
            .ok_or_else(|| DomainError::invalid("month"))
    })?;
    let day = match cells[3].as_str() {
        "" => 0,
        s => {
            let last = i64::from(days_in_month(year as i32, month as u32));
            int(s, "day").and_then(|d| {
                (1..=last)
                    .contains(&d)
                    .then_some(d)
                    .ok_or_else(|| DomainError::invalid("day"))
            })?
        }
    };
    let kwh = cells[4]
        .parse::<f64>()
        .ok()
        .filter(|k| k.is_finite() && (0.0..MAX_KWH).contains(k))
        .ok_or_else(|| DomainError::invalid("kwh"))?;
    Ok(Prediction {
        plant_id,
        year,
        month,
        day,
        kwh,
    })
}

/// Whether the caller may set the plant's predictions (`station.edit` on a plant they see);
/// a plant they cannot see answers like a missing one.
async fn may_edit(app: &AppState, me: &CurrentUser, plant: i64) -> Result<(), DomainError> {
    let not_found = || DomainError::invalid("plantId");
    match service::plants::visible(&app.store, &me.actor, PlantId(plant)).await {
        Ok((row, _)) => me
            .actor
            .require_on_plant(&row.scope(), domain::permissions::STATION_EDIT)
            .map(|_| ())
            .map_err(|_| not_found()),
        Err(_) => Err(not_found()),
    }
}

async fn check(
    app: &AppState,
    me: &CurrentUser,
    rows: Vec<(u32, [String; 5])>,
    lang: Lang,
) -> (Vec<PredictedImportRow>, Vec<Prediction>) {
    let mut allowed: HashMap<i64, Result<(), DomainError>> = HashMap::new();
    let mut seen = HashSet::new();
    let (mut answers, mut good) = (Vec::new(), Vec::new());
    for (row, cells) in rows {
        let mut outcome = parse(&cells);
        if let Ok(p) = &outcome {
            if let std::collections::hash_map::Entry::Vacant(slot) = allowed.entry(p.plant_id) {
                slot.insert(may_edit(app, me, p.plant_id).await);
            }
            if let Some(Err(e)) = allowed.get(&p.plant_id) {
                outcome = Err(e.clone());
            } else if !seen.insert((p.plant_id, p.year, p.month, p.day)) {
                outcome = Err(DomainError::with_detail(
                    Code::InvalidParameter,
                    "row repeated in the file",
                ));
            }
        }
        let num = |i: usize| cells[i].parse::<i64>().ok();
        answers.push(PredictedImportRow {
            row,
            plant_id: num(0),
            year: num(1),
            month: num(2),
            day: if cells[3].is_empty() { Some(0) } else { num(3) },
            success: outcome.is_ok(),
            msg: match &outcome {
                Ok(_) => success(lang).into(),
                Err(e) => e.message(lang),
            },
        });
        if let Ok(p) = outcome {
            good.push(p);
        }
    }
    (answers, good)
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
        me.actor.require_writable()?;
    }
    let rows = rows(&sheet_read::read(upload.bytes, sheet_read::IMPORT).await?)?;
    let lang = current_lang();
    let (answers, good) = check(&app, &me, rows, lang).await;
    if !dry && !good.is_empty() {
        app.store.upsert_predictions(&good, now_ms()).await?;
        tracing::info!(rows = good.len(), by = %me.actor.id, "predicted generation imported");
    }
    Ok(Data(PredictedImport {
        total: answers.len(),
        imported: good.len(),
        failed: answers.len() - good.len(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(v: [&str; 5]) -> [String; 5] {
        v.map(String::from)
    }

    #[test]
    fn rows_are_checked_field_by_field() {
        let ok = parse(&cells(["7", "2026", "2", "", "310.5"])).unwrap();
        assert_eq!((ok.plant_id, ok.day, ok.kwh), (7, 0, 310.5));
        assert_eq!(
            parse(&cells(["7", "2026", "2", "28", "10"])).unwrap().day,
            28
        );
        for (row, field) in [
            (["x", "2026", "2", "", "1"], "plantId"),
            (["7", "1999", "2", "", "1"], "year"),
            (["7", "2026", "13", "", "1"], "month"),
            (["7", "2026", "2", "29", "1"], "day"),
            (["7", "2026", "2", "", "-1"], "kwh"),
            (["7", "2026", "2", "", "lots"], "kwh"),
        ] {
            assert_eq!(
                parse(&cells(row)).unwrap_err().detail.as_deref(),
                Some(field)
            );
        }
    }
}
