//! Verification codes: six digits, sent to an email address or phone, valid for ten minutes,
//! used once, at most five wrong guesses, and at most one send a minute and ten an hour per
//! account. Purposes: registration, password reset, the notification address, and the proof
//! that unlocks a locked sign-in.

use crate::DomainError;

/// How long a code is valid after it is sent.
pub const TTL_MS: i64 = 10 * 60 * 1000;
/// The least time between two codes sent to one account.
pub const RESEND_AFTER_MS: i64 = 60 * 1000;
/// Codes one account may be sent within [`SEND_WINDOW_MS`].
pub const MAX_PER_WINDOW: i64 = 10;
pub const SEND_WINDOW_MS: i64 = 60 * 60 * 1000;
/// Wrong guesses after which a code is retired.
pub const MAX_WRONG_GUESSES: i64 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Register,
    Reset,
    /// Confirms the address that receives abnormal-event emails.
    Notify,
    /// Proves a sign-in comes from the account's owner when sign-in is locked (code 109).
    Login,
}

impl Purpose {
    /// Clients name the purpose in words or by number; registration is the default.
    pub fn parse(raw: Option<&str>) -> Result<Purpose, DomainError> {
        match raw.map(str::trim).unwrap_or("register") {
            "register" | "reg" | "signup" | "1" => Ok(Purpose::Register),
            "reset" | "forget" | "resetPwd" | "2" => Ok(Purpose::Reset),
            "notify" | "3" => Ok(Purpose::Notify),
            "login" | "signin" | "unlock" | "4" => Ok(Purpose::Login),
            _ => Err(DomainError::invalid("type")),
        }
    }

    /// The name stored with the code.
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Register => "register",
            Purpose::Reset => "reset",
            Purpose::Notify => "notify",
            Purpose::Login => "login",
        }
    }
}

/// Whether an account may be sent another code: the last one went out at `latest`, and
/// `sent_in_window` went out within the last [`SEND_WINDOW_MS`].
pub fn may_send(latest: Option<i64>, sent_in_window: i64, now: i64) -> bool {
    latest.is_none_or(|t| t <= now - RESEND_AFTER_MS) && sent_in_window < MAX_PER_WINDOW
}

/// What a guess at a live code comes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guess {
    /// Right and in time.
    Right,
    /// Too late (6).
    Expired,
    /// Wrong (5): the guess counts against the code.
    Wrong,
    /// The code has had its wrong guesses and retires, whatever was guessed (5).
    Exhausted,
}

/// Judges a guess at a code that expires at `expires_at` and was guessed wrong `attempts`
/// times before; `matches` is whether the guess is the code.
pub fn judge(expires_at: i64, attempts: i64, matches: bool, now: i64) -> Guess {
    if expires_at <= now {
        Guess::Expired
    } else if attempts >= MAX_WRONG_GUESSES {
        Guess::Exhausted
    } else if !matches {
        Guess::Wrong
    } else {
        Guess::Right
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_a_minute_and_ten_an_hour() {
        assert!(may_send(None, 0, 100_000));
        assert!(!may_send(Some(50_000), 1, 100_000));
        assert!(may_send(Some(40_000), 1, 100_000));
        assert!(!may_send(None, MAX_PER_WINDOW, 100_000));
    }

    #[test]
    fn expiry_comes_before_the_guess_count_and_the_guess() {
        assert_eq!(judge(10, 0, true, 10), Guess::Expired);
        assert_eq!(judge(20, MAX_WRONG_GUESSES, true, 10), Guess::Exhausted);
        assert_eq!(judge(20, 0, false, 10), Guess::Wrong);
        assert_eq!(judge(20, MAX_WRONG_GUESSES - 1, true, 10), Guess::Right);
        assert_eq!(Purpose::parse(None), Ok(Purpose::Register));
        assert_eq!(Purpose::parse(Some("4")), Ok(Purpose::Login));
        assert!(Purpose::parse(Some("x")).is_err());
    }
}
