//! Realtime reads take a device's newest values from ingest's memory when the process holds
//! them (the embedded broker), and from the database otherwise.

use crate::common;
use domain::DeviceFamily;
use domain::ids::PlantId;

use std::sync::Arc;

use common::{App, spawn};
use devices::ingest::{Latest, LatestCache};
use domain::user::BuiltinRole;
use serde_json::json;
use store::telemetry::{SampleWrite, TelemetryBatch};

#[tokio::test]
async fn realtime_reads_prefer_the_values_ingest_holds_in_memory() {
    for app in spawn().await {
        let (ann, token) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let r = app
            .post(
                "/api/v1/plant",
                json!({"name": "Hot plant", "type": 2, "currency": "EUR",
                    "timezone": "Europe/Madrid", "lon": -3.7, "lat": 40.4, "totalPower": 8}),
                Some(&token),
            )
            .await;
        r.expect_code(0);
        let plant = r.data().as_i64().expect("plant id");
        let now = domain::time::now_ms();
        let s = &app.store;
        let gw = s
            .create_gateway("GW-HOT-0001", "KEY12345", "deye-hybrid-1ph", now)
            .await
            .expect("gateway");
        assert!(
            s.bind_gateway(gw, PlantId(plant), ann, None, now)
                .await
                .expect("bind")
        );
        let device = s
            .upsert_device(
                "INV-HOT-1",
                gw,
                DeviceFamily::Inverter,
                2,
                "deye-hybrid-1ph",
                "",
                None,
                now,
            )
            .await
            .expect("device");
        let stored = TelemetryBatch {
            samples: vec![SampleWrite {
                device_id: device,
                ts: now - 60_000,
                payload: r#"{"pv1_power":100,"pv1_voltage":300,"pv1_current":0.3}"#.into(),
            }],
            energy: Vec::new(),
        };
        s.write_telemetry_batch(&stored).await.expect("sample");

        let cache = LatestCache::new(16);
        cache.put(Latest {
            device_id: device,
            ts: now,
            payload: Arc::from(r#"{"pv1_power":555,"pv1_voltage":310,"pv1_current":1.8}"#),
        });
        let mut state = app.state.clone();
        state.latest = Some(cache);
        let hot = App {
            backend: app.backend,
            store: app.store.clone(),
            router: api::router(state.clone()),
            state,
            data_dir: app.data_dir.clone(),
        };

        let path = "/api/v1/inverter/INV-HOT-1/realtime/input";
        let from_memory = hot.get(path, Some(&token)).await;
        from_memory.expect_code(0);
        assert_eq!(
            from_memory.data()["pvIV"][0]["ppv"],
            "555.0",
            "{}",
            app.backend
        );
        let from_db = app.get(path, Some(&token)).await;
        from_db.expect_code(0);
        assert_eq!(from_db.data()["pvIV"][0]["ppv"], "100.0", "{}", app.backend);
    }
}
