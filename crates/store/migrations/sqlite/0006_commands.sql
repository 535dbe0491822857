-- Commands sent to devices through their gateways, and what became of them. Any replica can
-- read a command's outcome here: the replica that receives a reply need not be the one that
-- sent the command.
CREATE TABLE commands (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    correlation_id TEXT NOT NULL UNIQUE,
    gateway_sn TEXT NOT NULL,
    device_sn TEXT NOT NULL,
    kind TEXT NOT NULL,
    params TEXT NOT NULL DEFAULT 'null',
    -- sent | acknowledged | succeeded | failed | timed_out
    status TEXT NOT NULL,
    result_code BIGINT,
    result_msg TEXT NOT NULL DEFAULT '',
    result_data TEXT NOT NULL DEFAULT 'null',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    deadline BIGINT NOT NULL
);
CREATE INDEX commands_device ON commands(device_sn, created_at);
CREATE INDEX commands_open ON commands(deadline) WHERE status IN ('sent', 'acknowledged');
