-- The communication log: what each gateway sent (uplink) and what the portal published to it
-- (downlink), one row per MQTT message, for an installer chasing a misbehaving device. The link
-- writes it in batches off the message path; a pruning job keeps it to a retention window and
-- a number of messages per gateway, so it is bounded (see docs/operations.md).
CREATE TABLE comm_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    gateway_id INTEGER NOT NULL REFERENCES gateways(id) ON DELETE CASCADE,
    gateway_sn TEXT NOT NULL,
    -- up | down
    direction TEXT NOT NULL,
    -- telemetry | status | event | reply | will | command | another topic leaf
    kind TEXT NOT NULL,
    topic TEXT NOT NULL,
    -- The payload as text (UTF-8 as sent, else hex), at most 64 KiB of it.
    payload TEXT NOT NULL,
    truncated BOOLEAN NOT NULL DEFAULT FALSE,
    -- The whole payload's size in bytes, truncated or not.
    size BIGINT NOT NULL,
    command_id BIGINT,
    at BIGINT NOT NULL
);
-- A gateway's messages, newest first, and the per-gateway cap.
CREATE INDEX comm_log_gateway ON comm_log(gateway_id, id);
-- The retention window.
CREATE INDEX comm_log_at ON comm_log(at);
