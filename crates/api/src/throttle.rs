//! Slows down and then refuses repeated failed sign-ins, per account and per client address.
//! The same counting applies whether or not the account exists, so the answers reveal nothing.

use std::net::IpAddr;

use domain::Code;
use store::Store;

use crate::envelope::ApiError;

/// Failures counted within this window.
const WINDOW_MS: i64 = 15 * 60 * 1000;
/// After this many failures every further attempt waits a little longer.
const SLOW_AFTER: i64 = 3;
/// After this many failures for one account the account is refused for [`LOCK_MS`].
const LOCK_ACCOUNT_AFTER: i64 = 10;
/// One address may fail this often (over all accounts) before it is refused.
const LOCK_ADDRESS_AFTER: i64 = 50;
const LOCK_MS: i64 = 15 * 60 * 1000;
const MAX_DELAY_MS: i64 = 3000;

pub struct Attempt {
    account_key: String,
    address_key: String,
}

impl Attempt {
    pub fn new(account: &str, ip: IpAddr) -> Attempt {
        Attempt {
            account_key: format!("account:{account}"),
            address_key: format!("ip:{ip}"),
        }
    }

    /// Refuses the attempt while either key is locked; otherwise waits as long as earlier
    /// failures deserve, so that guessing gets slower with every miss.
    pub async fn admit(&self, store: &Store, now: i64) -> Result<(), ApiError> {
        let mut failures = 0;
        for key in [&self.account_key, &self.address_key] {
            if let Some(t) = store.throttle(key).await? {
                if t.locked_until > now {
                    return Err(Code::TooManyAttempts.into());
                }
                if t.window_start >= now - WINDOW_MS && key == &self.account_key {
                    failures = t.failures;
                }
            }
        }
        let delay = delay_for(failures);
        if delay > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(delay as u64)).await;
        }
        Ok(())
    }

    pub async fn failed(&self, store: &Store, now: i64) -> Result<(), ApiError> {
        for (key, limit) in [
            (&self.account_key, LOCK_ACCOUNT_AFTER),
            (&self.address_key, LOCK_ADDRESS_AFTER),
        ] {
            let t = store
                .record_login_failure(key, now, now - WINDOW_MS)
                .await?;
            if t.failures >= limit {
                tracing::warn!(%key, failures = t.failures, "sign-in refused for 15 minutes");
                store.lock_login(key, now + LOCK_MS).await?;
            } else if t.failures > SLOW_AFTER {
                tracing::warn!(%key, failures = t.failures, "repeated failed sign-ins");
            }
        }
        Ok(())
    }

    pub async fn succeeded(&self, store: &Store) -> Result<(), ApiError> {
        store.clear_login_failures(&self.account_key).await?;
        Ok(())
    }
}

/// No delay for the first few misses, then half a second more per miss, capped.
fn delay_for(failures: i64) -> i64 {
    ((failures - SLOW_AFTER).max(0) * 500).min(MAX_DELAY_MS)
}

#[cfg(test)]
mod tests {
    use super::delay_for;

    #[test]
    fn delay_grows_after_a_few_failures_and_is_capped() {
        assert_eq!(delay_for(0), 0);
        assert_eq!(delay_for(3), 0);
        assert_eq!(delay_for(4), 500);
        assert_eq!(delay_for(100), 3000);
    }
}
