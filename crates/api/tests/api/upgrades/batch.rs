//! Batch upgrades: each refusal reported, and the totals until every upgrade ends.

use super::*;

#[tokio::test]
async fn a_batch_reports_each_refusal_and_its_totals_until_every_upgrade_ends() {
    for app in spawn().await {
        let w = world(app).await;
        let app = &w.app;
        let fw = firmware(app, &w.admin, Some(2), "V3_1").await;
        let (a, b, c) = (
            &w.fleet[0].devices[0].sn,
            &w.fleet[2].devices[0].sn,
            &w.fleet[1].devices[0].sn,
        );
        let r = app
            .post(
                "/api/v1/inverter/batchUpgrade",
                json!({"sns": [a, b, c, "NOPE000001"], "firmId": fw.to_string()}),
                Some(&w.ann),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        let batch = d["batchId"].as_str().expect("batch id").to_string();
        assert_eq!(d["total"], 4);
        assert_eq!(d["sent"], 2);
        assert_eq!(d["refused"], 2);
        let results = d["results"].as_array().expect("results");
        for (i, (sn, code)) in [
            (a.as_str(), 0),
            (b.as_str(), 0),
            (c.as_str(), 4),
            ("NOPE000001", 600),
        ]
        .iter()
        .enumerate()
        {
            let item = &results[i];
            assert_eq!(item["sn"], *sn);
            assert_eq!(item["code"], *code, "{item}");
            assert_eq!(item["success"], *code == 0);
            assert!(item["msg"].is_string());
            if *code == 0 {
                check_upgrade(&item["upgrade"], sn);
                assert_eq!(item["upgrade"]["batchId"], batch.as_str());
            } else {
                assert!(item["upgrade"].is_null());
                assert!(!item["msg"].as_str().unwrap_or("").is_empty());
            }
        }
        app.post(
            "/api/v1/inverter/batchUpgrade",
            json!({"sns": [], "firmId": fw}),
            Some(&w.ann),
        )
        .await
        .expect_code(4);

        let uri = format!("/api/v1/upgrade/batch/{batch}");
        let until = tokio::time::Instant::now() + WAIT;
        let mut saw_running = false;
        loop {
            let p = app.get(&uri, Some(&w.ann)).await;
            p.expect_code(0);
            let t = &p.data()["totals"];
            for k in [
                "total",
                "sending",
                "upgrading",
                "successful",
                "failed",
                "cancelled",
                "running",
                "progress",
            ] {
                assert!(t[k].is_i64(), "{k}: {t}");
            }
            assert_eq!(t["total"], 2);
            assert_eq!(p.data()["infos"].as_array().map(Vec::len), Some(2));
            if t["running"] == 0 {
                assert_eq!(
                    t["successful"].as_i64().unwrap_or(0) + t["failed"].as_i64().unwrap_or(0),
                    2,
                    "{t}"
                );
                break;
            }
            saw_running = true;
            assert!(
                tokio::time::Instant::now() < until,
                "batch never ended: {t}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(saw_running);
        // Someone else sees nothing of the batch.
        let (_, bob) = app
            .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let p = app.get(&uri, Some(&bob)).await;
        assert_eq!(p.data()["totals"]["total"], 0);
    }
}
