//! Manuals: documents attached to a product model. The rules of their fields and of the file
//! (what it is by its first bytes, never by its name; how large it may be).

use crate::{DomainError, ids::ProductId};

/// A manual's file may be at most this large (code 12 beyond).
pub const MAX_BYTES: usize = 20 * 1024 * 1024;
pub const TITLE_MAX: usize = 100;
pub const VERSION_MAX: usize = 32;
/// The languages a manual may be written in; `all` for one in several languages.
pub const LANGUAGES: [&str; 4] = ["en", "zh", "es", "all"];

/// What a manual's file is, read from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Pdf,
    Png,
    Jpeg,
}

impl FileKind {
    /// PDF, PNG or JPEG by content; `None` for anything else (code 11).
    pub fn sniff(bytes: &[u8]) -> Option<FileKind> {
        if bytes.starts_with(b"%PDF-") {
            Some(FileKind::Pdf)
        } else if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
            Some(FileKind::Png)
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(FileKind::Jpeg)
        } else {
            None
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            FileKind::Pdf => "application/pdf",
            FileKind::Png => "image/png",
            FileKind::Jpeg => "image/jpeg",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            FileKind::Pdf => "pdf",
            FileKind::Png => "png",
            FileKind::Jpeg => "jpg",
        }
    }
}

/// A manual's fields as a request gives them.
#[derive(Debug, Clone, Default)]
pub struct ManualInput {
    pub product_id: Option<i64>,
    pub title: Option<String>,
    pub language: Option<String>,
    pub version: Option<String>,
    /// `YYYY-MM-DD`, or empty.
    pub issued: Option<String>,
}

/// A manual's fields after the rules.
#[derive(Debug, Clone, PartialEq)]
pub struct ManualFields {
    pub product_id: ProductId,
    pub title: String,
    pub language: String,
    pub version: String,
    pub issued: String,
}

/// A real calendar date written `YYYY-MM-DD` (years 1900 to 2999).
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| s.get(r).and_then(|p| p.parse::<u32>().ok());
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1900..3000).contains(&y) && (1..=days).contains(&d)
}

fn control_free(s: &str) -> bool {
    !s.chars().any(char::is_control)
}

impl ManualInput {
    /// The rules: a product (4 `productId`), a title of 1 to 100 characters (4 `title`), a
    /// language of [`LANGUAGES`] (4 `language`), a version of at most 32 characters (4
    /// `version`) and an issue date that is a real `YYYY-MM-DD` or empty (4 `issued`).
    pub fn check(&self) -> Result<ManualFields, DomainError> {
        let product_id = self
            .product_id
            .filter(|p| *p > 0)
            .map(ProductId)
            .ok_or_else(|| DomainError::invalid("productId"))?;
        let title = self.title.as_deref().unwrap_or("").trim();
        if title.is_empty() || title.chars().count() > TITLE_MAX || !control_free(title) {
            return Err(DomainError::invalid("title"));
        }
        let language = self.language.as_deref().unwrap_or("all").trim();
        if !LANGUAGES.contains(&language) {
            return Err(DomainError::invalid("language"));
        }
        let version = self.version.as_deref().unwrap_or("").trim();
        if version.chars().count() > VERSION_MAX || !control_free(version) {
            return Err(DomainError::invalid("version"));
        }
        let issued = self.issued.as_deref().unwrap_or("").trim();
        if !issued.is_empty() && !is_date(issued) {
            return Err(DomainError::invalid("issued"));
        }
        Ok(ManualFields {
            product_id,
            title: title.to_string(),
            language: language.to_string(),
            version: version.to_string(),
            issued: issued.to_string(),
        })
    }
}

/// A file name fit to send back in a download: the uploaded name's last part without control
/// characters or quotes, at most 100 characters, with the extension of what the file is.
pub fn file_name(uploaded: Option<&str>, kind: FileKind) -> String {
    let base = uploaded
        .unwrap_or("")
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control() && *c != '"')
        .take(100)
        .collect::<String>();
    let stem = base
        .rsplit_once('.')
        .map_or(base.as_str(), |(s, _)| s)
        .trim();
    let stem = if stem.is_empty() { "manual" } else { stem };
    format!("{stem}.{}", kind.extension())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> ManualInput {
        ManualInput {
            product_id: Some(3),
            title: Some("  Installation guide ".into()),
            language: Some("en".into()),
            version: Some("V1.2".into()),
            issued: Some("2026-03-01".into()),
        }
    }

    #[test]
    fn a_manual_needs_a_product_a_title_and_a_known_language() {
        let ok = input().check().map(|f| f.title);
        assert_eq!(ok.as_deref(), Ok("Installation guide"));
        let field = |i: ManualInput| i.check().unwrap_err().detail;
        let no_product = ManualInput {
            product_id: None,
            ..input()
        };
        assert_eq!(field(no_product).as_deref(), Some("productId"));
        let long = ManualInput {
            title: Some("x".repeat(101)),
            ..input()
        };
        assert_eq!(field(long).as_deref(), Some("title"));
        let lang = ManualInput {
            language: Some("fr".into()),
            ..input()
        };
        assert_eq!(field(lang).as_deref(), Some("language"));
        let date = ManualInput {
            issued: Some("2026-02-30".into()),
            ..input()
        };
        assert_eq!(field(date).as_deref(), Some("issued"));
        let none = ManualInput {
            language: None,
            issued: None,
            version: None,
            ..input()
        };
        assert_eq!(none.check().map(|f| f.language).as_deref(), Ok("all"));
    }

    #[test]
    fn files_are_known_by_their_first_bytes() {
        assert_eq!(FileKind::sniff(b"%PDF-1.4\n"), Some(FileKind::Pdf));
        assert_eq!(FileKind::sniff(b"\x89PNG\r\n\x1a\n.."), Some(FileKind::Png));
        assert_eq!(
            FileKind::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]),
            Some(FileKind::Jpeg)
        );
        assert_eq!(FileKind::sniff(b"MZ\x90\x00"), None);
        assert_eq!(FileKind::sniff(b""), None);
    }

    #[test]
    fn download_names_keep_the_uploaded_stem_and_take_the_real_extension() {
        assert_eq!(
            file_name(Some("C:\\docs\\Guide v2.exe"), FileKind::Pdf),
            "Guide v2.pdf"
        );
        assert_eq!(file_name(Some("a\"b.pdf"), FileKind::Pdf), "ab.pdf");
        assert_eq!(file_name(None, FileKind::Png), "manual.png");
    }
}
