//! VTN client ids and secrets encrypted at rest (ChaCha20-Poly1305, ring).
//!
//! The 32-byte key comes from `PORTAL_DR_KEY` (base64; set the same value on every replica
//! that shares a database) or else from the file `<data dir>/energy-hub.key`, created with a
//! random key (mode 0600) on first use. A database copy alone therefore does not reveal the
//! credentials. Stored form: `v1:` + base64(nonce ‖ ciphertext ‖ tag).

use base64::{Engine, engine::general_purpose::STANDARD};
use ring::aead::{self, Aad, CHACHA20_POLY1305, LessSafeKey, Nonce, UnboundKey};
use ring::rand::{SecureRandom, SystemRandom};
use std::path::Path;

const PREFIX: &str = "v1:";
pub const KEY_ENV: &str = "PORTAL_DR_KEY";
pub const KEY_FILE: &str = "energy-hub.key";

pub struct Sealer {
    key: LessSafeKey,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer(redacted)")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error("energy hub key: {0}")]
    Key(String),
    #[error("stored VTN credential cannot be decrypted (was the energy hub key changed?)")]
    Open,
}

impl Sealer {
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SecretError> {
        let unbound = UnboundKey::new(&CHACHA20_POLY1305, bytes)
            .map_err(|_| SecretError::Key("must be 32 bytes".into()))?;
        Ok(Self {
            key: LessSafeKey::new(unbound),
        })
    }

    /// The key of `PORTAL_DR_KEY`, else of the data dir's key file (created when missing).
    pub fn load(data_dir: &Path) -> Result<Self, SecretError> {
        if let Ok(b64) = std::env::var(KEY_ENV) {
            let bytes = STANDARD
                .decode(b64.trim())
                .map_err(|_| SecretError::Key(format!("{KEY_ENV} is not base64")))?;
            return Self::from_bytes(&bytes);
        }
        let path = data_dir.join(KEY_FILE);
        match std::fs::read(&path) {
            Ok(bytes) => Self::from_bytes(&bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let mut key = [0u8; 32];
                SystemRandom::new()
                    .fill(&mut key)
                    .map_err(|_| SecretError::Key("no randomness".into()))?;
                write_private(&path, &key)
                    .map_err(|e| SecretError::Key(format!("{}: {e}", path.display())))?;
                Self::from_bytes(&key)
            }
            Err(e) => Err(SecretError::Key(format!("{}: {e}", path.display()))),
        }
    }

    pub fn seal(&self, plain: &str) -> Result<String, SecretError> {
        let mut nonce = [0u8; aead::NONCE_LEN];
        SystemRandom::new()
            .fill(&mut nonce)
            .map_err(|_| SecretError::Key("no randomness".into()))?;
        let mut buf = plain.as_bytes().to_vec();
        self.key
            .seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::empty(), &mut buf)
            .map_err(|_| SecretError::Key("seal".into()))?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&buf);
        Ok(format!("{PREFIX}{}", STANDARD.encode(out)))
    }

    pub fn open(&self, sealed: &str) -> Result<String, SecretError> {
        let raw = sealed
            .strip_prefix(PREFIX)
            .and_then(|b| STANDARD.decode(b).ok())
            .ok_or(SecretError::Open)?;
        if raw.len() < aead::NONCE_LEN {
            return Err(SecretError::Open);
        }
        let (nonce, rest) = raw.split_at(aead::NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| SecretError::Open)?;
        let mut buf = rest.to_vec();
        let plain = self
            .key
            .open_in_place(nonce, Aad::empty(), &mut buf)
            .map_err(|_| SecretError::Open)?;
        String::from_utf8(plain.to_vec()).map_err(|_| SecretError::Open)
    }
}

fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    opts.open(path)?.write_all(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_secret_opens_with_the_same_key_only() {
        let a = Sealer::from_bytes(&[7u8; 32]).expect("key");
        let b = Sealer::from_bytes(&[8u8; 32]).expect("key");
        let sealed = a.seal("s3cret").expect("seal");
        assert!(!sealed.contains("s3cret"));
        assert_ne!(sealed, a.seal("s3cret").expect("seal"), "fresh nonce");
        assert_eq!(a.open(&sealed).expect("open"), "s3cret");
        assert!(b.open(&sealed).is_err());
        assert!(a.open("v1:AAAA").is_err());
    }
}
