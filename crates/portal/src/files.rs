//! Moving uploaded files into the database. With `PORTAL_FILES=database` (the default on
//! PostgreSQL) files uploaded before, under the data directory (`uploads/...`, `firmware/...`),
//! would no longer be found; so at start `portal serve` copies every such file the database does
//! not hold yet, under the same key, and leaves the directory as it was (delete it once every
//! replica runs on the database). Replicas may do this side by side: a key is written once.

use std::path::{Path, PathBuf};

use anyhow::Context;
use store::Store;

/// The folders of the data directory that hold uploaded files.
const FOLDERS: [&str; 2] = ["uploads", "firmware"];

/// Copies the data directory's uploaded files the database lacks; answers how many it copied.
pub async fn import_local(store: &Store, data_dir: &Path) -> anyhow::Result<usize> {
    let mut copied = 0;
    for folder in FOLDERS {
        for (key, path) in files_under(data_dir, folder)? {
            if store.file_info(&key).await?.is_some() {
                continue;
            }
            let bytes = tokio::fs::read(&path)
                .await
                .with_context(|| format!("reading {}", path.display()))?;
            let modified = std::fs::metadata(&path)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .and_then(|d| i64::try_from(d.as_millis()).ok())
                .unwrap_or_else(domain::time::now_ms);
            match store.put_file(&key, &bytes, modified).await {
                Ok(()) => copied += 1,
                // Another replica copied it meanwhile.
                Err(e) if store::files::is_taken(&e) => {}
                Err(e) => return Err(e).with_context(|| format!("storing {key}")),
            }
        }
    }
    Ok(copied)
}

/// Every file under `data_dir/folder` as (key, path), the key being its path below `data_dir`
/// with `/` between parts. Hidden files (an upload's temporary `.name.part`) are left out.
fn files_under(data_dir: &Path, folder: &str) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let mut found = Vec::new();
    let mut dirs = vec![(folder.to_string(), data_dir.join(folder))];
    while let Some((key, dir)) = dirs.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e).with_context(|| format!("listing {}", dir.display())),
        };
        for entry in entries {
            let entry = entry?;
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            let kind = entry.file_type()?;
            let child = format!("{key}/{name}");
            if kind.is_dir() {
                dirs.push((child, entry.path()));
            } else if kind.is_file() {
                found.push((child, entry.path()));
            }
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn files_of_the_data_dir_are_copied_once_and_hidden_ones_are_left() -> anyhow::Result<()>
    {
        let store = store::testing::sqlite().await?;
        let dir = std::env::temp_dir().join(format!("portal-import-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("uploads/plants"))?;
        std::fs::create_dir_all(dir.join("firmware"))?;
        std::fs::write(dir.join("uploads/plants/a.jpg"), b"picture")?;
        std::fs::write(dir.join("firmware/b.bin"), b"image")?;
        std::fs::write(dir.join("firmware/.c.bin.part"), b"half")?;
        assert_eq!(import_local(&store, &dir).await?, 2);
        assert_eq!(import_local(&store, &dir).await?, 0, "already there");
        let got = store.file("uploads/plants/a.jpg").await?.map(|f| f.bytes);
        assert_eq!(got.as_deref(), Some(&b"picture"[..]));
        assert!(store.file("firmware/b.bin").await?.is_some());
        assert!(store.file("firmware/.c.bin.part").await?.is_none());
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    }
}
