-- The alarm engine (docs/alarms.md): a company's rules and the cases they open.
--
-- A rule: its kind (device_silent, no_production, low_yield, string_low, cell_spread,
-- soh_falling, event_code), whether it runs, the severity of its cases (device_silent's tiers
-- choose their own), which plants it watches (scope 'all' the plants the company serves,
-- 'customer' one customers row's plants, 'plant' one plant; scope_id names the customer or
-- plant) and its kind's parameters as a JSON object (domain::alarm_rules::ParamsDraft).
CREATE TABLE alarm_rules (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    enabled BOOLEAN NOT NULL DEFAULT TRUE,
    severity TEXT NOT NULL,
    scope TEXT NOT NULL DEFAULT 'all',
    scope_id INTEGER,
    params TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX alarm_rules_company ON alarm_rules(company_id);

-- Companies get the default rules once (the engine's first tick after the company exists, or
-- the first read of its rules); deleting them all afterwards does not bring them back.
ALTER TABLE companies ADD COLUMN alarm_rules_seeded BOOLEAN NOT NULL DEFAULT FALSE;

-- A case: one per (rule, plant, subject) while it is not closed (subject '' is the plant
-- itself, else a device SN, 'SN/pv2' a string, 'SN/F13' an event code). state 'open',
-- 'acknowledged' or 'closed'; value the last figure seen (the kind's unit), detail what it
-- was computed from (JSON). A deleted rule's cases are closed and keep their history.
CREATE TABLE alarm_cases (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    rule_id INTEGER REFERENCES alarm_rules(id) ON DELETE SET NULL,
    company_id INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    plant_id INTEGER NOT NULL REFERENCES plants(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    device_id INTEGER,
    device_sn TEXT,
    severity TEXT NOT NULL,
    state TEXT NOT NULL,
    value REAL NOT NULL,
    detail TEXT NOT NULL DEFAULT '{}',
    opened_at INTEGER NOT NULL,
    seen_at INTEGER NOT NULL,
    acknowledged_at INTEGER,
    acknowledged_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    ack_comment TEXT,
    closed_at INTEGER
);
CREATE UNIQUE INDEX alarm_cases_live ON alarm_cases(rule_id, plant_id, subject) WHERE closed_at IS NULL;
CREATE INDEX alarm_cases_plant ON alarm_cases(plant_id, state);
CREATE INDEX alarm_cases_state ON alarm_cases(state, severity, opened_at);

-- What happened to a case: 'opened', 'escalated', 'acknowledged', 'closed'.
CREATE TABLE alarm_case_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id INTEGER NOT NULL REFERENCES alarm_cases(id) ON DELETE CASCADE,
    at INTEGER NOT NULL,
    action TEXT NOT NULL,
    severity TEXT NOT NULL,
    value REAL,
    user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    comment TEXT
);
CREATE INDEX alarm_case_history_case ON alarm_case_history(case_id, id);
