//! Demand-response programmes: built in (an administrator is the utility) or mirrored from a
//! VTN by its sync (`vtn_id`, `remote_id`).

use domain::energy_hub::ProgramForm;
use domain::ids::{ProgramId, VtnId};

use crate::{Conflict, Result, Store, audit::NewAudit, conflict};

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct ProgramRow {
    pub id: ProgramId,
    pub vtn_id: Option<VtnId>,
    pub remote_id: Option<String>,
    pub name: String,
    pub long_name: String,
    pub description: String,
    pub retailer: String,
    pub auto_accept: bool,
    pub active: bool,
    /// The VTN's name for a VTN programme.
    pub vtn_name: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

impl ProgramRow {
    pub fn is_vtn(&self) -> bool {
        self.vtn_id.is_some()
    }
}

const COLUMNS: &str = "g.id, g.vtn_id, g.remote_id, g.name, g.long_name, g.description, \
    g.retailer, (g.auto_accept <> 0) AS auto_accept, (g.active <> 0) AS active, \
    v.name AS vtn_name, g.created_at, g.updated_at";
const FROM: &str = "FROM dr_programs g LEFT JOIN dr_vtns v ON v.id = g.vtn_id";

impl Store {
    /// Every programme (active ones only unless `all`), by name.
    pub async fn programs(&self, all: bool) -> Result<Vec<ProgramRow>> {
        let sql = format!(
            "SELECT {COLUMNS} {FROM} WHERE ($1 = 1 OR g.active <> 0) ORDER BY g.name, g.id"
        );
        Ok(rows!(self, fetch_all, ProgramRow, &sql, i64::from(all))?)
    }

    pub async fn program(&self, id: ProgramId) -> Result<Option<ProgramRow>> {
        let sql = format!("SELECT {COLUMNS} {FROM} WHERE g.id = $1");
        Ok(rows!(self, fetch_optional, ProgramRow, &sql, id)?)
    }

    /// A built-in programme with its audit entry (target `program:<id>`; none for a seed), in
    /// one transaction; a name another built-in programme has is a conflict.
    pub async fn create_program(
        &self,
        f: &ProgramForm,
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<ProgramId> {
        Ok(in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
            tx,
            sqlite,
            ProgramId,
            "INSERT INTO dr_programs (name, long_name, description, retailer, auto_accept, active, \
             created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id",
            &f.name,
            &f.long_name,
            &f.description,
            &f.retailer,
            i64::from(f.auto_accept),
            i64::from(f.active),
            now
        )
        .map_err(|e| conflict(e, Conflict::ProgramName))?;
            if let Some(audit) = audit {
                audit_new_in_tx!(tx, sqlite, audit, id)?;
            }
            id
        }))
    }

    /// Edits a built-in programme with its audit entry, in one transaction; `false` when there
    /// is none with this id (nothing is written then).
    pub async fn update_program(
        &self,
        id: ProgramId,
        f: &ProgramForm,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        let n = in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
            tx,
            sqlite,
            "UPDATE dr_programs SET name = $2, long_name = $3, description = $4, retailer = $5, \
             auto_accept = $6, active = $7, updated_at = $8 WHERE id = $1 AND vtn_id IS NULL",
            id,
            &f.name,
            &f.long_name,
            &f.description,
            &f.retailer,
            i64::from(f.auto_accept),
            i64::from(f.active),
            now
        )
        .map_err(|e| conflict(e, Conflict::ProgramName))?;
            if n == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            n
        });
        Ok(n == 1)
    }
}
