//! Roles and the permission keys they grant. Built-in roles have no company; custom roles belong
//! to exactly one company.

use domain::{
    ids::{CompanyId, RoleId},
    user::BuiltinRole,
};

use crate::{Conflict, Result, Store, audit::NewAudit, conflict};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RoleRow {
    pub id: RoleId,
    pub company_id: Option<CompanyId>,
    pub name: String,
    pub builtin: Option<String>,
    pub created_at: i64,
}

impl RoleRow {
    pub fn builtin(&self) -> Option<BuiltinRole> {
        self.builtin.as_deref().and_then(BuiltinRole::parse)
    }
}

impl Store {
    /// Makes sure every built-in role exists and grants exactly its catalogue permissions, so
    /// that a new release's permission changes reach existing installations.
    pub async fn sync_builtin_roles(&self, now: i64) -> Result<()> {
        for role in BuiltinRole::ALL {
            exec!(
                self,
                "INSERT INTO roles (name, builtin, created_at) VALUES ($1, $1, $2) \
                 ON CONFLICT (builtin) DO NOTHING",
                role.slug(),
                now
            )?;
            let id = self.builtin_role(role).await?;
            self.set_role_permissions(id, &role.permissions()).await?;
        }
        Ok(())
    }

    pub async fn builtin_role(&self, role: BuiltinRole) -> Result<RoleId> {
        Ok(scalar!(
            self,
            fetch_one,
            RoleId,
            "SELECT id FROM roles WHERE builtin = $1",
            role.slug()
        )?)
    }

    pub async fn role(&self, id: RoleId) -> Result<Option<RoleRow>> {
        Ok(rows!(
            self,
            fetch_optional,
            RoleRow,
            "SELECT id, company_id, name, builtin, created_at FROM roles WHERE id = $1",
            id
        )?)
    }

    /// The custom roles of one company, oldest first.
    pub async fn company_roles(&self, company: CompanyId) -> Result<Vec<RoleRow>> {
        Ok(rows!(
            self,
            fetch_all,
            RoleRow,
            "SELECT id, company_id, name, builtin, created_at FROM roles WHERE company_id = $1 \
             ORDER BY id",
            company
        )?)
    }

    pub async fn role_permissions(&self, id: RoleId) -> Result<Vec<String>> {
        Ok(scalar!(
            self,
            fetch_all,
            String,
            "SELECT permission FROM role_permissions WHERE role_id = $1 ORDER BY permission",
            id
        )?)
    }

    /// Creates a custom role with its permissions in one transaction; a name the company
    /// already uses answers `Conflict::RoleName`. `audit` (none for a seed) is about `role:<id>`.
    pub async fn create_role(
        &self,
        company: CompanyId,
        name: &str,
        permissions: &[&str],
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<RoleId> {
        let id = in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                RoleId,
                "INSERT INTO roles (company_id, name, created_at) VALUES ($1, $2, $3) \
                 RETURNING id",
                company,
                name,
                now
            )
            .map_err(|e| conflict(e, Conflict::RoleName))?;
            for key in permissions {
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO role_permissions (role_id, permission) VALUES ($1, $2) \
                     ON CONFLICT DO NOTHING",
                    id,
                    *key
                )?;
            }
            if let Some(audit) = audit {
                audit_new_in_tx!(tx, sqlite, audit, id)?;
            }
            id
        });
        Ok(id)
    }

    /// Renames a role and/or replaces its permissions (`None` keeps what it has), in one
    /// transaction with `audit`; a name another role of the company has answers
    /// `Conflict::RoleName`.
    pub async fn update_role(
        &self,
        id: RoleId,
        name: Option<&str>,
        permissions: Option<&[&str]>,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            if let Some(name) = name {
                tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE roles SET name = $2 WHERE id = $1",
                    id,
                    name
                )
                .map_err(|e| conflict(e, Conflict::RoleName))?;
            }
            if let Some(keys) = permissions {
                tx_exec!(
                    tx,
                    sqlite,
                    "DELETE FROM role_permissions WHERE role_id = $1",
                    id
                )?;
                for key in keys {
                    tx_exec!(
                        tx,
                        sqlite,
                        "INSERT INTO role_permissions (role_id, permission) VALUES ($1, $2) \
                         ON CONFLICT DO NOTHING",
                        id,
                        *key
                    )?;
                }
            }
            if let Some(audit) = audit {
                audit_in_tx!(tx, sqlite, audit)?;
            }
        });
        Ok(())
    }

    /// Replaces a role's permissions in one transaction.
    pub async fn set_role_permissions(&self, id: RoleId, permissions: &[&str]) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            tx_exec!(
                tx,
                sqlite,
                "DELETE FROM role_permissions WHERE role_id = $1",
                id
            )?;
            for key in permissions {
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO role_permissions (role_id, permission) VALUES ($1, $2) \
                     ON CONFLICT DO NOTHING",
                    id,
                    *key
                )?;
            }
        });
        Ok(())
    }

    /// Deletes a custom role, its holders falling back to `fallback`, in one transaction with
    /// `audit`.
    pub async fn delete_role_to(
        &self,
        id: RoleId,
        fallback: RoleId,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            tx_exec!(
                tx,
                sqlite,
                "UPDATE users SET role_id = $2 WHERE role_id = $1",
                id,
                fallback
            )?;
            let deleted = tx_exec!(
                tx,
                sqlite,
                "DELETE FROM roles WHERE id = $1 AND builtin IS NULL",
                id
            )? == 1;
            if deleted {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            deleted
        }))
    }

    pub async fn delete_role(&self, id: RoleId) -> Result<bool> {
        Ok(exec!(
            self,
            "DELETE FROM roles WHERE id = $1 AND builtin IS NULL",
            id
        )? == 1)
    }
}
