//! Validation per field kind; the error names the field.

use super::*;

#[tokio::test]
async fn every_field_kind_is_validated_and_the_error_names_the_field() {
    for app in spawn().await {
        let c = settable_inverters(&app).await;
        for (key, value) in [
            ("batteryMaxCurrentCharge", json!("241")),
            ("batteryMaxCurrentCharge", json!("12.5")),
            ("floatVolt", json!("53.65")),
            ("floatVolt", json!("99999999")),
            ("sellTime2", json!("24:00")),
            ("sellTime2", json!("8h")),
            ("time3on", json!("yes")),
            ("mondayOn", json!(null)),
            ("battMode", json!("7")),
            ("cap4", json!(-1)),
            ("pvMaxLimit", json!("100000")),
            ("sellTime5En", json!("on")),
            ("gridPeakShaving", json!("2")),
            ("peakAndVallery", json!(null)),
        ] {
            let r = app
                .post(&set_url(INV), json!({ key: value }), Some(&c.ann))
                .await;
            r.expect_code(4);
            assert_eq!(
                r.msg(),
                format!("Parameter validation error: {key}"),
                "{key}={value}"
            );
        }
        // Nothing known to the family: 4.
        app.post(&set_url(INV), json!({"sn": INV, "foo": "1"}), Some(&c.ann))
            .await
            .expect_code(4);
        // Echoing the read back unchanged sends nothing (no device link needed).
        let read = app.get(&read_url(INV), Some(&c.ann)).await;
        let echo = read.data().clone();
        let r = app.post(&set_url(INV), echo, Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["commandId"], Value::Null);
        assert_eq!(r.data()["changed"], json!([]));
        // A change without the device link: connection failed.
        let r = app
            .post(&set_url(INV), json!({"cap1": "90"}), Some(&c.ann))
            .await;
        r.expect_code(606);
        assert_eq!(r.msg(), "Connection failed");
        // The visitor may not write; a stranger does not see the inverter.
        app.post(&set_url(INV), json!({"cap1": "90"}), Some(&c.vic))
            .await
            .expect_code(2);
        app.post(&set_url(INV), json!({"cap1": "90"}), Some(&c.bob))
            .await
            .expect_code(600);
        app.post(&set_url("INV-SETAC"), json!({"cap1": "90"}), Some(&c.ann))
            .await
            .expect_code(601);
    }
}

#[tokio::test]
async fn battery_levels_out_of_order_are_refused_against_the_devices_other_levels() {
    for app in spawn().await {
        let c = settable_inverters(&app).await;
        let url = set_url(INV);
        let set = |body: Value| app.post(&url, body, Some(&c.ann));
        // All three in the write: shutdown 60 %, low 25 %, restart 15 % (once "applied").
        let r = set(
            json!({"batteryShutdownCap": "60", "batteryLowCap": "25", "batteryRestartCap": "15"}),
        )
        .await;
        r.expect_code(4);
        assert_eq!(
            r.msg(),
            "Parameter validation error: batteryLowCap: must be at least batteryShutdownCap (60 %)"
        );
        // One level against the ones the inverter has (low 20 %, restart 40 %).
        let levels = app.get(&read_url(INV), Some(&c.ann)).await;
        assert_eq!(levels.data()["batteryLowCap"], "20");
        let r = set(json!({"batteryShutdownCap": "30"})).await;
        r.expect_code(4);
        assert!(
            r.msg()
                .ends_with("batteryLowCap: must be at least batteryShutdownCap (30 %)"),
            "{}",
            r.msg()
        );
        let r = set(json!({"batteryRestartCap": "20"})).await;
        r.expect_code(4);
        assert!(
            r.msg()
                .ends_with("batteryRestartCap: must be above batteryLowCap (20 %)"),
            "{}",
            r.msg()
        );
        // Levels in order pass validation (and then need the device: connection failed).
        set(json!({"batteryShutdownCap": "15", "batteryLowCap": "25", "batteryRestartCap": "45"}))
            .await
            .expect_code(606);
        set(json!({"batteryRestartCap": "21"}))
            .await
            .expect_code(606);
    }
}
