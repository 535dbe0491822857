//! The random values that stand for a sign-in (refresh tokens, session ids) and the digest they
//! and verification codes are stored as.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::RngCore;
use sha2::{Digest, Sha256};

pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes
}

/// A new opaque refresh token.
pub fn new_refresh_token() -> String {
    URL_SAFE_NO_PAD.encode(random_bytes::<32>())
}

/// A new session id. Not a secret on its own (it travels inside the signed access token), but
/// unguessable all the same.
pub fn new_session_id() -> String {
    URL_SAFE_NO_PAD.encode(random_bytes::<16>())
}

/// Tokens and codes are stored only as their SHA-256.
pub fn digest(value: &str) -> String {
    hex::encode(Sha256::digest(value.as_bytes()))
}
