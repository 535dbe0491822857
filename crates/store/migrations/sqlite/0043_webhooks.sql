-- Alarm delivery by signed webhooks, and quiet hours.

-- Quiet hours per user: from/to as minutes of the day in `quiet_zone` (an IANA zone name the
-- web app takes from the browser), wrapping midnight when `to` is not after `from`. Off by
-- default. While quiet, alarm e-mails and webhook deliveries are held.
ALTER TABLE users ADD COLUMN quiet_enabled BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE users ADD COLUMN quiet_from INTEGER NOT NULL DEFAULT 1320;
ALTER TABLE users ADD COLUMN quiet_to INTEGER NOT NULL DEFAULT 420;
ALTER TABLE users ADD COLUMN quiet_zone TEXT NOT NULL DEFAULT 'UTC';

-- A user's webhook endpoints (at most 5, checked by the use case). `kinds` is the kind
-- filter as `,kind,kind,` (empty: every kind); `min_severity` 'warning' or 'alarm'. The
-- secret signs every delivery, so it is kept as it is (shown to its owner once).
CREATE TABLE webhook_endpoints (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    enabled BOOLEAN NOT NULL DEFAULT TRUE,
    kinds TEXT NOT NULL DEFAULT '',
    min_severity TEXT NOT NULL DEFAULT 'warning',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_user ON webhook_endpoints(user_id);

-- The webhook outbox: one row per (endpoint, alarm event), with what its body is made of.
-- `state` 'pending' (tried at `next_at`), 'delivered' or 'failed' (out of tries).
CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    event TEXT NOT NULL,
    kind TEXT NOT NULL,
    severity TEXT NOT NULL,
    case_id INTEGER,
    plant_id INTEGER NOT NULL,
    plant_name TEXT NOT NULL,
    device_sn TEXT,
    title TEXT NOT NULL,
    detail TEXT NOT NULL,
    at INTEGER NOT NULL,
    link TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    finished_at INTEGER
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_at);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, id);

-- The delivery log: one row per attempt (HTTP status, or the error), bounded by the job.
CREATE TABLE webhook_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    delivery_id INTEGER NOT NULL,
    event TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    at INTEGER NOT NULL,
    status INTEGER,
    error TEXT NOT NULL DEFAULT '',
    duration_ms INTEGER NOT NULL
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts(endpoint_id, id);

-- Alarm e-mail lines decided during a user's quiet hours, mailed as one digest when they end.
-- `line` is the digest line as JSON.
CREATE TABLE alarm_held_lines (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    plant_id INTEGER NOT NULL,
    line TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX alarm_held_lines_user ON alarm_held_lines(user_id, id);
