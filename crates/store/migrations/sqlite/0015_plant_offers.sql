-- A company's customers: the plant owners it serves. Company staff may create a plant in a
-- customer's account; anyone else is offered the plant and becomes the company's customer by
-- accepting it.
CREATE TABLE customers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    company_id INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    UNIQUE (company_id, user_id)
);
CREATE INDEX customers_user ON customers(user_id);

-- Company plants already in an owner's account were made before consent was asked for; their
-- owners count as the company's customers so that nothing they use changes.
INSERT INTO customers (company_id, user_id, created_at)
SELECT p.company_id, p.owner_id, MIN(p.created_at)
FROM plants p JOIN users u ON u.id = p.owner_id
WHERE p.company_id IS NOT NULL AND u.kind = 'owner'
GROUP BY p.company_id, p.owner_id;

-- A plant waiting for the account it was made for to accept it (the creator owns it until then).
ALTER TABLE plants ADD COLUMN offered_to INTEGER REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE plants ADD COLUMN offered_at INTEGER;
CREATE INDEX plants_offered_to ON plants(offered_to);
