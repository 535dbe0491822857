//! Unbinding and deleting gateways.

use super::*;
use domain::DeviceFamily;
use domain::ids::{GatewayId, PlantId};

#[tokio::test]
async fn unbinding_frees_the_gateway_and_its_devices_and_only_free_gateways_are_deleted() {
    for app in spawn().await {
        let c = two_owners(&app).await;
        let acme = app.company("Acme").await;
        let (_, boss) = app
            .signed_in("boss@example.com", BuiltinRole::CompanyAdmin, Some(acme))
            .await;
        let (_, staff) = app
            .signed_in("staff@example.com", BuiltinRole::CompanyStaff, Some(acme))
            .await;
        let acme_plant = fixtures::grid_tied_plant(&app, &boss, "Acme roof plant").await;
        let gw = register(&app, &c.admin, "GW-0001", "KEY12345").await;
        let other = register(&app, &c.admin, "GW-0002", "KEY12345").await;
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
        app.post(
            &format!("/api/v1/plant/{}/gateway", c.ann_plant),
            json!({"sn": "GW-0001", "key": "KEY12345"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        app.post(
            &format!("/api/v1/plant/{acme_plant}/gateway"),
            json!({"sn": "GW-0002", "key": "KEY12345"}),
            Some(&staff),
        )
        .await
        .expect_code(0);
        // Staff may bind but not unbind; their administrator may.
        app.post(
            &format!("/api/v1/gateway/{other}/unbind"),
            json!({}),
            Some(&staff),
        )
        .await
        .expect_code(2);
        app.post(
            &format!("/api/v1/gateway/{other}/unbind"),
            json!({}),
            Some(&boss),
        )
        .await
        .expect_code(0);

        app.get(&format!("/api/v1/gateway/{gw}/delete"), Some(&c.admin))
            .await
            .expect_code(301);
        app.get(&format!("/api/v1/gateway/{gw}/delete"), Some(&c.ann))
            .await
            .expect_code(2);
        app.post(
            &format!("/api/v1/gateway/{gw}/unbind"),
            json!({}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        assert!(
            app.store
                .plant_devices(PlantId(c.ann_plant))
                .await
                .expect("devices")
                .is_empty()
        );
        let device = app
            .store
            .device_by_sn("INV-0001")
            .await
            .expect("device")
            .expect("row");
        assert_eq!(
            (device.plant_id, device.gateway_id),
            (None, Some(GatewayId(gw)))
        );
        app.get(&format!("/api/v1/gateway/{gw}"), Some(&c.ann))
            .await
            .expect_code(305);
        app.post(
            "/api/v1/gateways/check",
            json!({"sn": "GW-0001"}),
            Some(&c.bob),
        )
        .await
        .expect_code(0);

        app.get(&format!("/api/v1/gateway/{gw}/delete"), Some(&c.admin))
            .await
            .expect_code(0);
        app.get(&format!("/api/v1/gateway/{gw}"), Some(&c.admin))
            .await
            .expect_code(305);
        app.get("/api/v1/gateway/999999/delete", Some(&c.admin))
            .await
            .expect_code(305);
    }
}
