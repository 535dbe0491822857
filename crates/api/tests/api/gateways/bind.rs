//! Binding a gateway: an owner's claim with its key, and the plant wizard's gateway step.

use super::*;
use domain::DeviceFamily;
use domain::ids::{GatewayId, PlantId};

#[tokio::test]
async fn an_owner_claims_a_gateway_with_its_key_and_nobody_else_can_take_it() {
    for app in spawn().await {
        let c = two_owners(&app).await;
        let gw = register(&app, &c.admin, "GW-0001", "KEY12345").await;
        let check = "/api/v1/gateway/import/one/check";
        let one = |sn: &str, key: &str| json!({"sn": sn, "key": key});
        let wrong_key = app
            .post(check, one("GW-0001", "NOPE99"), Some(&c.ann))
            .await;
        wrong_key.expect_code(300);
        let unknown = app
            .post(check, one("GW-9999", "KEY12345"), Some(&c.ann))
            .await;
        unknown.expect_code(300);
        assert_eq!(wrong_key.msg(), unknown.msg(), "the same answer for both");
        app.post(check, one("GW-0001", "KEY12345"), Some(&c.ann))
            .await
            .expect_code(0);
        app.post(check, json!({"key": "KEY12345"}), Some(&c.ann))
            .await
            .expect_code(4);

        // Someone else's plant is a missing plant.
        let to_bob = json!({"sn": "GW-0001", "key": "KEY12345", "plantId": c.bob_plant});
        app.post("/api/v1/gateway/import/one", to_bob, Some(&c.ann))
            .await
            .expect_code(700);
        let body = json!({"sn": "GW-0001", "key": "KEY12345", "plantId": c.ann_plant});
        app.post("/api/v1/gateway/import/one", body.clone(), Some(&c.ann))
            .await
            .expect_code(0);
        app.post("/api/v1/gateway/import/one", body, Some(&c.ann))
            .await
            .expect_code(0);
        let bound = app
            .store
            .gateway(GatewayId(gw))
            .await
            .expect("gw")
            .expect("row");
        assert_eq!(bound.plant_id, Some(PlantId(c.ann_plant)));

        app.post(check, one("GW-0001", "KEY12345"), Some(&c.ann))
            .await
            .expect_code(301);
        // Bob cannot see Ann's gateway: its right key answers exactly like a wrong one.
        let right = app
            .post(check, one("GW-0001", "KEY12345"), Some(&c.bob))
            .await;
        let wrong = app
            .post(check, one("GW-0001", "NOPE9999"), Some(&c.bob))
            .await;
        right.expect_code(300);
        assert_eq!(right.text(), wrong.text(), "a key oracle");
        let stock = json!({"sn": "GW-0001", "key": "KEY12345"});
        app.post("/api/v1/gateway/import/one", stock, Some(&c.bob))
            .await
            .expect_code(300);

        // Without a plant the gateway goes to the claimer's stock, visible to them only.
        register(&app, &c.admin, "GW-0002", "KEY45678").await;
        app.post(
            "/api/v1/gateway/import/one",
            one("GW-0002", "KEY45678"),
            Some(&c.bob),
        )
        .await
        .expect_code(0);
        let list = app.get("/api/v1/gateways", Some(&c.bob)).await;
        assert_eq!(list.data()["total"], 1, "{}", list.text());
        assert_eq!(list.data()["infos"][0]["sn"], "GW-0002");
        assert_eq!(list.data()["infos"][0]["plantId"], Value::Null);
        app.post(check, one("GW-0002", "KEY45678"), Some(&c.ann))
            .await
            .expect_code(300);
        // ... and from there onto the claimer's plant.
        app.post(
            &format!("/api/v1/plant/{}/gateway", c.bob_plant),
            one("GW-0002", "KEY45678"),
            Some(&c.bob),
        )
        .await
        .expect_code(0);
    }
}

#[tokio::test]
async fn the_plant_wizard_binds_a_gateway_to_a_plant_the_caller_may_edit() {
    for app in spawn().await {
        let c = two_owners(&app).await;
        let gw = register(&app, &c.admin, "GW-0001", "KEY12345").await;
        app.store
            .upsert_device(
                "INV-0001",
                GatewayId(gw),
                DeviceFamily::Inverter,
                2,
                "p",
                "SUN-5K",
                None,
                1,
            )
            .await
            .expect("device");
        let step = format!("/api/v1/plant/{}/gateway", c.ann_plant);
        app.post(
            &step,
            json!({"sn": "GW-0001", "key": "WRONG1"}),
            Some(&c.ann),
        )
        .await
        .expect_code(300);
        app.post(&step, json!({"sn": "GW-0001"}), Some(&c.ann))
            .await
            .expect_code(4);
        app.post(
            &step,
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.bob),
        )
        .await
        .expect_code(700);
        app.post(
            "/api/v1/plant/999999/gateway",
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.ann),
        )
        .await
        .expect_code(700);
        // A visitor sees the plant but may not change it.
        app.post(
            &format!("/api/v1/plant/{}/share", c.ann_plant),
            json!({"account": "bob@example.com", "role": "visitor"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        app.post(
            &step,
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.bob),
        )
        .await
        .expect_code(2);

        app.post(
            &step,
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let devices = app
            .store
            .plant_devices(PlantId(c.ann_plant))
            .await
            .expect("devices");
        assert_eq!(devices.len(), 1, "the devices follow their gateway");
        // Bob visits Ann's plant, so he sees the gateway: in use, not a wrong key.
        app.post(
            &format!("/api/v1/plant/{}/gateway", c.bob_plant),
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.bob),
        )
        .await
        .expect_code(301);
        // The shared visitor sees the gateway through the plant.
        let detail = app
            .get(&format!("/api/v1/gateway/{gw}"), Some(&c.bob))
            .await;
        detail.expect_code(0);
        assert_eq!(detail.data()["plant"]["id"].as_i64(), Some(c.ann_plant));
        assert_eq!(detail.data()["devices"][0]["sn"], "INV-0001");
    }
}
