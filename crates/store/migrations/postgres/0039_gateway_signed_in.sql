-- When each gateway last signed in (ms): the connection itself as the embedded broker accepts
-- it, or an online status that finds the gateway offline (devices::link::heard). A restart
-- is over once this is later than the gateway's answer to the restart.
ALTER TABLE gateways ADD COLUMN signed_in_at BIGINT;
