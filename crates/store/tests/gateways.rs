//! Store contract for the gateway and device registry.

use domain::user::UserKind;
use store::{Store, StoreError, plants::PlantFields, testing, users::NewUser};

type TestResult = Result<(), Box<dyn std::error::Error>>;

async fn each_backend<F, Fut>(test: F) -> TestResult
where
    F: Fn(Store) -> Fut,
    Fut: std::future::Future<Output = TestResult>,
{
    for store in testing::all().await? {
        let backend = store.backend();
        test(store.clone())
            .await
            .map_err(|e| format!("{backend:?}: {e}"))?;
        store.close().await;
    }
    Ok(())
}

#[tokio::test]
async fn gateways_bind_to_plants_with_their_devices_and_are_freed_when_the_plant_goes() -> TestResult
{
    each_backend(|s| async move {
        let ann = s
            .create_user(&NewUser {
                account: "ann@example.com",
                email: "ann@example.com",
                mobile: "",
                password_hash: "h",
                nickname: "Ann",
                kind: UserKind::Owner,
                company: None,
                role: None,
                user_src: "web",
                now: 1,
            })
            .await?;
        let fields = PlantFields {
            name: "Ann home".into(),
            plant_type: 2,
            total_power: 5.0,
            join_date: "2024-01-01".into(),
            currency: "EUR".into(),
            timezone: "Europe/Madrid".into(),
            address: String::new(),
            lon: 0.0,
            lat: 40.0,
            image_url: String::new(),
            thumb_url: String::new(),
            principal: String::new(),
            phone: String::new(),
            email: String::new(),
            installer: String::new(),
            invest: 0.0,
        };
        let plant = s.create_plant(ann, None, ann, &fields, 1).await?;
        let gw = s
            .create_gateway("GW0001", "KEY123", "deye-hybrid-1ph", 1)
            .await?;
        assert!(matches!(
            s.create_gateway("GW0001", "x", "", 2).await,
            Err(StoreError::Conflict(_))
        ));
        let inv = s
            .upsert_device(
                "INV0001",
                gw,
                "inverter",
                2,
                "deye-hybrid-1ph",
                "SUN-5K",
                None,
                2,
            )
            .await?;
        assert_eq!(
            s.device_by_sn("INV0001").await?.ok_or("gone")?.plant_id,
            None
        );
        assert!(s.bind_gateway(gw, plant, ann.0, None, 3).await?);
        assert_eq!(s.plant_devices(plant).await?.len(), 1);
        let bat = s
            .upsert_device(
                "BAT0001",
                gw,
                "battery",
                0,
                "bms-lv-stack",
                "",
                Some("INV0001"),
                4,
            )
            .await?;
        assert_eq!(
            s.device_by_sn("BAT0001").await?.ok_or("gone")?.plant_id,
            Some(plant),
            "follows its gateway"
        );
        assert_eq!(
            s.upsert_device(
                "INV0001",
                gw,
                "inverter",
                2,
                "deye-hybrid-1ph",
                "SUN-6K",
                None,
                5
            )
            .await?,
            inv
        );
        assert_eq!(s.gateway_devices(gw).await?.len(), 2);
        assert_ne!(inv, bat);

        assert!(s.delete_plant(plant).await?);
        let freed = s.gateway_by_sn("GW0001").await?.ok_or("gone")?;
        assert_eq!(
            freed.plant_id, None,
            "the gateway stays registered, unbound"
        );
        assert_eq!(
            s.device_by_sn("INV0001").await?.ok_or("gone")?.plant_id,
            None
        );
        let again = s.create_plant(ann, None, ann, &fields, 6).await?;
        assert!(s.bind_gateway(gw, again, ann.0, None, 7).await?);
        assert!(s.unbind_gateway(gw, 8).await?);
        assert!(s.plant_gateways(again).await?.is_empty());
        Ok(())
    })
    .await
}
