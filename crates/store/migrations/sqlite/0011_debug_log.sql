-- The debug log (issue 7): every raw frame a user sent to an inverter or a gateway through the
-- remote debug toolbox, and what came back. The actor's account and the plant are copied in so
-- an entry still reads right after the account is deleted or the device moves. The reply frame
-- and the final outcome are read from `commands` through `command_id`; a send refused before it
-- left (offline, upgrading) has no command and says why in `message`.
CREATE TABLE debug_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER,
    account TEXT NOT NULL,
    actor_company_id INTEGER,
    plant_id INTEGER,
    plant_owner_id INTEGER,
    plant_company_id INTEGER,
    -- inverter | gateway
    target_kind TEXT NOT NULL,
    device_sn TEXT NOT NULL,
    gateway_sn TEXT NOT NULL,
    -- The request frame as spaced upper-case hex (`01 03 00 00 00 0A C5 CD`).
    request TEXT NOT NULL,
    -- sent | refused
    result TEXT NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    command_id INTEGER,
    created_at INTEGER NOT NULL
);
CREATE INDEX debug_log_time ON debug_log(created_at);
CREATE INDEX debug_log_device ON debug_log(device_sn, created_at);
CREATE INDEX debug_log_command ON debug_log(command_id);
