//! Tokens and the signed-in caller. Access tokens are short-lived JWTs (HS256, key kept in the
//! database) naming their session; refresh tokens are random, stored hashed and rotated on
//! every use, all of one sign-in belonging to one session. The RSA key pair serves the
//! encrypted-password login of docs/api-conventions.md.

use axum::{
    extract::{FromRef, FromRequestParts},
    http::{header, request::Parts},
};
use base64::{Engine, engine::general_purpose::STANDARD};
use domain::{Code, ids::UserId, policy::Actor};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rsa::{
    Pkcs1v15Encrypt, RsaPrivateKey,
    pkcs8::{DecodePrivateKey, EncodePrivateKey, EncodePublicKey, LineEnding},
};
use serde::{Deserialize, Serialize};
use service::secrets;
pub use service::tokens::random_bytes;
use store::{Store, users::UserRow};

use crate::{AppState, envelope::ApiError};

const JWT_SECRET: &str = "jwt_hs256_key";
const RSA_KEY: &str = "rsa_private_key_pkcs8";
const RSA_BITS: usize = 2048;

pub struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    rsa: RsaPrivateKey,
    /// The public key as one line of base64 DER (SubjectPublicKeyInfo), as clients expect.
    pub public_key_b64: String,
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Keys(redacted)")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("store: {0}")]
    Store(#[from] store::StoreError),
    #[error("key: {0}")]
    Key(String),
}

impl Keys {
    /// Loads the signing and RSA keys from the database, creating them on first start. Every
    /// replica reads the same keys, so a token issued by one is accepted by all.
    pub async fn load_or_create(store: &Store) -> Result<Keys, KeyError> {
        let candidate = STANDARD.encode(random_bytes::<32>());
        let secret = secrets::shared(store, JWT_SECRET, &candidate).await?;
        let secret = STANDARD
            .decode(secret)
            .map_err(|e| KeyError::Key(e.to_string()))?;

        let pem = match secrets::reserve(store, RSA_KEY).await? {
            Some(existing) => existing,
            None => {
                let generated = tokio::task::spawn_blocking(generate_rsa_pem)
                    .await
                    .map_err(|e| KeyError::Key(e.to_string()))??;
                secrets::fill_reserved(store, RSA_KEY, &generated).await?
            }
        };
        let rsa = RsaPrivateKey::from_pkcs8_pem(&pem).map_err(|e| KeyError::Key(e.to_string()))?;
        let public = rsa
            .to_public_key()
            .to_public_key_der()
            .map_err(|e| KeyError::Key(e.to_string()))?;
        Ok(Keys {
            encoding: EncodingKey::from_secret(&secret),
            decoding: DecodingKey::from_secret(&secret),
            rsa,
            public_key_b64: STANDARD.encode(public.as_bytes()),
        })
    }

    pub fn issue_access(
        &self,
        user: &UserRow,
        session: &str,
        now: i64,
        ttl_secs: i64,
    ) -> Result<String, ApiError> {
        let claims = Claims {
            sub: user.id.to_string(),
            iat: now / 1000,
            exp: now / 1000 + ttl_secs,
            pv: user.password_changed_at,
            sid: session.to_string(),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| ApiError::internal("sign token", e))
    }

    fn verify_access(&self, token: &str) -> Option<Claims> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub"]);
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation)
            .ok()
            .map(|d| d.claims)
    }

    /// Decrypts a base64 RSA PKCS#1 v1.5 ciphertext; `None` when it is not one of ours.
    pub fn decrypt_password(&self, ciphertext_b64: &str) -> Option<String> {
        let bytes = STANDARD.decode(ciphertext_b64.trim()).ok()?;
        let plain = self.rsa.decrypt(Pkcs1v15Encrypt, &bytes).ok()?;
        String::from_utf8(plain).ok()
    }
}

fn generate_rsa_pem() -> Result<String, KeyError> {
    let key = RsaPrivateKey::new(&mut rand::rngs::OsRng, RSA_BITS)
        .map_err(|e| KeyError::Key(e.to_string()))?;
    let pem = key
        .to_pkcs8_pem(LineEnding::LF)
        .map_err(|e| KeyError::Key(e.to_string()))?;
    Ok(pem.to_string())
}

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    /// The user id (a string, as the JWT standard has it).
    sub: String,
    iat: i64,
    exp: i64,
    /// When the password last changed: a token issued before a change stops working.
    pv: i64,
    /// The session (sign-in) the token belongs to: revoking it ends the token before `exp`.
    /// Tokens without one (issued before sessions existed) are refused and get refreshed.
    sid: String,
}

/// The signed-in caller: the account row, the session of the token, and the access decisions
/// made from them.
pub struct CurrentUser {
    pub user: UserRow,
    pub actor: Actor,
    pub session: String,
}

impl CurrentUser {
    pub fn id(&self) -> UserId {
        self.user.id()
    }
}

impl<S> FromRequestParts<S> for CurrentUser
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let app = AppState::from_ref(state);
        let token = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim())
            .ok_or(ApiError::Unauthorized)?;
        let claims = app
            .keys
            .verify_access(token)
            .ok_or(ApiError::Unauthorized)?;
        let id = claims.sub.parse().map_err(|_| ApiError::Unauthorized)?;
        // A revoked session (sign-out, a reused refresh token, a disabled account) ends the
        // token here, before it expires.
        let caller = service::actors::session_actor(&app.store, &claims.sid, UserId(id))
            .await?
            .ok_or(ApiError::Unauthorized)?;
        if caller.user.disabled || caller.user.password_changed_at != claims.pv {
            return Err(ApiError::Unauthorized);
        }
        // A disabled company's staff are told so on every request (101), not signed out.
        if caller.company_locked {
            return Err(Code::AccountDisabled.into());
        }
        Ok(CurrentUser {
            user: caller.user,
            actor: caller.actor,
            session: claims.sid,
        })
    }
}

pub async fn actor_of(store: &Store, user: &UserRow) -> Result<Actor, ApiError> {
    Ok(service::actors::actor_of(store, user).await?)
}
