//! The one storage path of firmware files, `firmware/<stored name>` in the file store (the data
//! directory or the database, `crate::files::store`). A file is first written under a temporary
//! name, then the row is written, then the file is given the name the row holds: a failed
//! upload leaves neither a row without its file nor a stray file. A file a row no longer names
//! (replaced or deleted) is removed only after that row is written.

use crate::{
    files::store::{FileError, FileStore, Staged},
    session::random_bytes,
};

/// The file store's key of the file a row names (`stored_name`).
fn key(stored_name: &str) -> String {
    format!("firmware/{stored_name}")
}

/// A stored name a row may hold: one plain file name.
fn plain(stored_name: &str) -> bool {
    !stored_name.is_empty() && !stored_name.contains(['/', '\\']) && stored_name != ".."
}

/// A file written under its temporary name, waiting for its row.
#[derive(Debug)]
pub struct StagedFirmware {
    staged: Staged,
    /// The name the row is to hold.
    pub stored_name: String,
}

/// Writes `bytes` under a temporary name; `ext` is the file's checked extension.
pub async fn stage(
    files: FileStore<'_>,
    bytes: &[u8],
    ext: &str,
) -> Result<StagedFirmware, FileError> {
    let stored_name = format!("{}.{ext}", hex::encode(random_bytes::<12>()));
    let staged = files.stage(&key(&stored_name), bytes).await?;
    Ok(StagedFirmware {
        staged,
        stored_name,
    })
}

impl StagedFirmware {
    /// The row names the file now: give it that name.
    pub async fn commit(self) -> Result<(), FileError> {
        self.staged.commit().await
    }

    /// The row was not written: drop the file.
    pub async fn discard(self) {
        self.staged.discard().await;
    }
}

/// The bytes of the file a row names; `None` when it is missing.
pub async fn read(files: FileStore<'_>, stored_name: &str) -> Result<Option<Vec<u8>>, FileError> {
    if !plain(stored_name) {
        return Ok(None);
    }
    files.get(&key(stored_name)).await
}

/// Removes a file no row names any more (a missing one is fine: the goal is its absence).
pub async fn remove(files: FileStore<'_>, stored_name: &str) {
    if !plain(stored_name) {
        return;
    }
    if let Err(e) = files.delete(&key(stored_name)).await {
        tracing::warn!(error = %e, file = stored_name, "firmware file not removed");
    }
}
