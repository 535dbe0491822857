//! Checks on an .xlsx archive before any part of it is unpacked, and the copy of it that the
//! spreadsheet reader opens. The zip reader refuses to inflate an entry past the size its
//! central directory declares, so bounding the declared sizes bounds what the spreadsheet
//! reader can ever unpack (a 2 MB upload of repeated bytes would otherwise inflate to about
//! 2 GB). The one number the reader trusts from inside a part, the shared strings'
//! `uniqueCount` (it reserves that many entries up front), is read here from the part's first
//! bytes and bounded too.
//!
//! The copy holds only the XML parts, without the styles and the theme: the reader builds one
//! style per cell format and copies its font, fill and borders into it, so a styles part of a
//! few megabytes (a long font name, many formats naming it) would make gigabytes. The imports
//! read text and numbers; cell formats change nothing for them.

use std::io::{Cursor, Read};

use domain::{Code, DomainError};
use zip::{ZipArchive, ZipWriter};

/// More entries than any workbook an import needs (Excel writes about a dozen).
pub const MAX_ENTRIES: usize = 256;
/// The largest part, unpacked.
pub const MAX_PART_BYTES: u64 = 16 * 1024 * 1024;
/// All parts together, unpacked.
pub const MAX_UNPACKED_BYTES: u64 = 32 * 1024 * 1024;
/// The XML parts the reader gets, together, unpacked: this bounds the reader's work (about
/// 4 s of a debug build's CPU for 4 MB of the emptiest rows). A sheet of 1000 rows of 26
/// columns is about 1 MB of XML.
pub const MAX_XML_BYTES: u64 = 4 * 1024 * 1024;
/// Shared strings the reader may reserve room for (every cell of every sheet of a 2 MB file
/// with a distinct text fits).
pub const MAX_SHARED_STRINGS: u64 = 200_000;
/// How much of the shared strings part is read to find its `uniqueCount`.
const SST_HEAD_BYTES: u64 = 64 * 1024;

fn too_large() -> DomainError {
    Code::FileTooLarge.into()
}

fn unreadable() -> DomainError {
    Code::UnsupportedFile.into()
}

/// Whether the reader gets the part: XML parts and relationships, not the styles or theme.
fn kept(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    (name.ends_with(".xml") || name.ends_with(".rels"))
        && !name.ends_with("styles.xml")
        && !name.contains("theme/")
}

/// The archive the spreadsheet reader may open: the upload's XML parts, copied without
/// unpacking them. 12 when the archive has too many entries or unpacks to more than the
/// bounds, 11 when it is not a readable zip.
pub fn readable_copy(bytes: &[u8]) -> Result<Vec<u8>, DomainError> {
    let mut zip = ZipArchive::new(Cursor::new(bytes)).map_err(|_| unreadable())?;
    if zip.len() > MAX_ENTRIES {
        return Err(too_large());
    }
    let (mut total, mut xml) = (0u64, 0u64);
    let (mut sst, mut keep) = (Vec::new(), Vec::new());
    for i in 0..zip.len() {
        // A raw entry is not inflated: this reads the central directory's numbers only.
        let entry = zip.by_index_raw(i).map_err(|_| unreadable())?;
        let size = entry.size();
        total = total.saturating_add(size);
        if size > MAX_PART_BYTES || total > MAX_UNPACKED_BYTES {
            return Err(too_large());
        }
        let name = entry.name().map_err(|_| unreadable())?;
        if !kept(&name) {
            continue;
        }
        xml = xml.saturating_add(size);
        if xml > MAX_XML_BYTES {
            return Err(too_large());
        }
        if name.to_ascii_lowercase().ends_with("sharedstrings.xml") {
            sst.push(i);
        }
        keep.push(i);
    }
    for i in sst {
        let mut head = Vec::new();
        let entry = zip.by_index(i).map_err(|_| unreadable())?;
        entry
            .take(SST_HEAD_BYTES)
            .read_to_end(&mut head)
            .map_err(|_| unreadable())?;
        match unique_count(&head) {
            Some(n) if n <= MAX_SHARED_STRINGS => {}
            Some(_) => return Err(too_large()),
            None => return Err(unreadable()),
        }
    }
    let mut copy = ZipWriter::new(Cursor::new(Vec::with_capacity(bytes.len())));
    for i in keep {
        let entry = zip.by_index_raw(i).map_err(|_| unreadable())?;
        copy.raw_copy_file(entry).map_err(|_| unreadable())?;
    }
    Ok(copy.finish().map_err(|_| unreadable())?.into_inner())
}

/// The `uniqueCount` of the `<sst>` start tag (0 when it has none); `None` when the tag does
/// not close within `head` or the count is not a plain number.
fn unique_count(head: &[u8]) -> Option<u64> {
    let text = String::from_utf8_lossy(head);
    // `<sst` or a prefixed `<x:sst`, followed by a space or the end of the tag.
    let start = text.match_indices("sst").find_map(|(i, _)| {
        let before = text[..i].chars().next_back()?;
        let after = text[i + 3..].chars().next()?;
        let opens = before == '<' || (before == ':' && text[..i].contains('<'));
        (opens && (after.is_whitespace() || after == '>' || after == '/')).then_some(i + 3)
    })?;
    let tag = &text[start..start + text[start..].find('>')?];
    let mut count = 0;
    let mut rest = tag;
    while let Some(at) = rest.find("uniqueCount") {
        let after = rest[at + "uniqueCount".len()..].trim_start();
        let value = after.strip_prefix('=')?.trim_start();
        let quote = value.chars().next().filter(|q| *q == '"' || *q == '\'')?;
        let end = value[1..].find(quote)?;
        let digits = value[1..1 + end].trim();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 12 {
            return None;
        }
        count = count.max(digits.parse().ok()?);
        rest = &value[1 + end..];
    }
    Some(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_strings_count_is_read_from_the_start_tag() {
        let head = br#"<?xml version="1.0"?><sst xmlns="x" count="9" uniqueCount="7"><si>"#;
        assert_eq!(unique_count(head), Some(7));
        assert_eq!(unique_count(b"<x:sst uniqueCount = '12' >"), Some(12));
        assert_eq!(unique_count(b"<sst count=\"3\">"), Some(0));
        assert_eq!(
            unique_count(b"<sst uniqueCount=\"99999999999999999999\">"),
            None
        );
        assert_eq!(unique_count(b"<sst uniqueCount=\"+5\">"), None);
        assert_eq!(unique_count(b"<sst uniqueCount=\"5\""), None, "unclosed");
        assert_eq!(unique_count(b"<?xml?><other/>"), None);
    }

    #[test]
    fn the_reader_gets_the_xml_parts_without_styles() {
        assert!(kept("xl/worksheets/sheet1.xml"));
        assert!(kept("_rels/.rels"));
        assert!(kept("XL/SharedStrings.XML"));
        assert!(!kept("xl/styles.xml"));
        assert!(!kept("xl/theme/theme1.xml"));
        assert!(!kept("xl/media/image1.png"));
        assert_eq!(
            readable_copy(b"PK\x03\x04 not a zip").unwrap_err().code,
            Code::UnsupportedFile
        );
    }
}
