//! A webhook endpoint's signing secret: made by the server, answered once (when the endpoint is
//! added and when it is rotated), stored sealed with the process's credential key
//! (`crate::sealing`) beside its last four characters, and opened only to sign a delivery.
//! Secrets stored in the clear before sealing existed are opened as they are and sealed by the
//! sender ([`seal_stored_in_clear`]).

use rand::RngCore;
use store::{Store, webhooks::StoredSecret};

use crate::{Result, ServiceError, sealing};

/// What a webhook secret starts with.
pub const PREFIX: &str = "whsec_";
/// Secrets in the clear sealed per call of [`seal_stored_in_clear`].
const SEAL_BATCH: i64 = 100;

/// A new secret: 32 random bytes in hex, with a prefix that says what it is.
pub fn new() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    format!("{PREFIX}{}", hex::encode(bytes))
}

/// The last four characters, which lists show to tell secrets apart.
pub fn hint(secret: &str) -> String {
    let n = secret.chars().count();
    secret.chars().skip(n.saturating_sub(4)).collect()
}

/// The secret sealed, to store (a failure of the key is the caller's internal error).
pub fn seal(secret: &str) -> Result<String> {
    sealing::key()
        .and_then(|k| k.seal(secret).map_err(|e| e.to_string()))
        .map_err(|e| ServiceError::Internal(format!("webhook secret not sealed: {e}")))
}

/// `secret` sealed and its hint, ready for the store.
pub fn stored<'a>(sealed: &'a str, hint: &'a str) -> StoredSecret<'a> {
    StoredSecret { sealed, hint }
}

/// The secret a delivery is signed with, from its stored form; the error says why it cannot
/// be had (never the secret).
pub fn open(stored: &str) -> std::result::Result<String, String> {
    if stored.starts_with(PREFIX) {
        // Stored in the clear before secrets were sealed; the sender seals it soon.
        return Ok(stored.to_string());
    }
    let key = sealing::key()?;
    key.open(stored).map_err(|e| e.to_string())
}

/// Seals up to a batch of secrets still stored in the clear; answers how many were sealed.
pub async fn seal_stored_in_clear(store: &Store) -> Result<u64> {
    let mut sealed = 0;
    for row in store.webhook_secrets_in_clear(SEAL_BATCH).await? {
        let s = seal(&row.secret)?;
        if store.seal_webhook_secret(row.id, &row.secret, &s).await? {
            sealed += 1;
        }
    }
    Ok(sealed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_prefixed_hex_and_its_hint_its_last_four_characters() {
        let s = new();
        assert!(s.starts_with(PREFIX) && s.len() == PREFIX.len() + 64, "{s}");
        assert_ne!(s, new());
        assert_eq!(hint("whsec_0123abcd"), "abcd");
        assert_eq!(hint("ab"), "ab");
        assert_eq!(open("whsec_legacy").as_deref(), Ok("whsec_legacy"));
    }
}
