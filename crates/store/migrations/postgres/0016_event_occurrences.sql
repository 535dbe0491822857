-- Issue 13, item 14. One occurrence on a plant (a grid outage every inverter behind a gateway
-- reports, a trip of a whole commercial roof) is one row on the screens, with the devices it
-- affects listed: the events of one occurrence share occurrence_id, the id of its first event
-- (so message read marks, kept by event id, keep their meaning). Ingest assigns it when it
-- opens an event (store::events::open_event has the rule).
ALTER TABLE events ADD COLUMN occurrence_id BIGINT;

-- Events already stored: the same code on the same plant opened at the same moment (the same
-- report) is one occurrence; everything else stands alone.
UPDATE events SET occurrence_id = (
    SELECT MIN(o.id) FROM events o
    WHERE o.plant_id = events.plant_id AND o.code = events.code AND o.opened_at = events.opened_at
) WHERE plant_id IS NOT NULL;
UPDATE events SET occurrence_id = id WHERE occurrence_id IS NULL;

CREATE INDEX events_occurrence ON events(occurrence_id);
CREATE INDEX events_plant_code ON events(plant_id, code, occurrence_id);

-- Severities as the catalogue now gives them (crates/devices/src/events/inverter.rs): a
-- working mode change and a DRM stop are notices, the grid out of range and a remote stop are
-- warnings, not inverter faults.
UPDATE events SET severity = 'info'
WHERE code IN ('F13', 'F62') AND device_id IN (SELECT id FROM devices WHERE family = 'inverter');
UPDATE events SET severity = 'warning'
WHERE code IN ('F22', 'F35', 'F36', 'F37', 'F38', 'F42', 'F43', 'F44', 'F45', 'F47', 'F48')
  AND device_id IN (SELECT id FROM devices WHERE family = 'inverter');
