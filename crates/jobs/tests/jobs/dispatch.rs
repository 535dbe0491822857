//! The dispatch lease: one replica at a time ticks. On SQLite (one process) every lease is
//! granted; on PostgreSQL a tick finds the lease another replica holds and does nothing.

use std::sync::Arc;

use service::mailer::Mailer;
use store::{Backend, leases::DISPATCH};

use crate::common::stores;

#[tokio::test]
async fn a_tick_with_nothing_enrolled_sends_nothing_and_gives_the_lease_back() {
    for (backend, store) in stores().await {
        let ctx = jobs::Context {
            store: store.clone(),
            mailer: Arc::new(Mailer::new(None).expect("mailer")),
            commands: None,
            ven: service::energy_hub::vtn::Ven {
                public_url: None,
                data_dir: std::env::temp_dir(),
            },
            vtn_nudges: Default::default(),
            figures: Default::default(),
        };
        let now = domain::time::now_ms() / 1000;
        assert_eq!(
            jobs::dispatch::tick(&ctx, now).await.expect("tick"),
            None,
            "[{backend}]"
        );
        // The tick released its lease: another one may take it now.
        let lease = store.try_lease(DISPATCH).await.expect("lease");
        assert!(lease.is_some(), "[{backend}] lease left held");
        if store.backend() == Backend::Postgres {
            // Held here, so a tick (another replica's) skips: no boundary, nothing read.
            assert!(store.try_lease(DISPATCH).await.expect("lease").is_none());
            assert_eq!(jobs::dispatch::tick(&ctx, now).await.expect("tick"), None);
        }
        lease.expect("held").release().await.expect("release");
    }
}
