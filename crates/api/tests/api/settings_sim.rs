//! Settings through the family routes against the simulator's gateway (a real peer: it answers
//! commands as docs/device-protocol.md says and follows them in its model): a micro inverter on
//! its own map (`deye-micro`) is limited and switched off through `mt/setting`, its read answers
//! what the device holds, and the gateway takes a new upload cycle and reports it in its status,
//! which is what the portal then shows. Every test runs on SQLite and, when configured,
//! PostgreSQL.

use crate::common;
use crate::fake_gateway;
use domain::DeviceFamily;
use domain::ids::PlantId;

use std::{sync::Arc, time::Duration};

use common::{fixtures, spawn};
use domain::user::BuiltinRole;
use fake_gateway::{linked, wait_online};
use serde_json::json;
use sim::{
    fleet::{SimGateway, demo_fleet},
    gateway::{Broker, RunOptions, run},
};
use tokio::sync::watch;

const WAIT: Duration = Duration::from_secs(20);

#[tokio::test]
async fn a_simulated_micro_inverter_is_set_through_its_family_route() {
    for app in spawn().await {
        let (ann_id, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let plant = fixtures::plant(&app, &ann, fixtures::madrid_plant("Ann micro", 2, 8)).await;
        // The demo fleet's seventh gateway runs a micro inverter (type 3, map `deye-micro`).
        let spec = demo_fleet(7, 11).remove(6);
        let inv = spec.devices[0].clone();
        assert_eq!((inv.type_code, inv.protocol), (3, "deye-micro"));
        let t = domain::time::now_ms();
        let gw = app
            .store
            .create_gateway(&spec.sn, &spec.key, inv.protocol, t)
            .await
            .expect("gateway");
        app.store
            .bind_gateway(gw, PlantId(plant), ann_id, None, t)
            .await
            .expect("bind");
        let dev = app
            .store
            .upsert_device(
                &inv.sn,
                gw,
                DeviceFamily::Inverter,
                3,
                inv.protocol,
                &inv.model,
                None,
                t,
            )
            .await
            .expect("device");
        fixtures::set_status(&app, dev.0, 1).await;
        let l = linked(app).await;
        let app = &l.app;
        let (stop, stop_rx) = watch::channel(false);
        let opts = RunOptions {
            broker: Broker {
                host: "127.0.0.1".into(),
                port: l.addr.port(),
            },
            interval: Duration::from_secs(3600),
            upload_cycle_secs: 300,
            reboot: sim::gateway::DEFAULT_REBOOT,
        };
        let configs = Arc::new(devices::protocol::shipped().expect("configs"));
        tokio::spawn(run(SimGateway::new(spec.clone()), configs, opts, stop_rx));
        wait_online(&app.store, &spec.sn, WAIT).await;

        // The shipped micro map (no stored copy): active power and on/off, nothing else.
        let url = |part: &str| format!("/api/v1/mt/setting/{}/{part}", inv.sn);
        let r = app
            .post(
                &url("limits"),
                json!({"activePowerLimit": "40"}),
                Some(&ann),
            )
            .await;
        let id = r.expect_code(0).data()["commandId"].as_i64().expect("id");
        assert_eq!(
            fixtures::settled_command(app, &ann, id).await["status"],
            "succeeded"
        );
        let r = app.get(&url("limits"), Some(&ann)).await;
        assert_eq!(r.expect_code(0).data()["activePowerLimit"], "40");
        let r = app.post_form(&url("power"), "value=0", Some(&ann)).await;
        let id = r.expect_code(0).data()["commandId"].as_i64().expect("id");
        assert_eq!(
            fixtures::settled_command(app, &ann, id).await["status"],
            "succeeded"
        );
        let r = app.get(&url("read"), Some(&ann)).await;
        assert_eq!(
            r.expect_code(0).data(),
            &json!({"sn": inv.sn, "activePowerLimit": "40", "powerOn": "0"})
        );
        // A battery setting is no micro inverter's; a hybrid route is not its route.
        app.get(&url("battery"), Some(&ann)).await.expect_code(605);
        app.get(&format!("/api/v1/dy/store/{}/read", inv.sn), Some(&ann))
            .await
            .expect_code(605);

        // The gateway takes a new upload cycle and reports it; the portal shows what it reports.
        let cycle_url = format!("/api/v1/gateway/{}/uploadCycle", spec.sn);
        let r = app
            .post(&cycle_url, json!({"uploadCycle": 60}), Some(&ann))
            .await;
        assert_eq!(r.expect_code(0).data()["status"], "succeeded");
        let until = tokio::time::Instant::now() + WAIT;
        loop {
            let r = app.get("/api/v1/gateways", Some(&ann)).await;
            let cycle = r.expect_code(0).data()["infos"][0]["uploadCycle"].clone();
            if cycle == json!(60) {
                break;
            }
            assert!(tokio::time::Instant::now() < until, "reported {cycle}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let _ = stop.send(true);
    }
}
