-- string_low (docs/alarms.md): when each PV input of an inverter last produced, which tells a
-- dead string (no voltage now, produced before) from an input no string is wired to (never
-- produced in the look-back). `produced`: a JSON array, one entry per input (pv1 first), the
-- time (ms) it last produced or null. Written by the alarm engine, at most hourly per inverter;
-- a row also says that the inverter's history was looked back at once.
CREATE TABLE alarm_string_inputs (
    device_id INTEGER PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
    produced TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);

-- Housekeeping deletes closed cases past their retention, oldest closed first.
CREATE INDEX alarm_cases_closed ON alarm_cases(closed_at);

-- Battery health (docs/battery-health.md): a battery day whose samples changed after the job
-- had computed it (late reports, merged by the history compaction), to compute again. One row
-- per mark; the job deletes the marks it read once the day is written again.
CREATE TABLE battery_health_stale (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    device_id INTEGER NOT NULL,
    day TEXT NOT NULL
);

-- Webhook secrets are sealed at rest from now on (service::sealing, docs/decisions.md); the
-- last four characters of each secret are kept apart for the lists (`secretHint`), which then
-- never read the secret. Secrets stored in the clear before are sealed by the sender's next
-- pass (`jobs::webhooks`).
ALTER TABLE webhook_endpoints ADD COLUMN secret_hint TEXT NOT NULL DEFAULT '';
UPDATE webhook_endpoints SET secret_hint = substr(secret, -4);
