-- Demand-response dispatch: what the dispatch job did to each enrolled inverter.

-- One row per inverter the job has changed and not yet given back. `snapshot` holds the
-- values of the keys it changes as they were before its first change (JSON object), `sent`
-- the values the device confirmed from the job since. `mode` is 'apply' while an event holds
-- the device and 'restore' while the snapshot goes back; the row is deleted once restored.
-- `event_id` has no foreign key: a deleted event's devices must still be restored.
-- state: pending (a command is under way), applied, failed, offline. Times: unix seconds.
CREATE TABLE dr_dispatch_devices (
    sn TEXT PRIMARY KEY,
    plant_id INTEGER,
    event_id INTEGER,
    mode TEXT NOT NULL DEFAULT 'apply',
    snapshot TEXT NOT NULL DEFAULT '{}',
    sent TEXT NOT NULL DEFAULT '{}',
    -- The values the command under way carries (JSON object).
    sending TEXT NOT NULL DEFAULT '{}',
    command_id INTEGER,
    state TEXT NOT NULL DEFAULT 'pending',
    error TEXT NOT NULL DEFAULT '',
    attempts INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL
);

-- How an event went for each inverter, for the event's detail. state: pending, applied,
-- failed, offline, restored.
CREATE TABLE dr_dispatch_outcomes (
    event_id INTEGER NOT NULL REFERENCES dr_events(id) ON DELETE CASCADE,
    sn TEXT NOT NULL,
    plant_id INTEGER,
    state TEXT NOT NULL,
    error TEXT NOT NULL DEFAULT '',
    attempts INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (event_id, sn)
);
