//! Sessions: one per sign-in. Every access token names its session and every refresh token of
//! the rotation chain belongs to it, so revoking the session ends them all at once: sign-out,
//! reuse of a used refresh token, a disabled account, a password change or reset.

use domain::ids::UserId;

use crate::{Result, Store, auth::Taken, users::UserRow};

/// A sign-in as it is written: the session, its first refresh token, and the throttle's record
/// of the success (the pair's failures cleared, the address known to the account).
#[derive(Debug, Clone, Copy)]
pub struct NewSignIn<'a> {
    pub session: &'a str,
    pub user: UserId,
    pub refresh_hash: &'a str,
    pub now: i64,
    pub expires_at: i64,
    /// The throttle key whose failures a success clears.
    pub cleared_key: &'a str,
    /// The throttle key that marks the address as known, "locked" until `known_until`.
    pub known_key: &'a str,
    pub known_until: i64,
}

/// The refresh token that replaces a used one.
#[derive(Debug, Clone, Copy)]
pub struct NextToken<'a> {
    pub hash: &'a str,
    /// The session started for a token from before sessions existed.
    pub new_session: &'a str,
    pub now: i64,
    pub expires_at: i64,
}

/// A signed-in caller as one request reads them.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user: UserRow,
    /// Whether the caller's company is disabled (only staff are locked out by it).
    pub company_disabled: bool,
    /// The permission keys of the caller's role; none without a role.
    pub permissions: Vec<String>,
}

#[derive(sqlx::FromRow)]
struct CallerRow {
    #[sqlx(flatten)]
    user: UserRow,
    company_disabled: Option<bool>,
    permissions: Option<String>,
}

impl Store {
    /// Writes a sign-in in one transaction: a session with its first refresh token, and the
    /// throttle's record of the success.
    pub async fn sign_in(&self, s: &NewSignIn<'_>) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            tx_exec!(
                tx,
                sqlite,
                "INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
                s.session,
                s.user,
                s.now,
                s.expires_at
            )?;
            tx_exec!(
                tx,
                sqlite,
                "INSERT INTO refresh_tokens (token_hash, user_id, session_id, created_at, expires_at) \
                 VALUES ($1, $2, $3, $4, $5)",
                s.refresh_hash,
                s.user,
                s.session,
                s.now,
                s.expires_at
            )?;
            tx_exec!(
                tx,
                sqlite,
                "DELETE FROM login_throttle WHERE key = $1",
                s.cleared_key
            )?;
            // Stored as a throttle row "locked" until it expires, so it is purged after that.
            tx_exec!(
                tx,
                sqlite,
                "INSERT INTO login_throttle (key, failures, window_start, locked_until) \
                 VALUES ($1, 1, $2, $3) ON CONFLICT (key) DO UPDATE SET \
                 failures = 1, window_start = $2, locked_until = $3",
                s.known_key,
                s.now,
                s.known_until
            )?;
        });
        Ok(())
    }

    /// Takes a live refresh token (as [`Store::take_refresh_token`]) and stores its successor
    /// in the same session, in one transaction, keeping the session alive as long as the new
    /// token; a token from before sessions existed gets a new session. Answers the token's
    /// owner and session, or `None` (nothing written) when the token was not live.
    pub async fn rotate_refresh_token(
        &self,
        token_hash: &str,
        next: &NextToken<'_>,
    ) -> Result<Option<Taken>> {
        Ok(in_tx!(self, |tx, sqlite| {
            let taken = tx_rows!(
                tx,
                sqlite,
                fetch_optional,
                Taken,
                "UPDATE refresh_tokens SET revoked_at = $2 \
                 WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2 \
                   AND (session_id IS NULL \
                        OR session_id IN (SELECT id FROM sessions WHERE revoked_at IS NULL)) \
                 RETURNING user_id, session_id",
                token_hash,
                next.now
            )?;
            match taken {
                None => None,
                Some(taken) => {
                    let session = match taken.session_id.clone() {
                        Some(id) => id,
                        None => {
                            tx_exec!(
                                tx,
                                sqlite,
                                "INSERT INTO sessions (id, user_id, created_at, expires_at) \
                                 VALUES ($1, $2, $3, $4)",
                                next.new_session,
                                taken.user_id,
                                next.now,
                                next.expires_at
                            )?;
                            next.new_session.to_string()
                        }
                    };
                    tx_exec!(
                        tx,
                        sqlite,
                        "INSERT INTO refresh_tokens \
                         (token_hash, user_id, session_id, created_at, expires_at) \
                         VALUES ($1, $2, $3, $4, $5)",
                        next.hash,
                        taken.user_id,
                        &session,
                        next.now,
                        next.expires_at
                    )?;
                    tx_exec!(
                        tx,
                        sqlite,
                        "UPDATE sessions SET expires_at = $2 WHERE id = $1 AND expires_at < $2",
                        &session,
                        next.expires_at
                    )?;
                    Some(Taken {
                        user_id: taken.user_id,
                        session_id: Some(session),
                    })
                }
            }
        }))
    }

    pub async fn create_session(
        &self,
        id: &str,
        user: UserId,
        now: i64,
        expires_at: i64,
    ) -> Result<()> {
        exec!(
            self,
            "INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
            id,
            user,
            now,
            expires_at
        )?;
        Ok(())
    }

    /// The caller behind an access token: `user` when `session` is theirs and not revoked,
    /// with what every signed-in request decides from (their company's lock, their role's
    /// permissions), in one statement.
    pub async fn session_caller(&self, session: &str, user: UserId) -> Result<Option<Caller>> {
        let sql = format!(
            "SELECT {}, \
             (SELECT c.disabled FROM companies c WHERE c.id = users.company_id) \
               AS company_disabled, \
             (SELECT string_agg(rp.permission, ',') FROM role_permissions rp \
               WHERE rp.role_id = users.role_id) AS permissions \
             FROM users WHERE id = $1 AND EXISTS \
             (SELECT 1 FROM sessions s WHERE s.id = $2 AND s.user_id = $1 \
              AND s.revoked_at IS NULL)",
            crate::users::COLUMNS
        );
        let row = rows!(self, fetch_optional, CallerRow, &sql, user, session)?;
        Ok(row.map(|row| Caller {
            user: row.user,
            company_disabled: row.company_disabled.unwrap_or(false),
            permissions: row
                .permissions
                .map(|keys| keys.split(',').map(str::to_string).collect())
                .unwrap_or_default(),
        }))
    }

    /// Ends a session and every refresh token of it, and deletes the push subscriptions made
    /// in it (the device signed out stops receiving alarms), in one transaction; true when it
    /// was live.
    pub async fn revoke_session(&self, id: &str, now: i64) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let ended = tx_exec!(
                tx,
                sqlite,
                "UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
                id,
                now
            )?;
            tx_exec!(
                tx,
                sqlite,
                "UPDATE refresh_tokens SET revoked_at = $2 WHERE session_id = $1 \
                 AND revoked_at IS NULL",
                id,
                now
            )?;
            tx_exec!(
                tx,
                sqlite,
                "DELETE FROM push_deliveries WHERE subscription_id IN \
                 (SELECT id FROM push_subscriptions WHERE session_id = $1)",
                id
            )?;
            tx_exec!(
                tx,
                sqlite,
                "DELETE FROM push_subscriptions WHERE session_id = $1",
                id
            )?;
            ended == 1
        }))
    }

    /// Ends one of `user`'s sessions (signing out with the access token alone).
    pub async fn revoke_user_session(&self, id: &str, user: UserId, now: i64) -> Result<bool> {
        let theirs: Option<i64> = scalar!(
            self,
            fetch_optional,
            i64,
            "SELECT user_id FROM sessions WHERE id = $1 AND user_id = $2",
            id,
            user
        )?;
        match theirs {
            Some(_) => self.revoke_session(id, now).await,
            None => Ok(false),
        }
    }

    /// Ends every session of an account and every refresh token, including any from before
    /// sessions existed, and deletes its push subscriptions; answers how many refresh tokens
    /// were still live.
    pub async fn revoke_user_sessions(&self, user: UserId, now: i64) -> Result<u64> {
        Ok(in_tx!(self, |tx, sqlite| {
            let live = tx_scalar!(
                tx,
                sqlite,
                i64,
                "SELECT CAST(COUNT(*) AS BIGINT) FROM refresh_tokens \
                 WHERE user_id = $1 AND revoked_at IS NULL",
                user
            )?;
            revoke_in_tx!(tx, sqlite, user, now);
            live.unsigned_abs()
        }))
    }
}
