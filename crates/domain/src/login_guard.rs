//! The limits on guessing: failed sign-ins are slowed down, then locked per (account, address)
//! pair, with a verification code as the owner's way out. Failures on one pair lock only that
//! pair; failures for the account from many addresses, or from one address over many accounts,
//! only slow down and, far beyond what a person mistypes, ask for that same code. So a correct
//! password from an address that has not been failing is never refused outright, while guessing
//! stays slow and bounded. An address the account signed in from within [`KNOWN_FOR_MS`] is not
//! asked for a code because of the account's failures elsewhere (nor slowed by them). Anonymous
//! calls that reveal or send something are limited per client address, and guesses at the
//! current password of a signed-in account per account. docs/security.md has the rules.

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
/// The wait grows by one step (500 ms as configured by default) per failure past the
/// threshold, up to this.
pub const MAX_DELAY_MS: u64 = 3000;
/// Wrong current passwords before a password change is refused, even with the right one.
pub const PASSWORD_CHANGE_LOCK_AFTER: i64 = 5;

/// No delay up to `after` failures, then one step more per failure, capped.
pub fn delay_ms(failures: i64, after: i64, step_ms: u64) -> u64 {
    let over = u64::try_from(failures - after).unwrap_or(0);
    over.saturating_mul(step_ms).min(MAX_DELAY_MS)
}

/// A key's failures that still count: none once its window began before [`WINDOW_MS`] ago.
pub fn failures_in_window(failures: i64, window_start: i64, now: i64) -> i64 {
    if window_start >= now - WINDOW_MS {
        failures
    } else {
        0
    }
}

/// Calls of one kind from one address (or one caller) within [`WINDOW_MS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delay_grows_after_a_few_failures_and_is_capped() {
        assert_eq!(delay_ms(0, 3, 500), 0);
        assert_eq!(delay_ms(3, 3, 500), 0);
        assert_eq!(delay_ms(4, 3, 500), 500);
        assert_eq!(delay_ms(100, 3, 500), 3000);
        assert_eq!(delay_ms(31, 30, 500), 500);
    }

    #[test]
    fn failures_of_a_past_window_do_not_count() {
        assert_eq!(failures_in_window(4, 1_000, 1_000 + WINDOW_MS), 4);
        assert_eq!(failures_in_window(4, 999, 1_000 + WINDOW_MS), 0);
    }
}
