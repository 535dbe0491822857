//! Failed sign-ins: slowed down, then locked per (account, address) pair, with a verification
//! code as the owner's way out. Failures on one pair lock only that pair; failures for the
//! account from many addresses, or from one address over many accounts, only slow down and, far
//! beyond what a person mistypes, ask for that same code. So a correct password from an address
//! that has not been failing is never refused outright, while guessing stays slow and bounded.
//! An address the account signed in from within [`KNOWN_FOR_MS`] is not asked for a code
//! because of the account's failures elsewhere (nor slowed by them): an attacker failing
//! against someone's account cannot force its owner, at home, into the code step.
//! The counting is the same whether or not the account exists, and the state lives in the
//! database (`login_throttle`) so that every replica applies it. docs/security.md has the rules.

use std::net::IpAddr;

use domain::Code;
use store::{Store, auth::ThrottleRow};

use crate::envelope::ApiError;

/// Failures are counted within this window, and a lock or a demand for proof lasts this long.
pub const WINDOW_MS: i64 = 15 * 60 * 1000;
/// Failures of one account from one address before that pair is locked.
pub const PAIR_LOCK_AFTER: i64 = 5;
/// Failures of one account (any address) before each attempt waits, and before a code is asked.
pub const ACCOUNT_SLOW_AFTER: i64 = 3;
pub const ACCOUNT_PROOF_AFTER: i64 = 20;
/// Failures from one address (any account) before each attempt waits, and before a code is
/// asked for every account from there.
pub const ADDRESS_SLOW_AFTER: i64 = 30;
pub const ADDRESS_PROOF_AFTER: i64 = 100;
/// How long an address the account signed in from stays known to it.
pub const KNOWN_FOR_MS: i64 = 30 * 24 * 3600 * 1000;
/// The wait grows by one step (`ApiConfig::sign_in_delay_step_ms`, 500 ms) per failure past
/// the threshold, up to this.
pub const MAX_DELAY_MS: u64 = 3000;

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
    pub async fn admit(
        &self,
        store: &Store,
        now: i64,
        proven: bool,
        step_ms: u64,
    ) -> Result<(), ApiError> {
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
            tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
        }
        Ok(())
    }

    /// Counts a failure on the pair, the account and the address, locking whichever reached
    /// its limit.
    pub async fn failed(&self, store: &Store, now: i64) -> Result<(), ApiError> {
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

    /// A successful sign-in unlocks its pair and makes its address known to the account for
    /// [`KNOWN_FOR_MS`]. The account's and the address's counts run out with their window: an
    /// attacker's progress is not reset by the owner signing in.
    pub async fn succeeded(&self, store: &Store, now: i64) -> Result<(), ApiError> {
        store.clear_login_failures(&self.pair).await?;
        // Stored as a throttle row "locked" until it expires, so it is purged after that.
        store.clear_login_failures(&self.known).await?;
        store.record_login_failure(&self.known, now, now).await?;
        store.lock_login(&self.known, now + KNOWN_FOR_MS).await?;
        Ok(())
    }
}

/// A key's failures in the current window (none once it has passed) and its lock.
async fn state(store: &Store, key: &str, now: i64) -> Result<ThrottleRow, ApiError> {
    let row = store.throttle(key).await?.unwrap_or(ThrottleRow {
        failures: 0,
        window_start: now,
        locked_until: 0,
    });
    let failures = if row.window_start >= now - WINDOW_MS {
        row.failures
    } else {
        0
    };
    Ok(ThrottleRow { failures, ..row })
}

/// No delay up to `after` failures, then one step more per failure, capped.
fn delay_ms(failures: i64, after: i64, step_ms: u64) -> u64 {
    let over = u64::try_from(failures - after).unwrap_or(0);
    over.saturating_mul(step_ms).min(MAX_DELAY_MS)
}

#[cfg(test)]
mod tests {
    use super::delay_ms;

    #[test]
    fn delay_grows_after_a_few_failures_and_is_capped() {
        assert_eq!(delay_ms(0, 3, 500), 0);
        assert_eq!(delay_ms(3, 3, 500), 0);
        assert_eq!(delay_ms(4, 3, 500), 500);
        assert_eq!(delay_ms(100, 3, 500), 3000);
        assert_eq!(delay_ms(31, 30, 500), 500);
    }
}
