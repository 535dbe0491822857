//! Reading an uploaded spreadsheet within bounds, for every import. An .xlsx is a zip of XML
//! parts: the archive is checked first and its XML parts copied, without styles (see
//! `archive`), then the first sheet is read cell by cell as it streams out of the zip, without building the sheet's rectangle (whose declared
//! size, up to 16,384 columns by 1,048,576 rows, is an attacker's choice), and the read stops
//! with the documented error at the first cell past the bounds. Only the cells that hold a
//! value are kept.
//!
//! The legacy binary .xls is refused (11): the reader available for it parses every sheet of
//! the workbook when it opens the file, sizes its cell tables by the sheet's declared
//! dimension and follows the file's sector chains without a bound, so none of that work can
//! be bounded from outside.

mod archive;

use std::{collections::BTreeMap, io::Cursor};

use calamine::{Data, DataRef, Reader, Xlsx, XlsxError};
use domain::{Code, DomainError};
use tokio::sync::Semaphore;

use crate::envelope::{ApiError, ApiResult};

/// Where an import's data may lie, and how much of it there may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Rows holding a value, besides an optional header row.
    pub data_rows: usize,
    /// Data lies in the sheet's first `last_row` rows...
    pub last_row: u32,
    /// ...and its first `columns` columns.
    pub columns: u32,
}

/// Both imports (gateways, predicted generation): 1000 rows within the first 2000 (blank rows
/// between them are skipped), columns A to Z.
pub const IMPORT: Bounds = Bounds {
    data_rows: 1000,
    last_row: 2000,
    columns: 26,
};

/// The longest text a cell may hold (serial numbers, keys and figures are far shorter).
pub const MAX_CELL_CHARS: usize = 1000;

/// Sheets parsed at once; more uploads wait for a turn rather than share the cores.
const PARALLEL_PARSES: usize = 2;

static PARSES: Semaphore = Semaphore::const_new(PARALLEL_PARSES);

impl Bounds {
    /// Cells (with or without a value) read before the sheet is refused: as many as its
    /// bounded area holds, so a sheet repeating cells cannot keep the reader busy.
    fn max_cells(&self) -> usize {
        self.last_row as usize * self.columns as usize
    }
}

/// The cells with a value of a sheet's first rows.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Grid {
    rows: BTreeMap<u32, Vec<Data>>,
}

impl Grid {
    /// Each row holding a value, in order: its 1-based number and its cells from column A.
    pub fn rows(&self) -> impl Iterator<Item = (u32, &[Data])> {
        self.rows.iter().map(|(r, cells)| (r + 1, cells.as_slice()))
    }

    /// A grid of consecutive rows from row 1 (for unit tests of the importers).
    #[cfg(test)]
    pub fn from_rows(rows: &[&[Data]]) -> Grid {
        Grid {
            rows: rows
                .iter()
                .enumerate()
                .map(|(r, cells)| (r as u32, cells.to_vec()))
                .collect(),
        }
    }
}

/// Whether the bytes are an .xlsx (a zip archive); nothing else is read.
pub fn is_xlsx(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// Reads the first sheet off the async threads, at most [`PARALLEL_PARSES`] at once. The
/// parse keeps its turn until it ends, even when the client has gone.
pub async fn read(bytes: Vec<u8>, bounds: Bounds) -> ApiResult<Grid> {
    let turn = PARSES
        .acquire()
        .await
        .map_err(|e| ApiError::internal("spreadsheet turn", e))?;
    let parse = tokio::task::spawn_blocking(move || {
        let _turn = turn;
        first_sheet(&bytes, bounds)
    });
    match parse.await {
        Ok(grid) => Ok(grid?),
        // The reader gave up on a malformed file in its own way: the file is unreadable.
        Err(e) if e.is_panic() => {
            tracing::warn!("the spreadsheet reader panicked on an upload");
            Err(DomainError::from(Code::UnsupportedFile).into())
        }
        Err(e) => Err(ApiError::internal("spreadsheet task", e)),
    }
}

/// A column's name as Excel writes it (0 is A, 25 Z, 26 AA).
fn column_name(mut col: u32) -> String {
    let mut name = Vec::new();
    loop {
        name.push(b'A' + (col % 26) as u8);
        if col < 26 {
            break;
        }
        col = col / 26 - 1;
    }
    name.iter().rev().map(|&b| char::from(b)).collect()
}

fn invalid(detail: String) -> DomainError {
    DomainError::with_detail(Code::InvalidParameter, detail)
}

fn unreadable(e: XlsxError) -> DomainError {
    tracing::debug!(error = %e, "spreadsheet refused as unreadable");
    Code::UnsupportedFile.into()
}

/// The text of a text value.
fn text<'a>(value: &'a DataRef<'_>) -> Option<&'a str> {
    match value {
        DataRef::String(s) | DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => Some(s),
        DataRef::SharedString(s) => Some(s),
        _ => None,
    }
}

/// The first sheet's cells with a value. 11 when the file is not a readable .xlsx, 12 when it
/// unpacks to more than the archive bounds, 4 `rows`, `columns` or `cells` at the first cell
/// past `bounds`.
pub fn first_sheet(bytes: &[u8], bounds: Bounds) -> Result<Grid, DomainError> {
    if !is_xlsx(bytes) {
        return Err(Code::UnsupportedFile.into());
    }
    let copy = archive::readable_copy(bytes)?;
    let mut book = Xlsx::new(Cursor::new(copy)).map_err(unreadable)?;
    let name = book
        .sheet_names()
        .into_iter()
        .next()
        .ok_or(Code::UnsupportedFile)?;
    let mut cells = book.worksheet_cells_reader(&name).map_err(unreadable)?;
    let mut grid = Grid::default();
    let mut read = 0usize;
    while let Some(cell) = cells.next_cell().map_err(unreadable)? {
        read += 1;
        if read > bounds.max_cells() {
            return Err(invalid(format!("cells (at most {})", bounds.max_cells())));
        }
        let value = cell.get_value();
        if *value == DataRef::Empty || text(value).is_some_and(str::is_empty) {
            continue;
        }
        let (row, col) = cell.get_position();
        if col >= bounds.columns {
            let last = column_name(bounds.columns.saturating_sub(1));
            return Err(invalid(format!("columns (A to {last} only)")));
        }
        if row >= bounds.last_row {
            return Err(invalid(format!(
                "rows (data within the first {})",
                bounds.last_row
            )));
        }
        let long = |s: &str| s.len() > MAX_CELL_CHARS && s.chars().count() > MAX_CELL_CHARS;
        if text(value).is_some_and(long) {
            return Err(invalid(format!(
                "cells (at most {MAX_CELL_CHARS} characters)"
            )));
        }
        let is_new = !grid.rows.contains_key(&row);
        // One more than the data rows: the header.
        if is_new && grid.rows.len() > bounds.data_rows {
            return Err(invalid(format!("rows (at most {})", bounds.data_rows)));
        }
        let cells = grid.rows.entry(row).or_default();
        let col = col as usize;
        if cells.len() <= col {
            cells.resize(col + 1, Data::Empty);
        }
        cells[col] = value.clone().into();
    }
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_named_as_excel_names_them() {
        let names: Vec<String> = [0, 25, 26, 51, 701, 16_383]
            .into_iter()
            .map(column_name)
            .collect();
        assert_eq!(names, ["A", "Z", "AA", "AZ", "ZZ", "XFD"]);
    }

    #[test]
    fn only_zip_archives_are_workbooks() {
        assert!(is_xlsx(b"PK\x03\x04rest"));
        assert!(!is_xlsx(&[
            0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0
        ]));
        assert!(!is_xlsx(b"\x89PNG\r\n\x1a\n"));
        for bytes in [
            b"PK\x03\x04not a zip".as_slice(),
            &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0],
        ] {
            assert_eq!(
                first_sheet(bytes, IMPORT).unwrap_err().code,
                Code::UnsupportedFile
            );
        }
    }
}
