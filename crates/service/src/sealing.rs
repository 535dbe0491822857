//! Secrets the server must read back to use them, sealed at rest with the process's one
//! credential key: a utility's VTN credentials (`energy_hub::vtn`) and the webhook endpoints'
//! signing secrets (`webhooks::secret`). The key is `PORTAL_DR_KEY` or else
//! `<data dir>/energy-hub.key` ([`Sealer::load`]); a copy of the database alone (a backup)
//! does not give the secrets away. docs/decisions.md says why these secrets are sealed and the
//! portal's own keys are not.
//!
//! A process has one key: the first data directory named (by the HTTP layer when it builds its
//! router, by the jobs when they start) is where it is read from, once.

use std::{
    path::{Path, PathBuf},
    sync::OnceLock,
};

pub use crate::energy_hub::vtn::secrets::{KEY_ENV, Sealer, SecretError};

static DATA_DIR: OnceLock<PathBuf> = OnceLock::new();
static KEY: OnceLock<Result<Sealer, String>> = OnceLock::new();

/// Names the data directory the key is read from when it is first needed; the first call
/// wins (one portal process has one data directory).
pub fn use_data_dir(data_dir: &Path) {
    let _ = DATA_DIR.set(data_dir.to_path_buf());
}

/// The process's key, loaded once from `data_dir` (the first one asked, [`use_data_dir`]).
pub fn key_in(data_dir: &Path) -> Result<&'static Sealer, String> {
    use_data_dir(data_dir);
    key()
}

/// The process's key: `PORTAL_DR_KEY`, else the key file of the data directory named by
/// [`use_data_dir`]; an error when neither can be had (it says why, never the key).
pub fn key() -> Result<&'static Sealer, String> {
    let from_env = std::env::var_os(KEY_ENV).is_some();
    // Not known yet is not cached: the directory may be named a moment later.
    if KEY.get().is_none() && DATA_DIR.get().is_none() && !from_env {
        return Err("the credential key's data directory is not known yet".into());
    }
    KEY.get_or_init(|| {
        let dir = DATA_DIR.get().map_or(Path::new("."), PathBuf::as_path);
        Sealer::load(dir).map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(Clone::clone)
}
