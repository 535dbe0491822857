-- Alarm delivery by Web Push (docs/push.md): a user's browsers and phones subscribed to alarms,
-- and the outbox of the messages to push to them.

-- One browser's push subscription (RFC 8030): the push service's endpoint and the browser's
-- keys (RFC 8291: `p256dh` its P-256 public key, `auth` the 16-byte secret, both base64url).
-- An endpoint belongs to one user at a time. `session_id` is the sign-in that subscribed:
-- ending that session (sign-out, a password change, a revocation) deletes the subscription in
-- the same transaction. `kinds` as for webhooks (`,kind,kind,`, empty: every kind).
CREATE TABLE push_subscriptions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    session_id TEXT NOT NULL,
    endpoint TEXT NOT NULL UNIQUE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    device_name TEXT NOT NULL DEFAULT '',
    kinds TEXT NOT NULL DEFAULT '',
    min_severity TEXT NOT NULL DEFAULT 'warning',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    last_success_at INTEGER,
    last_error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);
CREATE INDEX push_subscriptions_session ON push_subscriptions(session_id);

-- The push outbox: one row per (subscription, alarm change), with the notification's text in
-- the user's language. A row is deleted once the push service took it, once it is out of
-- tries, or with its subscription.
CREATE TABLE push_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    subscription_id INTEGER NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    severity TEXT NOT NULL,
    case_id INTEGER,
    plant_id INTEGER NOT NULL,
    plant_name TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    link TEXT NOT NULL,
    at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX push_deliveries_due ON push_deliveries(next_at);
CREATE INDEX push_deliveries_subscription ON push_deliveries(subscription_id);
