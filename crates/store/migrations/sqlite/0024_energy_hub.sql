-- The energy hub (demand response). docs/energy-hub.md describes the model.

-- A utility's OpenADR 3 VTN the portal reads programmes and events from, as one VEN
-- (aggregator). The client id and secret are kept encrypted; `ven_id` is the VTN's id of our
-- ven once created.
CREATE TABLE dr_vtns (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    -- '3.0.1' or '3.1.0'
    version TEXT NOT NULL,
    client_id_enc TEXT NOT NULL,
    client_secret_enc TEXT NOT NULL,
    ven_name TEXT NOT NULL,
    ven_id TEXT,
    poll_seconds INTEGER NOT NULL DEFAULT 30,
    enabled INTEGER NOT NULL DEFAULT 1,
    last_sync_at INTEGER,
    last_error TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

-- A demand-response programme: built in (vtn_id NULL, an administrator is the utility) or
-- read from a VTN (remote_id is the VTN's programID).
CREATE TABLE dr_programs (
    id INTEGER PRIMARY KEY,
    vtn_id INTEGER REFERENCES dr_vtns(id) ON DELETE CASCADE,
    remote_id TEXT,
    name TEXT NOT NULL,
    long_name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    retailer TEXT NOT NULL DEFAULT '',
    -- Built-in programmes may accept enrollments without an administrator's decision.
    auto_accept INTEGER NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX dr_programs_remote ON dr_programs(vtn_id, remote_id) WHERE remote_id IS NOT NULL;
CREATE UNIQUE INDEX dr_programs_builtin_name ON dr_programs(name) WHERE vtn_id IS NULL;

-- A plant enrolled in a programme. status: pending, accepted, rejected, unenrolled
-- (domain::energy_hub has the transitions). `opted_out` is the participant's standing
-- opt-out while accepted. The VTN's resource for the plant once created: remote_resource_*.
CREATE TABLE dr_enrollments (
    id INTEGER PRIMARY KEY,
    program_id INTEGER NOT NULL REFERENCES dr_programs(id) ON DELETE CASCADE,
    plant_id INTEGER NOT NULL REFERENCES plants(id) ON DELETE CASCADE,
    created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    status TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    opted_out INTEGER NOT NULL DEFAULT 0,
    source_account TEXT NOT NULL,
    utility_account TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT NOT NULL,
    service_country TEXT NOT NULL DEFAULT '',
    service_region TEXT NOT NULL DEFAULT '',
    service_locality TEXT NOT NULL DEFAULT '',
    service_extended TEXT NOT NULL DEFAULT '',
    service_street TEXT NOT NULL DEFAULT '',
    service_postal TEXT NOT NULL DEFAULT '',
    mailing_country TEXT NOT NULL DEFAULT '',
    mailing_region TEXT NOT NULL DEFAULT '',
    mailing_locality TEXT NOT NULL DEFAULT '',
    mailing_extended TEXT NOT NULL DEFAULT '',
    mailing_street TEXT NOT NULL DEFAULT '',
    mailing_postal TEXT NOT NULL DEFAULT '',
    -- Share (1-100 %) of the enrolled devices' discharge capacity offered to events.
    participation INTEGER NOT NULL DEFAULT 100,
    time_zone TEXT NOT NULL,
    remote_resource_id TEXT,
    remote_resource_name TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX dr_enrollments_program ON dr_enrollments(program_id, status);
CREATE INDEX dr_enrollments_plant ON dr_enrollments(plant_id);

-- The devices (hybrid inverters with batteries) of an enrollment.
CREATE TABLE dr_enrollment_devices (
    enrollment_id INTEGER NOT NULL REFERENCES dr_enrollments(id) ON DELETE CASCADE,
    sn TEXT NOT NULL,
    manufacturer TEXT NOT NULL DEFAULT '',
    model TEXT NOT NULL DEFAULT '',
    -- YYYY-MM-DD
    install_date TEXT NOT NULL DEFAULT '',
    charge_kw REAL NOT NULL DEFAULT 0,
    discharge_kw REAL NOT NULL DEFAULT 0,
    storage_kwh REAL NOT NULL DEFAULT 0,
    added_at INTEGER NOT NULL,
    PRIMARY KEY (enrollment_id, sn)
);
CREATE INDEX dr_enrollment_devices_sn ON dr_enrollment_devices(sn);

-- An event of a programme, built in or mirrored from a VTN (remote_id). Times are unix
-- seconds; the status is derived (pending, active, completed; cancelled once cancelled_at is
-- set). kind: 'discharge' (target_kw each plant discharges) or 'export_limit' (target_kw the
-- most each plant may export). `intervals` and `report_descriptors` keep the normalised
-- OpenADR intervals and what the utility asked to be reported, as JSON.
CREATE TABLE dr_events (
    id INTEGER PRIMARY KEY,
    program_id INTEGER NOT NULL REFERENCES dr_programs(id) ON DELETE CASCADE,
    remote_id TEXT,
    name TEXT NOT NULL,
    priority INTEGER NOT NULL DEFAULT 0,
    start_at INTEGER NOT NULL,
    end_at INTEGER NOT NULL,
    kind TEXT NOT NULL,
    target_kw REAL NOT NULL,
    intervals TEXT NOT NULL DEFAULT '[]',
    report_descriptors TEXT NOT NULL DEFAULT '[]',
    remote_modified TEXT,
    cancelled_at INTEGER,
    cancelled_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX dr_events_remote ON dr_events(program_id, remote_id) WHERE remote_id IS NOT NULL;
CREATE INDEX dr_events_time ON dr_events(end_at, start_at);

-- A participant's opt-out of one event for one enrollment (cancelling an event as a
-- participant): its devices are left out, or restored if the event is under way.
CREATE TABLE dr_opt_outs (
    event_id INTEGER NOT NULL REFERENCES dr_events(id) ON DELETE CASCADE,
    enrollment_id INTEGER NOT NULL REFERENCES dr_enrollments(id) ON DELETE CASCADE,
    user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (event_id, enrollment_id)
);
