//! Limits on anonymous calls that reveal or send something (per client address), and on
//! guessing the current password of a signed-in account. Counted in the database
//! (`login_throttle`, one row per key and window) so that every replica shares them.

use std::net::IpAddr;

use domain::{Code, ids::UserId};
use store::Store;

use crate::{envelope::ApiError, throttle::WINDOW_MS};

/// Calls of one kind from one address within [`WINDOW_MS`].
pub struct RateLimit {
    pub name: &'static str,
    pub max: i64,
}

/// `/anonymous/checkAccount` tells whether an account exists: as many as codes may be sent,
/// since the registration and reset screens ask once before each.
pub const CHECK_ACCOUNT: RateLimit = RateLimit {
    name: "checkAccount",
    max: 10,
};
/// `/anonymous/signup` and `/anonymous/resetPwd` each guess a code (codes also retire after 5
/// wrong guesses, and an account is sent at most 10 an hour).
pub const SIGNUP: RateLimit = RateLimit {
    name: "signup",
    max: 20,
};
pub const RESET_PASSWORD: RateLimit = RateLimit {
    name: "resetPwd",
    max: 20,
};
/// `/anonymous/getCode` sends a message (each account also has its own limits).
pub const GET_CODE: RateLimit = RateLimit {
    name: "getCode",
    max: 10,
};

/// Checks of accounts by signed-in company staff (the agent and customer checks and requests):
/// their answers tell something about the account, so nobody may walk through a list of
/// accounts. Counted per caller, whatever address they call from.
pub const ACCOUNT_LOOKUP: RateLimit = RateLimit {
    name: "accountLookup",
    max: 60,
};

/// `/api/v1/company/user/check` tells a company administrator whether an account exists
/// anywhere: enough for filling in staff forms, too few to walk a list of addresses.
pub const STAFF_ACCOUNT_CHECK: RateLimit = RateLimit {
    name: "staffAccountCheck",
    max: 30,
};

impl RateLimit {
    /// Counts the call; past the limit answers 7 (too many attempts) until the window ends.
    pub async fn check(&self, store: &Store, ip: IpAddr, now: i64) -> Result<(), ApiError> {
        self.count(store, format!("rate:{}:{ip}", self.name), now)
            .await
    }

    /// [`RateLimit::check`] per signed-in caller.
    pub async fn check_caller(
        &self,
        store: &Store,
        user: UserId,
        now: i64,
    ) -> Result<(), ApiError> {
        self.count(store, format!("rate:{}:user:{}", self.name, user.0), now)
            .await
    }

    async fn count(&self, store: &Store, key: String, now: i64) -> Result<(), ApiError> {
        let t = store
            .record_login_failure(&key, now, now - WINDOW_MS)
            .await?;
        if t.failures > self.max {
            if t.failures == self.max + 1 {
                tracing::warn!(%key, "rate limit reached");
            }
            return Err(Code::TooManyAttempts.into());
        }
        Ok(())
    }
}

/// Wrong current passwords before a password change is refused, even with the right one.
pub const PASSWORD_CHANGE_LOCK_AFTER: i64 = 5;

/// Someone holding a signed-in session must not get unlimited guesses at its password (which
/// would let them change it and keep the account).
pub struct PasswordChange {
    key: String,
}

impl PasswordChange {
    pub fn new(user: UserId) -> PasswordChange {
        PasswordChange {
            key: format!("pwchange:{}", user.0),
        }
    }

    /// 110 while locked.
    pub async fn admit(&self, store: &Store, now: i64) -> Result<(), ApiError> {
        match store.throttle(&self.key).await? {
            Some(t) if t.locked_until > now => Err(Code::PasswordChangeLocked.into()),
            _ => Ok(()),
        }
    }

    /// Counts a wrong current password; the last one allowed locks for [`WINDOW_MS`].
    pub async fn failed(&self, store: &Store, now: i64) -> Result<(), ApiError> {
        let t = store
            .record_login_failure(&self.key, now, now - WINDOW_MS)
            .await?;
        if t.failures >= PASSWORD_CHANGE_LOCK_AFTER {
            tracing::warn!(key = %self.key, "password change locked for 15 minutes");
            store.lock_login(&self.key, now + WINDOW_MS).await?;
        }
        Ok(())
    }

    pub async fn succeeded(&self, store: &Store) -> Result<(), ApiError> {
        store.clear_login_failures(&self.key).await?;
        Ok(())
    }
}
