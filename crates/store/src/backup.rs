//! Online backup of a SQLite database: `VACUUM INTO` writes a consistent copy of the database
//! as one transaction saw it, while the portal keeps writing (WAL mode lets writers go on), and
//! the copy is compact and complete in itself (no `-wal` file beside it). PostgreSQL is backed
//! up with its own tools (`pg_dump`, docs/operations.md).

use crate::{Backend, Result, Store};

impl Store {
    /// Writes a copy of this SQLite database to `path` (a file that must not exist yet).
    /// Answers `false`, writing nothing, on PostgreSQL.
    pub async fn backup_sqlite(&self, path: &str) -> Result<bool> {
        if self.backend() == Backend::Postgres {
            return Ok(false);
        }
        exec!(self, "VACUUM INTO $1", path)?;
        Ok(true)
    }
}
