//! A gateway's registration key is its MQTT password (issue 12, finding 1): only those who may
//! edit the gateway read it, never in lists and never sharees; an owner rotates it over a real
//! device link with a simulated gateway, which takes the new key and signs in again with it,
//! and from then on the old key is refused. Refusals, offline gateways and a rotation the
//! gateway never confirmed leave the gateway able to sign in.

use crate::common;
use crate::fake_gateway;
use domain::ids::CommandId;

use std::{sync::Arc, time::Duration};

use common::{App, fixtures, spawn};
use fake_gateway::{Mode, gateway, linked, wait_online};
use rumqttc::{AsyncClient, ConnectReturnCode, Event, Incoming, MqttOptions};
use serde_json::json;

const SN: &str = "GW-KEY01";

struct KeyedGateway {
    admin: String,
    ann: String,
    max: String,
    vic: String,
    plant: i64,
}

/// Ann's plant holds GW-KEY01 (key KEY12345); Max maintains the plant, Vic visits it.
async fn keyed_gateway(app: &App) -> KeyedGateway {
    let admin = fixtures::admin(app).await;
    let [ann, max, vic] = fixtures::owners(app, ["ann", "max", "vic"]).await;
    let plant = fixtures::plant(app, &ann, fixtures::madrid_plant("Ann plant", 1, 5)).await;
    fixtures::register_hybrid_gateway(app, &admin, SN).await;
    fixtures::bind_gateway(app, &ann, plant, SN).await;
    fixtures::share(app, &ann, plant, &fixtures::MAX_AND_VIC).await;
    KeyedGateway {
        admin,
        ann,
        max,
        vic,
        plant,
    }
}

/// How the broker answers a sign-in of `sn` with `key`.
async fn sign_in(addr: std::net::SocketAddr, sn: &str, key: &str) -> ConnectReturnCode {
    let mut o = MqttOptions::new(sn, addr.ip().to_string(), addr.port());
    o.set_credentials(sn, key);
    let (_client, mut events) = AsyncClient::new(o, 8);
    let answer = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match events.poll().await {
                Ok(Event::Incoming(Incoming::ConnAck(ack))) => return ack.code,
                Ok(_) => {}
                Err(rumqttc::ConnectionError::ConnectionRefused(code)) => return code,
                Err(e) => panic!("sign-in of {sn}: {e}"),
            }
        }
    })
    .await;
    answer.expect("the broker answers a sign-in")
}

#[tokio::test]
async fn the_key_is_for_those_who_may_edit_the_gateway_and_never_in_lists() {
    for app in spawn().await {
        let c = keyed_gateway(&app).await;
        let list = format!("/api/v1/gateways?plantId={}", c.plant);
        for token in [&c.ann, &c.max, &c.vic, &c.admin] {
            let r = app.get(&list, Some(token)).await;
            let infos = r.data()["infos"].as_array().cloned().unwrap_or_default();
            assert_eq!(infos.len(), 1, "{}", r.text());
            assert!(infos[0]["key"].is_null(), "a list never carries the key");
            assert!(!r.text().contains("KEY12345"));
        }
        let detail = format!("/api/v1/gateway/{SN}");
        for token in [&c.max, &c.vic] {
            let r = app.get(&detail, Some(token)).await;
            r.expect_code(0);
            assert!(!r.text().contains("KEY12345"), "sharees: {}", r.text());
            assert_eq!(r.data()["keyEditable"], false);
        }
        for token in [&c.ann, &c.admin] {
            let r = app.get(&detail, Some(token)).await;
            assert_eq!(r.data()["key"], "KEY12345");
            assert_eq!(
                (
                    r.data()["keyEditable"].clone(),
                    r.data()["keyPending"].clone()
                ),
                (json!(true), json!(false))
            );
        }
        // Sharees may not rotate it; a stranger does not even learn the gateway exists.
        let rotate = format!("/api/v1/gateway/{SN}/key/rotate");
        app.post(&rotate, json!({}), Some(&c.vic))
            .await
            .expect_code(2);
        app.post(&rotate, json!({}), Some(&c.max))
            .await
            .expect_code(2);
        let [eve] = fixtures::owners(&app, ["eve"]).await;
        app.post(&rotate, json!({}), Some(&eve))
            .await
            .expect_code(305);
        // Without a device link (or offline) nothing changes.
        app.post(&rotate, json!({}), Some(&c.ann))
            .await
            .expect_code(606);
        let g = app.store.gateway_by_sn(SN).await.expect("gw").expect("gw");
        assert_eq!((g.reg_key.as_str(), g.pending_key), ("KEY12345", None));
    }
}

#[tokio::test]
async fn an_owner_rotates_the_key_and_the_old_one_stops_working() {
    for app in spawn().await {
        let c = keyed_gateway(&app).await;
        let linked = linked(app).await;
        let app = &linked.app;

        let rotate = format!("/api/v1/gateway/{SN}/key/rotate");
        app.post(&rotate, json!({}), Some(&c.ann))
            .await
            .expect_code(602);

        // A simulated gateway that keeps what it is told, as a real one does.
        let mut spec = sim::fleet::demo_fleet(1, 7).remove(0);
        spec.sn = SN.into();
        spec.key = "KEY12345".into();
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let opts = sim::gateway::RunOptions {
            broker: sim::gateway::Broker {
                host: linked.addr.ip().to_string(),
                port: linked.addr.port(),
            },
            interval: Duration::from_secs(60),
            upload_cycle_secs: 60,
            reboot: sim::gateway::DEFAULT_REBOOT,
        };
        let configs = Arc::new(devices::protocol::shipped().expect("configs"));
        let running = tokio::spawn(sim::gateway::run(
            sim::fleet::SimGateway::new(spec),
            configs,
            opts,
            stopped,
        ));
        wait_online(&app.store, SN, fake_gateway::WAIT).await;

        let r = app.post(&rotate, json!({}), Some(&c.ann)).await;
        r.expect_code(0);
        // On a loaded machine the gateway's reply can come after the request stopped waiting
        // for it (15 s): the answer is then "pending" and the gateway takes the key all the same.
        let answered = r.data()["status"].as_str().map(str::to_string);
        assert!(
            matches!(answered.as_deref(), Some("succeeded" | "pending")),
            "{}",
            r.text()
        );
        let key = r.data()["key"].as_str().expect("key").to_string();
        assert_eq!(key.len(), 16);
        key_taken(&app.store, SN, &key).await;

        // The gateway signs in again with its new key; the old one is refused from now on.
        wait_online(&app.store, SN, fake_gateway::WAIT).await;
        assert_eq!(
            sign_in(linked.addr, SN, "KEY12345").await,
            ConnectReturnCode::BadUserNamePassword
        );
        let detail = app
            .get(&format!("/api/v1/gateway/{SN}"), Some(&c.ann))
            .await;
        assert_eq!(detail.data()["key"], key.as_str());
        assert!(detail.data()["keyChangedAt"].is_string());

        // Neither the command record nor the audit log keeps the key.
        let command = r.data()["commandId"].as_i64().expect("command id");
        let status = app
            .get(&format!("/api/v1/command/{command}"), Some(&c.ann))
            .await;
        // A reply later than the command's deadline leaves it timed out, the key taken all
        // the same (above).
        let ended = status.data()["status"].as_str().map(str::to_string);
        match answered.as_deref() {
            Some("pending") => assert!(
                matches!(ended.as_deref(), Some("succeeded" | "timed_out")),
                "{}",
                status.text()
            ),
            _ => assert_eq!(ended.as_deref(), Some("succeeded"), "{}", status.text()),
        }
        assert!(!status.text().contains(&key));
        let row = app
            .store
            .command(CommandId(command))
            .await
            .expect("row")
            .expect("row");
        assert!(!row.params.contains(&key), "{}", row.params);
        let audit = app
            .get("/api/v1/audit?action=gateway.key.rotate", Some(&c.ann))
            .await;
        // The refusal while offline, then the rotation.
        assert_eq!(audit.data()["total"], 2, "{}", audit.text());
        assert!(!audit.text().contains(&key));
        // Nor the communication log, which shows the command without its parameters.
        let page = format!("/api/v1/logger/page?sn={SN}&direction=down&limit=100");
        let until = tokio::time::Instant::now() + fake_gateway::WAIT;
        let id = loop {
            let log = app.get(&page, Some(&c.admin)).await;
            let ids: Vec<i64> = log.data()["infos"]
                .as_array()
                .map(|rows| {
                    rows.iter()
                        .filter(|r| r["commandId"] == command)
                        .filter_map(|r| r["id"].as_i64())
                        .collect()
                })
                .unwrap_or_default();
            if let Some(id) = ids.first() {
                break *id;
            }
            assert!(tokio::time::Instant::now() < until, "{}", log.text());
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        let content = app
            .get(&format!("/api/v1/logger/content?id={id}"), Some(&c.admin))
            .await;
        content.expect_code(0);
        assert!(!content.text().contains(&key), "{}", content.text());
        let _ = c.admin;
        let _ = stop.send(true);
        let _ = running.await;
    }
}

#[tokio::test]
async fn a_gateway_that_refuses_the_key_keeps_its_old_one() {
    for app in spawn().await {
        let c = keyed_gateway(&app).await;
        let linked = linked(app).await;
        let app = &linked.app;
        let _gw = gateway(&linked, SN, "KEY12345", Mode::Refuse).await;
        app.post(
            &format!("/api/v1/gateway/{SN}/key/rotate"),
            json!({}),
            Some(&c.ann),
        )
        .await
        .expect_code(609);
        let g = app.store.gateway_by_sn(SN).await.expect("gw").expect("gw");
        assert_eq!((g.reg_key.as_str(), g.pending_key), ("KEY12345", None));
    }
}

#[tokio::test]
async fn a_pending_key_signs_in_once_and_then_alone() {
    for app in spawn().await {
        let c = keyed_gateway(&app).await;
        let linked = linked(app).await;
        let g = linked
            .app
            .store
            .gateway_by_sn(SN)
            .await
            .expect("gw")
            .expect("gw");
        // As after a rotation whose reply was lost: both keys sign in until the new one is used.
        linked
            .app
            .store
            .set_pending_gateway_key(g.id, "NEXTKEY0NEXTKEY0", domain::time::now_ms())
            .await
            .expect("pending");
        assert_eq!(
            sign_in(linked.addr, SN, "KEY12345").await,
            ConnectReturnCode::Success
        );
        assert_eq!(
            sign_in(linked.addr, SN, "NEXTKEY0NEXTKEY0").await,
            ConnectReturnCode::Success
        );
        assert_eq!(
            sign_in(linked.addr, SN, "KEY12345").await,
            ConnectReturnCode::BadUserNamePassword
        );
        let detail = linked
            .app
            .get(&format!("/api/v1/gateway/{SN}"), Some(&c.ann))
            .await;
        assert_eq!(detail.data()["key"], "NEXTKEY0NEXTKEY0");
        assert_eq!(detail.data()["keyPending"], false);
    }
}

/// Waits until the gateway holds `key` as its only key: it confirmed it, or signed in with it.
async fn key_taken(store: &store::Store, sn: &str, key: &str) {
    let until = tokio::time::Instant::now() + fake_gateway::WAIT;
    loop {
        let g = store.gateway_by_sn(sn).await.expect("gw").expect("gw");
        if (g.reg_key.as_str(), g.pending_key.as_deref()) == (key, None) {
            return;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "{sn} never took its new key: {:?}",
            (g.reg_key, g.pending_key)
        );
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}
