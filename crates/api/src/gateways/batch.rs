//! Importing gateways from a spreadsheet (.xlsx or .xls, recognised by content): columns SN,
//! Key and an optional plant id, a header row optional. Each row is checked and claimed on its
//! own and answered with its own code; `import/check` is the same run without writing.

use std::{
    collections::{HashMap, HashSet},
    io::Cursor,
};

use axum::extract::{Multipart, State, multipart::MultipartRejection};
use calamine::{Data, Range, Reader, Xls, Xlsx};
use domain::{Code, DomainError};
use store::plants::PlantRow;

use super::{
    claim::target_plant,
    parse_key, parse_sn, require_any,
    wire::{GatewayImport, GatewayImportRow},
};
use crate::{
    AppState,
    envelope::{ApiError, ApiResult, Data as Answer, Envelope, current_lang},
    files, now_ms,
    session::CurrentUser,
};

pub const IMPORT_MAX_BYTES: usize = 2 * 1024 * 1024;
pub const IMPORT_MAX_ROWS: usize = 1000;

/// One data row of the sheet; `row` is the sheet's own 1-based row number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetRow {
    pub row: u32,
    pub sn: String,
    pub key: String,
    pub plant: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Xlsx,
    Xls,
}

/// xlsx is a zip archive, xls an OLE2 compound document; nothing else is read.
fn sniff(bytes: &[u8]) -> Option<Kind> {
    if bytes.starts_with(b"PK\x03\x04") {
        Some(Kind::Xlsx)
    } else if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        Some(Kind::Xls)
    } else {
        None
    }
}

/// The rows of the first sheet; 11 when the file is not a readable workbook, 4 `rows` when it
/// has no rows or more than [`IMPORT_MAX_ROWS`].
pub fn read_rows(bytes: Vec<u8>) -> Result<Vec<SheetRow>, DomainError> {
    let unreadable = |_| DomainError::from(Code::UnsupportedFile);
    let range = match sniff(&bytes).ok_or(Code::UnsupportedFile)? {
        Kind::Xlsx => {
            let mut book = Xlsx::new(Cursor::new(bytes)).map_err(|e| unreadable(e.to_string()))?;
            book.worksheet_range_at(0)
                .ok_or(Code::UnsupportedFile)?
                .map_err(|e| unreadable(e.to_string()))?
        }
        Kind::Xls => {
            let mut book = Xls::new(Cursor::new(bytes)).map_err(|e| unreadable(e.to_string()))?;
            book.worksheet_range_at(0)
                .ok_or(Code::UnsupportedFile)?
                .map_err(|e| unreadable(e.to_string()))?
        }
    };
    rows_of(&range)
}

fn text(cell: Option<&Data>) -> String {
    match cell {
        None | Some(Data::Empty) => String::new(),
        Some(Data::String(s)) => s.trim().to_string(),
        Some(Data::Int(i)) => i.to_string(),
        // Numeric SNs and plant ids come back from spreadsheets as floats.
        Some(Data::Float(f)) if f.fract() == 0.0 && f.abs() < 1e15 => (*f as i64).to_string(),
        Some(other) => other.to_string().trim().to_string(),
    }
}

fn rows_of(range: &Range<Data>) -> Result<Vec<SheetRow>, DomainError> {
    let (first_row, first_col) = range.start().unwrap_or((0, 0));
    let too_many = || DomainError::with_detail(Code::InvalidParameter, "rows (at most 1000)");
    // Columns by absolute position: A serial number, B key, C plant id, unless a header row
    // names them.
    let mut columns = (0usize, 1usize, 2usize);
    let mut out = Vec::new();
    let mut header_seen = false;
    for (i, cells) in range.rows().enumerate() {
        let cell = |col: usize| {
            text(
                col.checked_sub(first_col as usize)
                    .and_then(|c| cells.get(c)),
            )
        };
        let all: Vec<String> = (0..first_col as usize + cells.len()).map(cell).collect();
        if all.iter().all(String::is_empty) {
            continue;
        }
        if !header_seen {
            header_seen = true;
            if let Some(found) = header(&all) {
                columns = found;
                continue;
            }
        }
        if out.len() == IMPORT_MAX_ROWS {
            return Err(too_many());
        }
        out.push(SheetRow {
            row: first_row + i as u32 + 1,
            sn: cell(columns.0),
            key: cell(columns.1),
            plant: cell(columns.2),
        });
    }
    if out.is_empty() {
        return Err(DomainError::invalid("rows"));
    }
    Ok(out)
}

/// The SN, key and plant columns when the row is a header (it names at least SN and key).
fn header(cells: &[String]) -> Option<(usize, usize, usize)> {
    let lower: Vec<String> = cells.iter().map(|c| c.to_lowercase()).collect();
    let find = |words: &[&str]| {
        lower
            .iter()
            .position(|c| words.iter().any(|w| c.contains(w)))
    };
    let sn = find(&["sn", "serial", "序列", "serie"])?;
    // A real serial number is data, not a column title.
    if parse_sn(Some(&cells[sn])).is_ok() {
        return None;
    }
    let key = find(&["key", "clave", "密钥"])?;
    let plant = find(&["plant", "station", "planta", "电站"]).unwrap_or(usize::MAX);
    Some((sn, key, plant))
}

/// Checks (and unless `dry`, claims) every row; one row's failure never stops the others.
async fn run(
    app: &AppState,
    me: &CurrentUser,
    rows: Vec<SheetRow>,
    dry: bool,
) -> ApiResult<GatewayImport> {
    let lang = current_lang();
    let mut seen = HashSet::new();
    let mut plants = HashMap::new();
    let (mut succeeded, mut failed) = (0, 0);
    let mut results = Vec::with_capacity(rows.len());
    for r in &rows {
        let (code, msg) = match one(app, me, r, &mut seen, &mut plants, dry).await {
            Ok(()) => {
                succeeded += 1;
                (0, "Success".to_string())
            }
            Err(ApiError::Domain(e)) => {
                failed += 1;
                (e.code.number(), e.message(lang))
            }
            Err(other) => return Err(other),
        };
        results.push(GatewayImportRow {
            row: r.row,
            sn: r.sn.clone(),
            code,
            msg,
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
    r: &SheetRow,
    seen: &mut HashSet<String>,
    plants: &mut HashMap<String, Result<PlantRow, DomainError>>,
    dry: bool,
) -> ApiResult<()> {
    let sn = parse_sn(Some(&r.sn))?;
    if !seen.insert(sn.clone()) {
        return Err(
            DomainError::with_detail(Code::InvalidParameter, "sn repeated in the file").into(),
        );
    }
    let key = parse_key(Some(&r.key))?;
    let plant = if r.plant.is_empty() {
        None
    } else {
        if !plants.contains_key(&r.plant) {
            let found = match target_plant(app, me, &r.plant).await {
                Ok(p) => Ok(p),
                Err(ApiError::Domain(e)) => Err(e),
                Err(other) => return Err(other),
            };
            plants.insert(r.plant.clone(), found);
        }
        match plants.get(&r.plant) {
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

async fn rows_from(multipart: Result<Multipart, MultipartRejection>) -> ApiResult<Vec<SheetRow>> {
    let bytes = files::first_file(multipart, IMPORT_MAX_BYTES).await?;
    if sniff(&bytes).is_none() {
        return Err(Code::UnsupportedFile.into());
    }
    Ok(tokio::task::spawn_blocking(move || read_rows(bytes))
        .await
        .map_err(|e| ApiError::internal("spreadsheet task", e))??)
}

/// Dry run of a batch import: every row's answer, nothing written.
#[utoipa::path(post, path = "/api/v1/gateway/import/check", tag = "gateways", security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "field `file`: .xlsx or .xls, columns SN, Key[, plant id], at most 2 MB and 1000 rows"),
    responses((status = 200, description = "Totals and each row's answer; 2, 4, 11, 12", body = Envelope<GatewayImport>)))]
pub async fn check(
    State(app): State<AppState>,
    me: CurrentUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Answer<GatewayImport>> {
    require_any(&me, &["gateway.import"])?;
    let rows = rows_from(multipart).await?;
    Ok(Answer(run(&app, &me, rows, true).await?))
}

/// Imports gateways from a spreadsheet; each row is claimed on its own and answered with its
/// own code (0, 4, 300, 301, 700, 2).
#[utoipa::path(post, path = "/api/v1/gateway/import/batch", tag = "gateways", security(("bearer" = [])),
    request_body(content_type = "multipart/form-data", description = "field `file`: .xlsx or .xls, columns SN, Key[, plant id], at most 2 MB and 1000 rows"),
    responses((status = 200, description = "Totals and each row's answer; 2, 4, 11, 12", body = Envelope<GatewayImport>)))]
pub async fn import(
    State(app): State<AppState>,
    me: CurrentUser,
    multipart: Result<Multipart, MultipartRejection>,
) -> ApiResult<Answer<GatewayImport>> {
    require_any(&me, &["gateway.import"])?;
    me.actor.require_writable()?;
    let rows = rows_from(multipart).await?;
    Ok(Answer(run(&app, &me, rows, false).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workbooks_are_recognised_by_their_first_bytes() {
        assert_eq!(sniff(b"PK\x03\x04rest"), Some(Kind::Xlsx));
        assert_eq!(
            sniff(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0]),
            Some(Kind::Xls)
        );
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n"), None);
        assert_eq!(
            read_rows(b"PK\x03\x04not a zip".to_vec()).unwrap_err().code,
            Code::UnsupportedFile
        );
    }

    fn range(rows: &[&[Data]]) -> Range<Data> {
        let width = rows.iter().map(|r| r.len()).max().unwrap_or(0) as u32;
        let mut range = Range::new((0, 0), (rows.len() as u32 - 1, width - 1));
        for (r, cells) in rows.iter().enumerate() {
            for (c, cell) in cells.iter().enumerate() {
                range.set_value((r as u32, c as u32), cell.clone());
            }
        }
        range
    }

    fn s(v: &str) -> Data {
        Data::String(v.into())
    }

    #[test]
    fn a_header_row_names_the_columns_and_numbers_read_as_integers() {
        let rows = rows_of(&range(&[
            &[s("Plant ID"), s("Key"), s("SN")],
            &[Data::Float(12.0), s("K1"), s("GW0001")],
            &[Data::Empty, Data::Empty, Data::Empty],
            &[Data::Empty, s("K2"), Data::Float(20240001.0)],
        ]))
        .unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[0],
            SheetRow {
                row: 2,
                sn: "GW0001".into(),
                key: "K1".into(),
                plant: "12".into()
            }
        );
        assert_eq!(
            (rows[1].row, rows[1].sn.as_str(), rows[1].plant.as_str()),
            (4, "20240001", "")
        );
    }

    #[test]
    fn without_a_header_columns_are_sn_key_plant_and_empty_sheets_are_refused() {
        let rows = rows_of(&range(&[&[s("GW0001"), s("KEY1")]])).unwrap();
        assert_eq!((rows[0].row, rows[0].key.as_str()), (1, "KEY1"));
        assert_eq!(
            rows_of(&range(&[&[Data::Empty]]))
                .unwrap_err()
                .detail
                .as_deref(),
            Some("rows")
        );
    }
}
