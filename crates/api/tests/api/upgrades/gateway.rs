//! Gateway upgrades, one or in a batch.

use super::*;

#[tokio::test]
async fn gateways_upgrade_one_or_in_a_batch_and_report_their_new_version() {
    for app in spawn().await {
        let w = world(app).await;
        let app = &w.app;
        let fw = firmware(app, &w.admin, None, "SIM-2_0").await;
        let inverter_fw = firmware(app, &w.admin, Some(2), "V1").await;
        let g0 = app
            .store
            .gateway_by_sn(&w.fleet[0].sn)
            .await
            .expect("gw")
            .expect("known");
        app.post(
            &format!("/api/v1/gateway/{}/upgrade?firmId={inverter_fw}", g0.id),
            json!({}),
            Some(&w.ann),
        )
        .await
        .expect_code(4);
        let r = app
            .post(
                &format!("/api/v1/gateway/{}/upgrade?firmId={fw}", g0.id),
                json!({}),
                Some(&w.ann),
            )
            .await;
        r.expect_code(0);
        check_upgrade(r.data(), &g0.sn);
        assert_eq!(r.data()["target"], "gateway");
        assert_eq!(r.data()["fromVersion"], "SIM-1.4.2");
        let (done, _) = until_final(
            app,
            &w.ann,
            &format!("/api/v1/gateway/{}/upgrade/progress", g0.sn),
        )
        .await;
        if done["state"] == "successful" {
            let g = app.store.gateway(g0.id).await.expect("gw").expect("known");
            assert_eq!(g.soft_ver, "SIM-2_0");
            // Already on this version: a warning, unless forced.
            app.post(
                &format!("/api/v1/gateway/{}/upgrade?firmId={fw}", g0.id),
                json!({}),
                Some(&w.ann),
            )
            .await
            .expect_code(4001);
            let b = app
                .post(
                    "/api/v1/batch/upgrade",
                    json!({"ids": [g0.sn.clone()], "firmId": fw}),
                    Some(&w.ann),
                )
                .await;
            assert_eq!(b.data()["results"][0]["code"], 4001, "{}", b.text());
            let forced = app
                .post(
                    &format!("/api/v1/gateway/{}/upgrade?firmId={fw}&force=true", g0.id),
                    json!({}),
                    Some(&w.ann),
                )
                .await;
            assert_ne!(forced.code(), 4001, "{}", forced.text());
        }
        let (_, bob) = app
            .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
            .await;
        app.post(
            &format!("/api/v1/gateway/{}/upgrade?firmId={fw}", g0.id),
            json!({}),
            Some(&bob),
        )
        .await
        .expect_code(305);

        let b = app
            .post(
                "/api/v1/batch/upgrade",
                json!({"ids": [w.fleet[1].sn.clone(), w.fleet[2].sn.clone(), "GW-NOPE-404"], "firmId": fw}),
                Some(&w.ann),
            )
            .await;
        b.expect_code(0);
        assert_eq!(b.data()["sent"], 2, "{}", b.text());
        assert_eq!(b.data()["results"][2]["code"], 305);
        let batch = b.data()["batchId"].as_str().expect("batch").to_string();
        let until = tokio::time::Instant::now() + WAIT;
        loop {
            let p = app
                .get(&format!("/api/v1/upgrade/batch/{batch}"), Some(&w.ann))
                .await;
            if p.data()["totals"]["running"] == 0 {
                assert_eq!(p.data()["totals"]["total"], 2);
                break;
            }
            assert!(tokio::time::Instant::now() < until);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
