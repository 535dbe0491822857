//! Housekeeping removes verification codes a day old and keeps the newer ones.

use crate::common::stores;

const DAY_MS: i64 = 24 * 3600 * 1000;

#[tokio::test]
async fn codes_older_than_a_day_are_removed_and_newer_ones_kept() {
    for (backend, store) in stores().await {
        let now = domain::time::now_ms();
        let old = now - DAY_MS - 1000;
        store
            .insert_code("old@example.com", "login", "h1", old, old + 600_000)
            .await
            .expect("old code");
        store
            .insert_code("new@example.com", "login", "h2", now - 1000, now + 600_000)
            .await
            .expect("new code");
        jobs::housekeeping::tick(&store, now).await;
        assert_eq!(
            store
                .latest_code_sent_at("old@example.com")
                .await
                .expect("read"),
            None,
            "[{backend}]"
        );
        assert_eq!(
            store
                .latest_code_sent_at("new@example.com")
                .await
                .expect("read"),
            Some(now - 1000),
            "[{backend}]"
        );
    }
}
