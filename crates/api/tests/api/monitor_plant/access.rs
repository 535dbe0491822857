//! Tenancy: another tenant's plant answers like a missing one.

use super::*;

#[tokio::test]
async fn another_tenants_plant_answers_exactly_like_a_missing_one() {
    for app in spawn().await {
        let c = monitored_plant(&app).await;
        let p = c.plant;
        let paths = |id: i64| {
            vec![
                format!("/api/v1/plant/{id}/realtime"),
                format!("/api/v1/plant/{id}/power/day"),
                format!("/api/v1/plant/{id}/power/year"),
                format!("/api/v1/plant/energy/{id}/flow"),
                format!("/api/v1/plant/energy/{id}/generation/use"),
                format!("/api/v1/plant/energy/{id}/day"),
                format!("/api/v1/plant/energy/{id}/month"),
                format!("/api/v1/plant/energy/{id}/year"),
                format!("/api/v1/plant/energy/{id}/total"),
                format!("/api/v1/plant/{id}/check/device"),
                format!("/api/v1/plant/{id}/devices"),
                format!("/api/v1/getWeatherStationInfo?stationId={id}"),
                format!("/api/v1/getWeatherStationProduct?stationId={id}"),
                format!("/api/v1/weather?stationId={id}"),
                format!("/api/v1/plant/generation/download?id={id}"),
            ]
        };
        for (theirs, missing) in paths(p).iter().zip(paths(p + 1000)) {
            let a = app.get(theirs, Some(&c.bob)).await;
            a.expect_code(700);
            let b = app.get(&missing, Some(&c.bob)).await;
            b.expect_code(700);
            assert_eq!(a.json, b.json, "{theirs}");
            app.get(theirs, None).await.expect_401();
        }
        app.get("/api/v1/inverter/INV-MON-1/flow", Some(&c.bob))
            .await
            .expect_code(600);
        // Bob's weather at Ann's position knows nothing of her station.
        let w = app
            .get(&format!("/api/v1/weather?lonLat={LAT},{LON}"), Some(&c.bob))
            .await;
        w.expect_code(0);
        assert!(w.data()["currWea"]["currTemp"].is_null());
        assert!(w.data()["plantId"].is_null());
    }
}
