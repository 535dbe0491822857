//! The firmware file rules (docs/overview.md, "Limits"): `.bin` or `.hex`, at most 1.5 MB, a file
//! name of letters, digits, `-`, `_` and `.` up to 40 characters, a version of letters, digits,
//! `-` and `_`, never a duplicate (4002) nor lower than the latest. The content is sniffed: a
//! `.hex` file must be Intel HEX text (every non-empty line starts with `:`), a `.bin` anything.

use std::cmp::Ordering;

use crate::{Code, DomainError};

/// 1.5 MB.
pub const MAX_SIZE: usize = 1024 * 1024 * 3 / 2;
pub const NAME_MAX: usize = 40;
pub const VERSION_MAX: usize = 32;

/// Checks a file name; answers its lower-case extension (`bin` or `hex`).
pub fn file_name(name: &str) -> Result<&'static str, DomainError> {
    let ok = !name.is_empty()
        && name.chars().count() <= NAME_MAX
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if !ok {
        return Err(DomainError::invalid("fileName"));
    }
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("bin") => Ok("bin"),
        Some("hex") => Ok("hex"),
        _ => Err(Code::UnsupportedFile.into()),
    }
}

/// Checks that the bytes are what the extension says: Intel HEX for `hex` (ASCII lines, each
/// non-empty one a `:` record of hex digits); `bin` takes any bytes.
pub fn sniff(ext: &str, bytes: &[u8]) -> Result<(), DomainError> {
    if ext != "hex" {
        return Ok(());
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(Code::UnsupportedFile.into());
    };
    let mut records = 0;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let ok = line
            .strip_prefix(':')
            .is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_hexdigit()));
        if !ok {
            return Err(Code::UnsupportedFile.into());
        }
        records += 1;
    }
    if records == 0 {
        return Err(Code::UnsupportedFile.into());
    }
    Ok(())
}

/// A free-text field of at most `max` characters, trimmed; 4 naming `field` when longer.
pub fn text<'a>(field: &str, raw: &'a str, max: usize) -> Result<&'a str, DomainError> {
    let v = raw.trim();
    if v.chars().count() > max {
        Err(DomainError::invalid(field))
    } else {
        Ok(v)
    }
}

/// The ways a firmware file is flashed: `iap` (in-application programming, the default) or
/// `isp` (in-system programming).
pub const UPGRADE_MODES: [&str; 2] = ["iap", "isp"];

/// `iap` (in-application programming, the default) or `isp` (in-system programming).
pub fn upgrade_mode(raw: &str) -> Result<&'static str, DomainError> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "" | "iap" => Ok("iap"),
        "isp" => Ok("isp"),
        _ => Err(DomainError::invalid("upgradeMode")),
    }
}

/// The longest display name, firmware type and hardware version.
pub const LABEL_MAX: usize = 64;
pub const SHORT_MAX: usize = 32;
/// The longest change log (each language).
pub const CHANGE_LOG_MAX: usize = 2000;

pub fn size(len: usize) -> Result<(), DomainError> {
    if len == 0 {
        Err(DomainError::invalid("file"))
    } else if len > MAX_SIZE {
        Err(Code::FileTooLarge.into())
    } else {
        Ok(())
    }
}

/// Checks a version's characters; answers it trimmed.
pub fn version(raw: &str) -> Result<String, DomainError> {
    let v = raw.trim();
    let ok = !v.is_empty()
        && v.len() <= VERSION_MAX
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'));
    if ok {
        Ok(v.to_string())
    } else {
        Err(DomainError::invalid("version"))
    }
}

/// A version's comparable parts: runs of digits (compared as numbers) and runs of letters
/// (compared case-insensitively); `-` and `_` only separate.
fn parts(v: &str) -> Vec<Result<u128, String>> {
    let mut out = Vec::new();
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut Vec<Result<u128, String>>| {
        if run.is_empty() {
            return;
        }
        let part = match run.parse::<u128>() {
            Ok(n) if run.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
            _ => Err(run.to_ascii_lowercase()),
        };
        out.push(part);
        run.clear();
    };
    for c in v.chars() {
        let same_kind = run
            .chars()
            .last()
            .is_none_or(|l| l.is_ascii_digit() == c.is_ascii_digit());
        if !c.is_ascii_alphanumeric() || !same_kind {
            flush(&mut run, &mut out);
        }
        if c.is_ascii_alphanumeric() {
            run.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Orders versions as people read them: `V2.10` after `V2.9`, `1.0.1` after `1.0`.
pub fn compare(a: &str, b: &str) -> Ordering {
    let (a, b) = (parts(a), parts(b));
    for (x, y) in a.iter().zip(&b) {
        let o = match (x, y) {
            (Ok(x), Ok(y)) => x.cmp(y),
            (Err(x), Err(y)) => x.cmp(y),
            // A number sorts after letters (1.0a < 1.0.1 is not decidable; keep it stable).
            (Ok(_), Err(_)) => Ordering::Greater,
            (Err(_), Ok(_)) => Ordering::Less,
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    a.len().cmp(&b.len())
}

/// Whether a device reporting `current` already runs `offered` or a newer version (the
/// upgrade is then only a warning the caller may override, 4001); an unknown current version
/// (empty) runs nothing.
pub fn runs_at_least(current: &str, offered: &str) -> bool {
    let current = current.trim();
    !current.is_empty() && compare(current, offered) != Ordering::Less
}

/// A new version must differ from every existing one (4002) and not be lower than the latest.
pub fn version_order<'a>(
    new: &str,
    existing: impl IntoIterator<Item = &'a str>,
) -> Result<(), DomainError> {
    let mut latest: Option<&str> = None;
    for v in existing {
        if v.eq_ignore_ascii_case(new) || compare(v, new) == Ordering::Equal {
            return Err(Code::FirmwareVersionTaken.into());
        }
        if latest.is_none_or(|l| compare(v, l) == Ordering::Greater) {
            latest = Some(v);
        }
    }
    match latest {
        Some(l) if compare(new, l) == Ordering::Less => Err(DomainError::with_detail(
            Code::InvalidParameter,
            format!("version lower than the latest ({l})"),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bin_and_hex_files_with_plain_names_of_at_most_40_characters_pass() {
        assert_eq!(file_name("INV_v1.2-a.BIN"), Ok("bin"));
        assert_eq!(file_name("x.hex"), Ok("hex"));
        assert_eq!(file_name("x.zip").unwrap_err().code, Code::UnsupportedFile);
        assert_eq!(
            file_name("no_extension").unwrap_err().code,
            Code::UnsupportedFile
        );
        assert_eq!(
            file_name("bad name.bin").unwrap_err(),
            DomainError::invalid("fileName")
        );
        assert_eq!(
            file_name("é.bin").unwrap_err(),
            DomainError::invalid("fileName")
        );
        let long = format!("{}.bin", "a".repeat(37));
        assert!(file_name(&long).is_err());
        assert!(file_name(&format!("{}.bin", "a".repeat(36))).is_ok());
    }

    #[test]
    fn hex_files_must_be_intel_hex_text_and_bin_files_anything() {
        assert!(
            sniff(
                "hex",
                b":10010000214601360121470136007EFE09D2190140\r\n:00000001FF\n"
            )
            .is_ok()
        );
        assert_eq!(
            sniff("hex", b"\x00\x01").unwrap_err().code,
            Code::UnsupportedFile
        );
        assert_eq!(
            sniff("hex", b"hello\n").unwrap_err().code,
            Code::UnsupportedFile
        );
        assert_eq!(
            sniff("hex", b"\n\n").unwrap_err().code,
            Code::UnsupportedFile
        );
        assert!(sniff("bin", b"\x00\x01").is_ok());
    }

    #[test]
    fn upgrade_modes_are_iap_or_isp() {
        assert_eq!(upgrade_mode(""), Ok("iap"));
        assert_eq!(upgrade_mode("ISP"), Ok("isp"));
        assert!(upgrade_mode("usb").is_err());
    }

    #[test]
    fn files_are_at_most_one_and_a_half_megabytes_and_never_empty() {
        assert!(size(MAX_SIZE).is_ok());
        assert_eq!(size(MAX_SIZE + 1).unwrap_err().code, Code::FileTooLarge);
        assert!(size(0).is_err());
    }

    #[test]
    fn versions_are_letters_digits_dashes_and_underscores() {
        assert_eq!(version(" V1_2-3 ").unwrap(), "V1_2-3");
        assert!(version("1.2").is_err());
        assert!(version("").is_err());
    }

    #[test]
    fn versions_compare_numerically_part_by_part() {
        assert_eq!(compare("V2_10", "V2_9"), Ordering::Greater);
        assert_eq!(compare("v1-0", "V1_0"), Ordering::Equal);
        assert_eq!(compare("V1_0_1", "V1_0"), Ordering::Greater);
        assert_eq!(compare("V100", "V99"), Ordering::Greater);
    }

    #[test]
    fn a_device_runs_at_least_a_version_it_reports_or_a_newer_one() {
        assert!(runs_at_least("V1_2", "v1-2"));
        assert!(runs_at_least(" V1_10 ", "V1_9"));
        assert!(!runs_at_least("V1_9", "V1_10"));
        assert!(!runs_at_least("", "V1_0"));
    }

    #[test]
    fn a_new_version_is_neither_a_duplicate_nor_lower_than_the_latest() {
        let existing = ["V1_0", "V1_5", "V1_2"];
        assert_eq!(
            version_order("v1_5", existing).unwrap_err().code,
            Code::FirmwareVersionTaken
        );
        let lower = version_order("V1_3", existing).unwrap_err();
        assert_eq!(lower.code, Code::InvalidParameter);
        assert!(lower.detail.unwrap().contains("V1_5"));
        assert!(version_order("V1_10", existing).is_ok());
        assert!(version_order("V1", []).is_ok());
    }
}
