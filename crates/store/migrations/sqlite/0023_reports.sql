-- Expected generation per plant, imported from a spreadsheet: a whole month (day 0) or single
-- days. Charts and reports compare it with what the plant produced. Kept per plant, so it
-- goes with the plant.
CREATE TABLE predicted_generation (
    plant_id INTEGER NOT NULL REFERENCES plants(id) ON DELETE CASCADE,
    year INTEGER NOT NULL,
    month INTEGER NOT NULL,
    -- 0 = the whole month.
    day INTEGER NOT NULL DEFAULT 0,
    kwh REAL NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (plant_id, year, month, day)
);

-- A user's monthly report e-mail of one plant. `lang` is the language the user subscribed
-- in (the mail is written in it); `last_period` (YYYY-MM) the last month already queued, so
-- the hourly job sends each month once.
CREATE TABLE report_subscriptions (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    plant_id INTEGER NOT NULL REFERENCES plants(id) ON DELETE CASCADE,
    lang TEXT NOT NULL DEFAULT 'en',
    created_at INTEGER NOT NULL,
    last_period TEXT,
    PRIMARY KEY (user_id, plant_id)
);
CREATE INDEX report_subscriptions_plant ON report_subscriptions(plant_id);
