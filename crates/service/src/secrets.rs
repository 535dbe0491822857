//! The server's own secrets (the token signing key, the key pair of the encrypted sign-in),
//! kept in the database so that every replica signs and decrypts with the same ones.

use store::Store;

/// The secret stored under `name`, `candidate` stored first when there is none. Replicas
/// starting together all end up with the one value that won.
pub async fn shared(store: &Store, name: &str, candidate: &str) -> store::Result<String> {
    store.secret_or_insert(name, candidate).await
}

/// A secret too slow to make on every start (an RSA key): `None` when this replica reserved
/// it (stored empty) and must make it, then [`fill_reserved`]; otherwise its value.
pub async fn reserve(store: &Store, name: &str) -> store::Result<Option<String>> {
    let value = store.secret_or_insert(name, "").await?;
    Ok(Some(value).filter(|v| !v.is_empty()))
}

/// Stores the value of a secret [`reserve`] found empty and answers the one kept: another
/// replica's, when it stored one first.
pub async fn fill_reserved(store: &Store, name: &str, value: &str) -> store::Result<String> {
    store.replace_empty_secret(name, value).await?;
    store.secret_or_insert(name, "").await
}
