//! The one place uploaded files are written, read and deleted: under the data directory
//! (`local`, one machine) or in the database's `files` table (`database`, replicas that share
//! nothing else). Every upload path (pictures, logos, avatars, firmware) and every download
//! goes through [`FileStore`], so the choice is one setting (`PORTAL_FILES`). A file is named
//! by its key, its path under the data directory (`uploads/plants/x.jpg`, `firmware/x.bin`).

use std::path::{Path, PathBuf};

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::RngCore;
use store::Store;

/// Where uploaded files live (`PORTAL_FILES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FilesBackend {
    /// Under the data directory.
    #[default]
    Local,
    /// In the database, beside everything else.
    Database,
}

#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("file: {0}")]
    Io(#[from] std::io::Error),
    #[error("file: {0}")]
    Store(#[from] store::StoreError),
}

/// The file store of one request or job (cheap: it borrows the data directory or the store).
#[derive(Debug, Clone, Copy)]
pub enum FileStore<'a> {
    Local(&'a Path),
    Database(&'a Store),
}

impl<'a> FileStore<'a> {
    pub fn new(backend: FilesBackend, data_dir: &'a Path, store: &'a Store) -> FileStore<'a> {
        match backend {
            FilesBackend::Local => FileStore::Local(data_dir),
            FilesBackend::Database => FileStore::Database(store),
        }
    }

    /// Stores `bytes` under `key` (a new key: uploads get random names).
    pub async fn put(&self, key: &str, bytes: &[u8]) -> Result<(), FileError> {
        match self {
            FileStore::Local(dir) => {
                let path = dir.join(key);
                if let Some(parent) = path.parent() {
                    tokio::fs::create_dir_all(parent).await?;
                }
                tokio::fs::write(path, bytes).await?;
            }
            FileStore::Database(store) => {
                store.put_file(key, bytes, domain::time::now_ms()).await?
            }
        }
        Ok(())
    }

    /// The bytes under `key`; `None` when there is no such file.
    pub async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, FileError> {
        match self {
            FileStore::Local(dir) => match tokio::fs::read(dir.join(key)).await {
                Ok(bytes) => Ok(Some(bytes)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e.into()),
            },
            FileStore::Database(store) => Ok(store.file(key).await?.map(|f| f.bytes)),
        }
    }

    /// Deletes the file under `key`; a missing one is fine (the goal is its absence).
    pub async fn delete(&self, key: &str) -> Result<(), FileError> {
        match self {
            FileStore::Local(dir) => match tokio::fs::remove_file(dir.join(key)).await {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
                _ => Ok(()),
            },
            FileStore::Database(store) => {
                store.delete_file(key).await.map(|_| ()).map_err(Into::into)
            }
        }
    }

    /// Stores an upload under a new unguessable name in `uploads/<folder>/` and answers the
    /// URL it is served at (`/files/<folder>/<name>.<ext>`).
    pub async fn upload(&self, folder: &str, ext: &str, bytes: &[u8]) -> Result<String, FileError> {
        let mut random = [0u8; 12];
        rand::rngs::OsRng.fill_bytes(&mut random);
        let name = format!("{}.{ext}", URL_SAFE_NO_PAD.encode(random));
        self.put(&format!("uploads/{folder}/{name}"), bytes).await?;
        Ok(format!("/files/{folder}/{name}"))
    }

    /// Removes an upload by the URL [`FileStore::upload`] answered; any other URL is left
    /// alone. The goal is the file's absence, so a failure is logged, not answered.
    pub async fn remove_upload(&self, url: &str) {
        let Some(rest) = url.strip_prefix("/files/") else {
            return;
        };
        if rest.split('/').any(|part| part.is_empty() || part == "..") {
            return;
        }
        if let Err(e) = self.delete(&format!("uploads/{rest}")).await {
            tracing::warn!(url, %e, "old upload not removed");
        }
    }

    /// Writes `bytes` under a temporary key beside `key`, to be given `key` once a row names
    /// it ([`Staged::commit`]) or dropped ([`Staged::discard`]): a failed upload leaves
    /// neither a row without its file nor a file under a name a row could hold.
    pub async fn stage(&self, key: &str, bytes: &[u8]) -> Result<Staged, FileError> {
        let temp = temp_key(key);
        let staged = match self {
            FileStore::Local(dir) => Staged::Local {
                temp: dir.join(&temp),
                target: dir.join(key),
            },
            FileStore::Database(store) => Staged::Database {
                store: (*store).clone(),
                temp: temp.clone(),
                target: key.to_string(),
            },
        };
        if let Err(e) = self.put(&temp, bytes).await {
            let _ = self.delete(&temp).await;
            return Err(e);
        }
        Ok(staged)
    }
}

/// `firmware/x.bin` -> `firmware/.x.bin.part`: hidden, and never a name an upload is given.
fn temp_key(key: &str) -> String {
    match key.rsplit_once('/') {
        Some((dir, name)) => format!("{dir}/.{name}.part"),
        None => format!(".{key}.part"),
    }
}

/// A file written under its temporary key, waiting for its row.
#[derive(Debug)]
pub enum Staged {
    Local {
        temp: PathBuf,
        target: PathBuf,
    },
    Database {
        store: Store,
        temp: String,
        target: String,
    },
}

impl Staged {
    /// The row names the file now: give it its key.
    pub async fn commit(self) -> Result<(), FileError> {
        match self {
            Staged::Local { temp, target } => tokio::fs::rename(temp, target).await?,
            Staged::Database {
                store,
                temp,
                target,
            } => {
                if !store.rename_file(&temp, &target).await? {
                    let gone = std::io::Error::new(std::io::ErrorKind::NotFound, temp);
                    return Err(gone.into());
                }
            }
        }
        Ok(())
    }

    /// The row was not written: drop the file.
    pub async fn discard(self) {
        match self {
            Staged::Local { temp, .. } => {
                let _ = tokio::fs::remove_file(temp).await;
            }
            Staged::Database { store, temp, .. } => {
                let _ = store.delete_file(&temp).await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_staged_file_is_hidden_beside_its_final_name() {
        assert_eq!(temp_key("firmware/ab.bin"), "firmware/.ab.bin.part");
        assert_eq!(temp_key("x.bin"), ".x.bin.part");
    }
}
