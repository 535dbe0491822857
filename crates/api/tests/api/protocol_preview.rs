//! Previewing a protocol config against a captured frame: an RTU response (CRC checked) or bare
//! register data decodes with the decoder ingest uses; a config the checks refuse answers as a
//! save would; only internal staff with the protocol keys may use it.

use crate::common;

use common::spawn;
use devices::modbus::{rtu_frame, to_hex};
use domain::user::BuiltinRole;
use serde_json::{Value, json};

fn config() -> Value {
    json!({
        "code": "preview-test", "name": "Preview test", "family": "inverter", "version": 1,
        "points": [
            {"key": "grid_voltage", "unit": "V", "function_code": 3, "address": 100,
             "data_type": "u16", "scale": 0.1},
            {"key": "active_power", "unit": "W", "function_code": 3, "address": 101,
             "data_type": "i32"},
            {"key": "model_name", "function_code": 3, "address": 103, "count": 2,
             "data_type": "string"},
            {"key": "far_away", "function_code": 3, "address": 400, "data_type": "u16"}
        ]
    })
}

fn value<'a>(answer: &'a Value, key: &str) -> &'a Value {
    answer["values"]
        .as_array()
        .expect("values")
        .iter()
        .find(|v| v["key"] == key)
        .unwrap_or_else(|| panic!("{key} in {answer}"))
}

#[tokio::test]
async fn a_captured_frame_decodes_to_the_expected_values() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        // Registers 100..=104: 230.5 V, -1200 W (i32), "SN" + "01".
        let data = [0x09, 0x01, 0xFF, 0xFF, 0xFB, 0x50, b'S', b'N', b'0', b'1'];
        let mut pdu = vec![3, data.len() as u8];
        pdu.extend_from_slice(&data);
        let frame = to_hex(&rtu_frame(1, &pdu));

        let r = app
            .post(
                "/api/v1/logger/function/preview",
                json!({"config": config(), "frame": frame}),
                Some(&admin),
            )
            .await;
        r.expect_code(0);
        let a = r.data();
        assert_eq!(a["format"], "rtu", "{}", app.backend);
        assert_eq!(
            (a["start"].as_i64(), a["registers"].as_i64()),
            (Some(100), Some(5))
        );
        assert_eq!(value(a, "grid_voltage")["value"], 230.5);
        assert_eq!(value(a, "grid_voltage")["unit"], "V");
        assert_eq!(value(a, "grid_voltage")["raw"], "09 01");
        assert_eq!(value(a, "active_power")["value"], -1200.0);
        assert_eq!(value(a, "active_power")["raw"], "FF FF FB 50");
        assert_eq!(value(a, "model_name")["value"], "SN01");
        assert_eq!(value(a, "far_away")["value"], Value::Null);
        assert_eq!(a["problems"], json!(["points outside the frame: 1"]));

        // The same data bare, spaces and 0x allowed, placed where asked.
        let bare = "0x00 0x2A";
        let r = app
            .post(
                "/api/v1/logger/function/preview",
                json!({"config": config(), "frame": bare, "start": 400}),
                Some(&admin),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["format"], "registers");
        assert_eq!(value(r.data(), "far_away")["value"], 42.0);

        // A frame whose CRC does not check, and text that is not hex.
        let mut broken = rtu_frame(1, &pdu);
        let last = broken.len() - 1;
        broken[last] ^= 0xFF;
        for frame in [to_hex(&broken), "zz".to_string()] {
            let r = app
                .post(
                    "/api/v1/logger/function/preview",
                    json!({"config": config(), "frame": frame}),
                    Some(&admin),
                )
                .await;
            r.expect_code(4);
            assert!(r.msg().contains("frame"), "{}", r.msg());
        }
    }
}

#[tokio::test]
async fn an_invalid_config_answers_as_saving_it_would_and_others_may_not_preview() {
    for app in spawn().await {
        let (_, admin) = app
            .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
            .await;
        let mut broken = config();
        broken["points"][1]["key"] = json!("grid_voltage");
        let preview = app
            .post(
                "/api/v1/logger/function/preview",
                json!({"config": broken.clone(), "frame": "00 01"}),
                Some(&admin),
            )
            .await;
        preview.expect_code(4);
        let save = app
            .post("/api/v1/logger/function", broken, Some(&admin))
            .await;
        save.expect_code(4);
        assert_eq!(preview.msg(), save.msg(), "{}", app.backend);

        let acme = app.company("Acme").await;
        let (_, boss) = app
            .signed_in(
                "boss@acme.example.com",
                BuiltinRole::CompanyAdmin,
                Some(acme),
            )
            .await;
        let (_, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        for token in [&boss, &ann] {
            app.post(
                "/api/v1/logger/function/preview",
                json!({"config": config(), "frame": "00 01"}),
                Some(token),
            )
            .await
            .expect_code(2);
            app.get("/api/v1/logger/functions", Some(token))
                .await
                .expect_code(2);
        }
    }
}
