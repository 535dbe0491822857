//! Store contract for the monthly partitions of `samples` (PostgreSQL; on SQLite the same calls
//! do nothing and every read answers the same): no write is refused for want of a partition,
//! the months ahead are created (by several replicas at once too), rows that waited in the
//! default partition move into their month, and empty old months are dropped.

use domain::ids::DeviceId;
use store::testing::{TestResult, each_backend};
use store::{
    Backend, Store,
    history::partitions::Month,
    telemetry::{SampleRow, SampleWrite, TelemetryBatch},
};

/// 2031-05-15T00:00Z: months no partition was made for when the database was migrated.
const MAY_15_2031: i64 = 1_936_569_600_000;
const DAY: i64 = 86_400_000;
const DEVICE: DeviceId = DeviceId(42);

async fn write(s: &Store, rows: &[(i64, &str)]) -> store::Result<u64> {
    s.write_telemetry_batch(&TelemetryBatch {
        samples: rows
            .iter()
            .map(|(ts, payload)| SampleWrite {
                device_id: DEVICE,
                ts: *ts,
                payload: (*payload).into(),
            })
            .collect(),
        energy: vec![],
    })
    .await
}

fn times(rows: &[SampleRow]) -> Vec<(i64, &str)> {
    rows.iter().map(|r| (r.ts, r.payload.as_str())).collect()
}

#[tokio::test]
async fn a_row_of_a_month_without_a_partition_is_stored_and_moves_into_its_month() -> TestResult {
    each_backend(|s| async move {
        let pg = s.backend() == Backend::Postgres;
        let may = Month::of(MAY_15_2031);
        assert!(!s.sample_partitions().await?.contains(&may.partition()));
        let day = MAY_15_2031 + 5 * DAY;
        let rows = [(day + 1_000, r#"{"a":1}"#), (day + 301_000, r#"{"a":2}"#)];
        assert_eq!(write(&s, &rows).await?, 2);
        let read = s.samples(DEVICE, day, day + DAY, 100).await?;
        assert_eq!(times(&read), rows.to_vec());

        let done = s.ensure_sample_partitions(MAY_15_2031).await?;
        let months: Vec<String> = (-1..=2).map(|n| may.plus(n).partition()).collect();
        if pg {
            assert_eq!((done.created, done.moved), (4, 2));
            let partitions = s.sample_partitions().await?;
            assert!(
                months.iter().all(|m| partitions.contains(m)),
                "{partitions:?}"
            );
        } else {
            assert_eq!((done.created, done.moved), (0, 0));
            assert!(s.sample_partitions().await?.is_empty());
        }
        // Once made, nothing more to do.
        assert_eq!(s.ensure_sample_partitions(MAY_15_2031).await?.created, 0);

        // The day reads the same rows, thinned or not, and the first stored still wins.
        assert_eq!(write(&s, &[(day + 1_000, r#"{"a":9}"#)]).await?, 0);
        let read = s.samples(DEVICE, day, day + DAY, 100).await?;
        assert_eq!(times(&read), rows.to_vec());
        let thinned = s.samples_thinned(DEVICE, day, day + DAY, 60_000).await?;
        assert_eq!(times(&thinned), rows.to_vec());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn replicas_creating_the_same_months_at_once_all_succeed() -> TestResult {
    each_backend(|s| async move {
        let replicas: Vec<_> = (0..4)
            .map(|_| {
                let s = s.clone();
                tokio::spawn(async move { s.ensure_sample_partitions(MAY_15_2031).await })
            })
            .collect();
        let mut created = 0;
        for r in replicas {
            created += r.await??.created;
        }
        let expected = if s.backend() == Backend::Postgres {
            4
        } else {
            0
        };
        assert_eq!(created, expected);
        assert_eq!(write(&s, &[(MAY_15_2031, "{}")]).await?, 1);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_old_month_is_dropped_once_compaction_emptied_it() -> TestResult {
    each_backend(|s| async move {
        s.ensure_sample_partitions(MAY_15_2031).await?;
        let day = MAY_15_2031 + 5 * DAY;
        write(&s, &[(day, r#"{"a":1}"#)]).await?;
        let may = Month::of(MAY_15_2031).partition();
        let april = Month::of(MAY_15_2031).plus(-1).partition();

        // Three months on, April (empty) goes; May still holds its row and stays.
        let later = MAY_15_2031 + 92 * DAY;
        let dropped = s.drop_empty_sample_partitions(later).await?;
        let partitions = s.sample_partitions().await?;
        if s.backend() == Backend::Postgres {
            assert!(dropped >= 1, "{dropped}");
            assert!(!partitions.contains(&april), "{partitions:?}");
            assert!(partitions.contains(&may), "{partitions:?}");
        } else {
            assert_eq!(dropped, 0);
        }

        // Compaction moves the day into a block; May is empty then and goes too, and the day
        // still reads from its block.
        s.compact_day(DEVICE, "2031-05-20", day, day + DAY).await?;
        s.drop_empty_sample_partitions(later).await?;
        assert!(!s.sample_partitions().await?.contains(&may));
        let read = s.samples(DEVICE, day, day + DAY, 10).await?;
        assert_eq!(times(&read), vec![(day, r#"{"a":1}"#)]);
        // A late row of a dropped month is stored all the same (in the default partition).
        assert_eq!(write(&s, &[(day + 60_000, "{}")]).await?, 1);
        Ok(())
    })
    .await
}
