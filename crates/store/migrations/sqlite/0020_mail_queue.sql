-- Mail that a background worker delivers (alarm e-mails, monthly reports): queued rows wait
-- until the configured SMTP server takes them, retried with a growing delay while it is down,
-- and are never dropped. Verification codes still go out at once (queued stays FALSE).
ALTER TABLE outbox ADD COLUMN queued BOOLEAN NOT NULL DEFAULT FALSE;
-- 'code' (verification codes), 'alarm', 'report'.
ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'code';
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN next_attempt_at INTEGER;
ALTER TABLE outbox ADD COLUMN last_error TEXT;
ALTER TABLE outbox ADD COLUMN attachment_name TEXT;
ALTER TABLE outbox ADD COLUMN attachment BLOB;
CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE queued AND sent_at IS NULL;
