-- Firmware files an administrator uploaded, per inverter type code or for gateways, and the
-- upgrades run with them. One `upgrades` row per device and run: any replica can show progress.
CREATE TABLE firmware (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- 'inverter' or 'gateway'
    target TEXT NOT NULL,
    -- The inverter type code the file is for; 0 for gateway firmware.
    type_code INTEGER NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    file_name TEXT NOT NULL,
    -- The file under <data dir>/firmware.
    stored_name TEXT NOT NULL,
    size INTEGER NOT NULL,
    version TEXT NOT NULL,
    change_log TEXT NOT NULL DEFAULT '',
    enabled BOOLEAN NOT NULL DEFAULT TRUE,
    created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (target, type_code, version)
);

CREATE TABLE upgrades (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- Upgrades started together share a batch id (a single upgrade is a batch of one).
    batch_id TEXT NOT NULL,
    -- 'inverter' or 'gateway'
    target TEXT NOT NULL,
    device_sn TEXT NOT NULL,
    firmware_id INTEGER REFERENCES firmware(id) ON DELETE SET NULL,
    version TEXT NOT NULL,
    from_version TEXT NOT NULL DEFAULT '',
    command_id INTEGER,
    -- sending | upgrading | successful | failed | cancelled
    state TEXT NOT NULL,
    progress INTEGER NOT NULL DEFAULT 0,
    message TEXT NOT NULL DEFAULT '',
    cancellable BOOLEAN NOT NULL DEFAULT FALSE,
    user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    updated_at INTEGER NOT NULL
);
CREATE INDEX upgrades_device ON upgrades(device_sn, started_at);
CREATE INDEX upgrades_batch ON upgrades(batch_id);
CREATE INDEX upgrades_command ON upgrades(command_id);
