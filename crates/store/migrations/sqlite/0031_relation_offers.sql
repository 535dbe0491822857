-- Consent for company relations. `customers` and `agents` keep meaning "accepted, active
-- relation" (every visibility rule reads them); a company's request waits here until the
-- account or company asked accepts it (the row moves into `customers`/`agents`), declines or
-- the company withdraws it (the row goes). Rows of `customers` and `agents` made before this
-- migration stay active: they were made before consent was asked for.

-- A company asks an owner account to become its customer.
CREATE TABLE customer_offers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    type_id INTEGER REFERENCES customer_types(id) ON DELETE SET NULL,
    remark TEXT NOT NULL DEFAULT '',
    message TEXT NOT NULL DEFAULT '',
    created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (company_id, user_id)
);
CREATE INDEX customer_offers_user ON customer_offers(user_id);

-- A company (the principal) asks another company to become its agent.
CREATE TABLE agent_offers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    agent_company_id INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    message TEXT NOT NULL DEFAULT '',
    created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (company_id, agent_company_id)
);
CREATE INDEX agent_offers_agent ON agent_offers(agent_company_id);
