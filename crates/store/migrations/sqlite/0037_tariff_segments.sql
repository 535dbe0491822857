-- The plant tariff keeps one name from table to screen (docs/architecture.md, "Glossary"):
-- its rows, one priced segment each, are `tariff_segments`. SQLite renames no index, so the
-- plant index is made again under the new name.
ALTER TABLE plant_charges RENAME TO tariff_segments;
DROP INDEX plant_charges_plant;
CREATE INDEX tariff_segments_plant ON tariff_segments(plant_id);
