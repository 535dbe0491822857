-- Manuals: documents (PDF or pictures) attached to a product model, uploaded by internal
-- administrators and downloadable by whoever sees a device of that model. The file lives in
-- the file store under `manuals/<stored_name>`; a product with manuals cannot be deleted.
CREATE TABLE manuals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    product_id INTEGER NOT NULL REFERENCES products(id),
    title TEXT NOT NULL,
    -- en, zh, es or all
    language TEXT NOT NULL,
    version TEXT NOT NULL DEFAULT '',
    -- YYYY-MM-DD or empty
    issued TEXT NOT NULL DEFAULT '',
    file_name TEXT NOT NULL,
    stored_name TEXT NOT NULL UNIQUE,
    content_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX manuals_product ON manuals (product_id);
