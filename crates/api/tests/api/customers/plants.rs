//! A customer's plants, visible to the company until the customer is removed.

use super::*;
use domain::DeviceFamily;
use domain::ids::{GatewayId, PlantId};

#[tokio::test]
async fn a_customers_plants_are_the_companys_to_see_until_it_is_removed() {
    for app in spawn().await {
        let b = app.backend;
        let w = world(&app).await;
        let plant =
            fixtures::plant(&app, &w.ann_token, fixtures::madrid_plant("Ann roof", 1, 5)).await;
        let gateway =
            fixtures::bound_gateway(&app, &w.internal, &w.ann_token, plant, "GWANN001").await;
        app.store
            .upsert_device(
                "INVANN01",
                GatewayId(gateway),
                DeviceFamily::Inverter,
                1,
                "p",
                "m",
                None,
                domain::time::now_ms(),
            )
            .await
            .expect("device");
        let staff = Some(w.staff_a.as_str());

        let before = app.get("/api/v1/plants", staff).await;
        assert_eq!(before.data()["total"], 0, "[{b}]");
        app.get(&format!("/api/v1/plant/{plant}"), staff)
            .await
            .expect_code(700);
        assert_eq!(
            app.get("/api/v1/gateways", staff).await.data()["total"],
            0,
            "[{b}]"
        );
        assert_eq!(
            app.get("/api/v1/inverters", staff).await.data()["total"],
            0,
            "[{b}]"
        );

        let ann = add_customer(
            &app,
            &w.admin_a,
            json!({"account": "ann@example.com"}),
            &w.ann_token,
        )
        .await;
        let now = app.get("/api/v1/plants", staff).await;
        assert_eq!(ids(&now), [plant], "[{b}]");
        let detail = app.get(&format!("/api/v1/plant/{plant}"), staff).await;
        detail.expect_code(0);
        let perms = detail.data()["plantPermission"].to_string();
        assert!(
            perms.contains("station.edit") && !perms.contains("station.share\""),
            "[{b}] {perms}"
        );
        assert_eq!(
            app.get("/api/v1/gateways", staff).await.data()["total"],
            1,
            "[{b}]"
        );
        app.get("/api/v1/gateway/GWANN001", staff)
            .await
            .expect_code(0);
        assert_eq!(
            app.get("/api/v1/inverters", staff).await.data()["total"],
            1,
            "[{b}]"
        );
        app.get("/api/v1/inverter/INVANN01", staff)
            .await
            .expect_code(0);
        // Gateways filtered by the customer's user id.
        let mine = app
            .get(&format!("/api/v1/gateways?customerId={}", w.ann.0), staff)
            .await;
        assert_eq!(mine.data()["total"], 1, "[{b}]");
        let other = app
            .get(&format!("/api/v1/gateways?customerId={MISSING}"), staff)
            .await;
        assert_eq!(other.data()["total"], 0, "[{b}]");
        // Another company sees nothing of it.
        assert_eq!(
            app.get("/api/v1/plants", Some(&w.admin_b)).await.data()["total"],
            0,
            "[{b}]"
        );
        app.get(&format!("/api/v1/plant/{plant}"), Some(&w.admin_b))
            .await
            .expect_code(700);

        delete(&app, &format!("/api/v1/customers/delete/{ann}"), &w.admin_a)
            .await
            .expect_code(0);
        assert_eq!(
            app.get("/api/v1/plants", staff).await.data()["total"],
            0,
            "[{b}]"
        );
        app.get(&format!("/api/v1/plant/{plant}"), staff)
            .await
            .expect_code(700);
        assert_eq!(
            app.get("/api/v1/gateways", staff).await.data()["total"],
            0,
            "[{b}]"
        );
        app.get("/api/v1/gateway/GWANN001", staff)
            .await
            .expect_code(305);
        assert_eq!(
            app.get("/api/v1/inverters", staff).await.data()["total"],
            0,
            "[{b}]"
        );
        // Nothing of Ann's was deleted.
        assert!(
            app.store
                .plant(PlantId(plant), w.ann)
                .await
                .unwrap()
                .is_some(),
            "[{b}]"
        );
        assert!(
            app.store
                .gateway(GatewayId(gateway))
                .await
                .unwrap()
                .is_some(),
            "[{b}]"
        );
        assert!(
            app.store.device_by_sn("INVANN01").await.unwrap().is_some(),
            "[{b}]"
        );
        let own = app
            .get(&format!("/api/v1/plant/{plant}"), Some(&w.ann_token))
            .await;
        own.expect_code(0);
    }
}
