-- Protocol configs (the spec's logger functions): what to read from a device family and how to
-- decode it. Shipped configs are stored on first start; administrators may edit them.
CREATE TABLE protocol_configs (
    code TEXT PRIMARY KEY,
    family TEXT NOT NULL,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    builtin BOOLEAN NOT NULL DEFAULT FALSE,
    updated_by BIGINT REFERENCES users(id) ON DELETE SET NULL,
    updated_at BIGINT NOT NULL
);
