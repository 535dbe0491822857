-- The fleet dashboard sums one metric (PV) of thousands of plants over up to 30 days
-- (store::fleet). The key (plant_id, day, metric) holds every metric of a day together, so that
-- read visited seven rows for each one it summed, and looked each up in the table; this index
-- holds a plant's days of one metric side by side, with the energy, so the sum reads only them.
CREATE INDEX plant_energy_daily_metric ON plant_energy_daily(plant_id, metric, day, kwh);
