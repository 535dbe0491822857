//! A company's customers (the owner accounts it serves) and its tree of customer types: the
//! limits of what they are written with, and the one rule of the tree (no cycles).

use crate::{DomainError, ids::CustomerTypeId};

/// A remark on a customer or a type: at most 200 characters.
pub const REMARK_MAX: usize = 200;
/// A type code: letters, digits, `-` and `_`, 1 to 20 of them.
pub const TYPE_CODE_MAX: usize = 20;
/// A type name: 1 to 30 characters.
pub const TYPE_NAME_MAX: usize = 30;

/// A remark, trimmed; absent is empty. 4 `remark` beyond 200 characters or with control
/// characters other than line breaks.
pub fn remark(raw: Option<&str>) -> Result<String, DomainError> {
    let r = raw.unwrap_or("").trim();
    let bad_char = r.chars().any(|c| c.is_control() && c != '\n' && c != '\r');
    if r.chars().count() > REMARK_MAX || bad_char {
        return Err(DomainError::invalid("remark"));
    }
    Ok(r.to_string())
}

/// The note a company sends with its request to become someone's customer or principal: the
/// rules of a remark, reported as 4 `message`.
pub fn offer_message(raw: Option<&str>) -> Result<String, DomainError> {
    remark(raw).map_err(|_| DomainError::invalid("message"))
}

/// What a customer type is written with, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeFields {
    pub code: String,
    pub name: String,
    pub remark: String,
}

impl TypeFields {
    /// 4 `code`, `name` or `remark` for the first field that breaks its rule.
    pub fn parse(
        code: Option<&str>,
        name: Option<&str>,
        remark_raw: Option<&str>,
    ) -> Result<TypeFields, DomainError> {
        let code = code.unwrap_or("").trim();
        let code_ok = (1..=TYPE_CODE_MAX).contains(&code.len())
            && code
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !code_ok {
            return Err(DomainError::invalid("code"));
        }
        let name = name.unwrap_or("").trim();
        let n = name.chars().count();
        if n == 0 || n > TYPE_NAME_MAX || name.chars().any(char::is_control) {
            return Err(DomainError::invalid("name"));
        }
        Ok(TypeFields {
            code: code.to_string(),
            name: name.to_string(),
            remark: remark(remark_raw)?,
        })
    }
}

/// Whether `parent` may be the parent of type `id` (`None` for a new type) among a company's
/// types, given as `(id, parent)`: it must be one of them, and neither `id` itself nor one of
/// its descendants (that would make a cycle).
pub fn parent_allowed(
    types: &[(CustomerTypeId, Option<CustomerTypeId>)],
    id: Option<CustomerTypeId>,
    parent: CustomerTypeId,
) -> bool {
    if !types.iter().any(|(t, _)| *t == parent) {
        return false;
    }
    let Some(id) = id else { return true };
    // Walk up from the parent; meeting `id` on the way means `parent` is below it. The step
    // bound stops on a cycle already stored, refusing rather than looping.
    let mut at = Some(parent);
    for _ in 0..=types.len() {
        match at {
            None => return true,
            Some(t) if t == id => return false,
            Some(t) => at = types.iter().find(|(x, _)| *x == t).and_then(|(_, p)| *p),
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_letters_digits_dashes_and_underscores_of_1_to_20() {
        assert!(TypeFields::parse(Some(" VIP_1-a "), Some("VIP"), None).is_ok());
        for bad in ["", "has space", "ü", &"A".repeat(21)] {
            let e = TypeFields::parse(Some(bad), Some("x"), None).unwrap_err();
            assert_eq!(e.detail.as_deref(), Some("code"), "{bad:?}");
        }
    }

    #[test]
    fn names_are_1_to_30_characters_and_remarks_at_most_200() {
        assert!(TypeFields::parse(Some("a"), Some(&"名".repeat(30)), None).is_ok());
        let e = TypeFields::parse(Some("a"), Some(&"名".repeat(31)), None).unwrap_err();
        assert_eq!(e.detail.as_deref(), Some("name"));
        let e = TypeFields::parse(Some("a"), Some("  "), None).unwrap_err();
        assert_eq!(e.detail.as_deref(), Some("name"));
        assert!(remark(Some(&"r".repeat(200))).is_ok());
        assert_eq!(
            remark(Some(&"r".repeat(201)))
                .unwrap_err()
                .detail
                .as_deref(),
            Some("remark")
        );
        assert_eq!(remark(None).as_deref(), Ok(""));
    }

    #[test]
    fn a_parent_is_a_type_of_the_company_and_never_the_type_or_below_it() {
        let tree = |raw: &[(i64, Option<i64>)]| -> Vec<(CustomerTypeId, Option<CustomerTypeId>)> {
            raw.iter()
                .map(|&(t, p)| (CustomerTypeId(t), p.map(CustomerTypeId)))
                .collect()
        };
        let allowed =
            |types: &[(CustomerTypeId, Option<CustomerTypeId>)], id: Option<i64>, parent| {
                parent_allowed(types, id.map(CustomerTypeId), CustomerTypeId(parent))
            };
        // 1 <- 2 <- 3, and 4 alone.
        let types = tree(&[(1, None), (2, Some(1)), (3, Some(2)), (4, None)]);
        assert!(allowed(&types, None, 3), "a new type under a leaf");
        assert!(!allowed(&types, None, 99), "not a type of the company");
        assert!(allowed(&types, Some(4), 3));
        assert!(allowed(&types, Some(3), 1), "moving up");
        assert!(!allowed(&types, Some(1), 1), "itself");
        assert!(!allowed(&types, Some(1), 3), "its grandchild");
        assert!(!allowed(&types, Some(2), 3), "its child");
        let looped = tree(&[(1, Some(2)), (2, Some(1)), (5, None)]);
        assert!(!allowed(&looped, Some(5), 1), "a stored cycle is refused");
    }
}
