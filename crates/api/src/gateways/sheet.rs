//! Reading a gateway spreadsheet (.xlsx, recognised by content, read within
//! [`sheet_read::IMPORT`]) for both imports: the claim import (SN, Key, plant id) and the
//! registry's (SN, Key, Model, Communication type, Protocol). A header row is optional; when
//! present it names the columns, in any order.

use axum::extract::{Multipart, multipart::MultipartRejection};
use calamine::Data;
use domain::{Code, DomainError};

use super::parse_sn;
use crate::{
    envelope::ApiResult,
    sheet_read::{self, Grid},
};

pub const IMPORT_MAX_BYTES: usize = 2 * 1024 * 1024;
pub const IMPORT_MAX_ROWS: usize = sheet_read::IMPORT.data_rows;

/// One data row: the sheet's own 1-based row number and the cells of the asked columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub row: u32,
    pub cells: Vec<String>,
}

impl Row {
    pub fn cell(&self, i: usize) -> &str {
        self.cells.get(i).map_or("", String::as_str)
    }
}

/// A column: the words that name it in a header (en, zh, es; matched as parts, any case).
pub type Column = &'static [&'static str];

pub const SN: Column = &["sn", "serial", "序列", "serie"];
pub const KEY: Column = &["key", "clave", "密钥"];

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

/// The rows of `grid` as `columns` (the first two, SN and key, are what make a row a
/// header). Without a header the columns are A, B, C... in the given order. 4 `rows` when
/// there are none or more than [`IMPORT_MAX_ROWS`].
pub fn rows_of(grid: &Grid, columns: &[Column]) -> Result<Vec<Row>, DomainError> {
    let too_many = || DomainError::with_detail(Code::InvalidParameter, "rows (at most 1000)");
    let mut positions: Vec<usize> = (0..columns.len()).collect();
    let mut out = Vec::new();
    let mut header_seen = false;
    for (row, cells) in grid.rows() {
        let cell = |col: usize| text(cells.get(col));
        let all: Vec<String> = (0..cells.len()).map(cell).collect();
        if all.iter().all(String::is_empty) {
            continue;
        }
        if !header_seen {
            header_seen = true;
            if let Some(found) = header(&all, columns) {
                positions = found;
                continue;
            }
        }
        if out.len() == IMPORT_MAX_ROWS {
            return Err(too_many());
        }
        out.push(Row {
            row,
            cells: positions.iter().map(|&c| cell(c)).collect(),
        });
    }
    if out.is_empty() {
        return Err(DomainError::invalid("rows"));
    }
    Ok(out)
}

/// Each column's position when the row is a header (it names at least SN and key); a column
/// it does not name reads as empty.
fn header(cells: &[String], columns: &[Column]) -> Option<Vec<usize>> {
    let lower: Vec<String> = cells.iter().map(|c| c.to_lowercase()).collect();
    let find = |words: &[&str]| {
        lower
            .iter()
            .position(|c| words.iter().any(|w| c.contains(w)))
    };
    let sn = find(columns.first()?)?;
    // A real serial number is data, not a column title.
    if parse_sn(Some(&cells[sn])).is_ok() {
        return None;
    }
    find(columns.get(1)?)?;
    Some(
        columns
            .iter()
            .map(|words| find(words).unwrap_or(usize::MAX))
            .collect(),
    )
}

/// An import upload: the sheet's bytes (the first file part) and its `mode` and `dryRun`
/// fields, if any (lower case).
pub struct Upload {
    pub bytes: Vec<u8>,
    pub mode: Option<String>,
    pub dry_run: Option<String>,
}

/// Reads the multipart body: text fields before or after the file, the first file part (or
/// the field named `file`) of at most [`IMPORT_MAX_BYTES`] (12 beyond).
pub async fn upload(multipart: Result<Multipart, MultipartRejection>) -> ApiResult<Upload> {
    let mut multipart = multipart.map_err(|_| DomainError::invalid("file"))?;
    let too_large = |e: &axum::extract::multipart::MultipartError| {
        e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE
    };
    let (mut bytes, mut mode, mut dry_run) = (None, None, None);
    loop {
        let mut field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(e) if too_large(&e) => return Err(Code::FileTooLarge.into()),
            Err(_) => return Err(DomainError::invalid("file").into()),
        };
        let is_file = field.file_name().is_some() || field.name() == Some("file");
        let is_dry = field.name() == Some("dryRun");
        let is_mode = field.name() == Some("mode") || is_dry;
        if !(is_file && bytes.is_none() || is_mode) {
            continue;
        }
        let limit = if is_file { IMPORT_MAX_BYTES } else { 64 };
        let mut data = Vec::new();
        loop {
            match field.chunk().await {
                Ok(Some(chunk)) if data.len() + chunk.len() > limit => {
                    return Err(if is_file {
                        Code::FileTooLarge.into()
                    } else {
                        DomainError::invalid(if is_dry { "dryRun" } else { "mode" }).into()
                    });
                }
                Ok(Some(chunk)) => data.extend_from_slice(&chunk),
                Ok(None) => break,
                Err(e) if too_large(&e) => return Err(Code::FileTooLarge.into()),
                Err(_) => return Err(DomainError::invalid("file").into()),
            }
        }
        let text = || Some(String::from_utf8_lossy(&data).trim().to_lowercase());
        if is_file {
            bytes = Some(data);
        } else if is_dry {
            dry_run = text();
        } else {
            mode = text();
        }
    }
    let bytes = bytes.ok_or_else(|| DomainError::invalid("file"))?;
    if !sheet_read::is_xlsx(&bytes) {
        return Err(Code::UnsupportedFile.into());
    }
    Ok(Upload {
        bytes,
        mode,
        dry_run,
    })
}

/// The rows of an uploaded sheet (read off the async threads, within the import bounds).
pub async fn read(bytes: Vec<u8>, columns: &'static [Column]) -> ApiResult<Vec<Row>> {
    let grid = sheet_read::read(bytes, sheet_read::IMPORT).await?;
    Ok(rows_of(&grid, columns)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLAIM: &[Column] = &[SN, KEY, &["plant", "station", "planta", "电站"]];

    fn range(rows: &[&[Data]]) -> Grid {
        Grid::from_rows(rows)
    }

    fn s(v: &str) -> Data {
        Data::String(v.into())
    }

    #[test]
    fn a_header_row_names_the_columns_and_numbers_read_as_integers() {
        let rows = rows_of(
            &range(&[
                &[s("Plant ID"), s("Key"), s("SN")],
                &[Data::Float(12.0), s("K1"), s("GW0001")],
                &[Data::Empty, Data::Empty, Data::Empty],
                &[Data::Empty, s("K2"), Data::Float(20240001.0)],
            ]),
            CLAIM,
        )
        .unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[0],
            Row {
                row: 2,
                cells: vec!["GW0001".into(), "K1".into(), "12".into()]
            }
        );
        assert_eq!(
            (rows[1].row, rows[1].cell(0), rows[1].cell(2)),
            (4, "20240001", "")
        );
    }

    #[test]
    fn without_a_header_columns_are_in_order_and_empty_sheets_are_refused() {
        let rows = rows_of(&range(&[&[s("GW0001"), s("KEY1")]]), CLAIM).unwrap();
        assert_eq!(
            (rows[0].row, rows[0].cell(1), rows[0].cell(2)),
            (1, "KEY1", "")
        );
        assert_eq!(
            rows_of(&range(&[&[Data::Empty]]), CLAIM)
                .unwrap_err()
                .detail
                .as_deref(),
            Some("rows")
        );
    }

    #[test]
    fn a_header_may_leave_optional_columns_out() {
        let cols: &[Column] = &[SN, KEY, &["model"], &["protocol"]];
        let rows = rows_of(
            &range(&[
                &[s("Protocol"), s("SN"), s("Key")],
                &[s("p1"), s("GW0001"), s("K1")],
            ]),
            cols,
        )
        .unwrap();
        assert_eq!(rows[0].cells, vec!["GW0001", "K1", "", "p1"]);
    }
}
