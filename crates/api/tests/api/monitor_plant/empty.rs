//! A grid-tied plant without data.

use super::*;

#[tokio::test]
async fn a_grid_tied_plant_without_data_answers_zeros_and_no_battery() {
    for app in spawn().await {
        let (_, cy) = app
            .signed_in("cy@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let r = app
            .post(
                "/api/v1/plant",
                json!({"name": "Cy empty plant", "type": 1, "currency": "EUR",
                    "timezone": "Europe/Madrid", "lon": 2.0, "lat": 41.0, "totalPower": 0}),
                Some(&cy),
            )
            .await;
        r.expect_code(0);
        let p = r.data().as_i64().expect("id");
        let flow = app
            .get(&format!("/api/v1/plant/energy/{p}/flow"), Some(&cy))
            .await;
        flow.expect_code(0);
        let f = flow.data();
        check_flow_types(f);
        assert_eq!(f["pvPower"].as_f64(), Some(0.0));
        assert_eq!(f["existsBattery"].as_bool(), Some(false));
        assert!(f["time"].is_null());
        let rt = app
            .get(&format!("/api/v1/plant/{p}/realtime"), Some(&cy))
            .await;
        rt.expect_code(0);
        assert_eq!(rt.data()["etotal"].as_f64(), Some(0.0));
        assert_eq!(rt.data()["efficiency"].as_f64(), Some(0.0));
        assert_eq!(rt.data()["income"].as_f64(), Some(0.0));
        assert!(is_update_at(&rt.data()["updateAt"]));
        let check = app
            .get(&format!("/api/v1/plant/{p}/check/device"), Some(&cy))
            .await;
        assert_eq!(
            check.data(),
            &json!({"meter": false, "battery": false, "meteorological": false})
        );
        let info = app
            .get(
                &format!("/api/v1/getWeatherStationInfo?stationId={p}"),
                Some(&cy),
            )
            .await;
        info.expect_code(0);
        assert!(info.data().is_null());
        let products = app
            .get(
                &format!("/api/v1/getWeatherStationProduct?stationId={p}"),
                Some(&cy),
            )
            .await;
        assert_eq!(products.data(), &json!([]));
        let day = app
            .get(&format!("/api/v1/plant/energy/{p}/day"), Some(&cy))
            .await;
        day.expect_code(0);
        assert_eq!(labels(day.data()), ["pv", "load", "grid"]);
        let total = app
            .get(&format!("/api/v1/plant/energy/{p}/total"), Some(&cy))
            .await;
        assert!(records(total.data(), "pv").is_empty());
        let w = app
            .get(&format!("/api/v1/weather?stationId={p}"), Some(&cy))
            .await;
        w.expect_code(0);
        assert!(w.data()["currWea"]["desc"].is_null());
        assert!(is_hhmm(&w.data()["currWea"]["sunset"]));
    }
}
