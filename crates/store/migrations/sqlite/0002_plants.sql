CREATE TABLE plants (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    owner_id INTEGER NOT NULL REFERENCES users(id),
    company_id INTEGER REFERENCES companies(id),
    created_by INTEGER NOT NULL REFERENCES users(id),
    plant_type INTEGER NOT NULL,
    total_power REAL NOT NULL,
    join_date TEXT NOT NULL,
    currency TEXT NOT NULL,
    timezone TEXT NOT NULL,
    address TEXT NOT NULL DEFAULT '',
    lon REAL NOT NULL,
    lat REAL NOT NULL,
    image_url TEXT NOT NULL DEFAULT '',
    thumb_url TEXT NOT NULL DEFAULT '',
    principal TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    installer TEXT NOT NULL DEFAULT '',
    invest REAL NOT NULL DEFAULT 0,
    status INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX plants_owner ON plants(owner_id);
CREATE INDEX plants_company ON plants(company_id);

CREATE TABLE plant_charges (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    plant_id INTEGER NOT NULL REFERENCES plants(id) ON DELETE CASCADE,
    kind INTEGER NOT NULL,
    start_range TEXT NOT NULL,
    end_range TEXT NOT NULL,
    price REAL NOT NULL,
    direction TEXT,
    created_at INTEGER NOT NULL
);
CREATE INDEX plant_charges_plant ON plant_charges(plant_id);

CREATE TABLE plant_shares (
    plant_id INTEGER NOT NULL REFERENCES plants(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (plant_id, user_id)
);
CREATE INDEX plant_shares_user ON plant_shares(user_id);
