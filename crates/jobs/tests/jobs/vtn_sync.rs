//! The VTN sync job on every backend, against a VTN that cannot be reached (what the sync
//! says to a real VTN is tested in `api`'s `oadr_*` areas): a tick syncs the enabled
//! connections whose `pollSeconds` have passed and records the outcome on them; one synced a
//! moment ago, or disabled, waits; a nudge (a webhook's notification) syncs at once; while
//! another replica holds the lease, a tick syncs nothing.

use domain::ids::VtnId;
use jobs::vtn_sync;
use service::energy_hub::vtn::{Nudges, Ven};
use store::{Backend, Store, energy_hub::vtn::VtnWrite, leases::VTN_SYNC};

use crate::common::stores;

fn ven() -> Ven {
    Ven {
        public_url: None,
        data_dir: std::env::temp_dir().join(format!("jobs-tests-{}", std::process::id())),
    }
}

/// A connection to a port nobody listens on, its credentials sealed with the test's key.
async fn connection(s: &Store, name: &str, enabled: bool) -> VtnId {
    let sealer = ven().sealer().expect("key");
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    let w = VtnWrite {
        name: name.into(),
        url,
        version: "3.1.0".into(),
        client_id_enc: sealer.seal("ven-client").expect("seal"),
        client_secret_enc: sealer.seal("ven-secret").expect("seal"),
        ven_name: "portal".into(),
        poll_seconds: 60,
        enabled,
    };
    s.insert_vtn(&w, 1, None).await.expect("vtn")
}

async fn last_sync(s: &Store, id: VtnId) -> (Option<i64>, String) {
    let v = s.vtn(id).await.expect("store").expect("vtn");
    (v.last_sync_at, v.last_error)
}

#[tokio::test]
async fn a_tick_syncs_the_connections_due_and_records_their_outcome() {
    for (backend, s) in stores().await {
        let due = connection(&s, "Due", true).await;
        let off = connection(&s, "Off", false).await;
        let now = domain::time::now_ms();
        assert_eq!(
            vtn_sync::tick(&s, &ven(), now).await.expect("tick"),
            1,
            "[{backend}]"
        );
        let (at, error) = last_sync(&s, due).await;
        assert!(at.is_some_and(|t| t >= now), "[{backend}] {at:?}");
        assert!(error.contains("unreachable"), "[{backend}] {error}");
        assert_eq!(
            last_sync(&s, off).await,
            (None, String::new()),
            "[{backend}]"
        );

        // Synced a moment ago: not due again before pollSeconds (60 s) have passed.
        assert_eq!(
            vtn_sync::tick(&s, &ven(), now + 1_000).await.expect("tick"),
            0,
            "[{backend}]"
        );
        assert_eq!(
            vtn_sync::tick(&s, &ven(), now + 61_000)
                .await
                .expect("tick"),
            1,
            "[{backend}]"
        );
    }
}

#[tokio::test]
async fn a_nudge_syncs_at_once_and_a_disabled_connection_stays_as_it_is() {
    for (backend, s) in stores().await {
        let on = connection(&s, "On", true).await;
        let off = connection(&s, "Off", false).await;
        let now = domain::time::now_ms();
        // Synced just now: only a nudge makes it sync again.
        s.vtn_synced(on, None, "", None, now).await.expect("synced");
        let nudges = Nudges::default();
        nudges.nudge(on);
        nudges.nudge(off);
        nudges.nudge(VtnId(999_999));
        nudges.nudge(on);
        let asked = nudges.next().await;
        assert_eq!(asked, [on, off, VtnId(999_999)], "[{backend}] each once");
        assert_eq!(vtn_sync::nudged(&s, &ven(), &asked).await, 1, "[{backend}]");
        let (at, error) = last_sync(&s, on).await;
        assert!(at.is_some_and(|t| t >= now), "[{backend}]");
        assert!(error.contains("unreachable"), "[{backend}] {error}");
        assert_eq!(
            last_sync(&s, off).await,
            (None, String::new()),
            "[{backend}]"
        );
    }
}

#[tokio::test]
async fn while_another_replica_polls_a_tick_syncs_nothing_and_gives_the_lease_back() {
    for (backend, s) in stores().await {
        let due = connection(&s, "Due", true).await;
        if s.backend() == Backend::Postgres {
            let held = s.try_lease(VTN_SYNC).await.expect("lease").expect("free");
            let now = domain::time::now_ms();
            assert_eq!(vtn_sync::tick(&s, &ven(), now).await.expect("tick"), 0);
            assert_eq!(last_sync(&s, due).await.0, None, "[{backend}]");
            held.release().await.expect("release");
        }
        vtn_sync::tick(&s, &ven(), domain::time::now_ms())
            .await
            .expect("tick");
        let lease = s.try_lease(VTN_SYNC).await.expect("lease");
        assert!(lease.is_some(), "[{backend}] lease left held");
    }
}
