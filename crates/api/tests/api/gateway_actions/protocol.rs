//! Protocol changes and the settings switch.

use super::*;

#[tokio::test]
async fn protocol_changes_need_a_known_protocol_and_the_key() {
    for app in spawn().await {
        let c = action_gateways(&app).await;
        devices::protocol::stored::seed(&app.store, 1)
            .await
            .expect("seed protocols");
        let codes: Vec<String> = app
            .store
            .protocols()
            .await
            .expect("protocols")
            .into_iter()
            .map(|p| p.code)
            .collect();
        let target = codes.last().expect("a shipped protocol").clone();
        let url = "/api/v1/gateway/updateGatewayProtocol";
        let r = app
            .post(
                url,
                json!({"sn": "GW-ACT01", "protocol": target}),
                Some(&c.admin),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data(), &json!({"sn": "GW-ACT01", "protocol": target}));
        let g = app
            .store
            .gateway_by_sn("GW-ACT01")
            .await
            .expect("db")
            .expect("gw");
        assert_eq!(g.protocol, target);
        app.post(
            url,
            json!({"sn": "GW-ACT01", "protocol": "no-such"}),
            Some(&c.admin),
        )
        .await
        .expect_code(4);
        app.post(url, json!({"protocol": target}), Some(&c.admin))
            .await
            .expect_code(4);
        for token in [&c.ann, &c.max, &c.vic] {
            app.post(
                url,
                json!({"sn": "GW-ACT01", "protocol": target}),
                Some(token),
            )
            .await
            .expect_code(2);
        }
        app.post(
            url,
            json!({"sn": "GW-ACT01", "protocol": target}),
            Some(&c.bob),
        )
        .await
        .expect_code(305);
        let results = audit_results(&app, &c.admin, "gateway.protocol").await;
        assert_eq!(results, vec!["GW-ACT01:succeeded".to_string()]);
    }
}

#[tokio::test]
async fn the_settings_switch_waits_for_the_gateway() {
    for app in spawn().await {
        let l = linked(app).await;
        let app = &l.app;
        let c = action_gateways(app).await;
        let mut gw = gateway(&l, "GW-ACT01", "KEY12345", Mode::Answer).await;
        let url = "/api/v1/gateway/GW-ACT01/settings/switch";
        let r = app.post(url, json!({"enable": true}), Some(&c.max)).await;
        r.expect_code(0);
        let d = r.data();
        for k in [
            "kind",
            "deviceSn",
            "gatewaySn",
            "status",
            "message",
            "createAt",
            "updateAt",
        ] {
            assert!(d[k].is_string(), "{k}: {d}");
        }
        assert!(d["id"].is_i64());
        assert_eq!(
            (d["kind"].as_str(), d["status"].as_str()),
            (Some("set_params"), Some("succeeded"))
        );
        let cmd = gw.received.recv().await.expect("command");
        assert_eq!(cmd.params, json!({"remoteSettings": "1"}));
        let r = app.post(url, json!({"enable": "0"}), Some(&c.admin)).await;
        r.expect_code(0);
        assert_eq!(r.data()["result"], json!({"remoteSettings": "0"}));

        app.post(url, json!({}), Some(&c.max)).await.expect_code(4);
        app.post(url, json!({"enable": true}), Some(&c.vic))
            .await
            .expect_code(2);
        app.post(
            "/api/v1/gateway/GW-ACT03/settings/switch",
            json!({"enable": true}),
            Some(&c.max),
        )
        .await
        .expect_code(602);
        let results = audit_results(app, &c.admin, "gateway.settings").await;
        assert!(results.iter().any(|r| r == "GW-ACT01:sent"), "{results:?}");
        assert!(
            results.iter().any(|r| r == "GW-ACT03:refused"),
            "{results:?}"
        );
    }
}
