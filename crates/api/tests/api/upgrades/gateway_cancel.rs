//! Cancelling a gateway's upgrade of its own firmware (`POST /api/v1/gateway/{id}/cutUpgrade`),
//! with the rights and answers of the inverters' cancel: a queued one leaves its gateway's queue
//! at once (nothing is sent, the audit log says so), a running one the gateway cannot stop is
//! refused with 608, nothing in progress is 4, and someone who may not upgrade the gateway
//! cannot cancel either.

use super::queue::roof;
use super::*;

#[tokio::test]
async fn a_gateways_queued_own_upgrade_leaves_the_queue_and_a_running_one_is_refused() {
    for app in spawn().await {
        let mut r = roof(app, &[1]).await;
        let app = &r.app;
        let fw = firmware(app, &r.admin, Some(94), "V2_0").await;
        let gw_fw = firmware(app, &r.admin, None, "2_0").await;
        let inv = r.gateways[0].inverters[0].clone();
        let gw = r.gateways[0].sn.clone();
        let path = format!("/api/v1/gateway/{gw}/cutUpgrade");
        // Nothing to cancel yet.
        app.post(&path, json!({}), Some(&r.ann))
            .await
            .expect_code(4);
        app.post(
            &format!("/api/v1/inverter/{inv}/upgrade?firmId={fw}"),
            json!({}),
            Some(&r.ann),
        )
        .await
        .expect_code(0);
        let own = app
            .post(
                &format!("/api/v1/gateway/{gw}/upgrade?firmId={gw_fw}"),
                json!({}),
                Some(&r.ann),
            )
            .await;
        own.expect_code(0);
        assert_eq!(own.data()["state"], "queued");
        assert_eq!(own.data()["cancellable"], true, "a queued one can leave");

        // Someone who cannot see the gateway cannot cancel it.
        let (_, bob) = app
            .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
            .await;
        app.post(&path, json!({}), Some(&bob))
            .await
            .expect_code(305);

        let c = app.post(&path, json!({}), Some(&r.ann)).await;
        c.expect_code(0);
        assert_eq!(c.data()["upgrade"]["state"], "cancelled", "{}", c.text());
        assert_eq!(c.data()["upgrade"]["sn"], gw.as_str());
        assert_eq!(c.data()["cancelRequested"], true);
        let progress = app
            .get(
                &format!("/api/v1/gateway/{gw}/upgrade/progress"),
                Some(&r.ann),
            )
            .await;
        assert_eq!(progress.data()["state"], "cancelled");
        // Cancelled again: nothing in progress.
        app.post(&path, json!({}), Some(&r.ann))
            .await
            .expect_code(4);
        // The inverter's upgrade goes on; the gateway's never went out.
        let first = r.gateways[0].next().await;
        assert_eq!(first.sn, inv);
        r.gateways[0].succeed(&first).await;
        r.gateways[0].quiet().await;

        // Its own upgrade running: the gateway says it cannot stop it (608, nothing sent).
        let app = &r.app;
        let running = app
            .post(
                &format!("/api/v1/gateway/{gw}/upgrade?firmId={gw_fw}"),
                json!({}),
                Some(&r.ann),
            )
            .await;
        running.expect_code(0);
        assert_eq!(running.data()["cancellable"], false);
        let sent = r.gateways[0].next().await;
        assert_eq!(
            (sent.sn.as_str(), sent.kind.as_str()),
            (gw.as_str(), "upgrade")
        );
        let app = &r.app;
        app.post(&path, json!({}), Some(&r.ann))
            .await
            .expect_code(608);
        r.gateways[0].quiet().await;

        let app = &r.app;
        let log = app
            .get(
                "/api/v1/audit?action=gateway.upgrade.cancel&limit=10",
                Some(&r.admin),
            )
            .await;
        log.expect_code(0);
        let results: Vec<&str> = log.data()["infos"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e["result"].as_str())
            .collect();
        assert_eq!(results.len(), 2, "{}", log.text());
        assert!(results.contains(&"succeeded") && results.contains(&"refused"));
    }
}
