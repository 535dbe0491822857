//! Store contract for device listings: visibility, filters, counts, alias and delete.

use domain::DeviceFamily;
use domain::{
    policy::{PlantVisibility, ShareRole},
    user::UserKind,
};
use store::devices::DeviceFilter;
use store::testing::{TestResult, audit, each_backend, new_user, plant_fields};

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

/// Every page of a device listing carries the whole total, and the pages together hold each
/// device the viewer may see exactly once: for an owner, a share's visitor, company staff and
/// internal staff, over bound and unbound devices, under each filter. The page and the total
/// are read by different statements (the total plant by plant, the page device by device), so
/// this keeps the two the same.
#[tokio::test]
async fn every_page_of_a_device_listing_carries_the_total_of_its_pages() -> TestResult {
    each_backend(|s| async move {
        let company = s.create_company("Installer", 1).await?;
        let staff = s
            .create_user(&store::users::NewUser {
                company: Some(company),
                ..new_user("staff@example.com", UserKind::Company)
            })
            .await?;
        let ann = s
            .create_user(&new_user("ann@example.com", UserKind::Owner))
            .await?;
        let bob = s
            .create_user(&new_user("bob@example.com", UserKind::Owner))
            .await?;
        let cid = s
            .create_user(&new_user("cid@example.com", UserKind::Owner))
            .await?;
        s.add_customer(company, ann, 1).await?;
        let mut gateways = Vec::new();
        // Ann's two plants (the company's customer), Bob's (shared with Cid), the company's own.
        let plants = [
            (ann, None, "Ann roof"),
            (ann, None, "Ann barn"),
            (bob, None, "Bob home"),
            (staff, Some(company), "Depot"),
        ];
        for (n, (owner, of, name)) in plants.into_iter().enumerate() {
            let plant = s
                .create_plant(owner, of, owner, &plant_fields(name), 1)
                .await?;
            let gw = s.create_gateway(&format!("GWP{n}"), "K", "", 1).await?;
            assert!(s.bind_gateway(gw, plant, owner, of, 2).await?);
            for (i, family) in [
                DeviceFamily::Inverter,
                DeviceFamily::Inverter,
                DeviceFamily::Battery,
                DeviceFamily::Meter,
            ]
            .into_iter()
            .enumerate()
            {
                s.upsert_device(&format!("D{n}{i}"), gw, family, 0, "p", "", None, 3)
                    .await?;
            }
            gateways.push((gw, plant));
        }
        s.share_plant(gateways[2].1, cid, ShareRole::Visitor, 4)
            .await?;
        // Unbound devices: behind a gateway Bob holds, one the company holds, one nobody does.
        for (n, holder, of) in [
            (0, Some(bob), None),
            (1, None, Some(company)),
            (2, None, None),
        ] {
            let gw = s.create_gateway(&format!("GWU{n}"), "K", "", 1).await?;
            assert!(
                s.set_gateway_holder(gw, holder, of, 5, &audit("gateway.hold"))
                    .await?
            );
            for i in 0..2 {
                s.upsert_device(
                    &format!("U{n}{i}"),
                    gw,
                    DeviceFamily::Inverter,
                    0,
                    "p",
                    "",
                    None,
                    6,
                )
                .await?;
            }
        }

        let of = |user, company| PlantVisibility::Of { user, company };
        let viewers = [
            ("owner", of(ann, None), ann, 8),
            ("holder", of(bob, None), bob, 6),
            ("visitor", of(cid, None), cid, 4),
            ("company staff", of(staff, Some(company)), staff, 14),
            ("internal staff", PlantVisibility::All, staff, 22),
        ];
        let any = DeviceFilter::default();
        let filters = [
            ("none", any.clone()),
            (
                "inverters",
                DeviceFilter {
                    family: Some(DeviceFamily::Inverter),
                    ..any.clone()
                },
            ),
            (
                "a plant",
                DeviceFilter {
                    plant: Some(gateways[0].1),
                    ..any.clone()
                },
            ),
            (
                "a gateway",
                DeviceFilter {
                    gateway_sn: Some("GWU1".into()),
                    ..any.clone()
                },
            ),
            (
                "the company's",
                DeviceFilter {
                    company: Some(company),
                    ..any.clone()
                },
            ),
            (
                "part of the SN",
                DeviceFilter {
                    sn: Some("u".into()),
                    ..any.clone()
                },
            ),
            (
                "offline",
                DeviceFilter {
                    status: Some(0),
                    ..any.clone()
                },
            ),
        ];
        for (who, visibility, reader, sees) in viewers {
            for (what, filter) in &filters {
                let mut seen = Vec::new();
                let mut total = None;
                for page in 0.. {
                    let f = DeviceFilter {
                        limit: 3,
                        offset: page * 3,
                        ..filter.clone()
                    };
                    let (rows, t) = s.devices_visible(visibility, reader, &f).await?;
                    assert_eq!(*total.get_or_insert(t), t, "{who}, {what}: page {page}");
                    if rows.is_empty() {
                        break;
                    }
                    seen.extend(rows.into_iter().map(|r| r.sn));
                }
                let total = total.ok_or("no page")?;
                assert_eq!(seen.len() as i64, total, "{who}, {what}: {seen:?}");
                seen.sort();
                seen.dedup();
                assert_eq!(seen.len() as i64, total, "{who}, {what}: once each");
                if *what == "none" {
                    assert_eq!(total, sees, "{who} sees");
                }
                if filter.sn.is_none() && filter.gateway_sn.is_none() && filter.company.is_none() {
                    let counts = s
                        .device_counts(visibility, reader, filter.family, filter.plant)
                        .await?;
                    let offline = if filter.status.is_some() {
                        counts.offline
                    } else {
                        counts.total
                    };
                    assert_eq!(offline, total, "{who}, {what}: per status");
                }
            }
        }
        Ok(())
    })
    .await
}
