-- Telemetry: raw samples (one row per device per report, values as JSON text), the latest
-- sample per device, energy per device and per plant per plant-local day, and device events.
-- No foreign keys on the hot tables: ingest resolves devices itself and history outlives them.
CREATE TABLE samples (
    device_id INTEGER NOT NULL,
    ts INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (device_id, ts)
);

CREATE TABLE device_latest (
    device_id INTEGER PRIMARY KEY,
    ts INTEGER NOT NULL,
    payload TEXT NOT NULL
);

-- kwh: energy of the day. Daily counters keep the day's maximum; lifetime counters keep the
-- day's lowest and highest readings (lo, hi) and kwh = hi - lo. source_rank orders sources of one
-- metric inside a plant (0 inverter, 1 meter, 2 battery): the plant sums the best rank only.
CREATE TABLE energy_daily (
    device_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    metric TEXT NOT NULL,
    kwh REAL NOT NULL,
    lo REAL,
    hi REAL,
    plant_id INTEGER,
    source_rank INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (device_id, day, metric)
);
CREATE INDEX energy_daily_plant ON energy_daily(plant_id, day);

CREATE TABLE plant_energy_daily (
    plant_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    metric TEXT NOT NULL,
    kwh REAL NOT NULL,
    PRIMARY KEY (plant_id, day, metric)
);

CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    device_id INTEGER NOT NULL,
    plant_id INTEGER,
    code TEXT NOT NULL,
    severity TEXT NOT NULL,
    opened_at INTEGER NOT NULL,
    closed_at INTEGER
);
CREATE UNIQUE INDEX events_open ON events(device_id, code) WHERE closed_at IS NULL;
CREATE INDEX events_device ON events(device_id, opened_at);
CREATE INDEX events_plant ON events(plant_id, opened_at);

ALTER TABLE devices ADD COLUMN upgrading BOOLEAN NOT NULL DEFAULT FALSE;
