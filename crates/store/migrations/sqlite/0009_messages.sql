-- Messages are the caller's notifications, derived from device events on the plants they can
-- see. What is stored is only what each user has read: single events, and a mark below which
-- (by event id) everything counts as read ("mark all as read").
CREATE TABLE message_reads (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    event_id INTEGER NOT NULL,
    read_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, event_id)
);

CREATE TABLE message_marks (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    read_through BIGINT NOT NULL,
    marked_at INTEGER NOT NULL
);
