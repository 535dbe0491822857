//! Spreadsheets: one writer for every `.xlsx` the portal hands out (downloads, the monthly
//! report's attachment). Callers describe a table; this turns it into a workbook, so headers,
//! widths and sheet names follow the same rules everywhere.

use rust_xlsxwriter::{Format, Workbook};

pub use rust_xlsxwriter::XlsxError;

/// Excel refuses a worksheet of more than 1,048,576 rows; the header takes one.
pub const MAX_ROWS: usize = 1_048_575;

/// One cell of a table. Numbers stay numbers so that the reader can sum them in Excel.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Number(f64),
    /// A missing value: left blank rather than written as 0.
    Empty,
}

impl From<&str> for Cell {
    fn from(v: &str) -> Self {
        Cell::Text(v.to_owned())
    }
}

impl From<String> for Cell {
    fn from(v: String) -> Self {
        Cell::Text(v)
    }
}

impl From<f64> for Cell {
    fn from(v: f64) -> Self {
        if v.is_finite() {
            Cell::Number(v)
        } else {
            Cell::Empty
        }
    }
}

impl From<i64> for Cell {
    fn from(v: i64) -> Self {
        Cell::Number(v as f64)
    }
}

impl<T: Into<Cell>> From<Option<T>> for Cell {
    fn from(v: Option<T>) -> Self {
        v.map_or(Cell::Empty, Into::into)
    }
}

/// One worksheet: a bold header row, then the rows (each as long as the header or shorter).
#[derive(Debug, Clone, Default)]
pub struct Sheet {
    /// The tab name; Excel allows at most 31 characters and none of `[]:*?/\`.
    pub name: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

impl Sheet {
    pub fn new(name: impl Into<String>, headers: Vec<String>) -> Self {
        Sheet {
            name: name.into(),
            headers,
            rows: Vec::new(),
        }
    }

    pub fn push(&mut self, row: Vec<Cell>) {
        self.rows.push(row);
    }
}

/// The sheet name Excel accepts: forbidden characters replaced, at most 31 characters.
fn sheet_name(name: &str, index: usize) -> String {
    let clean: String = name
        .chars()
        .map(|c| if "[]:*?/\\".contains(c) { '_' } else { c })
        .take(31)
        .collect();
    let clean = clean.trim_matches('\'').trim().to_owned();
    if clean.is_empty() {
        format!("Sheet{}", index + 1)
    } else {
        clean
    }
}

/// Builds the workbook in memory. Rows beyond Excel's limit are refused rather than cut off
/// silently: the caller narrows its range.
pub fn workbook(sheets: &[Sheet]) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    for (index, sheet) in sheets.iter().enumerate() {
        if sheet.rows.len() > MAX_ROWS {
            return Err(XlsxError::RowColumnLimitError);
        }
        let ws = book.add_worksheet();
        ws.set_name(sheet_name(&sheet.name, index))?;
        // Column width from the longest text in the column (header included), within bounds
        // that keep a long solution text from making a column screen-wide.
        let mut widths: Vec<usize> = sheet.headers.iter().map(|h| h.chars().count()).collect();
        for (col, header) in sheet.headers.iter().enumerate() {
            ws.write_string_with_format(0, col as u16, header, &bold)?;
        }
        for (r, row) in sheet.rows.iter().enumerate() {
            let r = (r + 1) as u32;
            for (col, cell) in row.iter().enumerate() {
                let len = match cell {
                    Cell::Text(t) => {
                        ws.write_string(r, col as u16, t)?;
                        t.chars().count()
                    }
                    Cell::Number(n) => {
                        ws.write_number(r, col as u16, *n)?;
                        n.to_string().len()
                    }
                    Cell::Empty => 0,
                };
                if col >= widths.len() {
                    widths.resize(col + 1, 0);
                }
                widths[col] = widths[col].max(len);
            }
        }
        for (col, w) in widths.iter().enumerate() {
            ws.set_column_width(col as u16, (*w).clamp(8, 60) as f64 + 2.0)?;
        }
        if !sheet.headers.is_empty() {
            ws.set_freeze_panes(1, 0)?;
        }
    }
    if sheets.is_empty() {
        book.add_worksheet();
    }
    book.save_to_buffer()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheet_names_follow_excel_rules() {
        assert_eq!(sheet_name("a/b:c", 0), "a_b_c");
        assert_eq!(sheet_name("", 2), "Sheet3");
        assert_eq!(sheet_name(&"x".repeat(40), 0).len(), 31);
    }

    #[test]
    fn workbook_is_a_zip_with_the_rows() {
        let mut sheet = Sheet::new("Energy", vec!["Date".into(), "PV (kWh)".into()]);
        sheet.push(vec!["2026-01-01".into(), 12.5.into()]);
        sheet.push(vec!["2026-01-02".into(), Cell::from(None::<f64>)]);
        let bytes = workbook(&[sheet]).expect("workbook");
        assert_eq!(&bytes[..2], b"PK");
    }

    #[test]
    fn non_finite_numbers_become_blank() {
        assert_eq!(Cell::from(f64::NAN), Cell::Empty);
        assert_eq!(Cell::from(3_i64), Cell::Number(3.0));
    }
}
