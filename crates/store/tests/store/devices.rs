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

/// The device and gateway lists' totals by family, plant and placement are summed from each
/// plant's kept counts (kept by the database on every write of a device or gateway), and the
/// page is read from the devices or gateways: after each way one arrives, leaves, moves or
/// changes family, every such listing totals what it lists, on each backend.
#[tokio::test]
async fn the_plants_kept_counts_follow_every_write_of_a_device_or_gateway() -> TestResult {
    each_backend(|s| async move {
        let ann = s
            .create_user(&new_user("ann@example.com", UserKind::Owner))
            .await?;
        let roof = s
            .create_plant(ann, None, ann, &plant_fields("Roof"), 1)
            .await?;
        let barn = s
            .create_plant(ann, None, ann, &plant_fields("Barn"), 1)
            .await?;
        let plants = [roof, barn];
        let on_roof = s.create_gateway("GWKEPT1", "K", "", 1).await?;
        let on_barn = s.create_gateway("GWKEPT2", "K", "", 1).await?;
        assert!(s.bind_gateway(on_roof, roof, ann, None, 2).await?);
        assert!(s.bind_gateway(on_barn, barn, ann, None, 2).await?);
        let check = |step: &'static str| {
            let s = s.clone();
            async move { totals_are_what_is_listed(&s, ann, &plants, step).await }
        };

        let mut inverters = Vec::new();
        for n in 0..3 {
            let sn = format!("KINV{n}");
            inverters.push(
                s.upsert_device(&sn, on_roof, DeviceFamily::Inverter, 0, "p", "", None, 3)
                    .await?,
            );
        }
        let reported = store::reported_devices::ReportedDevice {
            sn: "KBAT0",
            family: DeviceFamily::Battery,
            type_code: 0,
            protocol: "p",
            model: "",
            parent_sn: None,
        };
        s.register_reported_device(&reported, on_roof, 3)
            .await?
            .ok_or("not registered")?;
        check("added").await?;

        // Reported again unchanged, then as another family.
        s.upsert_device(
            "KINV2",
            on_roof,
            DeviceFamily::Inverter,
            0,
            "p",
            "",
            None,
            4,
        )
        .await?;
        check("reported again").await?;
        s.upsert_device("KINV2", on_roof, DeviceFamily::Meter, 0, "p", "", None, 4)
            .await?;
        check("another family").await?;

        // Behind the other gateway; then the gateways move with their devices.
        s.upsert_device(
            "KINV1",
            on_barn,
            DeviceFamily::Inverter,
            0,
            "p",
            "",
            None,
            5,
        )
        .await?;
        check("behind another gateway").await?;
        assert!(s.bind_gateway(on_roof, barn, ann, None, 6).await?);
        check("gateway moved").await?;
        assert!(s.unbind_gateway(on_barn, 7, None).await?);
        check("gateway unbound").await?;
        assert!(s.bind_gateway(on_barn, roof, ann, None, 8).await?);
        check("gateway bound").await?;
        let spare = s.create_gateway("GWKEPT3", "K", "", 9).await?;
        check("gateway registered").await?;
        let to = store::gateways::Holder {
            plant: Some(roof),
            owner: ann,
            company: None,
        };
        s.replace_gateway(
            on_barn,
            spare,
            &to,
            (ann, None),
            10,
            &audit("gateway.replace"),
        )
        .await?
        .ok_or("not replaced")?;
        check("gateway replaced").await?;
        assert!(s.delete_gateway(on_barn, None).await?);
        check("gateway removed").await?;

        assert!(s.delete_device(inverters[0]).await?);
        s.delete_devices(&inverters[1..2]).await?;
        check("removed").await?;
        assert!(s.delete_plant(roof).await?);
        totals_are_what_is_listed(&s, ann, &[barn], "plant removed").await
    })
    .await
}

/// Checked for internal staff and for the plants' owner.
async fn totals_are_what_is_listed(
    s: &store::Store,
    owner: domain::ids::UserId,
    plants: &[domain::ids::PlantId],
    step: &str,
) -> TestResult {
    for visibility in [
        PlantVisibility::All,
        PlantVisibility::Of {
            user: owner,
            company: None,
        },
    ] {
        listings_total_what_they_list(
            s,
            visibility,
            owner,
            plants,
            &format!("{step}, {visibility:?}"),
        )
        .await?;
    }
    Ok(())
}

async fn listings_total_what_they_list(
    s: &store::Store,
    visibility: PlantVisibility,
    reader: domain::ids::UserId,
    plants: &[domain::ids::PlantId],
    step: &str,
) -> TestResult {
    let families = DeviceFamily::ALL.map(Some);
    let places = plants.iter().copied().map(Some).chain([None]);
    for plant in places {
        for family in families.iter().copied().chain([None]) {
            let f = DeviceFilter {
                family,
                plant,
                limit: 100,
                ..DeviceFilter::default()
            };
            let (rows, total) = s.devices_visible(visibility, reader, &f).await?;
            assert_eq!(
                total,
                rows.len() as i64,
                "{step}: {family:?} on {plant:?}: {:?}",
                rows.iter().map(|r| &r.sn).collect::<Vec<_>>()
            );
        }
        for placed in [None, Some(true), Some(false)] {
            let f = store::gateways::GatewayFilter {
                plant,
                placed,
                limit: 100,
                ..Default::default()
            };
            let (rows, total) = s.gateways_visible(visibility, reader, &f).await?;
            assert_eq!(
                total,
                rows.len() as i64,
                "{step}: gateways on {plant:?}, placed {placed:?}: {:?}",
                rows.iter().map(|r| &r.gateway.sn).collect::<Vec<_>>()
            );
        }
    }
    Ok(())
}
