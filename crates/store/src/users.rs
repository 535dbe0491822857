//! User accounts.

use std::collections::HashMap;

use domain::ids::CodeId;
use domain::{
    ids::{CompanyId, RoleId, UserId},
    policy::UserScope,
    user::UserKind,
};

use crate::{Conflict, Result, Store, audit::NewAudit, conflict};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRow {
    pub id: UserId,
    pub account: String,
    pub email: String,
    pub mobile: String,
    pub password_hash: String,
    pub nickname: String,
    pub name: String,
    pub avatar: String,
    pub gender: i64,
    pub temp_unit: String,
    pub kind: String,
    pub company_id: Option<CompanyId>,
    pub role_id: Option<RoleId>,
    pub disabled: bool,
    pub read_only: bool,
    pub notify_enabled: bool,
    pub notify_email: String,
    /// How long a gateway of theirs may be offline before an alarm e-mail (minutes).
    pub notify_offline_minutes: i64,
    /// The language of their alarm e-mails (`en`, `zh`, `es`).
    pub notify_lang: String,
    /// Quiet hours (alarm e-mails and webhooks held): on, from/to in minutes of the day in
    /// `quiet_zone`.
    pub quiet_enabled: bool,
    pub quiet_from: i64,
    pub quiet_to: i64,
    pub quiet_zone: String,
    pub user_src: String,
    pub created_at: i64,
    pub password_changed_at: i64,
    /// When the account was deleted; a deleted account stays for the history that names it.
    pub deleted_at: Option<i64>,
}

impl UserRow {
    pub fn id(&self) -> UserId {
        self.id
    }

    /// The name lists show for this account: the nickname, else the account.
    pub fn shown_name(&self) -> &str {
        if self.nickname.trim().is_empty() {
            &self.account
        } else {
            &self.nickname
        }
    }

    /// Unknown kinds (never written by this code) are treated as the least privileged.
    pub fn kind(&self) -> UserKind {
        UserKind::parse(&self.kind).unwrap_or(UserKind::Owner)
    }

    pub fn company(&self) -> Option<CompanyId> {
        self.company_id
    }

    pub fn role(&self) -> Option<RoleId> {
        self.role_id
    }

    /// The facts about this account that access decisions need.
    pub fn scope(&self) -> UserScope {
        UserScope {
            id: self.id(),
            kind: self.kind(),
            company: self.company(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct NewUser<'a> {
    pub account: &'a str,
    pub email: &'a str,
    pub mobile: &'a str,
    pub password_hash: &'a str,
    pub nickname: &'a str,
    pub kind: UserKind,
    pub company: Option<CompanyId>,
    pub role: Option<RoleId>,
    pub user_src: &'a str,
    pub now: i64,
}

#[derive(Debug, Clone)]
pub struct Profile {
    pub nickname: String,
    pub name: String,
    pub gender: i64,
    pub mobile: String,
    pub email: String,
}

/// A user's alarm e-mail preferences.
#[derive(Debug, Clone)]
pub struct NotifyChoice<'a> {
    pub enabled: bool,
    pub email: &'a str,
    pub offline_minutes: i64,
    /// `en`, `zh` or `es`.
    pub lang: &'a str,
}

/// A user's quiet hours as they chose them.
#[derive(Debug, Clone)]
pub struct QuietChoice<'a> {
    pub enabled: bool,
    pub from: i64,
    pub to: i64,
    /// An IANA time zone name.
    pub zone: &'a str,
}

pub(crate) const COLUMNS: &str = "id, account, email, mobile, password_hash, nickname, name, avatar, gender, \
    temp_unit, kind, company_id, role_id, disabled, read_only, notify_enabled, notify_email, \
    notify_offline_minutes, notify_lang, quiet_enabled, CAST(quiet_from AS BIGINT) AS quiet_from, \
    CAST(quiet_to AS BIGINT) AS quiet_to, quiet_zone, user_src, created_at, password_changed_at, \
    deleted_at";

impl Store {
    /// Creates an account; an account name already taken answers `Conflict::Registered`.
    pub async fn create_user(&self, user: &NewUser<'_>) -> Result<UserId> {
        let id = scalar!(
            self,
            fetch_one,
            UserId,
            "INSERT INTO users (account, email, mobile, password_hash, nickname, kind, company_id, \
             role_id, user_src, created_at, password_changed_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING id",
            user.account,
            user.email,
            user.mobile,
            user.password_hash,
            user.nickname,
            user.kind.as_str(),
            user.company,
            user.role,
            user.user_src,
            user.now,
        )
        .map_err(|e| conflict(e, Conflict::Registered))?;
        Ok(id)
    }

    /// A registration: uses the verification code `code` and creates the account with its
    /// `audit` entry (about `user:<id>`), in one transaction. `None` (nothing written) when
    /// the code was used first by another request; a taken account answers
    /// `Conflict("users")`.
    pub async fn register_user(
        &self,
        user: &NewUser<'_>,
        code: CodeId,
        audit: &NewAudit<'_>,
    ) -> Result<Option<UserId>> {
        Ok(in_tx!(self, |tx, sqlite| {
            let used = tx_exec!(
                tx,
                sqlite,
                "UPDATE verification_codes SET used_at = $2 WHERE id = $1 AND used_at IS NULL",
                code,
                user.now
            )?;
            if used == 1 {
                let id = tx_scalar!(
                    tx,
                    sqlite,
                    UserId,
                    "INSERT INTO users (account, email, mobile, password_hash, nickname, kind, \
                     company_id, role_id, user_src, created_at, password_changed_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING id",
                    user.account,
                    user.email,
                    user.mobile,
                    user.password_hash,
                    user.nickname,
                    user.kind.as_str(),
                    user.company,
                    user.role,
                    user.user_src,
                    user.now,
                )
                .map_err(|e| conflict(e, Conflict::Registered))?;
                audit_new_in_tx!(tx, sqlite, audit, id)?;
                Some(id)
            } else {
                None
            }
        }))
    }

    pub async fn user(&self, id: UserId) -> Result<Option<UserRow>> {
        let sql = format!("SELECT {COLUMNS} FROM users WHERE id = $1");
        Ok(rows!(self, fetch_optional, UserRow, &sql, id)?)
    }

    /// The users with these ids (repeats allowed), by id, in one query: a page's owners.
    pub async fn users_by_ids(
        &self,
        ids: impl IntoIterator<Item = UserId>,
    ) -> Result<HashMap<UserId, UserRow>> {
        let mut ids: Vec<UserId> = ids.into_iter().collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = format!(
            "SELECT {COLUMNS} FROM users WHERE id IN ({})",
            crate::sql::placeholders(1, ids.len())
        );
        let rows: Vec<UserRow> = with_ids!(self, UserRow, sql, [], &ids)?;
        Ok(rows.into_iter().map(|u| (u.id, u)).collect())
    }

    pub async fn user_by_account(&self, account: &str) -> Result<Option<UserRow>> {
        let sql = format!("SELECT {COLUMNS} FROM users WHERE account = $1 AND deleted_at IS NULL");
        Ok(rows!(self, fetch_optional, UserRow, &sql, account)?)
    }

    /// Users in account order, deleted ones left out; `company` narrows to one company's staff.
    pub async fn users(&self, company: Option<CompanyId>) -> Result<Vec<UserRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM users WHERE ($1 IS NULL OR company_id = $1) \
             AND deleted_at IS NULL ORDER BY account"
        );
        Ok(rows!(self, fetch_all, UserRow, &sql, company)?)
    }

    pub async fn count_users(&self) -> Result<i64> {
        Ok(scalar!(self, fetch_one, i64, "SELECT COUNT(*) FROM users")?)
    }

    pub async fn update_profile(&self, id: UserId, p: &Profile) -> Result<bool> {
        let n = exec!(
            self,
            "UPDATE users SET nickname = $2, name = $3, gender = $4, mobile = $5, email = $6 \
             WHERE id = $1",
            id,
            &p.nickname,
            &p.name,
            p.gender,
            &p.mobile,
            &p.email,
        )?;
        Ok(n == 1)
    }

    /// Sets a new password and ends every session and refresh token of the account, in one
    /// transaction: a password changed because it leaked must not leave a session open.
    pub async fn set_password(&self, id: UserId, hash: &str, now: i64) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE users SET password_hash = $2, password_changed_at = $3 WHERE id = $1",
                id,
                hash,
                now
            )?;
            revoke_in_tx!(tx, sqlite, id, now);
            n == 1
        }))
    }

    pub async fn set_avatar(&self, id: UserId, url: &str) -> Result<bool> {
        Ok(exec!(self, "UPDATE users SET avatar = $2 WHERE id = $1", id, url)? == 1)
    }

    pub async fn set_temp_unit(&self, id: UserId, unit: &str) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE users SET temp_unit = $2 WHERE id = $1",
            id,
            unit
        )? == 1)
    }

    pub async fn set_notify(&self, id: UserId, n: &NotifyChoice<'_>) -> Result<bool> {
        let n = exec!(
            self,
            "UPDATE users SET notify_enabled = $2, notify_email = $3, \
             notify_offline_minutes = $4, notify_lang = $5 WHERE id = $1",
            id,
            n.enabled,
            n.email,
            n.offline_minutes,
            n.lang
        )?;
        Ok(n == 1)
    }

    /// The alarm e-mail choice and the quiet hours (unchanged when `None`) in one statement.
    pub async fn set_notify_and_quiet(
        &self,
        id: UserId,
        n: &NotifyChoice<'_>,
        q: Option<&QuietChoice<'_>>,
    ) -> Result<bool> {
        let Some(q) = q else {
            return self.set_notify(id, n).await;
        };
        let n = exec!(
            self,
            "UPDATE users SET notify_enabled = $2, notify_email = $3, \
             notify_offline_minutes = $4, notify_lang = $5, quiet_enabled = $6, quiet_from = $7, \
             quiet_to = $8, quiet_zone = $9 WHERE id = $1",
            id,
            n.enabled,
            n.email,
            n.offline_minutes,
            n.lang,
            q.enabled,
            q.from,
            q.to,
            q.zone
        )?;
        Ok(n == 1)
    }

    /// Disabling also ends every session of the account in the same transaction, so that
    /// enabling it again later does not revive a token issued before (`now` dates the
    /// revocation). `audit` (none for the command line's change) is written with it.
    pub async fn set_disabled(
        &self,
        id: UserId,
        disabled: bool,
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE users SET disabled = $2 WHERE id = $1",
                id,
                disabled
            )?;
            if disabled {
                revoke_in_tx!(tx, sqlite, id, now);
            }
            if let Some(audit) = audit.filter(|_| n == 1) {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            n == 1
        }))
    }

    pub async fn set_role(&self, id: UserId, role: RoleId) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE users SET role_id = $2 WHERE id = $1",
            id,
            role
        )? == 1)
    }

    pub async fn users_with_role(&self, role: RoleId) -> Result<i64> {
        Ok(scalar!(
            self,
            fetch_one,
            i64,
            "SELECT COUNT(*) FROM users WHERE role_id = $1 AND deleted_at IS NULL",
            role
        )?)
    }
}

impl Store {
    pub async fn set_read_only(&self, id: UserId, read_only: bool) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE users SET read_only = $2 WHERE id = $1",
            id,
            read_only
        )? == 1)
    }
}

/// A staff member about to be created.
#[derive(Debug, Clone)]
pub struct NewStaff<'a> {
    pub account: &'a str,
    pub password_hash: &'a str,
    pub nickname: &'a str,
    pub name: &'a str,
    pub email: &'a str,
    pub mobile: &'a str,
    pub avatar: &'a str,
    pub company: CompanyId,
    pub role: RoleId,
    pub now: i64,
}

/// What an administrator changes of a staff member.
#[derive(Debug, Clone)]
pub struct StaffEdit {
    pub nickname: String,
    pub name: String,
    pub email: String,
    pub mobile: String,
    pub role: RoleId,
    pub disabled: bool,
}

impl Store {
    /// Creates a company account; a taken account answers `Conflict::StaffAccount`. `audit` (none
    /// for a seed) is about `user:<id>`.
    pub async fn create_staff(
        &self,
        s: &NewStaff<'_>,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<UserId> {
        let id = in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                UserId,
                "INSERT INTO users (account, email, mobile, password_hash, nickname, name, avatar, \
             kind, company_id, role_id, user_src, created_at, password_changed_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'web', $11, $11) RETURNING id",
                s.account,
                s.email,
                s.mobile,
                s.password_hash,
                s.nickname,
                s.name,
                s.avatar,
                UserKind::Company.as_str(),
                s.company,
                s.role,
                s.now,
            )
            .map_err(|e| conflict(e, Conflict::StaffAccount))?;
            if let Some(audit) = audit {
                audit_new_in_tx!(tx, sqlite, audit, id)?;
            }
            id
        });
        Ok(id)
    }

    /// Saves a staff member's profile, role and access; disabling ends their sessions, all in
    /// one transaction with `audit`.
    pub async fn update_staff(
        &self,
        id: UserId,
        e: &StaffEdit,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE users SET nickname = $2, name = $3, email = $4, mobile = $5, \
                 role_id = $6, disabled = $7 WHERE id = $1 AND deleted_at IS NULL",
                id,
                &e.nickname,
                &e.name,
                &e.email,
                &e.mobile,
                e.role,
                e.disabled
            )?;
            if e.disabled {
                revoke_in_tx!(tx, sqlite, id, now);
            }
            if n == 1 {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            n == 1
        }))
    }

    /// Deletes a staff member softly, in one transaction: the row stays (plants, commands and
    /// logs name it), marked deleted and disabled, its account renamed `deleted-{id}-{account}`
    /// so the name is free again, and every session and refresh token revoked.
    /// `audit` (none in the store's own tests) is written with it.
    pub async fn delete_staff(
        &self,
        id: UserId,
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE users SET deleted_at = $2, disabled = TRUE, \
                 account = 'deleted-' || CAST(id AS TEXT) || '-' || account \
                 WHERE id = $1 AND deleted_at IS NULL",
                id,
                now
            )?;
            revoke_in_tx!(tx, sqlite, id, now);
            if let Some(audit) = audit.filter(|_| n == 1) {
                audit_in_tx!(tx, sqlite, audit)?;
            }
            n == 1
        }))
    }
}
