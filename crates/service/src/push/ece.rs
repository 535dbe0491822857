//! Message encryption for Web Push (RFC 8291 over RFC 8188's `aes128gcm`): a fresh P-256 key
//! of the sender's per message, ECDH with the browser's key, HKDF-SHA-256 keyed by the
//! browser's authentication secret, AES-128-GCM, one record of at most 4096 bytes.

use ring::{
    aead, agreement, hkdf,
    rand::{SecureRandom, SystemRandom},
};

/// The record size announced in the header: one record carries the whole message.
pub const RECORD_SIZE: u32 = 4096;
/// The salt's length (RFC 8188).
const SALT_LEN: usize = 16;
/// AES-GCM's tag.
const TAG_LEN: usize = 16;
/// The longest plaintext one record holds: the record less the tag and the delimiter.
pub const MAX_PLAINTEXT: usize = RECORD_SIZE as usize - TAG_LEN - 1;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EceError {
    #[error("the browser's key is not a P-256 point")]
    BadKey,
    #[error("the message is longer than one record")]
    TooLong,
    #[error("encryption failed")]
    Crypto,
}

impl From<ring::error::Unspecified> for EceError {
    fn from(_: ring::error::Unspecified) -> Self {
        EceError::Crypto
    }
}

/// An HKDF output length for ring.
struct Len(usize);

impl hkdf::KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

fn expand(prk: &hkdf::Prk, info: &[&[u8]], out: &mut [u8]) -> Result<(), EceError> {
    prk.expand(info, Len(out.len()))?.fill(out)?;
    Ok(())
}

/// `plaintext` encrypted for the browser whose public key is `ua_public` (65 bytes) and whose
/// authentication secret is `auth` (16 bytes): the request body, header included.
pub fn encrypt(plaintext: &[u8], ua_public: &[u8], auth: &[u8]) -> Result<Vec<u8>, EceError> {
    let rng = SystemRandom::new();
    let mut salt = [0u8; SALT_LEN];
    rng.fill(&mut salt)?;
    let key = agreement::EphemeralPrivateKey::generate(&agreement::ECDH_P256, &rng)?;
    if plaintext.len() > MAX_PLAINTEXT {
        return Err(EceError::TooLong);
    }
    let as_public = key.compute_public_key()?;
    let peer = agreement::UnparsedPublicKey::new(&agreement::ECDH_P256, ua_public);
    let ecdh =
        agreement::agree_ephemeral(key, &peer, |s| s.to_vec()).map_err(|_| EceError::BadKey)?;

    // IKM = HKDF(salt = auth, ikm = ecdh, info = "WebPush: info" 0 ua_public as_public, 32).
    let prk_key = hkdf::Salt::new(hkdf::HKDF_SHA256, auth).extract(&ecdh);
    let mut ikm = [0u8; 32];
    expand(
        &prk_key,
        &[b"WebPush: info\0", ua_public, as_public.as_ref()],
        &mut ikm,
    )?;
    let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, &salt).extract(&ikm);
    let mut cek = [0u8; 16];
    expand(&prk, &[b"Content-Encoding: aes128gcm\0"], &mut cek)?;
    let mut nonce = [0u8; 12];
    expand(&prk, &[b"Content-Encoding: nonce\0"], &mut nonce)?;

    // The one (last) record: the plaintext, then the delimiter 2, no padding.
    let mut record = Vec::with_capacity(plaintext.len() + 1 + TAG_LEN);
    record.extend_from_slice(plaintext);
    record.push(2);
    let sealing = aead::LessSafeKey::new(aead::UnboundKey::new(&aead::AES_128_GCM, &cek)?);
    sealing.seal_in_place_append_tag(
        aead::Nonce::assume_unique_for_key(nonce),
        aead::Aad::empty(),
        &mut record,
    )?;

    // Header: salt, record size, the key id's length and the key id (the sender's key).
    let key_id = as_public.as_ref();
    let mut body = Vec::with_capacity(SALT_LEN + 5 + key_id.len() + record.len());
    body.extend_from_slice(&salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(u8::try_from(key_id.len()).map_err(|_| EceError::Crypto)?);
    body.extend_from_slice(key_id);
    body.extend_from_slice(&record);
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A receiver's side written from RFC 8291 section 3.4 with ring's primitives, to check
    /// that what is sent opens (the API tests decrypt with an independent implementation).
    fn decrypt(
        body: &[u8],
        ua: agreement::EphemeralPrivateKey,
        ua_public: &[u8],
        auth: &[u8],
    ) -> Vec<u8> {
        let salt = &body[..16];
        assert_eq!(
            u32::from_be_bytes(body[16..20].try_into().expect("rs")),
            RECORD_SIZE
        );
        let idlen = usize::from(body[20]);
        let as_public = &body[21..21 + idlen];
        let peer = agreement::UnparsedPublicKey::new(&agreement::ECDH_P256, as_public);
        let ecdh = agreement::agree_ephemeral(ua, &peer, |s| s.to_vec()).expect("ecdh");
        let prk_key = hkdf::Salt::new(hkdf::HKDF_SHA256, auth).extract(&ecdh);
        let mut ikm = [0u8; 32];
        expand(
            &prk_key,
            &[b"WebPush: info\0", ua_public, as_public],
            &mut ikm,
        )
        .expect("ikm");
        let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, salt).extract(&ikm);
        let (mut cek, mut nonce) = ([0u8; 16], [0u8; 12]);
        expand(&prk, &[b"Content-Encoding: aes128gcm\0"], &mut cek).expect("cek");
        expand(&prk, &[b"Content-Encoding: nonce\0"], &mut nonce).expect("nonce");
        let key =
            aead::LessSafeKey::new(aead::UnboundKey::new(&aead::AES_128_GCM, &cek).expect("key"));
        let mut record = body[21 + idlen..].to_vec();
        let plain = key
            .open_in_place(
                aead::Nonce::assume_unique_for_key(nonce),
                aead::Aad::empty(),
                &mut record,
            )
            .expect("opens");
        assert_eq!(plain.last(), Some(&2), "last-record delimiter");
        plain[..plain.len() - 1].to_vec()
    }

    #[test]
    fn a_message_opens_with_the_browsers_key_and_secret_and_fits_one_record() {
        let rng = SystemRandom::new();
        let ua = agreement::EphemeralPrivateKey::generate(&agreement::ECDH_P256, &rng).expect("ua");
        let ua_public = ua.compute_public_key().expect("pub").as_ref().to_vec();
        let auth = [9u8; 16];
        let body = encrypt(b"{\"title\":\"hi\"}", &ua_public, &auth).expect("sealed");
        assert_eq!(body.len(), 16 + 4 + 1 + 65 + 14 + 1 + 16);
        assert_eq!(decrypt(&body, ua, &ua_public, &auth), b"{\"title\":\"hi\"}");
        assert_eq!(
            encrypt(&vec![b'x'; MAX_PLAINTEXT + 1], &ua_public, &auth),
            Err(EceError::TooLong)
        );
        assert_eq!(encrypt(b"x", &[4u8; 65], &auth), Err(EceError::BadKey));
    }
}
