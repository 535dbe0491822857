-- A session is one sign-in: every access token carries its id and every refresh token of its
-- rotation chain belongs to it. Revoking the session (sign-out, reuse of a rotated refresh
-- token, a disabled account, a password change) ends all of them at once.
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    -- When the newest refresh token of the chain expires; the row is purged after that.
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX sessions_user ON sessions(user_id);

-- NULL for refresh tokens issued before sessions existed: their next refresh starts one.
ALTER TABLE refresh_tokens ADD COLUMN session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE;
CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id);
