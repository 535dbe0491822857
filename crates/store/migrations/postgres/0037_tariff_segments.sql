-- The plant tariff keeps one name from table to screen (docs/architecture.md, "Glossary"):
-- its rows, one priced segment each, are `tariff_segments`. The index, the constraints and the
-- identity sequence PostgreSQL named after the table follow it.
ALTER TABLE plant_charges RENAME TO tariff_segments;
ALTER INDEX plant_charges_plant RENAME TO tariff_segments_plant;
ALTER TABLE tariff_segments RENAME CONSTRAINT plant_charges_pkey TO tariff_segments_pkey;
ALTER TABLE tariff_segments RENAME CONSTRAINT plant_charges_plant_id_fkey TO tariff_segments_plant_id_fkey;
ALTER SEQUENCE plant_charges_id_seq RENAME TO tariff_segments_id_seq;
