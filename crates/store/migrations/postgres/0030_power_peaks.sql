-- A plant's peak PV power of each closed local day (the highest 5-minute sum over its
-- inverters, and when), kept once computed so that a month or year report reads a row per day
-- instead of every sample of the period. Rows are written by the first report that needs a
-- closed day; compacting a device-day deletes its plant's row of that day, so late reports are
-- counted by the next report. A NULL peak: no PV figure that day.
CREATE TABLE plant_power_peaks (
    plant_id BIGINT NOT NULL,
    day TEXT NOT NULL,
    watts DOUBLE PRECISION,
    at BIGINT,
    PRIMARY KEY (plant_id, day)
);
