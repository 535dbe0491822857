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

-- Adds `delta` devices of `family` to the plant's counts (no plant: nothing).
CREATE FUNCTION plant_device_count_add(to_plant BIGINT, of_family TEXT, delta INTEGER) RETURNS void AS $$
    UPDATE plants SET
        inverter_count = inverter_count + CASE WHEN of_family = 'inverter' THEN delta ELSE 0 END,
        meter_count = meter_count + CASE WHEN of_family = 'meter' THEN delta ELSE 0 END,
        battery_count = battery_count + CASE WHEN of_family = 'battery' THEN delta ELSE 0 END,
        weather_station_count = weather_station_count + CASE WHEN of_family = 'weather_station' THEN delta ELSE 0 END,
        combiner_count = combiner_count + CASE WHEN of_family = 'combiner' THEN delta ELSE 0 END
    WHERE id = to_plant;
$$ LANGUAGE sql;

CREATE FUNCTION devices_keep_plant_counts() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.plant_id IS NOT DISTINCT FROM NEW.plant_id
        AND OLD.family = NEW.family THEN
        RETURN NULL;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.plant_id IS NOT NULL THEN
        PERFORM plant_device_count_add(OLD.plant_id, OLD.family, -1);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.plant_id IS NOT NULL THEN
        PERFORM plant_device_count_add(NEW.plant_id, NEW.family, 1);
    END IF;
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
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.plant_id IS NOT DISTINCT FROM NEW.plant_id THEN
        RETURN NULL;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.plant_id IS NOT NULL THEN
        UPDATE plants SET gateway_count = gateway_count - 1 WHERE id = OLD.plant_id;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.plant_id IS NOT NULL THEN
        UPDATE plants SET gateway_count = gateway_count + 1 WHERE id = NEW.plant_id;
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER gateways_plant_counts AFTER INSERT OR DELETE OR UPDATE OF plant_id ON gateways
    FOR EACH ROW EXECUTE FUNCTION gateways_keep_plant_counts();
