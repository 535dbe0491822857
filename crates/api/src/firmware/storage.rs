//! The one storage path of firmware files, `firmware/<stored name>` in the file store (the data
//! directory or the database, `service::files`). A file is written whole under a
//! temporary name and given its own (new, random) name before any row names it; then the row
//! and its audit entry are written in one transaction (`service::firmware::save`), and a
//! failed row write removes the file. So a row never names a missing file, and a crash in
//! between leaves at most a file no row names. A file a row no longer names (replaced or
//! deleted) is removed only after that row is written.

use crate::{FileError, FileStore, session::random_bytes};

/// The file store's key of the file a row names (`stored_name`).
fn key(stored_name: &str) -> String {
    format!("firmware/{stored_name}")
}

/// A stored name a row may hold: one plain file name.
fn plain(stored_name: &str) -> bool {
    !stored_name.is_empty() && !stored_name.contains(['/', '\\']) && stored_name != ".."
}

/// Writes `bytes` (of checked extension `ext`) under a new name and answers it: the name the
/// row is to hold.
pub async fn write(files: FileStore<'_>, bytes: &[u8], ext: &str) -> Result<String, FileError> {
    let stored_name = format!("{}.{ext}", hex::encode(random_bytes::<12>()));
    files
        .stage(&key(&stored_name), bytes)
        .await?
        .commit()
        .await?;
    Ok(stored_name)
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
