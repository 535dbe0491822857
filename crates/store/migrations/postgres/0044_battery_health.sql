-- A battery's health per plant-local day (docs/battery-health.md), computed from its samples by
-- the battery health job (`jobs::battery_health`) so that a year of health reads 365 rows. A
-- NULL figure: the reports of that day did not give it (never a 0). The measured capacity is
-- that of the widest full swing (near full to near empty, or back) that ended that day.
CREATE TABLE battery_health_days (
    device_id BIGINT NOT NULL,
    day TEXT NOT NULL,
    soh DOUBLE PRECISION,
    bms_cycles DOUBLE PRECISION,
    capacity_ah DOUBLE PRECISION,
    voltage DOUBLE PRECISION,
    discharge_kwh DOUBLE PRECISION,
    charge_kwh DOUBLE PRECISION,
    efc DOUBLE PRECISION,
    spread_mv DOUBLE PRECISION,
    high_pack BIGINT,
    high_cell BIGINT,
    low_pack BIGINT,
    low_cell BIGINT,
    cycle_kind TEXT,
    cycle_start BIGINT,
    cycle_end BIGINT,
    cycle_soc_from DOUBLE PRECISION,
    cycle_soc_to DOUBLE PRECISION,
    cycle_ah DOUBLE PRECISION,
    cycle_kwh DOUBLE PRECISION,
    measured_ah DOUBLE PRECISION,
    measured_kwh DOUBLE PRECISION,
    bms_ah DOUBLE PRECISION,
    samples BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (device_id, day)
);
