-- The catalogue: the inverter-type tree that firmware is filed under, products with their
-- hardware versions, and notices (messages that are not events, such as "a firmware update is
-- available").

-- Primary titles (parent_id NULL) and their secondary labels. A secondary label names the
-- inverter type codes its firmware fits (inverter_type_codes); firmware belongs to a label.
CREATE TABLE inverter_types (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    parent_id INTEGER REFERENCES inverter_types(id),
    name TEXT NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX inverter_types_parent ON inverter_types(parent_id);
-- A name is unique among its siblings (primary titles among themselves).
CREATE UNIQUE INDEX inverter_types_sibling_name ON inverter_types(COALESCE(parent_id, 0), name);

-- An inverter type code belongs to at most one secondary label, so the firmware that fits an
-- inverter is never ambiguous.
CREATE TABLE inverter_type_codes (
    code INTEGER PRIMARY KEY,
    type_id INTEGER NOT NULL REFERENCES inverter_types(id) ON DELETE CASCADE
);
CREATE INDEX inverter_type_codes_type ON inverter_type_codes(type_id);

-- Products (what a manufacturer sells under a part number) and their hardware versions.
CREATE TABLE products (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- 'inverter', 'gateway', 'battery' or 'meter'
    category TEXT NOT NULL,
    name TEXT NOT NULL,
    part_number TEXT NOT NULL UNIQUE,
    manufacturer TEXT NOT NULL DEFAULT '',
    -- An inverter product's secondary label in the inverter-type tree.
    type_id INTEGER REFERENCES inverter_types(id) ON DELETE SET NULL,
    -- Watts; inverters only.
    rated_power REAL,
    remark TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX products_category ON products(category);

CREATE TABLE hardware_versions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    version TEXT NOT NULL,
    remark TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    UNIQUE (product_id, version)
);

-- The product an inverter (or other device) is, when known.
ALTER TABLE devices ADD COLUMN product_id INTEGER REFERENCES products(id) ON DELETE SET NULL;

-- Firmware uploaded before the tree existed was filed by inverter type code: give each such
-- code a secondary label under one primary title, so nothing uploaded is lost or re-filed by
-- hand.
INSERT INTO inverter_types (parent_id, name, sort, created_at, updated_at)
    SELECT NULL, 'Inverters', 0, MIN(created_at), MIN(created_at)
    FROM firmware WHERE target = 'inverter' HAVING COUNT(*) > 0;
INSERT INTO inverter_types (parent_id, name, sort, created_at, updated_at)
    SELECT (SELECT id FROM inverter_types WHERE parent_id IS NULL AND name = 'Inverters'),
           'Type ' || type_code, type_code, MIN(created_at), MIN(created_at)
    FROM firmware WHERE target = 'inverter' GROUP BY type_code;
INSERT INTO inverter_type_codes (code, type_id)
    SELECT f.type_code, t.id
    FROM (SELECT DISTINCT type_code FROM firmware WHERE target = 'inverter') f
    JOIN inverter_types t ON t.parent_id IS NOT NULL AND t.name = 'Type ' || f.type_code;
UPDATE firmware SET type_code = (
    SELECT c.type_id FROM inverter_type_codes c WHERE c.code = firmware.type_code
) WHERE target = 'inverter';
-- From now on the column is the secondary label (0 for gateway software); the version stays
-- unique per target and label.
ALTER TABLE firmware RENAME COLUMN type_code TO type_id;

ALTER TABLE firmware ADD COLUMN product_id INTEGER REFERENCES products(id) ON DELETE SET NULL;
ALTER TABLE firmware ADD COLUMN hardware_version TEXT NOT NULL DEFAULT '';
-- 'iap' (in-application programming) or 'isp' (in-system programming)
ALTER TABLE firmware ADD COLUMN upgrade_mode TEXT NOT NULL DEFAULT 'iap';
-- What the file programs, for example ARM, DSP or BMS.
ALTER TABLE firmware ADD COLUMN firmware_type TEXT NOT NULL DEFAULT '';
-- change_log is the Chinese change log, change_log_en the English one.
ALTER TABLE firmware ADD COLUMN change_log_en TEXT NOT NULL DEFAULT '';

-- Messages to one user that are not events (events become messages by themselves).
CREATE TABLE notices (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    -- 'firmware': an update is available
    kind TEXT NOT NULL,
    -- What it is about (for 'firmware' the firmware id), and the words to render it with in
    -- the reader's language (JSON object).
    subject_id INTEGER,
    params TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    read_at INTEGER
);
CREATE INDEX notices_user ON notices(user_id, created_at);
