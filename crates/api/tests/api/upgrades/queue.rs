//! The upgrade queue of a gateway, over HTTP against fake gateways that answer only what the
//! test tells them: a batch of ten inverters behind one gateway sends one upgrade and queues
//! nine with their places; each end (success, failure, stall, timeout) sends the next, in
//! order; a queued one can be cancelled; two gateways go on independently, a gateway's own
//! upgrade waits for its inverters'; and 4001 warns of an inverter already on the version.

use super::*;
use crate::fake_gateway::{self, FakeGateway, Mode};
use devices::report::{Command, CommandReply};
use rumqttc::QoS;

/// Ann's plant (she administers its company) with fake gateways that leave every command to
/// the test, each with type-94 inverters showing Normal, and the upgrade queue's job running.
pub(super) struct Roof {
    pub app: App,
    _link: Link,
    pub admin: String,
    pub ann: String,
    pub gateways: Vec<Gateway>,
    job: tokio::task::JoinHandle<()>,
}

pub(super) struct Gateway {
    pub sn: String,
    fake: FakeGateway,
    pub inverters: Vec<String>,
}

impl Drop for Roof {
    fn drop(&mut self) {
        self.job.abort();
    }
}

/// `sizes[k]` inverters behind gateway k.
pub(super) async fn roof(app: App, sizes: &[usize]) -> Roof {
    let (_, admin) = app
        .signed_in("root@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    let company = app.company("Roof Solar").await;
    let (ann_id, ann) = app
        .signed_in("ann@example.com", BuiltinRole::CompanyAdmin, Some(company))
        .await;
    let plant = fixtures::plant(
        &app,
        &ann,
        fixtures::madrid_plant("Commercial roof", 2, 100),
    )
    .await;
    let now = domain::time::now_ms();
    let mut layout = Vec::new();
    for (k, &n) in sizes.iter().enumerate() {
        let sn = format!("GWQ{k:07}");
        let gw = app
            .store
            .create_gateway(&sn, "KEY12345", "deye-hybrid-3ph", now)
            .await
            .expect("gateway");
        app.store
            .bind_gateway(gw, PlantId(plant), ann_id, None, now)
            .await
            .expect("bind");
        let mut inverters = Vec::new();
        for i in 0..n {
            let inv = format!("INVQ{k}{i:05}");
            app.store
                .upsert_device(
                    &inv,
                    gw,
                    DeviceFamily::Inverter,
                    94,
                    "deye-hybrid-3ph",
                    "SIM-94",
                    None,
                    now,
                )
                .await
                .expect("inverter");
            inverters.push(inv);
        }
        layout.push((sn, inverters));
    }
    let linked = fake_gateway::linked(app).await;
    let mut gateways = Vec::new();
    for (sn, inverters) in layout {
        let fake = fake_gateway::gateway(&linked, &sn, "KEY12345", Mode::Silent).await;
        for inv in &inverters {
            let dev = linked
                .app
                .store
                .device_by_sn(inv)
                .await
                .expect("device")
                .expect("known");
            fixtures::set_status(&linked.app, dev.id.0, 1).await;
        }
        gateways.push(Gateway {
            sn,
            fake,
            inverters,
        });
    }
    let job = tokio::spawn(jobs::upgrade_queue::run(
        linked.app.jobs(),
        Duration::from_millis(100),
    ));
    Roof {
        app: linked.app,
        _link: linked.link,
        admin,
        ann,
        gateways,
        job,
    }
}

impl Gateway {
    /// The next command the gateway receives (within [`WAIT`]).
    pub async fn next(&mut self) -> Command {
        tokio::time::timeout(WAIT, self.fake.received.recv())
            .await
            .unwrap_or_else(|_| panic!("{} got no command", self.sn))
            .expect("gateway running")
    }

    /// Asserts the gateway receives no command for a while.
    pub async fn quiet(&mut self) {
        let got = tokio::time::timeout(Duration::from_millis(400), self.fake.received.recv()).await;
        assert!(got.is_err(), "{} got {:?}", self.sn, got.ok().flatten());
    }

    async fn reply(&self, cmd: &Command, code: i64, msg: &str, data: Value) {
        let reply = CommandReply {
            v: 1,
            id: cmd.id.clone(),
            code,
            msg: msg.into(),
            data,
        };
        self.fake
            .client
            .publish(
                format!("portal/v1/{}/reply", self.sn),
                QoS::AtLeastOnce,
                false,
                serde_json::to_vec(&reply).expect("json"),
            )
            .await
            .expect("reply");
    }

    /// The device reports having flashed `cmd`'s firmware.
    pub async fn succeed(&self, cmd: &Command) {
        self.reply(cmd, 0, "upgraded", json!({"progress": 100}))
            .await;
    }
}

/// The batch's answer of `GET /api/v1/upgrade/batch/{id}`, each device's upgrade by SN.
async fn batch(
    app: &App,
    token: &str,
    id: &str,
) -> (Value, std::collections::HashMap<String, Value>) {
    let p = app
        .get(&format!("/api/v1/upgrade/batch/{id}"), Some(token))
        .await;
    p.expect_code(0);
    let by_sn = p.data()["infos"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|u| (u["sn"].as_str().unwrap_or("").to_string(), u.clone()))
        .collect();
    (p.data()["totals"].clone(), by_sn)
}

/// Polls the batch until `sn`'s upgrade is in `state`.
async fn until_state(app: &App, token: &str, id: &str, sn: &str, state: &str) -> Value {
    let until = tokio::time::Instant::now() + WAIT;
    loop {
        let (_, infos) = batch(app, token, id).await;
        if infos[sn]["state"] == state {
            return infos[sn].clone();
        }
        assert!(
            tokio::time::Instant::now() < until,
            "{sn} never {state}: {}",
            infos[sn]
        );
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// The places in the queue of `sns`, as the batch answers them.
async fn positions(app: &App, token: &str, id: &str, sns: &[String]) -> Vec<Value> {
    let (_, infos) = batch(app, token, id).await;
    sns.iter()
        .map(|sn| infos[sn]["queuePosition"].clone())
        .collect()
}

#[tokio::test]
async fn ten_inverters_behind_one_gateway_upgrade_one_at_a_time_in_order() {
    for app in spawn().await {
        let mut r = roof(app, &[10]).await;
        let app = &r.app;
        let fw = firmware(app, &r.admin, Some(94), "V2_0").await;
        let inv = r.gateways[0].inverters.clone();
        let b = app
            .post(
                "/api/v1/inverter/batchUpgrade",
                json!({"sns": inv, "firmId": fw}),
                Some(&r.ann),
            )
            .await;
        b.expect_code(0);
        assert_eq!(
            (b.data()["sent"].as_i64(), b.data()["refused"].as_i64()),
            (Some(10), Some(0))
        );
        let id = b.data()["batchId"].as_str().expect("batch").to_string();
        let results = b.data()["results"].as_array().expect("results");
        for (k, item) in results.iter().enumerate() {
            let u = &item["upgrade"];
            check_upgrade(u, &inv[k]);
            if k == 0 {
                assert_eq!(u["state"], "sending", "{u}");
                assert!(u["queuePosition"].is_null());
            } else {
                assert_eq!(u["state"], "queued", "{u}");
                assert_eq!(u["queuePosition"], k, "{u}");
                assert_eq!(u["cancellable"], true, "a queued one may leave its queue");
            }
        }
        // One upgrade goes to the gateway; nine wait.
        let gw = &mut r.gateways[0];
        let cmd = gw.next().await;
        assert_eq!(
            (cmd.kind.as_str(), cmd.sn.as_str()),
            ("upgrade", inv[0].as_str())
        );
        gw.quiet().await;
        let (totals, _) = batch(app, &r.ann, &id).await;
        assert_eq!(
            (&totals["queued"], &totals["sending"], &totals["running"]),
            (&json!(9), &json!(1), &json!(10)),
            "{totals}"
        );
        let single = app
            .get(
                &format!("/api/v1/inverter/{}/upgrade/progress", inv[9]),
                Some(&r.ann),
            )
            .await;
        assert_eq!(
            (&single.data()["state"], &single.data()["queuePosition"]),
            (&json!("queued"), &json!(9))
        );

        // Progress of the first sends nothing more; its end sends the second.
        gw.reply(
            &cmd,
            0,
            "upgrading",
            json!({"final": false, "state": "upgrading", "progress": 40}),
        )
        .await;
        until_state(app, &r.ann, &id, &inv[0], "upgrading").await;
        gw.quiet().await;
        gw.succeed(&cmd).await;
        let cmd = gw.next().await;
        assert_eq!(cmd.sn, inv[1]);
        until_state(app, &r.ann, &id, &inv[0], "successful").await;
        assert_eq!(
            positions(app, &r.ann, &id, &inv[2..]).await,
            (1..=8).map(|p| json!(p)).collect::<Vec<_>>()
        );

        // A failure sends the next...
        gw.reply(
            &cmd,
            6,
            "firmware checksum mismatch",
            json!({"state": "failed", "progress": 37}),
        )
        .await;
        let cmd = gw.next().await;
        assert_eq!(cmd.sn, inv[2]);
        // ...as does a stall (the device stopped reporting; the sweeper fails it)...
        let later = domain::time::now_ms() + 2 * 60 * 1000;
        assert_eq!(
            devices::link::sweep_upgrades(&app.store, later)
                .await
                .expect("sweep"),
            1
        );
        let cmd = gw.next().await;
        assert_eq!(cmd.sn, inv[3]);
        let stalled = until_state(app, &r.ann, &id, &inv[2], "failed").await;
        assert_eq!(stalled["reason"], "noProgress", "{stalled}");
        // ...and a timeout.
        app.store
            .time_out_commands(domain::time::now_ms() + 16 * 60 * 1000)
            .await
            .expect("time out");
        let cmd4 = gw.next().await;
        assert_eq!(cmd4.sn, inv[4]);
        let late = until_state(app, &r.ann, &id, &inv[3], "failed").await;
        assert_eq!(late["reason"], "timedOut", "{late}");
        let failed = until_state(app, &r.ann, &id, &inv[1], "failed").await;
        assert_eq!(failed["message"], "firmware checksum mismatch");

        // The last one leaves the queue on request; the others move up.
        let c = app
            .post(
                &format!("/api/v1/inverter/{}/cutUpgrade", inv[9]),
                json!({}),
                Some(&r.ann),
            )
            .await;
        c.expect_code(0);
        assert_eq!(c.data()["upgrade"]["state"], "cancelled", "{}", c.text());
        assert_eq!(c.data()["cancelRequested"], true);
        assert_eq!(
            positions(app, &r.ann, &id, &inv[5..]).await,
            [json!(1), json!(2), json!(3), json!(4), Value::Null]
        );
        // Someone else cannot cancel it (it is not theirs to see).
        let (_, bob) = app
            .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
            .await;
        app.post(
            &format!("/api/v1/inverter/{}/cutUpgrade", inv[8]),
            json!({}),
            Some(&bob),
        )
        .await
        .expect_code(600);

        let mut cmd = cmd4;
        for sn in &inv[5..9] {
            gw.succeed(&cmd).await;
            cmd = gw.next().await;
            assert_eq!(&cmd.sn, sn, "first come, first served");
        }
        gw.succeed(&cmd).await;
        until_state(app, &r.ann, &id, &inv[8], "successful").await;
        gw.quiet().await;
        let (totals, infos) = batch(app, &r.ann, &id).await;
        assert_eq!(totals["running"], 0, "{totals}");
        assert_eq!(
            (
                &totals["successful"],
                &totals["failed"],
                &totals["cancelled"],
                &totals["queued"]
            ),
            (&json!(6), &json!(3), &json!(1), &json!(0)),
            "{totals}"
        );
        assert!(infos[&inv[9]]["commandId"].is_null(), "never sent");
        // The gateway never had two upgrades at once: each was sent after the one before ended.
        let mut spans: Vec<(String, String)> = inv[..9]
            .iter()
            .map(|sn| {
                let u = &infos[sn];
                (
                    u["startTime"].as_str().unwrap_or("").to_string(),
                    u["finishTime"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        spans.sort();
        for pair in spans.windows(2) {
            assert!(pair[0].1 <= pair[1].0, "{pair:?}");
        }
    }
}

#[tokio::test]
async fn two_gateways_go_on_independently_and_a_gateways_own_upgrade_waits_its_turn() {
    for app in spawn().await {
        let mut r = roof(app, &[2, 2]).await;
        let app = &r.app;
        let fw = firmware(app, &r.admin, Some(94), "V2_0").await;
        let gw_fw = firmware(app, &r.admin, None, "2_0").await;
        let (a, b) = (
            r.gateways[0].inverters.clone(),
            r.gateways[1].inverters.clone(),
        );
        let all: Vec<&String> = a.iter().chain(&b).collect();
        let started = app
            .post(
                "/api/v1/inverter/batchUpgrade",
                json!({"sns": all, "firmId": fw}),
                Some(&r.ann),
            )
            .await;
        started.expect_code(0);
        let states: Vec<(Value, Value)> = started.data()["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|o| {
                (
                    o["upgrade"]["state"].clone(),
                    o["upgrade"]["queuePosition"].clone(),
                )
            })
            .collect();
        assert_eq!(
            states,
            [
                (json!("sending"), Value::Null),
                (json!("queued"), json!(1)),
                (json!("sending"), Value::Null),
                (json!("queued"), json!(1)),
            ]
        );
        // The gateway's own upgrade waits behind its inverters'.
        let own = app
            .post(
                &format!(
                    "/api/v1/gateway/{}/upgrade?firmId={gw_fw}",
                    r.gateways[0].sn
                ),
                json!({}),
                Some(&r.ann),
            )
            .await;
        own.expect_code(0);
        check_upgrade(own.data(), &r.gateways[0].sn);
        assert_eq!(
            (&own.data()["state"], &own.data()["queuePosition"]),
            (&json!("queued"), &json!(2))
        );
        let [ga, gb] = &mut r.gateways[..] else {
            panic!("two gateways")
        };
        let a1 = ga.next().await;
        let b1 = gb.next().await;
        assert_eq!((&a1.sn, &b1.sn), (&a[0], &b[0]));
        gb.succeed(&b1).await;
        let b2 = gb.next().await;
        assert_eq!(b2.sn, b[1]);
        ga.quiet().await;
        ga.succeed(&a1).await;
        let a2 = ga.next().await;
        assert_eq!(a2.sn, a[1]);
        ga.reply(
            &a2,
            6,
            "firmware checksum mismatch",
            json!({"state": "failed"}),
        )
        .await;
        let gw_cmd = ga.next().await;
        assert_eq!(
            (gw_cmd.sn.as_str(), gw_cmd.kind.as_str()),
            (ga.sn.as_str(), "upgrade")
        );
        assert_eq!(gw_cmd.params["version"], "2_0");
        gb.succeed(&b2).await;
        ga.succeed(&gw_cmd).await;
        let (done, _) = until_final(
            app,
            &r.ann,
            &format!("/api/v1/gateway/{}/upgrade/progress", ga.sn),
        )
        .await;
        assert_eq!(done["state"], "successful", "{done}");
    }
}

#[tokio::test]
async fn an_inverter_already_on_the_version_warns_with_4001_unless_forced() {
    for app in spawn().await {
        let r = roof(app, &[3]).await;
        let app = &r.app;
        let fw = firmware(app, &r.admin, Some(94), "V2_0").await;
        let inv = r.gateways[0].inverters.clone();
        for (sn, version) in [(&inv[0], "V2_0"), (&inv[1], "V1_9"), (&inv[2], "V10_0")] {
            app.store
                .set_device_versions(sn, &json!({"softVer": version}).to_string(), 1)
                .await
                .expect("versions");
        }
        let warned = app
            .post(
                &format!("/api/v1/inverter/{}/upgrade?firmId={fw}&lan=zh", inv[0]),
                json!({}),
                Some(&r.ann),
            )
            .await;
        warned.expect_code(4001);
        assert_eq!(warned.msg(), "固件已是最新版本");
        let en = app
            .post(
                &format!("/api/v1/inverter/{}/upgrade?firmId={fw}", inv[2]),
                json!({}),
                Some(&r.ann),
            )
            .await;
        en.expect_code(4001);
        assert_eq!(
            en.msg(),
            "Firmware is already up to date",
            "a newer one too"
        );

        // In a batch, per inverter.
        let b = app
            .post(
                "/api/v1/inverter/batchUpgrade",
                json!({"sns": [inv[0], inv[1]], "firmId": fw}),
                Some(&r.ann),
            )
            .await;
        b.expect_code(0);
        let results = &b.data()["results"];
        assert_eq!(
            (&results[0]["code"], &results[1]["code"]),
            (&json!(4001), &json!(0))
        );
        assert!(results[0]["upgrade"].is_null());
        assert_eq!(results[1]["upgrade"]["fromVersion"], "V1_9");
        let forced = app
            .post(
                "/api/v1/inverter/batchUpgrade?force=true",
                json!({"sns": [inv[0]], "firmId": fw}),
                Some(&r.ann),
            )
            .await;
        forced.expect_code(0);
        let u = &forced.data()["results"][0]["upgrade"];
        assert_eq!(
            (&u["state"], &u["queuePosition"]),
            (&json!("queued"), &json!(1)),
            "{u}"
        );
        assert_eq!(u["fromVersion"], "V2_0");
        let one = app
            .post(
                &format!("/api/v1/inverter/{}/upgrade?firmId={fw}&force=true", inv[2]),
                json!({}),
                Some(&r.ann),
            )
            .await;
        one.expect_code(0);
        assert_eq!(one.data()["queuePosition"], 2);
        // Each warning is in the audit log as a refusal with its reason.
        let log = app
            .get(
                "/api/v1/audit?action=inverter.upgrade&limit=50",
                Some(&r.admin),
            )
            .await;
        log.expect_code(0);
        let warnings = log.data()["infos"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| e["result"] == "refused" && e["detail"]["reason"] == 4001)
            .count();
        assert_eq!(warnings, 3, "{}", log.text());
    }
}
