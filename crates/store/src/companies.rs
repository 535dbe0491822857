//! Companies (installers, distributors, agents), their branding, their administrator and
//! whether their staff may sign in.

use domain::{
    company::CompanyDetails,
    ids::{CompanyId, RoleId, UserId},
    user::UserKind,
};

use crate::{
    Conflict, Result, Store,
    audit::{NewAudit, NewRowsAudit},
    conflict,
};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CompanyRow {
    pub id: CompanyId,
    pub name: String,
    pub contact_name: String,
    pub email: String,
    pub phone: String,
    pub address: String,
    pub remark: String,
    pub logo_url: String,
    pub icon_url: String,
    pub theme_color: String,
    pub created_at: i64,
    pub disabled: bool,
    pub admin_id: Option<UserId>,
}

impl CompanyRow {
    pub fn admin(&self) -> Option<UserId> {
        self.admin_id
    }
}

/// A company as the administration screens list it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CompanySummary {
    #[sqlx(flatten)]
    pub company: CompanyRow,
    /// The administrator's account, empty when none.
    pub admin_account: String,
    /// Staff not deleted.
    pub staff: i64,
    pub plants: i64,
}

const COLUMNS: &str = "id, name, contact_name, email, phone, address, remark, logo_url, icon_url, \
    theme_color, created_at, disabled, admin_id";

const SUMMARY: &str = "SELECT c.id, c.name, c.contact_name, c.email, c.phone, c.address, \
    c.remark, c.logo_url, c.icon_url, c.theme_color, c.created_at, c.disabled, c.admin_id, \
    COALESCE(a.account, '') AS admin_account, \
    (SELECT COUNT(*) FROM users u WHERE u.company_id = c.id AND u.deleted_at IS NULL) AS staff, \
    (SELECT COUNT(*) FROM plants p WHERE p.company_id = c.id) AS plants \
    FROM companies c LEFT JOIN users a ON a.id = c.admin_id";

/// The administrator a new company gets.
#[derive(Debug, Clone)]
pub enum AdminAccount<'a> {
    /// A new company account.
    Create {
        account: &'a str,
        email: &'a str,
        mobile: &'a str,
        password_hash: &'a str,
        nickname: &'a str,
    },
    /// An existing owner account without a company, which joins the company.
    Promote(UserId),
}

impl Store {
    /// Creates a company; a taken name answers `Conflict::CompanyName`.
    pub async fn create_company(&self, name: &str, now: i64) -> Result<CompanyId> {
        let id = scalar!(
            self,
            fetch_one,
            CompanyId,
            "INSERT INTO companies (name, created_at) VALUES ($1, $2) RETURNING id",
            name,
            now
        )
        .map_err(|e| conflict(e, Conflict::CompanyName))?;
        Ok(id)
    }

    /// Creates a company with its details and its administrator (a new account with `role`, or
    /// an owner who joins), all in one transaction. A taken company name answers
    /// `Conflict::CompanyName`, a taken account `Conflict::AdminAccount`; the promotion only
    /// happens while the account is still an owner without a company (`Conflict::AdminAccount`
    /// otherwise). `audit` (none for a seed) is written last, its target and detail given by
    /// the new ids.
    pub async fn create_company_with_admin(
        &self,
        details: &CompanyDetails,
        admin: &AdminAccount<'_>,
        role: RoleId,
        now: i64,
        audit: Option<NewRowsAudit<'_, (CompanyId, UserId)>>,
    ) -> Result<(CompanyId, UserId)> {
        let company = UserKind::Company.as_str();
        let out: Result<(CompanyId, UserId)> = in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                CompanyId,
                "INSERT INTO companies (name, contact_name, email, phone, address, remark, \
                 created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                &details.name,
                &details.contact_name,
                &details.email,
                &details.phone,
                &details.address,
                &details.remark,
                now
            )
            .map_err(|e| conflict(e, Conflict::CompanyName))?;
            let user = match admin {
                AdminAccount::Create {
                    account,
                    email,
                    mobile,
                    password_hash,
                    nickname,
                } => tx_scalar!(
                    tx,
                    sqlite,
                    UserId,
                    "INSERT INTO users (account, email, mobile, password_hash, nickname, kind, \
                     company_id, role_id, user_src, created_at, password_changed_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'web', $9, $9) RETURNING id",
                    *account,
                    *email,
                    *mobile,
                    *password_hash,
                    *nickname,
                    company,
                    id,
                    role,
                    now
                )
                .map_err(|e| conflict(e, Conflict::AdminAccount))?,
                AdminAccount::Promote(user) => {
                    let n = tx_exec!(
                        tx,
                        sqlite,
                        "UPDATE users SET kind = $2, company_id = $3, role_id = $4 \
                         WHERE id = $1 AND kind = 'owner' AND company_id IS NULL \
                         AND deleted_at IS NULL",
                        user,
                        company,
                        id,
                        role
                    )?;
                    if n != 1 {
                        return Err(crate::StoreError::Conflict(Conflict::AdminAccount));
                    }
                    *user
                }
            };
            tx_exec!(
                tx,
                sqlite,
                "UPDATE companies SET admin_id = $2 WHERE id = $1",
                id,
                user
            )?;
            if let Some(a) = &audit {
                let (target, detail) = (a.describe)((id, user));
                let entry = NewAudit {
                    target: &target,
                    detail: &detail,
                    ..a.entry.clone()
                };
                audit_in_tx!(tx, sqlite, &entry)?;
            }
            Ok((id, user))
        });
        out
    }

    pub async fn company(&self, id: CompanyId) -> Result<Option<CompanyRow>> {
        let sql = format!("SELECT {COLUMNS} FROM companies WHERE id = $1");
        Ok(rows!(self, fetch_optional, CompanyRow, &sql, id)?)
    }

    pub async fn company_by_name(&self, name: &str) -> Result<Option<CompanyRow>> {
        let sql = format!("SELECT {COLUMNS} FROM companies WHERE name = $1");
        Ok(rows!(self, fetch_optional, CompanyRow, &sql, name)?)
    }

    /// Whether a company other than `except` has this name, trimmed and in any case.
    pub async fn company_name_taken(&self, name: &str, except: Option<CompanyId>) -> Result<bool> {
        let found: Option<i64> = scalar!(
            self,
            fetch_optional,
            i64,
            "SELECT id FROM companies WHERE LOWER(TRIM(name)) = LOWER(TRIM($1)) AND id <> $2 \
             LIMIT 1",
            name,
            except.unwrap_or(CompanyId(0))
        )?;
        Ok(found.is_some())
    }

    /// One company with its administrator's account and its counts.
    pub async fn company_summary(&self, id: CompanyId) -> Result<Option<CompanySummary>> {
        let sql = format!("{SUMMARY} WHERE c.id = $1");
        Ok(rows!(self, fetch_optional, CompanySummary, &sql, id)?)
    }

    /// A page of companies whose name contains `name` (any case), oldest first, and the total.
    pub async fn company_summaries(
        &self,
        name: Option<&str>,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<CompanySummary>, i64)> {
        let pattern = format!("%{}%", name.unwrap_or("").trim().to_lowercase());
        let bounds = crate::sql::page(limit, offset);
        let sql = format!("{SUMMARY} WHERE LOWER(c.name) LIKE $1 ORDER BY c.id {bounds}");
        let rows = rows!(self, fetch_all, CompanySummary, &sql, &pattern)?;
        let total: i64 = scalar!(
            self,
            fetch_one,
            i64,
            "SELECT COUNT(*) FROM companies WHERE LOWER(name) LIKE $1",
            &pattern
        )?;
        Ok((rows, total))
    }

    /// Replaces a company's details, with `audit`; a taken name answers
    /// `Conflict::CompanyName`.
    pub async fn update_company(
        &self,
        id: CompanyId,
        d: &CompanyDetails,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE companies SET name = $2, contact_name = $3, email = $4, phone = $5, \
             address = $6, remark = $7 WHERE id = $1",
                id,
                &d.name,
                &d.contact_name,
                &d.email,
                &d.phone,
                &d.address,
                &d.remark
            )
            .map_err(|e| conflict(e, Conflict::CompanyName))?;
            if n == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            Ok(n == 1)
        })
    }

    /// Disabling also ends every session of the company's staff in the same transaction, so
    /// that enabling it again later does not revive a token issued before (`now` dates the
    /// revocation). `audit` (none in tests of the store) is written with them.
    pub async fn set_company_disabled(
        &self,
        id: CompanyId,
        disabled: bool,
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE companies SET disabled = $2 WHERE id = $1",
                id,
                disabled
            )?;
            if disabled {
                tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE sessions SET revoked_at = $2 WHERE revoked_at IS NULL AND user_id IN \
                     (SELECT id FROM users WHERE company_id = $1 AND kind = 'company')",
                    id,
                    now
                )?;
                tx_exec!(
                    tx,
                    sqlite,
                    "UPDATE refresh_tokens SET revoked_at = $2 WHERE revoked_at IS NULL AND user_id IN \
                     (SELECT id FROM users WHERE company_id = $1 AND kind = 'company')",
                    id,
                    now
                )?;
                // Their sessions' push subscriptions go with them (docs/push.md).
                for table in ["push_deliveries", "push_subscriptions"] {
                    tx_exec!(
                        tx,
                        sqlite,
                        &format!(
                            "DELETE FROM {table} WHERE user_id IN \
                             (SELECT id FROM users WHERE company_id = $1 AND kind = 'company')"
                        ),
                        id
                    )?;
                }
            }
            if let Some(audit) = audit.filter(|_| n == 1) {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            n == 1
        }))
    }

    /// Whether the company's staff are locked out.
    pub async fn company_disabled(&self, id: CompanyId) -> Result<bool> {
        Ok(scalar!(
            self,
            fetch_optional,
            bool,
            "SELECT disabled FROM companies WHERE id = $1",
            id
        )?
        .unwrap_or(false))
    }

    pub async fn set_company_logo(
        &self,
        id: CompanyId,
        logo: &str,
        icon: &str,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE companies SET logo_url = $2, icon_url = $3 WHERE id = $1",
                id,
                logo,
                icon
            )?;
            if n == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            Ok(n == 1)
        })
    }

    /// Sets the theme colour, with `audit` (none for a seed).
    pub async fn set_company_theme(
        &self,
        id: CompanyId,
        color: &str,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE companies SET theme_color = $2 WHERE id = $1",
                id,
                color
            )?;
            if let Some(audit) = audit.filter(|_| n == 1) {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            Ok(n == 1)
        })
    }

    /// The company `user` is the administrator of.
    pub async fn company_administered_by(&self, user: UserId) -> Result<Option<CompanyId>> {
        Ok(scalar!(
            self,
            fetch_optional,
            CompanyId,
            "SELECT id FROM companies WHERE admin_id = $1 ORDER BY id LIMIT 1",
            user
        )?)
    }
}
