//! Password hashes: argon2id, computed on a blocking thread (deliberately slow, it must not
//! hold an async worker). Signing in, changing a password, creating accounts (HTTP, the admin
//! command, the demo) all hash and check here.

use argon2::{Argon2, PasswordHash, PasswordVerifier, password_hash::PasswordHasher};

/// Hashing could not be done (the blocking task died, or argon2 refused): a server fault,
/// never the caller's.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct HashError(pub String);

impl HashError {
    fn new(context: &str, err: impl std::fmt::Display) -> Self {
        HashError(format!("{context}: {err}"))
    }
}

/// A hash every unknown account is checked against, made once per process.
static DECOY_HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Hashes `password` with argon2id on a blocking thread.
pub async fn hash(password: String) -> Result<String, HashError> {
    tokio::task::spawn_blocking(move || hash_blocking(&password))
        .await
        .map_err(|e| HashError::new("hash task", e))?
}

fn hash_blocking(password: &str) -> Result<String, HashError> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| HashError::new("hash", e))
}

/// Whether `password` matches `hash`. Without a hash (no such account) a decoy hash is
/// checked anyway, so that the answer takes as long as for an account that exists.
pub async fn verify(password: String, hash: Option<String>) -> Result<bool, HashError> {
    tokio::task::spawn_blocking(move || {
        let decoy;
        let hash = match hash {
            Some(h) => h,
            None => {
                decoy = match DECOY_HASH.get() {
                    Some(h) => h.clone(),
                    None => {
                        let h = hash_blocking("decoy-password")?;
                        DECOY_HASH.get_or_init(|| h).clone()
                    }
                };
                let _ = check(&decoy, &password);
                return Ok(false);
            }
        };
        Ok(check(&hash, &password))
    })
    .await
    .map_err(|e| HashError::new("verify task", e))?
}

fn check(hash: &str, password: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_password_and_no_other() {
        let h = hash("correct horse".into()).await.expect("hash");
        assert!(h.starts_with("$argon2id$"));
        assert!(
            verify("correct horse".into(), Some(h.clone()))
                .await
                .expect("verify")
        );
        assert!(!verify("wrong horse".into(), Some(h)).await.expect("verify"));
    }

    #[tokio::test]
    async fn an_unknown_account_never_verifies() {
        assert!(!verify("anything".into(), None).await.expect("verify"));
        assert!(
            !verify("anything".into(), Some("not a hash".into()))
                .await
                .expect("verify")
        );
    }
}
