-- Each plant keeps how many devices of each family it holds and how many gateways, so that a
-- device or gateway list's total sums one column over the viewer's plants instead of seeking
-- every plant's devices or gateways (docs/performance.md, "Kept device counts"). Triggers keep
-- the counts: every path that adds, removes or moves a device or gateway (ingest, binding,
-- moves, a plant's removal) goes through them, and an update that touches neither the plant
-- nor the family (telemetry, a gateway's sign-in) fires nothing.
ALTER TABLE plants ADD COLUMN inverter_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE plants ADD COLUMN meter_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE plants ADD COLUMN battery_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE plants ADD COLUMN weather_station_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE plants ADD COLUMN combiner_count INTEGER NOT NULL DEFAULT 0;

UPDATE plants SET
    inverter_count = (SELECT COUNT(*) FROM devices d WHERE d.plant_id = plants.id AND d.family = 'inverter'),
    meter_count = (SELECT COUNT(*) FROM devices d WHERE d.plant_id = plants.id AND d.family = 'meter'),
    battery_count = (SELECT COUNT(*) FROM devices d WHERE d.plant_id = plants.id AND d.family = 'battery'),
    weather_station_count = (SELECT COUNT(*) FROM devices d WHERE d.plant_id = plants.id AND d.family = 'weather_station'),
    combiner_count = (SELECT COUNT(*) FROM devices d WHERE d.plant_id = plants.id AND d.family = 'combiner');

CREATE TRIGGER devices_counted_in AFTER INSERT ON devices
WHEN NEW.plant_id IS NOT NULL
BEGIN
    UPDATE plants SET
        inverter_count = inverter_count + (NEW.family = 'inverter'),
        meter_count = meter_count + (NEW.family = 'meter'),
        battery_count = battery_count + (NEW.family = 'battery'),
        weather_station_count = weather_station_count + (NEW.family = 'weather_station'),
        combiner_count = combiner_count + (NEW.family = 'combiner')
    WHERE id = NEW.plant_id;
END;

CREATE TRIGGER devices_counted_out AFTER DELETE ON devices
WHEN OLD.plant_id IS NOT NULL
BEGIN
    UPDATE plants SET
        inverter_count = inverter_count - (OLD.family = 'inverter'),
        meter_count = meter_count - (OLD.family = 'meter'),
        battery_count = battery_count - (OLD.family = 'battery'),
        weather_station_count = weather_station_count - (OLD.family = 'weather_station'),
        combiner_count = combiner_count - (OLD.family = 'combiner')
    WHERE id = OLD.plant_id;
END;

CREATE TRIGGER devices_counted_moved AFTER UPDATE OF plant_id, family ON devices
WHEN OLD.plant_id IS NOT NEW.plant_id OR OLD.family IS NOT NEW.family
BEGIN
    UPDATE plants SET
        inverter_count = inverter_count - (OLD.family = 'inverter'),
        meter_count = meter_count - (OLD.family = 'meter'),
        battery_count = battery_count - (OLD.family = 'battery'),
        weather_station_count = weather_station_count - (OLD.family = 'weather_station'),
        combiner_count = combiner_count - (OLD.family = 'combiner')
    WHERE id = OLD.plant_id;
    UPDATE plants SET
        inverter_count = inverter_count + (NEW.family = 'inverter'),
        meter_count = meter_count + (NEW.family = 'meter'),
        battery_count = battery_count + (NEW.family = 'battery'),
        weather_station_count = weather_station_count + (NEW.family = 'weather_station'),
        combiner_count = combiner_count + (NEW.family = 'combiner')
    WHERE id = NEW.plant_id;
END;

-- The gateways on each plant, for the gateway list's total in the same way.
ALTER TABLE plants ADD COLUMN gateway_count INTEGER NOT NULL DEFAULT 0;

UPDATE plants SET gateway_count = (SELECT COUNT(*) FROM gateways g WHERE g.plant_id = plants.id);

CREATE TRIGGER gateways_counted_in AFTER INSERT ON gateways
WHEN NEW.plant_id IS NOT NULL
BEGIN
    UPDATE plants SET gateway_count = gateway_count + 1 WHERE id = NEW.plant_id;
END;

CREATE TRIGGER gateways_counted_out AFTER DELETE ON gateways
WHEN OLD.plant_id IS NOT NULL
BEGIN
    UPDATE plants SET gateway_count = gateway_count - 1 WHERE id = OLD.plant_id;
END;

CREATE TRIGGER gateways_counted_moved AFTER UPDATE OF plant_id ON gateways
WHEN OLD.plant_id IS NOT NEW.plant_id
BEGIN
    UPDATE plants SET gateway_count = gateway_count - 1 WHERE id = OLD.plant_id;
    UPDATE plants SET gateway_count = gateway_count + 1 WHERE id = NEW.plant_id;
END;
