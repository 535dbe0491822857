-- A gateway's next registration key while it is being rotated: the broker accepts it beside
-- the current one until the gateway has taken it, then it replaces the current key.
ALTER TABLE gateways ADD COLUMN pending_key TEXT;
ALTER TABLE gateways ADD COLUMN key_changed_at BIGINT;
