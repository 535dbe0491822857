//! Uploaded files kept in the database (`files`), so that every replica reads what any of them
//! stored. A file is named by its key, the path the local file store would give it under the
//! data directory (`uploads/plants/x.jpg`, `firmware/x.bin`). Keys are never reused for other
//! bytes: an upload gets a new random name, so a file's bytes never change once written.

use crate::{Conflict, Result, Store, StoreError, conflict};

/// A stored file's size and age, without its bytes (conditional requests, listings).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct FileInfo {
    pub key: String,
    pub size: i64,
    pub created_at: i64,
}

/// A stored file with its bytes.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StoredFile {
    pub size: i64,
    pub created_at: i64,
    pub bytes: Vec<u8>,
}

impl Store {
    /// Stores `bytes` under `key`; `Conflict::FileKey` when the key is taken.
    pub async fn put_file(&self, key: &str, bytes: &[u8], now: i64) -> Result<()> {
        let size = i64::try_from(bytes.len()).unwrap_or(i64::MAX);
        exec!(
            self,
            "INSERT INTO files (key, size, created_at, bytes) VALUES ($1, $2, $3, $4)",
            key,
            size,
            now,
            bytes
        )
        .map_err(|e| conflict(e, Conflict::FileKey))?;
        Ok(())
    }

    /// The file under `key` with its bytes.
    pub async fn file(&self, key: &str) -> Result<Option<StoredFile>> {
        Ok(rows!(
            self,
            fetch_optional,
            StoredFile,
            "SELECT size, created_at, bytes FROM files WHERE key = $1",
            key
        )?)
    }

    /// The size and age of the file under `key`, without reading its bytes.
    pub async fn file_info(&self, key: &str) -> Result<Option<FileInfo>> {
        Ok(rows!(
            self,
            fetch_optional,
            FileInfo,
            "SELECT key, size, created_at FROM files WHERE key = $1",
            key
        )?)
    }

    /// Every file whose key starts with `prefix` (`firmware/`), by key; no bytes.
    pub async fn files_under(&self, prefix: &str) -> Result<Vec<FileInfo>> {
        // A prefix comparison rather than LIKE: keys may hold `_` and `%`. Not indexed: it is
        // for the start-up import and tooling, not for requests.
        Ok(rows!(
            self,
            fetch_all,
            FileInfo,
            "SELECT key, size, created_at FROM files \
             WHERE substr(key, 1, length($1)) = $1 ORDER BY key",
            prefix
        )?)
    }

    /// Gives the file under `from` the key `to` (a staged upload whose row now names it);
    /// `false` when there is no file under `from`. [`StoreError::Conflict`] when `to` is taken.
    pub async fn rename_file(&self, from: &str, to: &str) -> Result<bool> {
        let n = exec!(self, "UPDATE files SET key = $2 WHERE key = $1", from, to)
            .map_err(|e| conflict(e, Conflict::FileKey))?;
        Ok(n > 0)
    }

    /// Deletes the file under `key`; `false` when there was none.
    pub async fn delete_file(&self, key: &str) -> Result<bool> {
        Ok(exec!(self, "DELETE FROM files WHERE key = $1", key)? > 0)
    }
}

/// Whether an error is a taken key (see [`Store::put_file`]).
pub fn is_taken(e: &StoreError) -> bool {
    matches!(e, StoreError::Conflict(Conflict::FileKey))
}
