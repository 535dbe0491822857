-- Uploaded files (pictures, logos, avatars, firmware) kept in the database, for replicas that
-- share nothing but the database (`PORTAL_FILES=database`). `key` is the file's path as the
-- local store would keep it under the data directory (`uploads/plants/x.jpg`,
-- `firmware/x.bin`); a key never names other bytes once written (new uploads get new names).
CREATE TABLE files (
    key TEXT PRIMARY KEY,
    size BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    bytes BYTEA NOT NULL
);
