-- Reports the portal sends to a utility's VTN for its events (OpenADR `reports`): one row per
-- event and payload type asked in the event's report descriptors. `remote_id` is the VTN's id
-- of the report once created (later sends update it); `sent_at` the last successful send;
-- `error` the last failure ('' when the last send worked).
CREATE TABLE dr_reports (
    id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES dr_events(id) ON DELETE CASCADE,
    payload_type TEXT NOT NULL,
    remote_id TEXT,
    sent_at INTEGER,
    error TEXT NOT NULL DEFAULT '',
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (event_id, payload_type)
);
