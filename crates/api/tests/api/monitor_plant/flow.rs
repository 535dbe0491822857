//! The live flow and its strict fields.

use super::*;

fn is_local_time(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").is_ok())
}

#[tokio::test]
async fn the_live_flow_has_every_strict_field_with_its_direction() {
    for app in spawn().await {
        let c = monitored_plant(&app).await;
        let r = app
            .get(
                &format!("/api/v1/plant/energy/{}/flow?date=&page&limit=1", c.plant),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let f = r.data();
        check_flow_types(f);
        assert_eq!(f["pvPower"].as_f64(), Some(4000.0), "[{}]", app.backend);
        assert_eq!(f["battPower"].as_f64(), Some(1500.0));
        assert_eq!(
            f["gridOrMeterPower"].as_f64(),
            Some(400.0),
            "the meter wins"
        );
        assert_eq!(f["loadOrEpsPower"].as_f64(), Some(2000.0));
        assert_eq!(f["soc"].as_f64(), Some(55.0));
        for (key, expected) in [
            ("toBat", true),
            ("batTo", false),
            ("toGrid", true),
            ("gridTo", false),
            ("pvTo", true),
            ("toLoad", true),
            ("existsMeter", true),
            ("existsGrid", true),
            ("existsBattery", true),
            ("existsGen", false),
        ] {
            assert_eq!(f[key].as_bool(), Some(expected), "{key}");
        }
        assert!(is_local_time(&f["time"]), "{}", f["time"]);

        let inv = app
            .get("/api/v1/inverter/INV-MON-1/flow", Some(&c.ann))
            .await;
        inv.expect_code(0);
        let i = inv.data();
        check_flow_types(i);
        assert_eq!(i["gridOrMeterPower"].as_f64(), Some(500.0), "its own CT");
        assert_eq!(i["existsMeter"].as_bool(), Some(false));
        assert_eq!(i["pvPower"].as_f64(), Some(4000.0));
        assert_eq!(i["custCode"].as_i64(), Some(2));
        assert_eq!(i["protocolIdentifier"], "deye-hybrid-1ph");
        app.get("/api/v1/inverter/MTR-MON-1/flow", Some(&c.ann))
            .await
            .expect_code(600);
    }
}
