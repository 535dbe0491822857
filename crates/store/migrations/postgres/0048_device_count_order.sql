-- The device lists' totals (docs/performance.md, "A large installer's screens") count a
-- viewer's devices plant by plant: the visibility rule once per plant, then the plant's devices
-- of the family asked for, read from this index alone. It leads with plant_id, so it also serves
-- every read the index on plant_id alone served.
CREATE INDEX devices_plant_family ON devices (plant_id, family);
DROP INDEX devices_plant;
