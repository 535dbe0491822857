//! Renaming and deleting an inverter.

use super::*;
use domain::ids::{DeviceId, PlantId};

#[tokio::test]
async fn renaming_keeps_to_32_bytes_and_needs_the_alias_key_on_the_plant() {
    for app in spawn().await {
        let c = reporting_inverters(&app).await;
        let url = "/api/v1/inverter/2306012345/alias";
        let r = app
            .post(url, json!({"alias": "a".repeat(33)}), Some(&c.ann))
            .await;
        r.expect_code(4);
        // 11 Chinese characters are 33 bytes.
        app.post(url, json!({"alias": "逆".repeat(11)}), Some(&c.ann))
            .await
            .expect_code(4);
        app.post(url, json!({"alias": "  Roof east  "}), Some(&c.ann))
            .await
            .expect_code(0);
        let d = app.get("/api/v1/inverter/2306012345", Some(&c.ann)).await;
        assert_eq!(d.data()["alias"], "Roof east");
        // A form body works too.
        app.post_form(url, "alias=Garage", Some(&c.ann))
            .await
            .expect_code(0);
        let d = app.get("/api/v1/inverter/2306012345", Some(&c.ann)).await;
        assert_eq!(d.data()["alias"], "Garage");

        // A visitor sees the inverter but may neither rename nor delete it.
        app.post(
            &format!("/api/v1/plant/{}/share", c.ann_plant),
            json!({"account": "bob@example.com", "role": "visitor"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        app.get("/api/v1/inverter/2306012345", Some(&c.bob))
            .await
            .expect_code(0);
        app.post(url, json!({"alias": "Bob's"}), Some(&c.bob))
            .await
            .expect_code(2);
        app.post(
            "/api/v1/inverter/2306012345/delete",
            json!({}),
            Some(&c.bob),
        )
        .await
        .expect_code(2);
    }
}

#[tokio::test]
async fn deleting_an_inverter_keeps_its_history() {
    for app in spawn().await {
        let c = reporting_inverters(&app).await;
        app.post(
            "/api/v1/inverter/2306012345/delete",
            json!({}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        app.get("/api/v1/inverter/2306012345", Some(&c.ann))
            .await
            .expect_code(600);
        let list = app.get("/api/v1/inverters", Some(&c.ann)).await;
        assert_eq!(list.data()["total"], 1);
        let kept = app
            .store
            .latest_sample(DeviceId(c.single))
            .await
            .expect("latest");
        assert!(kept.is_some(), "history stays");
        let plant_energy = app
            .store
            .plant_energy(PlantId(c.ann_plant), &store::telemetry::DayRange::total())
            .await
            .expect("energy");
        assert!(
            plant_energy
                .iter()
                .any(|e| e.metric == "pv" && e.kwh > 39.0)
        );
        app.post(
            "/api/v1/inverter/2306012345/delete",
            json!({}),
            Some(&c.ann),
        )
        .await
        .expect_code(600);
    }
}
