-- The business side: company administration, customer types and agents.

-- A disabled company's staff cannot sign in; nothing of theirs is deleted.
ALTER TABLE companies ADD COLUMN disabled BOOLEAN NOT NULL DEFAULT FALSE;
-- The account that runs the company: the one that may be named another company's agent.
ALTER TABLE companies ADD COLUMN admin_id INTEGER REFERENCES users(id) ON DELETE SET NULL;
UPDATE companies SET admin_id = (
    SELECT MIN(u.id) FROM users u JOIN roles r ON r.id = u.role_id
    WHERE u.company_id = companies.id AND r.builtin = 'company-admin'
);

-- A deleted staff member's row stays (plants, commands and audit entries name it) but it can no
-- longer sign in and its account name is free again.
ALTER TABLE users ADD COLUMN deleted_at INTEGER;

-- A company's tree of customer types.
CREATE TABLE customer_types (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    parent_id INTEGER REFERENCES customer_types(id),
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    remark TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    UNIQUE (company_id, code)
);
CREATE INDEX customer_types_parent ON customer_types(parent_id);

ALTER TABLE customers ADD COLUMN type_id INTEGER REFERENCES customer_types(id);
ALTER TABLE customers ADD COLUMN remark TEXT NOT NULL DEFAULT '';
CREATE INDEX customers_type ON customers(type_id);

-- A company's agents (distributors): the principal company sees its agents' plants and
-- gateways. An agent serves one principal.
CREATE TABLE agents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    agent_company_id INTEGER NOT NULL UNIQUE REFERENCES companies(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
);
CREATE INDEX agents_company ON agents(company_id);
