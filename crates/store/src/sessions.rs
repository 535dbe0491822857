//! Sessions: one per sign-in. Every access token names its session and every refresh token of
//! the rotation chain belongs to it, so revoking the session ends them all at once: sign-out,
//! reuse of a used refresh token, a disabled account, a password change or reset.

use domain::ids::UserId;

use crate::{Result, Store, users::UserRow};

impl Store {
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
            user.0,
            now,
            expires_at
        )?;
        Ok(())
    }

    /// The account behind an access token: `user` when `session` is theirs and not revoked.
    /// One query, in place of the plain user lookup every signed-in request makes.
    pub async fn session_user(&self, session: &str, user: UserId) -> Result<Option<UserRow>> {
        let sql = format!(
            "SELECT {} FROM users WHERE id = $1 AND EXISTS \
             (SELECT 1 FROM sessions s WHERE s.id = $2 AND s.user_id = $1 \
              AND s.revoked_at IS NULL)",
            crate::users::COLUMNS
        );
        Ok(rows!(self, fetch_optional, UserRow, &sql, user.0, session)?)
    }

    /// Ends a session and every refresh token of it; true when it was live.
    pub async fn revoke_session(&self, id: &str, now: i64) -> Result<bool> {
        let ended = exec!(
            self,
            "UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
            id,
            now
        )?;
        exec!(
            self,
            "UPDATE refresh_tokens SET revoked_at = $2 WHERE session_id = $1 AND revoked_at IS NULL",
            id,
            now
        )?;
        Ok(ended == 1)
    }

    /// Ends one of `user`'s sessions (signing out with the access token alone).
    pub async fn revoke_user_session(&self, id: &str, user: UserId, now: i64) -> Result<bool> {
        let theirs: Option<i64> = scalar!(
            self,
            fetch_optional,
            i64,
            "SELECT user_id FROM sessions WHERE id = $1 AND user_id = $2",
            id,
            user.0
        )?;
        match theirs {
            Some(_) => self.revoke_session(id, now).await,
            None => Ok(false),
        }
    }

    /// Ends every session of an account and every refresh token, including any from before
    /// sessions existed; answers how many refresh tokens were still live.
    pub async fn revoke_user_sessions(&self, user: UserId, now: i64) -> Result<u64> {
        exec!(
            self,
            "UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL",
            user.0,
            now
        )?;
        Ok(exec!(
            self,
            "UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL",
            user.0,
            now
        )?)
    }
}
