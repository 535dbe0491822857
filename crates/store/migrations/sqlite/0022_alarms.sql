-- Alarm e-mails. Each user chooses how long a gateway may stay offline before they are told
-- (minutes, 5..1440, checked by the API) and the language of their e-mails (the language of
-- the screen they switched e-mails on from).
ALTER TABLE users ADD COLUMN notify_offline_minutes INTEGER NOT NULL DEFAULT 30;
ALTER TABLE users ADD COLUMN notify_lang TEXT NOT NULL DEFAULT 'en';

-- One row per alarm mailed to a user: kind 'offline' (reference = gateway id, since = the
-- gateway's last message before it fell silent) or 'fault' (reference = occurrence id,
-- since = its opening). It tells the quiet period (the newest sent_at per user, plant, kind)
-- and which recoveries to mail (only recoveries of mailed alarms). `done` once the recovery
-- was mailed or the alarm was superseded.
CREATE TABLE alarm_mails (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    plant_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    reference INTEGER NOT NULL,
    since INTEGER NOT NULL,
    sent_at INTEGER NOT NULL,
    recovery_sent_at INTEGER,
    done BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE UNIQUE INDEX alarm_mails_episode ON alarm_mails(user_id, kind, reference, since);
CREATE INDEX alarm_mails_quiet ON alarm_mails(user_id, plant_id, kind, sent_at);
CREATE INDEX alarm_mails_pending ON alarm_mails(kind, reference) WHERE NOT done;

-- The alarm job's cursor (one row): alarms older than `watch_from` (less a day) are history,
-- not news, and fault occurrences up to `last_event_id` were seen by an earlier tick.
CREATE TABLE alarm_cursor (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    watch_from INTEGER NOT NULL,
    last_event_id INTEGER NOT NULL
);
