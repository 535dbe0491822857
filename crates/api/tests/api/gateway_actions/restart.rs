//! Restarts: one, a comma list and a batch with totals, reasons and a timeout; the batch
//! check; a restarted gateway followed until it signs in again.

use super::*;

#[tokio::test]
async fn restarts_report_totals_with_reasons_and_a_timeout() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let c = action_gateways(app).await;
        let mut answering = gateway(&l, "GW-ACT01", "KEY12345", Mode::Answer).await;
        let _silent = gateway(&l, "GW-ACT02", "KEY12345", Mode::Silent).await;

        // One gateway, by a maintainer of the shared plant.
        let r = app
            .post("/api/v1/gateway/GW-ACT01/restart", json!({}), Some(&c.max))
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_batch(d);
        assert_eq!(
            (d["total"].as_u64(), d["succeeded"].as_u64()),
            (Some(1), Some(1)),
            "{d}"
        );
        let i = item(d, "GW-ACT01");
        assert_eq!(
            (i["status"].as_str(), i["success"].as_bool()),
            (Some("succeeded"), Some(true))
        );
        let cmd = answering.received.recv().await.expect("restart command");
        assert_eq!(
            (cmd.kind.as_str(), cmd.sn.as_str()),
            ("restart", "GW-ACT01")
        );

        // A comma list with every outcome: applied, timed out, offline, unknown.
        let r = app
            .post(
                "/api/v1/gateway/GW-ACT01,GW-ACT02,GW-ACT03,GW-NONE01/restart",
                json!({}),
                Some(&c.admin),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_batch(d);
        assert_eq!(
            (
                d["total"].as_u64(),
                d["succeeded"].as_u64(),
                d["failed"].as_u64()
            ),
            (Some(4), Some(1), Some(3)),
            "{d}"
        );
        assert_eq!(item(d, "GW-ACT01")["status"], "succeeded");
        assert_eq!(item(d, "GW-ACT02")["status"], "timed_out");
        assert_eq!(
            (
                item(d, "GW-ACT03")["status"].as_str(),
                item(d, "GW-ACT03")["code"].as_i64()
            ),
            (Some("refused"), Some(602))
        );
        assert_eq!(item(d, "GW-NONE01")["code"], 305);

        // The batch route: a visitor is refused per item (2), a stranger sees nothing (305).
        let r = app
            .post(
                "/api/v1/batch/restart",
                json!({"sns": ["GW-ACT01"]}),
                Some(&c.vic),
            )
            .await;
        r.expect_code(0);
        assert_eq!(item(r.data(), "GW-ACT01")["code"], 2);
        assert_eq!(r.data()["failed"], 1);
        let r = app
            .post(
                "/api/v1/batch/restart",
                json!({"sns": "GW-ACT01, GW-BOB01"}),
                Some(&c.bob),
            )
            .await;
        assert_eq!(item(r.data(), "GW-ACT01")["code"], 305);
        assert_eq!(
            item(r.data(), "GW-BOB01")["code"],
            2,
            "owners hold no gateway.restart"
        );
        app.post("/api/v1/batch/restart", json!({"sns": []}), Some(&c.admin))
            .await
            .expect_code(4);

        // Every restart is audited with its result.
        let results = audit_results(app, &c.admin, "gateway.restart").await;
        for expected in ["GW-ACT01:sent", "GW-ACT03:refused", "GW-NONE01:refused"] {
            assert!(
                results.iter().any(|r| r == expected),
                "{expected} in {results:?}"
            );
        }
    }
}

#[tokio::test]
async fn the_batch_check_tells_what_would_fail_and_upgrading_gateways_are_refused() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let c = action_gateways(app).await;
        let _a = gateway(&l, "GW-ACT01", "KEY12345", Mode::Answer).await;
        let _b = gateway(&l, "GW-ACT02", "KEY12345", Mode::Answer).await;
        // GW-ACT02 has an upgrade running.
        let now = domain::time::now_ms();
        app.store
            .insert_command(&NewCommand {
                correlation_id: "upgrade-in-progress",
                gateway_sn: "GW-ACT02",
                device_sn: "GW-ACT02",
                kind: "upgrade",
                params: "{}",
                now,
                deadline: now + 600_000,
            })
            .await
            .expect("open upgrade");

        let r = app
            .post(
                "/api/v1/gateways/batch/check",
                json!({"sns": "GW-ACT01,GW-ACT02,GW-ACT03,GW-BOB01", "action": "restart"}),
                Some(&c.max),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_check(d);
        assert_eq!(
            (d["ready"].as_u64(), d["refused"].as_u64()),
            (Some(1), Some(3)),
            "{d}"
        );
        assert_eq!(
            (
                item(d, "GW-ACT01")["status"].as_str(),
                item(d, "GW-ACT01")["success"].as_bool()
            ),
            (Some("ok"), Some(true))
        );
        assert_eq!(item(d, "GW-ACT02")["code"], 603);
        assert_eq!(item(d, "GW-ACT03")["code"], 602);
        assert_eq!(item(d, "GW-BOB01")["code"], 305);
        // Maintainers may not upgrade gateways; nothing was sent by the check.
        let r = app
            .post(
                "/api/v1/gateways/batch/check",
                json!({"sns": ["GW-ACT01"], "action": "upgrade"}),
                Some(&c.max),
            )
            .await;
        assert_eq!(item(r.data(), "GW-ACT01")["code"], 2);
        app.post(
            "/api/v1/gateways/batch/check",
            json!({"sns": ["GW-ACT01"], "action": "explode"}),
            Some(&c.max),
        )
        .await
        .expect_code(4);
        assert!(
            app.store
                .device_commands("GW-ACT01", 10)
                .await
                .expect("commands")
                .is_empty()
        );

        // Restarting the upgrading gateway is refused with "device is upgrading".
        let r = app
            .post(
                "/api/v1/gateway/GW-ACT02/restart",
                json!({}),
                Some(&c.admin),
            )
            .await;
        assert_eq!(item(r.data(), "GW-ACT02")["code"], 603);
    }
}

/// The gateway list row of gateway `id` as `token` sees it (through the `ids` filter, as the
/// restart dialog follows a batch).
async fn listed(app: &common::App, token: &str, id: i64) -> Value {
    let r = app
        .get(&format!("/api/v1/gateways?ids={id}&limit=100"), Some(token))
        .await;
    r.expect_code(0);
    r.data()["infos"][0].clone()
}

#[tokio::test]
async fn a_restarted_gateway_is_back_once_it_signs_in_after_the_acceptance() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let c = action_gateways(app).await;
        let answering = gateway(&l, "GW-ACT01", "KEY12345", Mode::Answer).await;

        let r = app
            .post(
                "/api/v1/batch/restart",
                json!({"sns": ["GW-ACT01", "GW-ACT03"]}),
                Some(&c.max),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_batch(d);
        let accepted = item(d, "GW-ACT01");
        let id = accepted["gatewayId"].as_i64().expect("gateway id");
        let at = accepted["acceptedAt"].as_i64().expect("accepted at");
        let offline = item(d, "GW-ACT03");
        assert_eq!(
            (offline["code"].as_i64(), &offline["gatewayId"]),
            (Some(602), &Value::Null),
            "refused before anything was sent"
        );

        // Signed in before the restart: not back yet, whatever else it sends.
        let before = listed(app, &c.max, id).await;
        let signed_in = before["signedInAt"].as_i64().expect("signed in");
        assert!(signed_in < at, "{before}");
        answering
            .client
            .publish(
                "portal/v1/GW-ACT01/status",
                rumqttc::QoS::AtLeastOnce,
                true,
                r#"{"v":1,"online":true,"softVer":"1.0"}"#,
            )
            .await
            .expect("status");
        tokio::time::sleep(2 * devices::link::HEARD_FLUSH_EVERY).await;
        assert_eq!(listed(app, &c.max, id).await["signedInAt"], signed_in);

        // The gateway goes away and signs in again: back, after the acceptance.
        drop(answering);
        let _back = gateway(&l, "GW-ACT01", "KEY12345", Mode::Answer).await;
        let until = tokio::time::Instant::now() + 3 * devices::link::HEARD_FLUSH_EVERY;
        loop {
            let row = listed(app, &c.max, id).await;
            if row["signedInAt"].as_i64().is_some_and(|t| t > at) {
                assert_eq!(row["online"], true);
                break;
            }
            assert!(tokio::time::Instant::now() < until, "not back: {row}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        // The detail says the same; another tenant sees nothing of it.
        let detail = app
            .get(&format!("/api/v1/gateway/{id}"), Some(&c.max))
            .await;
        assert!(detail.data()["signedInAt"].as_i64().is_some_and(|t| t > at));
        let theirs = app
            .get(&format!("/api/v1/gateways?ids={id}"), Some(&c.bob))
            .await;
        assert_eq!(theirs.data()["total"], 0);
    }
}
