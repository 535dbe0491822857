//! `portal admin backup FILE`: a consistent copy of the SQLite database while the portal runs
//! (`VACUUM INTO`, see `store::backup`). Restoring is putting the copy in place as
//! `<data dir>/portal.db` with the portal stopped. PostgreSQL is backed up with `pg_dump`.

use std::{path::Path, time::Instant};

use anyhow::{Context, bail};
use store::{Backend, Store};

use crate::config::Config;

pub async fn run(config: &Config, store: &Store, file: &Path) -> anyhow::Result<()> {
    if store.backend() == Backend::Postgres {
        bail!("the database is PostgreSQL: back it up with pg_dump (docs/operations.md, Backups)");
    }
    if file.exists() {
        bail!("{} exists: name a new file", file.display());
    }
    let path = file
        .to_str()
        .context("the backup file's name must be UTF-8")?;
    let started = Instant::now();
    store
        .backup_sqlite(path)
        .await
        .with_context(|| format!("writing {}", file.display()))?;
    let bytes = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    println!(
        "Database backed up to {} ({bytes} bytes in {:.1} s)",
        file.display(),
        started.elapsed().as_secs_f64()
    );
    let local = config.files()? == api::FilesBackend::Local;
    let folders = ["uploads", "firmware"].map(|f| config.data_dir.join(f));
    if local && folders.iter().any(|f| f.exists()) {
        println!(
            "Uploaded files are kept beside the database (PORTAL_FILES=local): copy {} and {} too",
            folders[0].display(),
            folders[1].display()
        );
    }
    Ok(())
}
