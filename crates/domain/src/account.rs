//! Rules for the values a person types when signing up or editing a profile.

use crate::{DomainError, error::Code};

pub const PASSWORD_MIN: usize = 6;
pub const PASSWORD_MAX: usize = 16;
/// Profile texts (nickname, name) are limited like the spec's other short texts.
pub const PROFILE_TEXT_MAX: usize = 30;
pub const EMAIL_MAX: usize = 64;

/// A sign-in account: an email address or a phone number, normalised so that the same person
/// cannot register twice by changing letter case or punctuation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Account {
    Email(String),
    Phone(String),
}

impl Account {
    pub fn parse(raw: &str) -> Result<Account, DomainError> {
        let raw = raw.trim();
        if raw.contains('@') {
            return parse_email(raw).map(Account::Email);
        }
        parse_phone(raw).map(Account::Phone)
    }

    pub fn as_str(&self) -> &str {
        match self {
            Account::Email(s) | Account::Phone(s) => s,
        }
    }

    pub fn email(&self) -> Option<&str> {
        match self {
            Account::Email(s) => Some(s),
            Account::Phone(_) => None,
        }
    }

    pub fn phone(&self) -> Option<&str> {
        match self {
            Account::Phone(s) => Some(s),
            Account::Email(_) => None,
        }
    }
}

pub fn parse_email(raw: &str) -> Result<String, DomainError> {
    let email = raw.trim().to_ascii_lowercase();
    let invalid = || DomainError::invalid("email");
    if email.len() > EMAIL_MAX || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(invalid());
    }
    let (local, domain) = email.split_once('@').ok_or_else(invalid)?;
    let domain_ok = domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
        && domain
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
    let local_ok = !local.is_empty()
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._%+-".contains(c));
    if domain_ok && local_ok {
        Ok(email)
    } else {
        Err(invalid())
    }
}

/// Phone numbers keep an optional leading `+` and their digits; spaces and dashes typed for
/// readability are dropped.
pub fn parse_phone(raw: &str) -> Result<String, DomainError> {
    let raw = raw.trim();
    let (plus, rest) = match raw.strip_prefix('+') {
        Some(rest) => ("+", rest),
        None => ("", raw),
    };
    let mut digits = String::with_capacity(rest.len());
    for c in rest.chars() {
        match c {
            '0'..='9' => digits.push(c),
            ' ' | '-' => {}
            _ => return Err(DomainError::invalid("account")),
        }
    }
    if !(5..=20).contains(&digits.len()) {
        return Err(DomainError::invalid("account"));
    }
    Ok(format!("{plus}{digits}"))
}

/// A password being set (sign-up, reset, change, an administrator's command): 6-16 characters
/// with no spaces or control characters (docs/overview.md, "Limits"), and not one of the commonest
/// passwords (111), which attackers try first. Signing in never applies this rule, so an older
/// common password still works until it is changed.
pub fn check_password(password: &str) -> Result<(), DomainError> {
    let len = password.chars().count();
    if !(PASSWORD_MIN..=PASSWORD_MAX).contains(&len)
        || password
            .chars()
            .any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(DomainError::invalid("password"));
    }
    if crate::common_password::is_common(password) {
        return Err(Code::PasswordTooCommon.into());
    }
    Ok(())
}

/// A short profile text: trimmed, at most `max` characters, no control characters.
pub fn check_text(field: &str, value: &str, max: usize) -> Result<String, DomainError> {
    let value = value.trim();
    if value.chars().count() > max || value.chars().any(char::is_control) {
        return Err(DomainError::invalid(field));
    }
    Ok(value.to_string())
}

/// An optional contact field (`email`, `mobile`): empty, or a value `parse` accepts (4
/// `field`).
pub fn optional_contact(
    field: &str,
    raw: Option<&str>,
    parse: fn(&str) -> Result<String, DomainError>,
) -> Result<String, DomainError> {
    match raw.map(str::trim).unwrap_or("") {
        "" => Ok(String::new()),
        v => parse(v).map_err(|_| DomainError::invalid(field)),
    }
}

/// The nickname an account gets when none is given: what comes before the `@` of its name.
pub fn default_nickname(account: &Account, given: String) -> String {
    match given.as_str() {
        "" => account
            .as_str()
            .split('@')
            .next()
            .unwrap_or_default()
            .to_string(),
        _ => given,
    }
}

/// Verification codes are six digits. Clients that send the code as a JSON number lose its
/// leading zeros, so shorter digit strings are padded back.
pub fn check_code(code: &str) -> Result<String, DomainError> {
    let code = code.trim();
    if (1..=6).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_digit()) {
        Ok(format!("{code:0>6}"))
    } else {
        Err(Code::CodeWrong.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_lowercased_and_phones_lose_their_punctuation() {
        assert_eq!(
            Account::parse(" Ann@Example.COM ").unwrap(),
            Account::Email("ann@example.com".into())
        );
        assert_eq!(
            Account::parse("+44 7700-900123").unwrap(),
            Account::Phone("+447700900123".into())
        );
    }

    #[test]
    fn malformed_accounts_are_rejected() {
        for bad in [
            "",
            "a@b",
            "@example.com",
            "ann@exa mple.com",
            "ann@@x.com",
            "12",
            "12ab34",
            "x'; DROP TABLE users;--",
            &"9".repeat(25),
        ] {
            assert!(Account::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn passwords_must_be_six_to_sixteen_characters_without_spaces() {
        assert!(check_password("tqx123").is_ok());
        assert!(check_password("abcdefghijklmnoq").is_ok());
        assert!(check_password("abc12").is_err());
        assert!(check_password("abcdefghijklmnopq").is_err());
        assert!(check_password("abc 123").is_err());
    }

    #[test]
    fn common_passwords_are_refused_with_their_own_code() {
        for p in ["123456", "password", "aaaaaa", "Qwerty123"] {
            assert_eq!(
                check_password(p).map_err(|e| e.code),
                Err(Code::PasswordTooCommon),
                "{p}"
            );
        }
        // Length comes first: a short common password is a length problem.
        assert_eq!(
            check_password("12345").map_err(|e| e.code),
            Err(Code::InvalidParameter)
        );
    }

    #[test]
    fn texts_longer_than_their_limit_are_rejected() {
        assert_eq!(check_text("nickname", "  Ann ", 30).unwrap(), "Ann");
        assert!(check_text("nickname", &"x".repeat(31), 30).is_err());
    }

    #[test]
    fn codes_are_six_digits() {
        assert_eq!(check_code("012345").unwrap(), "012345");
        assert_eq!(
            check_code("12345").unwrap(),
            "012345",
            "a number lost its leading zero"
        );
        assert!(check_code("1234567").is_err());
        assert!(check_code("").is_err());
        assert!(check_code("abcdef").is_err());
    }
}
