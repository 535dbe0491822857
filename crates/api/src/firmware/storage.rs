//! The one storage path of firmware files, under `<data dir>/firmware`. A file is first written
//! under a temporary name, then the row is written, then the file is renamed to the name the
//! row holds: a failed upload leaves neither a row without its file nor a stray file. A file
//! a row no longer names (replaced or deleted) is removed only after that row is written.

use std::path::{Path, PathBuf};

use crate::session::random_bytes;

/// The directory of firmware files.
pub fn dir(data_dir: &Path) -> PathBuf {
    data_dir.join("firmware")
}

/// Where the file a row names (`stored_name`) lives.
pub fn path(data_dir: &Path, stored_name: &str) -> PathBuf {
    dir(data_dir).join(stored_name)
}

/// A file written under its temporary name, waiting for its row.
#[derive(Debug)]
pub struct Staged {
    temp: PathBuf,
    target: PathBuf,
    /// The name the row is to hold.
    pub stored_name: String,
}

/// Writes `bytes` under a temporary name; `ext` is the file's checked extension.
pub async fn stage(data_dir: &Path, bytes: &[u8], ext: &str) -> std::io::Result<Staged> {
    let dir = dir(data_dir);
    tokio::fs::create_dir_all(&dir).await?;
    let stored_name = format!("{}.{ext}", hex::encode(random_bytes::<12>()));
    let temp = dir.join(format!(".{stored_name}.part"));
    if let Err(e) = tokio::fs::write(&temp, bytes).await {
        let _ = tokio::fs::remove_file(&temp).await;
        return Err(e);
    }
    Ok(Staged {
        target: dir.join(&stored_name),
        temp,
        stored_name,
    })
}

impl Staged {
    /// The row names the file now: give it that name.
    pub async fn commit(self) -> std::io::Result<()> {
        tokio::fs::rename(&self.temp, &self.target).await
    }

    /// The row was not written: drop the file.
    pub async fn discard(self) {
        let _ = tokio::fs::remove_file(&self.temp).await;
    }
}

/// Removes a file no row names any more (a missing one is fine: the goal is its absence).
pub async fn remove(data_dir: &Path, stored_name: &str) {
    if stored_name.is_empty() || stored_name.contains(['/', '\\']) {
        return;
    }
    match tokio::fs::remove_file(path(data_dir, stored_name)).await {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => tracing::warn!(error = %e, file = stored_name, "firmware file not removed"),
    }
}
