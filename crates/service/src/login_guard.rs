//! Counting the attempts that [`domain::login_guard`] limits: failed sign-ins per (account,
//! address) pair, account and address; wrong current passwords per account; and anonymous
//! calls per client address or signed-in caller. The counts live in the database
//! (`login_throttle`) so that every replica applies them, and they are the same whether or not
//! an account exists.

use std::{net::IpAddr, time::Duration};

use domain::{
    Code,
    ids::UserId,
    login_guard::{
        ACCOUNT_PROOF_AFTER, ACCOUNT_SLOW_AFTER, ADDRESS_PROOF_AFTER, ADDRESS_SLOW_AFTER,
        PAIR_LOCK_AFTER, PASSWORD_CHANGE_LOCK_AFTER, RateLimit, WINDOW_MS, delay_ms,
        failures_in_window,
    },
};
use store::{Store, auth::ThrottleRow};

use crate::Result;

/// Counts a call of `limit`'s kind from `ip`; past the limit answers 7 (too many attempts)
/// until the window ends.
pub async fn limit_address(store: &Store, limit: &RateLimit, ip: IpAddr, now: i64) -> Result<()> {
    count(store, limit, format!("rate:{}:{ip}", limit.name), now).await
}

/// [`limit_address`] per signed-in caller, whatever address they call from.
pub async fn limit_caller(store: &Store, limit: &RateLimit, user: UserId, now: i64) -> Result<()> {
    count(
        store,
        limit,
        format!("rate:{}:user:{}", limit.name, user.0),
        now,
    )
    .await
}

async fn count(store: &Store, limit: &RateLimit, key: String, now: i64) -> Result<()> {
    let t = store
        .record_login_failure(&key, now, now - WINDOW_MS)
        .await?;
    if t.failures > limit.max {
        if t.failures == limit.max + 1 {
            tracing::warn!(%key, "rate limit reached");
        }
        return Err(Code::TooManyAttempts.into());
    }
    Ok(())
}

/// One sign-in attempt: an account (known or not) from a client address.
pub struct Attempt {
    pair: String,
    account: String,
    address: String,
    /// A row whose lock time is when this address stops being known to the account.
    known: String,
}

impl Attempt {
    pub fn new(account: &str, ip: IpAddr) -> Attempt {
        Attempt {
            // The address first: it never contains `|`, so no two pairs share a key.
            pair: format!("pair:{ip}|{account}"),
            account: format!("account:{account}"),
            address: format!("ip:{ip}"),
            known: format!("known:{ip}|{account}"),
        }
    }

    /// Without proof, refuses (109) while the pair is locked or the account or address asks
    /// for a code, and otherwise waits as long as earlier failures deserve. With proof (a valid
    /// sign-in code) the attempt goes ahead at once.
    pub async fn admit(&self, store: &Store, now: i64, proven: bool, step_ms: u64) -> Result<()> {
        if proven {
            return Ok(());
        }
        let pair = state(store, &self.pair, now).await?;
        let mut account = state(store, &self.account, now).await?;
        let address = state(store, &self.address, now).await?;
        let known = store
            .throttle(&self.known)
            .await?
            .is_some_and(|t| t.locked_until > now);
        if known {
            // The owner's own address: others' failures against the account do not apply.
            account = ThrottleRow {
                failures: 0,
                window_start: now,
                locked_until: 0,
            };
        }
        if [pair, account, address]
            .iter()
            .any(|t| t.locked_until > now)
        {
            return Err(Code::SignInLocked.into());
        }
        let delay = delay_ms(account.failures, ACCOUNT_SLOW_AFTER, step_ms).max(delay_ms(
            address.failures,
            ADDRESS_SLOW_AFTER,
            step_ms,
        ));
        if delay > 0 {
            tokio::time::sleep(Duration::from_millis(delay)).await;
        }
        Ok(())
    }

    /// Counts a failure on the pair, the account and the address, locking whichever reached
    /// its limit.
    pub async fn failed(&self, store: &Store, now: i64) -> Result<()> {
        for (key, limit) in [
            (&self.pair, PAIR_LOCK_AFTER),
            (&self.account, ACCOUNT_PROOF_AFTER),
            (&self.address, ADDRESS_PROOF_AFTER),
        ] {
            let t = store
                .record_login_failure(key, now, now - WINDOW_MS)
                .await?;
            if t.failures >= limit && t.locked_until <= now {
                tracing::warn!(%key, failures = t.failures, "sign-in needs a code for 15 minutes");
                store.lock_login(key, now + WINDOW_MS).await?;
            } else if t.failures > ACCOUNT_SLOW_AFTER && key == &self.account {
                tracing::warn!(%key, failures = t.failures, "repeated failed sign-ins");
            }
        }
        Ok(())
    }

    /// The key a successful sign-in clears: its pair is unlocked. The account's and the
    /// address's counts run out with their window: an attacker's progress is not reset by the
    /// owner signing in.
    pub fn pair_key(&self) -> &str {
        &self.pair
    }

    /// The key that marks the address as known to the account after a successful sign-in.
    pub fn known_key(&self) -> &str {
        &self.known
    }
}

/// A key's failures in the current window (none once it has passed) and its lock.
async fn state(store: &Store, key: &str, now: i64) -> Result<ThrottleRow> {
    let row = store.throttle(key).await?.unwrap_or(ThrottleRow {
        failures: 0,
        window_start: now,
        locked_until: 0,
    });
    Ok(ThrottleRow {
        failures: failures_in_window(row.failures, row.window_start, now),
        ..row
    })
}

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
    pub async fn admit(&self, store: &Store, now: i64) -> Result<()> {
        match store.throttle(&self.key).await? {
            Some(t) if t.locked_until > now => Err(Code::PasswordChangeLocked.into()),
            _ => Ok(()),
        }
    }

    /// Counts a wrong current password; the last one allowed locks for [`WINDOW_MS`].
    pub async fn failed(&self, store: &Store, now: i64) -> Result<()> {
        let t = store
            .record_login_failure(&self.key, now, now - WINDOW_MS)
            .await?;
        if t.failures >= PASSWORD_CHANGE_LOCK_AFTER {
            tracing::warn!(key = %self.key, "password change locked for 15 minutes");
            store.lock_login(&self.key, now + WINDOW_MS).await?;
        }
        Ok(())
    }

    pub async fn succeeded(&self, store: &Store) -> Result<()> {
        store.clear_login_failures(&self.key).await?;
        Ok(())
    }
}
