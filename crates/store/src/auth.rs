//! Sign-in state: server secrets, refresh tokens (sessions are in `sessions.rs`), verification
//! codes and the throttle of failed attempts. All of it lives in the database so that every
//! replica sees the same state.

use domain::ids::CodeId;
use domain::ids::UserId;

use crate::{Result, Store};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CodeRow {
    pub id: CodeId,
    pub code_hash: String,
    pub created_at: i64,
    pub expires_at: i64,
    pub attempts: i64,
}

/// A refresh token's owner and session (`None` for tokens from before sessions existed).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Taken {
    pub user_id: UserId,
    pub session_id: Option<String>,
}

impl Taken {
    pub fn user(&self) -> UserId {
        self.user_id
    }
}

#[derive(Debug, Clone, Copy, sqlx::FromRow)]
pub struct ThrottleRow {
    pub failures: i64,
    pub window_start: i64,
    pub locked_until: i64,
}

impl Store {
    /// Returns the secret stored under `name`, storing `candidate` first when there is none.
    /// Replicas starting together all end up with the one value that won the insert.
    pub async fn secret_or_insert(&self, name: &str, candidate: &str) -> Result<String> {
        exec!(
            self,
            "INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
            name,
            candidate
        )?;
        Ok(scalar!(
            self,
            fetch_one,
            String,
            "SELECT value FROM secrets WHERE name = $1",
            name
        )?)
    }

    /// Stores a refresh token of `session` and keeps the session alive as long as its newest
    /// token.
    pub async fn insert_refresh_token(
        &self,
        token_hash: &str,
        user: UserId,
        session: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<()> {
        exec!(
            self,
            "INSERT INTO refresh_tokens (token_hash, user_id, session_id, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5)",
            token_hash,
            user,
            session,
            now,
            expires_at
        )?;
        exec!(
            self,
            "UPDATE sessions SET expires_at = $2 WHERE id = $1 AND expires_at < $2",
            session,
            expires_at
        )?;
        Ok(())
    }

    /// Revokes a live refresh token of a live session and says whose it was. A token that is
    /// unknown, expired, already used, or of a revoked session yields `None`; the single UPDATE
    /// makes concurrent reuse impossible. Tokens from before sessions existed have none.
    pub async fn take_refresh_token(&self, token_hash: &str, now: i64) -> Result<Option<Taken>> {
        Ok(rows!(
            self,
            fetch_optional,
            Taken,
            "UPDATE refresh_tokens SET revoked_at = $2 \
             WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2 \
               AND (session_id IS NULL \
                    OR session_id IN (SELECT id FROM sessions WHERE revoked_at IS NULL)) \
             RETURNING user_id, session_id",
            token_hash,
            now
        )?)
    }

    /// The owner and session of a live refresh token (as [`Store::take_refresh_token`] would
    /// take it), without taking it.
    pub async fn refresh_token_owner(&self, token_hash: &str, now: i64) -> Result<Option<Taken>> {
        Ok(rows!(
            self,
            fetch_optional,
            Taken,
            "SELECT user_id, session_id FROM refresh_tokens \
             WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2 \
               AND (session_id IS NULL \
                    OR session_id IN (SELECT id FROM sessions WHERE revoked_at IS NULL))",
            token_hash,
            now
        )?)
    }

    /// A refresh token presented again after it was used (before `used_before`): a copy is
    /// in someone else's hands, so its whole session (every token of the chain, and the access
    /// tokens that carry its id) ends. True when a live session was revoked.
    pub async fn revoke_reused_chain(
        &self,
        token_hash: &str,
        used_before: i64,
        now: i64,
    ) -> Result<bool> {
        let session: Option<Option<String>> = scalar!(
            self,
            fetch_optional,
            Option<String>,
            "SELECT session_id FROM refresh_tokens \
             WHERE token_hash = $1 AND revoked_at IS NOT NULL AND revoked_at < $2",
            token_hash,
            used_before
        )?;
        match session.flatten() {
            Some(id) => self.revoke_session(&id, now).await,
            None => Ok(false),
        }
    }

    /// Sign-out with a refresh token: ends the session it belongs to, used or not, but only
    /// when it is `user`'s (any user's with `None`: holding a token of the chain is the proof).
    /// True when something was revoked.
    pub async fn revoke_refresh_token(
        &self,
        token_hash: &str,
        user: Option<UserId>,
        now: i64,
    ) -> Result<bool> {
        let owner: Option<Taken> = rows!(
            self,
            fetch_optional,
            Taken,
            "SELECT user_id, session_id FROM refresh_tokens \
             WHERE token_hash = $1 AND ($2 IS NULL OR user_id = $2)",
            token_hash,
            user
        )?;
        match owner {
            Some(Taken {
                session_id: Some(id),
                ..
            }) => self.revoke_session(&id, now).await,
            Some(_) => Ok(exec!(
                self,
                "UPDATE refresh_tokens SET revoked_at = $2 \
                 WHERE token_hash = $1 AND revoked_at IS NULL",
                token_hash,
                now
            )? == 1),
            None => Ok(false),
        }
    }

    /// Drops refresh tokens and sessions that can never be used again. Used tokens are kept
    /// until they would have expired, so that a copy presented late is still recognised as
    /// reuse and ends its chain.
    pub async fn purge_refresh_tokens(&self, now: i64) -> Result<u64> {
        let tokens = exec!(
            self,
            "DELETE FROM refresh_tokens WHERE expires_at < $1",
            now
        )?;
        let sessions = exec!(self, "DELETE FROM sessions WHERE expires_at < $1", now)?;
        Ok(tokens + sessions)
    }

    /// Stores a new code and retires any earlier unused one for the same account and purpose, in
    /// one transaction.
    pub async fn insert_code(
        &self,
        account: &str,
        purpose: &str,
        code_hash: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            tx_exec!(
                tx,
                sqlite,
                "UPDATE verification_codes SET used_at = $3 \
                 WHERE account = $1 AND purpose = $2 AND used_at IS NULL",
                account,
                purpose,
                now
            )?;
            tx_exec!(
                tx,
                sqlite,
                "INSERT INTO verification_codes \
                 (account, purpose, code_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
                account,
                purpose,
                code_hash,
                now,
                expires_at
            )?;
        });
        Ok(())
    }

    /// The newest code still unused for this account and purpose.
    pub async fn live_code(&self, account: &str, purpose: &str) -> Result<Option<CodeRow>> {
        Ok(rows!(
            self,
            fetch_optional,
            CodeRow,
            "SELECT id, code_hash, created_at, expires_at, attempts FROM verification_codes \
             WHERE account = $1 AND purpose = $2 AND used_at IS NULL \
             ORDER BY id DESC LIMIT 1",
            account,
            purpose
        )?)
    }

    pub async fn count_code_attempt(&self, id: CodeId) -> Result<()> {
        exec!(
            self,
            "UPDATE verification_codes SET attempts = attempts + 1 WHERE id = $1",
            id
        )?;
        Ok(())
    }

    /// Marks a code used; false when someone else used it first.
    pub async fn use_code(&self, id: CodeId, now: i64) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE verification_codes SET used_at = $2 WHERE id = $1 AND used_at IS NULL",
            id,
            now
        )? == 1)
    }

    /// How many codes were sent to this account since `since` (any purpose).
    pub async fn codes_sent_since(&self, account: &str, since: i64) -> Result<i64> {
        Ok(scalar!(
            self,
            fetch_one,
            i64,
            "SELECT COUNT(*) FROM verification_codes WHERE account = $1 AND created_at >= $2",
            account,
            since
        )?)
    }

    pub async fn latest_code_sent_at(&self, account: &str) -> Result<Option<i64>> {
        Ok(scalar!(
            self,
            fetch_one,
            Option<i64>,
            "SELECT MAX(created_at) FROM verification_codes WHERE account = $1",
            account
        )?)
    }

    pub async fn throttle(&self, key: &str) -> Result<Option<ThrottleRow>> {
        Ok(rows!(
            self,
            fetch_optional,
            ThrottleRow,
            "SELECT failures, window_start, locked_until FROM login_throttle WHERE key = $1",
            key
        )?)
    }

    /// Counts one failed sign-in for `key`, starting a new window when the last one began
    /// before `window_floor`, and returns the updated state.
    pub async fn record_login_failure(
        &self,
        key: &str,
        now: i64,
        window_floor: i64,
    ) -> Result<ThrottleRow> {
        Ok(rows!(
            self,
            fetch_one,
            ThrottleRow,
            "INSERT INTO login_throttle (key, failures, window_start) VALUES ($1, 1, $2) \
             ON CONFLICT (key) DO UPDATE SET \
               failures = CASE WHEN login_throttle.window_start < $3 THEN 1 \
                               ELSE login_throttle.failures + 1 END, \
               window_start = CASE WHEN login_throttle.window_start < $3 THEN $2 \
                                   ELSE login_throttle.window_start END \
             RETURNING failures, window_start, locked_until",
            key,
            now,
            window_floor
        )?)
    }

    pub async fn lock_login(&self, key: &str, until: i64) -> Result<()> {
        exec!(
            self,
            "UPDATE login_throttle SET locked_until = $2 WHERE key = $1",
            key,
            until
        )?;
        Ok(())
    }

    pub async fn clear_login_failures(&self, key: &str) -> Result<()> {
        exec!(self, "DELETE FROM login_throttle WHERE key = $1", key)?;
        Ok(())
    }

    /// Drops throttle rows whose window began before `window_floor` and that hold no lock.
    pub async fn purge_login_throttle(&self, window_floor: i64, now: i64) -> Result<u64> {
        Ok(exec!(
            self,
            "DELETE FROM login_throttle WHERE window_start < $1 AND locked_until <= $2",
            window_floor,
            now
        )?)
    }

    /// Drops verification codes created before `before` (the send limits look back an hour).
    pub async fn purge_codes(&self, before: i64) -> Result<u64> {
        Ok(exec!(
            self,
            "DELETE FROM verification_codes WHERE created_at < $1",
            before
        )?)
    }
}

impl Store {
    /// Fills a secret reserved empty by [`Store::secret_or_insert`]; a value another replica
    /// stored first is kept.
    pub async fn replace_empty_secret(&self, name: &str, value: &str) -> Result<()> {
        exec!(
            self,
            "UPDATE secrets SET value = $2 WHERE name = $1 AND value = ''",
            name,
            value
        )?;
        Ok(())
    }
}
