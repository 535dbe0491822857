-- The master meter of a plant: the one at the grid connection point, chosen by the user
-- (POST /api/v1/meter/{sn}/master). At most one per plant; the API clears the others.
ALTER TABLE devices ADD COLUMN is_master BOOLEAN NOT NULL DEFAULT FALSE;
