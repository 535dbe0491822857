//! Live or stale, on every backend: a plant whose gateway stopped reporting answers `stale`
//! with its last data time on every live read (plant realtime and list, flow, device list,
//! inverter list and realtime, battery and meter realtime), its current power reads 0 and
//! nothing flows; a fresh report makes it live again. The bound is the offline bound of
//! `devices::ingest::status`, with the gateway's own upload cycle. Also: a grid-tied inverter's
//! battery registers are no battery, and a BMS's cell temperatures reach the cell grid.

use crate::common;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use common::{
    App,
    fixtures::{People, bound_gateway, is_update_at, people, plant, sample},
    spawn,
};
use devices::ingest::status::offline_after_ms;
use serde_json::{Value, json};
use store::telemetry::{GatewayStatusUpdate, TelemetryBatch};

/// The gateway uploads every minute: its devices go stale after `offline_after_ms(60)`.
const CYCLE_S: i64 = 60;

struct Live {
    ann: String,
    plant: i64,
    inverter: i64,
    meter: i64,
    bms: i64,
}

/// Ann's storage plant in Madrid with a hybrid inverter, a meter and a BMS behind a gateway
/// that uploads every minute; nothing reported yet.
async fn live_plant(app: &App) -> Live {
    let People { admin, ann, .. } = people(app).await;
    let plant = plant(
        app,
        &ann,
        json!({"name": "Ann live plant", "type": 3, "currency": "EUR",
            "timezone": "Europe/Madrid", "lon": -3.7, "lat": 40.4, "totalPower": 10}),
    )
    .await;
    let gw = bound_gateway(app, &admin, &ann, plant, "GW-LIVE-01").await;
    let s = &app.store;
    let now = domain::time::now_ms();
    s.update_gateway_status(
        GatewayId(gw),
        &GatewayStatusUpdate {
            online: true,
            upload_cycle: Some(CYCLE_S),
            ..GatewayStatusUpdate::default()
        },
        now,
    )
    .await
    .expect("status");
    let add = |sn: &'static str, family: DeviceFamily, code: i64, protocol: &'static str| {
        s.upsert_device(sn, GatewayId(gw), family, code, protocol, "SIM", None, now)
    };
    Live {
        ann,
        plant,
        inverter: (add("INV-LIVE-1", DeviceFamily::Inverter, 2, "deye-hybrid-1ph")
            .await
            .expect("inverter"))
        .0,
        meter: (add("MTR-LIVE-1", DeviceFamily::Meter, 0, "meter-3ph")
            .await
            .expect("meter"))
        .0,
        bms: (add("BMS-LIVE-1", DeviceFamily::Battery, 0, "bms-lv-stack")
            .await
            .expect("bms"))
        .0,
    }
}

/// One report of every device of the plant at `ts`.
async fn report(app: &App, l: &Live, ts: i64) {
    let inverter = json!({"pv1_power": 36800, "battery_power": 16000, "battery_soc": 64,
        "grid_power": -20000, "load_power": 32800});
    let batch = TelemetryBatch {
        samples: vec![
            sample(l.inverter, ts, &inverter),
            sample(l.meter, ts, &json!({"power": -20000, "voltage_l1": 231})),
            sample(
                l.bms,
                ts,
                &json!({"soc": 64, "power": 16000, "voltage": 52.1, "current": 300,
                    "cell1_voltage": 3.301, "cell1_temperature": 24.5, "cell2_voltage": 3.299}),
            ),
        ],
        energy: vec![],
    };
    app.store
        .write_telemetry_batch(&batch)
        .await
        .expect("telemetry");
}

async fn get(app: &App, path: &str, token: &str) -> Value {
    let r = app.get(path, Some(token)).await;
    r.expect_code(0);
    r.data().clone()
}

/// `YYYY-MM-DDTHH:MM:SSZ` of `ms`.
fn utc(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .expect("time")
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

#[tokio::test]
async fn a_silent_plant_reads_stale_everywhere_until_it_reports_again() {
    for app in spawn().await {
        let l = live_plant(&app).await;
        let (p, ann) = (l.plant, l.ann.as_str());
        // The last report came just past the offline bound.
        let last = domain::time::now_ms() - offline_after_ms(CYCLE_S) - 30_000;
        report(&app, &l, last).await;

        let rt = get(&app, &format!("/api/v1/plant/{p}/realtime"), ann).await;
        assert_eq!(rt["stale"], true);
        assert_eq!(
            rt["pac"].as_f64(),
            Some(0.0),
            "no stale power counts as live"
        );
        assert_eq!(rt["updateAt"], utc(last));

        let flow = get(&app, &format!("/api/v1/plant/energy/{p}/flow"), ann).await;
        assert_eq!(flow["stale"], true);
        assert_eq!(flow["updateAt"], utc(last));
        for k in ["pvPower", "battPower", "gridOrMeterPower", "loadOrEpsPower"] {
            assert_eq!(flow[k].as_f64(), Some(0.0), "{k}");
        }
        for k in ["pvTo", "toLoad", "toBat", "batTo", "toGrid", "gridTo"] {
            assert_eq!(flow[k], false, "{k}");
        }
        assert_eq!(
            flow["soc"].as_f64(),
            Some(64.0),
            "the last known charge stays"
        );
        assert_eq!(flow["existsBattery"], true);

        let devices = get(&app, &format!("/api/v1/plant/{p}/devices"), ann).await;
        let devices = devices.as_array().expect("devices");
        assert_eq!(devices.len(), 3);
        assert!(devices.iter().all(|d| d["stale"] == true), "{devices:?}");

        let list = get(&app, "/api/v1/plants?page=1&limit=10", ann).await;
        let item = &list["infos"][0];
        assert_eq!(
            (item["stale"].clone(), item["pac"].clone()),
            (json!(true), json!(0.0))
        );

        let inverters = get(&app, &format!("/api/v1/plant/{p}/inverters"), ann).await;
        let inv = &inverters["infos"][0];
        assert_eq!(inv["stale"], true);
        assert_eq!(inv["pac"].as_f64(), Some(0.0));
        assert_eq!(inv["timezone"], "Europe/Madrid");
        let detail = get(&app, "/api/v1/inverter/INV-LIVE-1", ann).await;
        assert_eq!(detail["stale"], true);
        for path in [
            "/api/v1/inverter/INV-LIVE-1/realtime/input",
            "/api/v1/inverter/INV-LIVE-1/realtime/output",
            "/api/v1/inverter/grid/INV-LIVE-1/realtime",
            "/api/v1/inverter/battery/INV-LIVE-1/realtime",
        ] {
            let r = get(&app, path, ann).await;
            assert_eq!(r["stale"], true, "{path}");
            // The values stay readable, as the last known.
            assert!(r["updateAt"].is_string(), "{path}");
        }

        let battery = get(&app, "/api/v1/battery/BMS-LIVE-1/realtime", ann).await;
        assert_eq!(
            (battery["stale"].clone(), battery["timezone"].clone()),
            (json!(true), json!("Europe/Madrid"))
        );
        let meter = get(&app, "/api/v1/meter/MTR-LIVE-1/realtime", ann).await;
        assert_eq!(meter["stale"], true);
        let meters = get(&app, &format!("/api/v1/meters?plantId={p}"), ann).await;
        assert_eq!(meters["infos"][0]["stale"], true);
        assert_eq!(meters["infos"][0]["timezone"], "Europe/Madrid");

        // A report now: live again, everywhere.
        let now = domain::time::now_ms();
        report(&app, &l, now).await;
        let rt = get(&app, &format!("/api/v1/plant/{p}/realtime"), ann).await;
        assert_eq!(rt["stale"], false);
        assert_eq!(rt["pac"].as_f64(), Some(36800.0));
        let flow = get(&app, &format!("/api/v1/plant/energy/{p}/flow"), ann).await;
        assert_eq!(
            (flow["stale"].clone(), flow["pvTo"].clone()),
            (json!(false), json!(true))
        );
        assert!(is_update_at(&flow["updateAt"]));
        let devices = get(&app, &format!("/api/v1/plant/{p}/devices"), ann).await;
        assert!(
            devices
                .as_array()
                .expect("devices")
                .iter()
                .all(|d| d["stale"] == false)
        );
        let inverters = get(&app, &format!("/api/v1/plant/{p}/inverters"), ann).await;
        assert_eq!(inverters["infos"][0]["stale"], false);
        assert_eq!(inverters["infos"][0]["pac"].as_f64(), Some(36800.0));
        let battery = get(&app, "/api/v1/battery/BMS-LIVE-1/realtime", ann).await;
        assert_eq!(battery["stale"], false);
        let batteries = get(&app, &format!("/api/v1/batteries?plantId={p}"), ann).await;
        assert_eq!(batteries["infos"][0]["stale"], false);
    }
}

/// One report of the plant's inverter at `ts` with its power switch (`power_on`).
async fn report_switch(app: &App, l: &Live, ts: i64, on: bool) {
    let values = json!({"pv1_power": if on { 1200 } else { 0 }, "power_on": i64::from(on)});
    let batch = TelemetryBatch {
        samples: vec![sample(l.inverter, ts, &values)],
        energy: vec![],
    };
    app.store
        .write_telemetry_batch(&batch)
        .await
        .expect("telemetry");
}

/// `switchedOff` of the plant's realtime figures, its detail's, its list item's and its map
/// marker's: one rule.
async fn switched_off(app: &App, l: &Live) -> [Value; 4] {
    let rt = get(app, &format!("/api/v1/plant/{}/realtime", l.plant), &l.ann).await;
    let detail = get(app, &format!("/api/v1/plant/{}", l.plant), &l.ann).await;
    let list = get(app, "/api/v1/plants?page=1&limit=10", &l.ann).await;
    let map = get(app, "/api/v1/plants/map", &l.ann).await;
    [
        rt["switchedOff"].clone(),
        detail["realtime"]["switchedOff"].clone(),
        list["infos"][0]["switchedOff"].clone(),
        map[0]["switchedOff"].clone(),
    ]
}

#[tokio::test]
async fn a_plant_whose_fresh_inverters_are_all_switched_off_reads_switched_off() {
    for app in spawn().await {
        let l = live_plant(&app).await;
        let off = [json!(true), json!(true), json!(true), json!(true)];
        let not = [json!(false), json!(false), json!(false), json!(false)];
        assert_eq!(switched_off(&app, &l).await, not, "nothing reported");

        // Switched off, but stale: nothing is known of it now.
        let old = domain::time::now_ms() - offline_after_ms(CYCLE_S) - 30_000;
        report_switch(&app, &l, old, false).await;
        assert_eq!(switched_off(&app, &l).await, not, "stale");

        // Switched off and fresh: the plant reads Off (its status stays as it is).
        report_switch(&app, &l, domain::time::now_ms() - 1_000, false).await;
        assert_eq!(switched_off(&app, &l).await, off);
        let list = get(&app, "/api/v1/plants?page=1&limit=10", &l.ann).await;
        assert_eq!(list["infos"][0]["stale"], false);

        // Switched on again: the list reads the new sample, not the one it kept.
        report_switch(&app, &l, domain::time::now_ms(), true).await;
        assert_eq!(switched_off(&app, &l).await, not);
    }
}

#[tokio::test]
async fn data_within_the_bound_is_live() {
    for app in spawn().await {
        let l = live_plant(&app).await;
        report(
            &app,
            &l,
            domain::time::now_ms() - offline_after_ms(CYCLE_S) + 60_000,
        )
        .await;
        let rt = get(&app, &format!("/api/v1/plant/{}/realtime", l.plant), &l.ann).await;
        assert_eq!(rt["stale"], false);
        assert_eq!(rt["pac"].as_f64(), Some(36800.0));
    }
}

#[tokio::test]
async fn a_plant_that_never_reported_is_stale_without_a_last_time() {
    for app in spawn().await {
        let l = live_plant(&app).await;
        let flow = get(
            &app,
            &format!("/api/v1/plant/energy/{}/flow", l.plant),
            &l.ann,
        )
        .await;
        assert_eq!(flow["stale"], true);
        assert!(flow["updateAt"].is_null());
        let rt = get(&app, &format!("/api/v1/plant/{}/realtime", l.plant), &l.ann).await;
        assert_eq!(rt["stale"], true);
        let inverters = get(
            &app,
            &format!("/api/v1/plant/{}/inverters", l.plant),
            &l.ann,
        )
        .await;
        assert_eq!(inverters["infos"][0]["stale"], true);
    }
}

#[tokio::test]
async fn a_grid_tied_inverters_battery_registers_are_no_battery() {
    for app in spawn().await {
        let People { admin, ann, .. } = people(&app).await;
        let p = plant(
            &app,
            &ann,
            json!({"name": "Ann grid-tied roof", "type": 1, "currency": "EUR",
                "timezone": "Europe/Madrid", "lon": -3.7, "lat": 40.4, "totalPower": 5}),
        )
        .await;
        let gw = bound_gateway(&app, &admin, &ann, p, "GW-GRID-01").await;
        let now = domain::time::now_ms();
        let inverter = app
            .store
            .upsert_device(
                "INV-GRID-1",
                GatewayId(gw),
                DeviceFamily::Inverter,
                1,
                "deye-hybrid-1ph",
                "SIM",
                None,
                now,
            )
            .await
            .expect("inverter");
        // The hybrid protocol a grid-tied model shares still carries its battery registers.
        let values = json!({"pv1_power": 3000, "grid_power": -2500, "load_power": 500,
            "battery_soc": 60, "battery_power": 0});
        app.store
            .write_telemetry_batch(&TelemetryBatch {
                samples: vec![
                    sample(inverter.0, now - 60_000, &values),
                    sample(inverter.0, now, &values),
                ],
                energy: vec![],
            })
            .await
            .expect("telemetry");
        let flow = get(&app, &format!("/api/v1/plant/energy/{p}/flow"), &ann).await;
        assert_eq!(flow["existsBattery"], false);
        assert_eq!(flow["soc"].as_f64(), Some(0.0));
        assert_eq!(flow["pvPower"].as_f64(), Some(3000.0));
        let check = get(&app, &format!("/api/v1/plant/{p}/check/device"), &ann).await;
        assert_eq!(check["battery"], false);
        let day = get(&app, &format!("/api/v1/plant/energy/{p}/day"), &ann).await;
        let labels: Vec<&str> = day["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .filter_map(|s| s["label"].as_str())
            .collect();
        assert_eq!(
            labels,
            ["pv", "load", "grid"],
            "no battery power nor flat SOC line"
        );
    }
}

#[tokio::test]
async fn cell_temperatures_reach_the_cell_grid() {
    for app in spawn().await {
        let l = live_plant(&app).await;
        report(&app, &l, domain::time::now_ms()).await;
        let battery = get(&app, "/api/v1/battery/BMS-LIVE-1/realtime", &l.ann).await;
        assert_eq!(
            battery["cells"],
            json!([
                {"pack": null, "no": 1, "voltage": "3.301", "temp": "24.5"},
                {"pack": null, "no": 2, "voltage": "3.299", "temp": null},
            ])
        );
    }
}
