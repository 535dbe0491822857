//! System release notes (the update log).

use crate::{Conflict, Result, Store, audit::NewAudit, conflict};
use domain::ids::VersionId;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct VersionRow {
    pub id: VersionId,
    pub version: String,
    pub kind: i64,
    pub content_en: String,
    pub content_cn: String,
    pub content_es: String,
    pub announcer: String,
    pub release_time: i64,
    pub created_at: i64,
}

#[derive(Debug, Clone)]
pub struct VersionFields {
    pub version: String,
    pub kind: i64,
    pub content_en: String,
    pub content_cn: String,
    pub content_es: String,
    pub announcer: String,
    pub release_time: i64,
}

const COLUMNS: &str =
    "id, version, kind, content_en, content_cn, content_es, announcer, release_time, created_at";

impl Store {
    /// Adds a note and its audit entry (none for a store test: the entry's target is made from
    /// the new id) in one transaction. A taken version number answers `Conflict::VersionLabel`.
    pub async fn create_version(
        &self,
        v: &VersionFields,
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<VersionId> {
        Ok(in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                VersionId,
                "INSERT INTO versions (version, kind, content_en, content_cn, content_es, \
                 announcer, release_time, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                 RETURNING id",
                &v.version,
                v.kind,
                &v.content_en,
                &v.content_cn,
                &v.content_es,
                &v.announcer,
                v.release_time,
                now
            )
            .map_err(|e| conflict(e, Conflict::VersionLabel))?;
            if let Some(audit) = audit {
                audit_new_in_tx!(tx, sqlite, audit, id)?;
            }
            id
        }))
    }

    /// Rewrites a note and, when it was there, writes its audit entry in the same transaction.
    pub async fn update_version(
        &self,
        id: VersionId,
        v: &VersionFields,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE versions SET version = $2, kind = $3, content_en = $4, content_cn = $5, \
                 content_es = $6, announcer = $7, release_time = $8 WHERE id = $1",
                id,
                &v.version,
                v.kind,
                &v.content_en,
                &v.content_cn,
                &v.content_es,
                &v.announcer,
                v.release_time
            )
            .map_err(|e| conflict(e, Conflict::VersionLabel))?;
            if let Some(a) = audit.filter(|_| n == 1) {
                audit_in_tx!(tx, sqlite, a)?;
            }
            n == 1
        }))
    }

    pub async fn version(&self, id: VersionId) -> Result<Option<VersionRow>> {
        let sql = format!("SELECT {COLUMNS} FROM versions WHERE id = $1");
        Ok(rows!(self, fetch_optional, VersionRow, &sql, id)?)
    }

    /// Newest release first.
    pub async fn versions(&self, limit: i64, offset: i64) -> Result<(Vec<VersionRow>, i64)> {
        let bounds = crate::sql::page(limit, offset);
        let sql =
            format!("SELECT {COLUMNS} FROM versions ORDER BY release_time DESC, id DESC {bounds}");
        let rows = rows!(self, fetch_all, VersionRow, &sql)?;
        let total = scalar!(self, fetch_one, i64, "SELECT COUNT(*) FROM versions")?;
        Ok((rows, total))
    }

    /// Deletes a note and, when it was there, writes its audit entry in the same transaction.
    pub async fn delete_version(
        &self,
        id: VersionId,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        Ok(exec_audited!(self, audit, "DELETE FROM versions WHERE id = $1", id) == 1)
    }
}
