//! Writes applied by the device and read back, a timeout and a device's refusal.

use super::*;

#[tokio::test]
async fn a_time_of_use_write_is_applied_by_the_device_and_read_back_offline() {
    for app in spawn().await {
        let c = settable_inverters(&app).await;
        let l: Linked = linked(app).await;
        let mut gw = gateway(&l, "GW-SET01", "KEY12345", Mode::Answer).await;
        let app = &l.app;
        // Clients read the whole set, change some keys and echo everything back; flags may
        // be booleans.
        let mut body: Map<String, Value> = app
            .get(&read_url(INV), Some(&c.ann))
            .await
            .expect_code(0)
            .data()
            .as_object()
            .expect("flat")
            .clone();
        body.insert("sellTime2".into(), json!("6:30"));
        body.insert("sellTime2Pac".into(), json!(3500));
        body.insert("cap2".into(), json!("80"));
        body.insert("time2on".into(), json!(true));
        body.insert("sundayOn".into(), json!(false));
        let r = app
            .post(&set_url(INV), Value::Object(body), Some(&c.ann))
            .await;
        r.expect_code(0);
        let id = r.data()["commandId"].as_i64().expect("command id");
        let mut changed: Vec<String> = r.data()["changed"]
            .as_array()
            .expect("changed")
            .iter()
            .map(|k| k.as_str().expect("key").to_string())
            .collect();
        changed.sort();
        assert_eq!(
            changed,
            ["cap2", "sellTime2", "sellTime2Pac", "sundayOn", "time2on"]
        );
        // Only the changed keys went to the device, as strings.
        let sent = loop {
            let cmd = tokio::time::timeout(Duration::from_secs(10), gw.received.recv())
                .await
                .expect("a command")
                .expect("open");
            if cmd.kind == "set_params" {
                break cmd;
            }
        };
        assert_eq!(
            sent.params,
            json!({"cap2": "80", "sellTime2": "06:30", "sellTime2Pac": "3500",
                "sundayOn": "false", "time2on": "true"})
        );
        let status = fixtures::settled_command(app, &c.ann, id).await;
        assert_command(&status, "set_params", INV);
        assert_eq!(status["status"], "succeeded");
        // The device goes offline: the read answers the applied values.
        drop(gw);
        set_status(app, c.inverter, 0).await;
        let d = app.get(&read_url(INV), Some(&c.ann)).await;
        let d = d.expect_code(0).data();
        assert_eq!(
            (&d["sellTime2"], &d["cap2"], &d["time2on"], &d["sundayOn"]),
            (
                &json!("06:30"),
                &json!("80"),
                &json!("true"),
                &json!("false")
            )
        );
        // ... and writes are refused with the spec's message.
        let r = app
            .post(&set_url(INV), json!({"cap1": "50"}), Some(&c.ann))
            .await;
        r.expect_code(602);
        assert_eq!(r.msg(), "Device offline (turn on power or check network)");
        // Upgrading: refused too.
        set_status(app, c.inverter, 4).await;
        let r = app
            .post(&set_url(INV), json!({"cap1": "50"}), Some(&c.ann))
            .await;
        r.expect_code(603);
        assert_eq!(r.msg(), "Device is upgrading");
        // A stranger cannot read the command's status.
        app.get(&format!("/api/v1/command/{id}"), Some(&c.bob))
            .await
            .expect_code(4);
        app.get("/api/v1/command/999999", Some(&c.ann))
            .await
            .expect_code(4);
    }
}

#[tokio::test]
async fn the_maintainer_writes_a_silent_device_times_out_and_a_refusal_fails() {
    for app in spawn().await {
        let c = settable_inverters(&app).await;
        let l = linked(app).await;
        let app = &l.app;
        {
            let _gw = gateway(&l, "GW-SET01", "KEY12345", Mode::Silent).await;
            let r = app
                .post(&set_url(INV), json!({"cap3": "55"}), Some(&c.max))
                .await;
            r.expect_code(0);
            let id = r.data()["commandId"].as_i64().expect("id");
            let open = app
                .get(&format!("/api/v1/command/{id}"), Some(&c.max))
                .await;
            assert_eq!(open.expect_code(0).data()["status"], "sent");
            // The sweeper's pass after the deadline (a minute) times it out.
            app.store
                .time_out_commands(domain::time::now_ms() + 120_000)
                .await
                .expect("sweep");
            let status = fixtures::settled_command(app, &c.max, id).await;
            assert_eq!(status["status"], "timed_out");
            // Not applied: the read still shows the default.
            set_status(app, c.inverter, 0).await;
            let d = app.get(&read_url(INV), Some(&c.ann)).await;
            assert_eq!(d.expect_code(0).data()["cap3"], "100");
            set_status(app, c.inverter, 1).await;
        }
        // The silent gateway is gone (its last will says offline) before another connects.
        wait_offline(app).await;
        let _gw = gateway(&l, "GW-SET01", "KEY12345", Mode::Refuse).await;
        // The gateway's devices went offline with it; they are back once they report.
        set_status(app, c.inverter, 1).await;
        let r = app
            .post(&set_url(INV), json!({"cap3": "56"}), Some(&c.ann))
            .await;
        let id = r.expect_code(0).data()["commandId"].as_i64().expect("id");
        let status = fixtures::settled_command(app, &c.ann, id).await;
        assert_eq!(status["status"], "failed");
        assert_eq!(status["resultCode"], 2);
        assert_eq!(status["message"], "refused by the device");
    }
}
