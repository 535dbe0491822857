-- The audit log of remote control (issue 7): who did what to which device or gateway, when, and
-- how it ended. The actor's account and the plant are copied in, so an entry still reads right
-- after the account is deleted or the device moves to another plant. A command's final outcome
-- is read from `commands` through `command_id`.
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER,
    account TEXT NOT NULL,
    -- The actor's company when they are company staff (company staff see their colleagues').
    actor_company_id INTEGER,
    plant_id INTEGER,
    -- The plant's owner and company when the action happened (who else may read the entry).
    plant_owner_id INTEGER,
    plant_company_id INTEGER,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT 'null',
    -- sent | succeeded | failed | refused
    result TEXT NOT NULL,
    command_id INTEGER,
    created_at INTEGER NOT NULL
);
CREATE INDEX audit_log_time ON audit_log(created_at);
CREATE INDEX audit_log_plant ON audit_log(plant_id, created_at);
CREATE INDEX audit_log_user ON audit_log(user_id, created_at);

-- Custom parameter profiles for inverter settings (SPEC section 9: at most 6 parameters per
-- profile, 6 profiles per user, 30 selectable items). `params` is a JSON object of setting key
-- to string value.
CREATE TABLE setting_profiles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    params TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (user_id, name)
);

-- The last setting values a device confirmed, per key (what a read answers while the device is
-- offline).
CREATE TABLE device_settings (
    device_sn TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (device_sn, key)
);
