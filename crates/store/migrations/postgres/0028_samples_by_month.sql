-- Samples partitioned by UTC month of `ts` (epoch ms). A day read touches one partition (two at
-- a month's edge), and a month whose days are all compacted is an empty table that upkeep can
-- drop instead of leaving dead rows to vacuum. The store creates the months ahead
-- (`Store::ensure_sample_partitions`, at start and every history pass); a row of a month
-- without a partition lands in `samples_default`, so no write is ever refused.
-- Partition names are `samples_yYYYYmMM`; the store builds the same names.
ALTER TABLE samples RENAME TO samples_unpartitioned;
ALTER INDEX samples_pkey RENAME TO samples_unpartitioned_pkey;

-- Same columns and key as before: (device_id, ts) unique (the key holds the partition column,
-- so each partition's unique index enforces it for the whole table), which keeps ingest's
-- `ON CONFLICT (device_id, ts) DO NOTHING`: the first sample stored for a time wins.
CREATE TABLE samples (
    device_id BIGINT NOT NULL,
    ts BIGINT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (device_id, ts)
) PARTITION BY RANGE (ts);

CREATE TABLE samples_default PARTITION OF samples DEFAULT;

-- A partition for every month that holds rows, and for the previous, current and next two
-- months (what the store keeps ready), before the rows move, so none lands in the default.
DO $$
DECLARE
    this_month TIMESTAMP := date_trunc('month', now() AT TIME ZONE 'UTC');
    m TIMESTAMP;
BEGIN
    FOR m IN
        SELECT DISTINCT date_trunc('month', to_timestamp(ts / 1000.0) AT TIME ZONE 'UTC')
        FROM samples_unpartitioned
        UNION
        SELECT this_month + make_interval(months => k) FROM generate_series(-1, 2) AS k
    LOOP
        EXECUTE format(
            'CREATE TABLE %I PARTITION OF samples FOR VALUES FROM (%s) TO (%s)',
            'samples_y' || to_char(m, 'YYYY') || 'm' || to_char(m, 'MM'),
            (extract(epoch FROM m) * 1000)::BIGINT,
            (extract(epoch FROM m + interval '1 month') * 1000)::BIGINT
        );
    END LOOP;
END
$$;

INSERT INTO samples (device_id, ts, payload)
SELECT device_id, ts, payload FROM samples_unpartitioned;

DROP TABLE samples_unpartitioned;
