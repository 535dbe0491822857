-- The plant list's sorted orders (docs/performance.md, "A large installer's screens"): with an
-- index in the order of the sort a page of 20 is read by walking the index until 20 visible
-- plants are found, instead of sorting every plant the reader sees on every page. Newest
-- first walks the primary key.
CREATE INDEX plants_name_order ON plants (LOWER(name), id);
CREATE INDEX plants_power_order ON plants (total_power, id);
CREATE INDEX plants_status_order ON plants (status, id);
