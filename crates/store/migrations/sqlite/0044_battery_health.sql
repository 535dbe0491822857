-- A battery's health per plant-local day (docs/battery-health.md), computed from its samples by
-- the battery health job (`jobs::battery_health`) so that a year of health reads 365 rows. A
-- NULL figure: the reports of that day did not give it (never a 0). The measured capacity is
-- that of the widest full swing (near full to near empty, or back) that ended that day.
CREATE TABLE battery_health_days (
    device_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    soh REAL,
    bms_cycles REAL,
    capacity_ah REAL,
    voltage REAL,
    discharge_kwh REAL,
    charge_kwh REAL,
    efc REAL,
    spread_mv REAL,
    high_pack INTEGER,
    high_cell INTEGER,
    low_pack INTEGER,
    low_cell INTEGER,
    cycle_kind TEXT,
    cycle_start INTEGER,
    cycle_end INTEGER,
    cycle_soc_from REAL,
    cycle_soc_to REAL,
    cycle_ah REAL,
    cycle_kwh REAL,
    measured_ah REAL,
    measured_kwh REAL,
    bms_ah REAL,
    samples INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (device_id, day)
);
