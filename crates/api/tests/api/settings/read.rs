//! The read's shape: flat, every value a string, the keys clients echo.

use super::*;

#[tokio::test]
async fn a_read_is_flat_every_value_a_string_with_the_keys_clients_echo() {
    for app in spawn().await {
        let c = settable_inverters(&app).await;
        let r = app.get(&read_url(INV), Some(&c.ann)).await;
        r.expect_code(0);
        let d = r.data().as_object().expect("flat object");
        for (k, v) in d {
            assert!(v.is_string(), "{k} is {v}");
        }
        assert_eq!(d["sn"], INV);
        let mut required = vec![
            "sn".to_string(),
            "safetyType".into(),
            "battMode".into(),
            "zeroExportPower".into(),
            "batteryMaxCurrentCharge".into(),
            "batteryMaxCurrentDischarge".into(),
        ];
        for i in 1..=6 {
            for k in [
                format!("sellTime{i}"),
                format!("sellTime{i}Pac"),
                format!("sellTime{i}Volt"),
                format!("cap{i}"),
                format!("time{i}on"),
                format!("genTime{i}on"),
            ] {
                required.push(k);
            }
        }
        // pysunsynkweb changes one setting by writing back these keys from the read: without
        // any of them it fails before sending anything.
        for k in [
            "solarSell",
            "pvMaxLimit",
            "energyMode",
            "peakAndVallery",
            "sysWorkMode",
            "solarMaxSellPower",
            "gridPeakShaving",
            "generatorStartCap",
            "batteryLowCap",
        ] {
            required.push(k.into());
        }
        for i in 1..=6 {
            required.push(format!("sellTime{i}En"));
        }
        for day in [
            "monday",
            "tuesday",
            "wednesday",
            "thursday",
            "friday",
            "saturday",
            "sunday",
        ] {
            required.push(format!("{day}On"));
        }
        for k in &required {
            assert!(d.contains_key(k), "{k} missing");
        }
        assert_eq!(d["sellTime1"], "00:00");
        assert_eq!(d["mondayOn"], "true");

        // The maintainer reads too; the visitor and strangers do not.
        app.get(&read_url(INV), Some(&c.max)).await.expect_code(0);
        app.get(&read_url(INV), Some(&c.vic)).await.expect_code(2);
        app.get(&read_url(INV), Some(&c.bob)).await.expect_code(600);
        // A micro inverter's read answers as the original's does (tests/client_settings.rs).
        app.get(&read_url("INV-SETMI"), Some(&c.ann))
            .await
            .expect_code(0);
        app.get(&read_url("INV-SETAC"), Some(&c.ann))
            .await
            .expect_code(601);
    }
}
