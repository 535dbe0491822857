//! Store contract for the devices gateways report: registration, ownership, lookups.

use domain::{DeviceFamily, user::UserKind};
use store::reported_devices::ReportedDevice;
use store::testing::{TestResult, each_backend, new_user, plant_fields};

fn inverter(sn: &str) -> ReportedDevice<'_> {
    ReportedDevice {
        sn,
        family: DeviceFamily::Inverter,
        type_code: 2,
        protocol: "deye-hybrid-1ph",
        model: "SUN-5K",
        parent_sn: None,
    }
}

#[tokio::test]
async fn a_reported_device_belongs_to_the_gateway_that_registered_it() -> TestResult {
    each_backend(|s| async move {
        let ann = s
            .create_user(&new_user("ann@example.com", UserKind::Owner))
            .await?;
        let home = s
            .create_plant(ann, None, ann, &plant_fields("Ann home"), 1)
            .await?;
        let gwa = s.create_gateway("GWA", "K", "", 1).await?;
        let gwb = s.create_gateway("GWB", "K", "", 1).await?;
        assert!(s.bind_gateway(gwa, home, ann, None, 2).await?);

        let id = s
            .register_reported_device(&inverter("INV1"), gwa, 3)
            .await?
            .ok_or("not registered")?;
        // The owner reports it again with news: same device, updated.
        let again = ReportedDevice {
            model: "SUN-6K",
            ..inverter("INV1")
        };
        assert_eq!(s.register_reported_device(&again, gwa, 4).await?, Some(id));
        // Another gateway cannot take it over.
        assert_eq!(
            s.register_reported_device(&inverter("INV1"), gwb, 5)
                .await?,
            None
        );
        let row = s.device_by_sn("INV1").await?.ok_or("gone")?;
        assert_eq!(
            (row.gateway_id, row.plant_id, row.model.as_str()),
            (Some(gwa), Some(home), "SUN-6K")
        );
        assert_eq!(s.gateway_device_count(gwa).await?, 1);
        assert_eq!(s.gateway_device_count(gwb).await?, 0);

        // Deleting the device frees its SN for any gateway.
        assert!(s.delete_device(id).await?);
        let taken = s
            .register_reported_device(&inverter("INV1"), gwb, 6)
            .await?;
        assert!(taken.is_some_and(|new| new != id));
        assert_eq!(s.gateway_device_count(gwb).await?, 1);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn contexts_of_many_serials_come_back_in_one_call_with_the_plants_zone() -> TestResult {
    each_backend(|s| async move {
        let ann = s
            .create_user(&new_user("ann@example.com", UserKind::Owner))
            .await?;
        let home = s
            .create_plant(ann, None, ann, &plant_fields("Ann home"), 1)
            .await?;
        let gw = s.create_gateway("GW1", "K", "", 1).await?;
        assert!(s.bind_gateway(gw, home, ann, None, 2).await?);
        let sns: Vec<String> = (0..300).map(|i| format!("INV{i:04}")).collect();
        for sn in sns.iter().step_by(2) {
            s.register_reported_device(&inverter(sn), gw, 3).await?;
        }
        let wanted: Vec<&str> = sns.iter().map(String::as_str).collect();
        let found = s.device_contexts(&wanted).await?;
        assert_eq!(found.len(), 150, "registered ones only, each once");
        assert!(found.iter().all(|c| c.gateway_id == Some(gw)
            && c.plant_id == Some(home)
            && c.timezone.as_deref() == Some("Europe/Madrid")));
        let mut sns_found: Vec<&str> = found.iter().map(|c| c.sn.as_str()).collect();
        sns_found.sort_unstable();
        sns_found.dedup();
        assert_eq!(sns_found.len(), 150);
        assert!(s.device_contexts(&["NOPE"]).await?.is_empty());
        assert!(s.device_contexts(&[]).await?.is_empty());
        Ok(())
    })
    .await
}
