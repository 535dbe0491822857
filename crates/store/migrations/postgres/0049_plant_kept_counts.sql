-- Each plant keeps how many devices of each family it holds and how many gateways, so that a
-- device or gateway list's total sums one column over the viewer's plants instead of seeking
-- every plant's devices or gateways (docs/performance.md, "Kept device counts"). Triggers keep
-- the counts: every path that adds, removes or moves a device or gateway (ingest, binding,
-- moves, a plant's removal) goes through them, and an update that touches neither the plant
-- nor the family (telemetry, a gateway's sign-in) fires nothing.
ALTER TABLE plants
    ADD COLUMN inverter_count INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN meter_count INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN battery_count INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN weather_station_count INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN combiner_count INTEGER NOT NULL DEFAULT 0;

UPDATE plants SET
    inverter_count = c.inverters,
    meter_count = c.meters,
    battery_count = c.batteries,
    weather_station_count = c.weather_stations,
    combiner_count = c.combiners
FROM (
    SELECT plant_id,
        COUNT(*) FILTER (WHERE family = 'inverter') AS inverters,
        COUNT(*) FILTER (WHERE family = 'meter') AS meters,
        COUNT(*) FILTER (WHERE family = 'battery') AS batteries,
        COUNT(*) FILTER (WHERE family = 'weather_station') AS weather_stations,
        COUNT(*) FILTER (WHERE family = 'combiner') AS combiners
    FROM devices WHERE plant_id IS NOT NULL GROUP BY plant_id
) c
WHERE c.plant_id = plants.id;

-- What a row's change does to one plant's count: +1 when the row is now there (on `plant`,
-- of `family` where a family is counted), -1 when it was. NULL (no plant, no row) matches
-- nothing.
CREATE FUNCTION plant_count_delta(plant BIGINT, family TEXT, was_on BIGINT, was_family TEXT,
    now_on BIGINT, now_family TEXT) RETURNS INTEGER AS $$
    SELECT CASE WHEN plant = now_on AND family IS NOT DISTINCT FROM now_family THEN 1 ELSE 0 END
         - CASE WHEN plant = was_on AND family IS NOT DISTINCT FROM was_family THEN 1 ELSE 0 END;
$$ LANGUAGE sql IMMUTABLE;

-- Both plants of a move change in one statement, which locks them in index order: two moves
-- in opposite directions at once wait for each other instead of deadlocking.
CREATE FUNCTION devices_keep_plant_counts() RETURNS trigger AS $$
DECLARE
    was_on BIGINT;
    was_family TEXT;
    now_on BIGINT;
    now_family TEXT;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        was_on := OLD.plant_id;
        was_family := OLD.family;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        now_on := NEW.plant_id;
        now_family := NEW.family;
    END IF;
    IF was_on IS NOT DISTINCT FROM now_on AND was_family IS NOT DISTINCT FROM now_family THEN
        RETURN NULL;
    END IF;
    UPDATE plants SET
        inverter_count = inverter_count
            + plant_count_delta(id, 'inverter', was_on, was_family, now_on, now_family),
        meter_count = meter_count
            + plant_count_delta(id, 'meter', was_on, was_family, now_on, now_family),
        battery_count = battery_count
            + plant_count_delta(id, 'battery', was_on, was_family, now_on, now_family),
        weather_station_count = weather_station_count
            + plant_count_delta(id, 'weather_station', was_on, was_family, now_on, now_family),
        combiner_count = combiner_count
            + plant_count_delta(id, 'combiner', was_on, was_family, now_on, now_family)
    WHERE id IN (was_on, now_on);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER devices_plant_counts AFTER INSERT OR DELETE OR UPDATE OF plant_id, family ON devices
    FOR EACH ROW EXECUTE FUNCTION devices_keep_plant_counts();

-- The gateways on each plant, for the gateway list's total in the same way.
ALTER TABLE plants ADD COLUMN gateway_count INTEGER NOT NULL DEFAULT 0;

UPDATE plants SET gateway_count = c.gateways
FROM (SELECT plant_id, COUNT(*) AS gateways FROM gateways WHERE plant_id IS NOT NULL GROUP BY plant_id) c
WHERE c.plant_id = plants.id;

CREATE FUNCTION gateways_keep_plant_counts() RETURNS trigger AS $$
DECLARE
    was_on BIGINT;
    now_on BIGINT;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        was_on := OLD.plant_id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        now_on := NEW.plant_id;
    END IF;
    IF was_on IS NOT DISTINCT FROM now_on THEN
        RETURN NULL;
    END IF;
    UPDATE plants SET gateway_count = gateway_count
        + plant_count_delta(id, NULL, was_on, NULL, now_on, NULL)
    WHERE id IN (was_on, now_on);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER gateways_plant_counts AFTER INSERT OR DELETE OR UPDATE OF plant_id ON gateways
    FOR EACH ROW EXECUTE FUNCTION gateways_keep_plant_counts();
