//! Stored protocol configs. The JSON is validated by the devices crate before it gets here.

use domain::DeviceFamily;
use domain::ids::UserId;

use crate::{Result, Store, audit::NewAudit};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProtocolRow {
    pub code: String,
    #[sqlx(try_from = "String")]
    pub family: DeviceFamily,
    pub name: String,
    pub config: String,
    pub builtin: bool,
    pub updated_by: Option<UserId>,
    pub updated_at: i64,
}

const COLUMNS: &str = "code, family, name, config, builtin, updated_by, updated_at";

impl Store {
    /// Stores a shipped config unless one with its code exists (an administrator's edit wins).
    pub async fn seed_protocol(
        &self,
        code: &str,
        family: DeviceFamily,
        name: &str,
        config: &str,
        now: i64,
    ) -> Result<bool> {
        Ok(exec!(
            self,
            "INSERT INTO protocol_configs (code, family, name, config, builtin, updated_at) \
             VALUES ($1, $2, $3, $4, TRUE, $5) ON CONFLICT (code) DO NOTHING",
            code,
            family.as_str(),
            name,
            config,
            now
        )? == 1)
    }

    /// Replaces the stored copy of a shipped config that no administrator has edited (still
    /// `builtin`), with a newer shipped version. Answers whether it did.
    pub async fn refresh_builtin_protocol(
        &self,
        code: &str,
        name: &str,
        config: &str,
        now: i64,
    ) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE protocol_configs SET name = $2, config = $3, updated_at = $4 \
             WHERE code = $1 AND builtin",
            code,
            name,
            config,
            now
        )? == 1)
    }

    /// Creates or replaces a config.
    /// Stores an edited config and its audit entry (none for a seed or a test) in one
    /// transaction.
    #[allow(clippy::too_many_arguments)] // each is a column, and the entry
    pub async fn save_protocol(
        &self,
        code: &str,
        family: DeviceFamily,
        name: &str,
        config: &str,
        by: UserId,
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<()> {
        exec_audited!(
            self,
            audit,
            "INSERT INTO protocol_configs (code, family, name, config, builtin, updated_by, updated_at) \
             VALUES ($1, $2, $3, $4, FALSE, $5, $6) ON CONFLICT (code) DO UPDATE SET \
             family = $2, name = $3, config = $4, builtin = FALSE, updated_by = $5, updated_at = $6",
            code,
            family.as_str(),
            name,
            config,
            by,
            now
        );
        Ok(())
    }

    pub async fn protocols(&self) -> Result<Vec<ProtocolRow>> {
        let sql = format!("SELECT {COLUMNS} FROM protocol_configs ORDER BY code");
        Ok(rows!(self, fetch_all, ProtocolRow, &sql)?)
    }

    pub async fn protocol(&self, code: &str) -> Result<Option<ProtocolRow>> {
        let sql = format!("SELECT {COLUMNS} FROM protocol_configs WHERE code = $1");
        Ok(rows!(self, fetch_optional, ProtocolRow, &sql, code)?)
    }
}
