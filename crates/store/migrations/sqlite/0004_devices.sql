-- Gateways (data loggers) and the devices behind them. A device or gateway whose plant is
-- deleted stays registered but unbound, so it can be bound again.
CREATE TABLE gateways (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sn TEXT NOT NULL UNIQUE,
    reg_key TEXT NOT NULL,
    alias TEXT NOT NULL DEFAULT '',
    protocol TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    comm_type TEXT NOT NULL DEFAULT '',
    soft_ver TEXT NOT NULL DEFAULT '',
    hard_ver TEXT NOT NULL DEFAULT '',
    signal INTEGER,
    upload_cycle INTEGER NOT NULL DEFAULT 300,
    plant_id INTEGER REFERENCES plants(id) ON DELETE SET NULL,
    owner_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    company_id INTEGER REFERENCES companies(id) ON DELETE SET NULL,
    online BOOLEAN NOT NULL DEFAULT FALSE,
    last_online INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX gateways_plant ON gateways(plant_id);

CREATE TABLE devices (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sn TEXT NOT NULL UNIQUE,
    gateway_id INTEGER REFERENCES gateways(id) ON DELETE SET NULL,
    plant_id INTEGER REFERENCES plants(id) ON DELETE SET NULL,
    family TEXT NOT NULL,
    type_code INTEGER NOT NULL DEFAULT 0,
    protocol TEXT NOT NULL DEFAULT '',
    alias TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    rated_power REAL NOT NULL DEFAULT 0,
    versions TEXT NOT NULL DEFAULT '{}',
    parent_sn TEXT,
    status INTEGER NOT NULL DEFAULT 0,
    online BOOLEAN NOT NULL DEFAULT FALSE,
    last_seen INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX devices_gateway ON devices(gateway_id);
CREATE INDEX devices_plant ON devices(plant_id);
