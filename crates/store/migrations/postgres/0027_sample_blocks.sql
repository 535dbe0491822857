-- Compacted history: once a device's plant-local day has closed (plus a grace period for late
-- reports), its samples leave `samples` and become one columnar block here (see
-- store::history::codec). Reads merge blocks and rows; a late report for a compacted day
-- lands in `samples` and is merged into the block by the next compaction.
CREATE TABLE sample_blocks (
    device_id BIGINT NOT NULL,
    day TEXT NOT NULL,
    first_ts BIGINT NOT NULL,
    last_ts BIGINT NOT NULL,
    samples BIGINT NOT NULL,
    points BIGINT NOT NULL,
    data BYTEA NOT NULL,
    PRIMARY KEY (device_id, day)
);
CREATE INDEX sample_blocks_span ON sample_blocks(device_id, first_ts);
CREATE INDEX sample_blocks_age ON sample_blocks(last_ts);
