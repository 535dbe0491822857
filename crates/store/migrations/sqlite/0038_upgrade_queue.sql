-- A gateway flashes one device at a time: upgrades wait in a queue per gateway. Each upgrade
-- keeps the gateway it goes through (a gateway's own upgrade: its SN), and a new state,
-- 'queued', holds an upgrade that waits for the one running there (no command yet).
ALTER TABLE upgrades ADD COLUMN gateway_sn TEXT NOT NULL DEFAULT '';
UPDATE upgrades SET gateway_sn = COALESCE(
    (SELECT c.gateway_sn FROM commands c WHERE c.id = upgrades.command_id), device_sn);
CREATE INDEX upgrades_gateway_state ON upgrades(gateway_sn, state, id);
