//! Store contract for device listings: visibility, filters, counts, alias and delete.

use domain::DeviceFamily;
use domain::{
    policy::{PlantVisibility, ShareRole},
    user::UserKind,
};
use store::devices::DeviceFilter;
use store::testing::{TestResult, each_backend, new_user, plant_fields};

#[tokio::test]
async fn devices_are_listed_as_their_plant_is_seen_and_filtered() -> TestResult {
    each_backend(|s| async move {
        let ann = s
            .create_user(&new_user("ann@example.com", UserKind::Owner))
            .await?;
        let bob = s
            .create_user(&new_user("bob@example.com", UserKind::Owner))
            .await?;
        let home = s
            .create_plant(ann, None, ann, &plant_fields("Ann home"), 1)
            .await?;
        let gw = s.create_gateway("GWDEV001", "K", "", 1).await?;
        assert!(s.bind_gateway(gw, home, ann, None, 2).await?);
        let inv = s
            .upsert_device(
                "INV00001",
                gw,
                DeviceFamily::Inverter,
                2,
                "p",
                "SUN-5K",
                None,
                3,
            )
            .await?;
        s.upsert_device(
            "BAT00001",
            gw,
            DeviceFamily::Battery,
            0,
            "b",
            "",
            Some("INV00001"),
            3,
        )
        .await?;
        s.upsert_device(
            "BAT00002",
            gw,
            DeviceFamily::Battery,
            0,
            "b",
            "",
            Some("BAT00001"),
            3,
        )
        .await?;

        let of = |user| PlantVisibility::Of {
            user,
            company: None,
        };
        let all = DeviceFilter {
            limit: 10,
            ..DeviceFilter::default()
        };
        let (rows, total) = s.devices_visible(of(ann), ann, &all).await?;
        assert_eq!(total, 3);
        assert_eq!(rows[0].plant_name.as_deref(), Some("Ann home"));
        assert_eq!(rows[0].gateway_sn.as_deref(), Some("GWDEV001"));
        assert_eq!(s.devices_visible(of(bob), bob, &all).await?.1, 0);
        assert!(s.device_visible(of(bob), bob, "INV00001").await?.is_none());
        s.share_plant(home, bob, ShareRole::Visitor, 4).await?;
        assert!(s.device_visible(of(bob), bob, "INV00001").await?.is_some());

        let batteries = DeviceFilter {
            family: Some(DeviceFamily::Battery),
            sn: Some("bat".into()),
            ..all.clone()
        };
        assert_eq!(s.devices_visible(of(ann), ann, &batteries).await?.1, 2);
        let packs = DeviceFilter {
            parent_sn: Some("BAT00001".into()),
            ..batteries.clone()
        };
        let (rows, _) = s.devices_visible(of(ann), ann, &packs).await?;
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].sn, "BAT00002");
        let offline = DeviceFilter {
            status: Some(1),
            ..all.clone()
        };
        assert_eq!(s.devices_visible(of(ann), ann, &offline).await?.1, 0);

        let counts = s
            .device_counts(of(ann), ann, Some(DeviceFamily::Inverter), None)
            .await?;
        assert_eq!((counts.total, counts.offline), (1, 1));
        assert_eq!(
            s.device_counts(of(ann), ann, None, Some(home)).await?.total,
            3
        );

        assert!(s.set_device_alias(inv, "Roof", 5).await?);
        let row = s
            .device_visible(of(ann), ann, "INV00001")
            .await?
            .ok_or("gone")?;
        assert_eq!(row.alias, "Roof");
        assert!(s.delete_device(inv).await?);
        assert!(s.device_visible(of(ann), ann, "INV00001").await?.is_none());
        Ok(())
    })
    .await
}
