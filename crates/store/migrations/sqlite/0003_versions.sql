CREATE TABLE versions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    version TEXT NOT NULL UNIQUE,
    kind INTEGER NOT NULL,
    content_en TEXT NOT NULL DEFAULT '',
    content_cn TEXT NOT NULL DEFAULT '',
    content_es TEXT NOT NULL DEFAULT '',
    announcer TEXT NOT NULL DEFAULT '',
    release_time INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX versions_release ON versions(release_time);
