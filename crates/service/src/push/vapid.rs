//! The server's VAPID key (RFC 8292): one P-256 key pair made on first start and kept in the
//! database (`secrets`), so every replica signs with it and subscriptions made through one are
//! served by all. Its public half is what browsers subscribe with (`applicationServerKey`);
//! a push service refuses messages signed with another key.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use ring::{
    rand::SystemRandom,
    signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair},
};
use serde_json::json;
use store::Store;

use crate::{Result, ServiceError, secrets};

/// The secret's name: the key pair as PKCS#8, base64url.
const VAPID_KEY: &str = "push_vapid_p256_pkcs8";
/// How long a signed token is good for (RFC 8292 allows at most 24 hours).
pub const TOKEN_TTL_SECS: i64 = 12 * 3600;

/// The key pair, ready to sign.
pub struct Vapid {
    pair: EcdsaKeyPair,
}

impl std::fmt::Debug for Vapid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vapid")
            .field("public_key", &self.public_key())
            .finish_non_exhaustive()
    }
}

impl Vapid {
    /// The key kept in the database, made and stored first when there is none (replicas
    /// starting together all end up with the one that won).
    pub async fn load_or_create(store: &Store) -> Result<Vapid> {
        let rng = SystemRandom::new();
        let candidate = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            .map_err(|_| ServiceError::Internal("VAPID key not made".into()))?;
        let kept = secrets::shared(
            store,
            VAPID_KEY,
            &URL_SAFE_NO_PAD.encode(candidate.as_ref()),
        )
        .await?;
        let pkcs8 = URL_SAFE_NO_PAD
            .decode(kept)
            .map_err(|e| ServiceError::Internal(format!("VAPID key: {e}")))?;
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &pkcs8, &rng)
            .map_err(|e| ServiceError::Internal(format!("VAPID key: {e}")))?;
        Ok(Vapid { pair })
    }

    /// The public key as browsers take it: base64url (no padding) of the 65-byte uncompressed
    /// point.
    pub fn public_key(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.pair.public_key().as_ref())
    }

    /// The `Authorization` header for a message to `endpoint` at `now_secs`:
    /// `vapid t=<ES256 JWT>, k=<public key>`, the token's audience the endpoint's origin.
    /// `subject` (`mailto:` or `https:`) is how the push service's operator reaches ours;
    /// left out when empty.
    pub fn authorization(
        &self,
        endpoint: &url::Url,
        subject: &str,
        now_secs: i64,
    ) -> Result<String> {
        let audience = endpoint.origin().ascii_serialization();
        let mut claims = json!({"aud": audience, "exp": now_secs + TOKEN_TTL_SECS});
        if !subject.is_empty() {
            claims["sub"] = json!(subject);
        }
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
        let signing_input = format!("{header}.{payload}");
        // ES256 in JWS is r || s, 64 bytes: ring's FIXED signature.
        let sig = self
            .pair
            .sign(&SystemRandom::new(), signing_input.as_bytes())
            .map_err(|_| ServiceError::Internal("VAPID signature failed".into()))?;
        let token = format!("{signing_input}.{}", URL_SAFE_NO_PAD.encode(sig.as_ref()));
        Ok(format!("vapid t={token}, k={}", self.public_key()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ring::signature::{ECDSA_P256_SHA256_FIXED, UnparsedPublicKey};

    #[test]
    fn the_token_is_an_es256_jwt_for_the_endpoints_origin_verifiable_with_the_key() {
        let rng = SystemRandom::new();
        let pkcs8 =
            EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).expect("key");
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng)
            .expect("pair");
        let v = Vapid { pair };
        let endpoint = url::Url::parse("https://push.example.net:8443/wp/abc?x=1").expect("url");
        let h = v
            .authorization(&endpoint, "mailto:ops@example.com", 1_000)
            .expect("signed");
        let (t, k) = h
            .strip_prefix("vapid t=")
            .and_then(|r| r.split_once(", k="))
            .expect("vapid t=.., k=..");
        assert_eq!(k, v.public_key());
        let key = URL_SAFE_NO_PAD.decode(k).expect("b64");
        assert_eq!((key.len(), key[0]), (65, 4));
        let parts: Vec<&str> = t.split('.').collect();
        assert_eq!(parts.len(), 3);
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).expect("b64")).expect("json");
        assert_eq!(claims["aud"], "https://push.example.net:8443");
        assert_eq!(claims["exp"], 1_000 + TOKEN_TTL_SECS);
        assert_eq!(claims["sub"], "mailto:ops@example.com");
        let sig = URL_SAFE_NO_PAD.decode(parts[2]).expect("b64");
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, &key)
            .verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &sig)
            .expect("verifies");
    }
}
