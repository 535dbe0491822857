//! The inverter-type tree's rules (the catalogue firmware is filed under): a title or label
//! name is 1 to 32 characters, and a label's inverter type codes run from 0 to 9999 (SPEC
//! section 3), each once.

use crate::DomainError;

/// The longest name of a title or label.
pub const NAME_MAX: usize = 32;
/// Inverter type codes run from 0 to 9999.
pub const CODE_MAX: i64 = 9999;

/// A title or label name: trimmed, 1 to 32 characters (4 `name`).
pub fn name(raw: Option<&str>) -> Result<String, DomainError> {
    let n = raw.unwrap_or("").trim();
    if n.is_empty() || n.chars().count() > NAME_MAX {
        Err(DomainError::invalid("name"))
    } else {
        Ok(n.to_string())
    }
}

/// A label's codes without repeats, in the order sent; 4 `codes: <code>` for one out of
/// range. Whether another label holds one is the caller's to check.
pub fn codes(raw: &[i64]) -> Result<Vec<i64>, DomainError> {
    let mut out: Vec<i64> = Vec::with_capacity(raw.len());
    for &c in raw {
        if !(0..=CODE_MAX).contains(&c) {
            return Err(DomainError::invalid(format!("codes: {c}")));
        }
        if !out.contains(&c) {
            out.push(c);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_trimmed_and_at_most_32_characters() {
        assert_eq!(name(Some("  Hybrid ")).as_deref(), Ok("Hybrid"));
        assert!(name(Some(&"混".repeat(32))).is_ok());
        assert!(name(Some(&"a".repeat(33))).is_err());
        assert!(name(Some("   ")).is_err());
        assert!(name(None).is_err());
    }

    #[test]
    fn codes_lose_repeats_and_refuse_out_of_range_naming_the_code() {
        assert_eq!(codes(&[94, 2, 94]), Ok(vec![94, 2]));
        assert_eq!(
            codes(&[1, 10000]).unwrap_err().detail.as_deref(),
            Some("codes: 10000")
        );
        assert!(codes(&[-1]).is_err());
    }
}
