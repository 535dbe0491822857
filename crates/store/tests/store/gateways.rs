//! Store contract for the gateway and device registry.

use domain::DeviceFamily;
use domain::user::UserKind;
use store::testing::{TestResult, each_backend};
use store::{Conflict, StoreError, plants::PlantFields, users::NewUser};

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
            tilt: None,
            azimuth: None,
        };
        let plant = s.create_plant(ann, None, ann, &fields, 1).await?;
        let gw = s
            .create_gateway("GW0001", "KEY12345", "deye-hybrid-1ph", 1)
            .await?;
        assert!(matches!(
            s.create_gateway("GW0001", "x", "", 2).await,
            Err(StoreError::Conflict(Conflict::GatewaySn))
        ));
        let inv = s
            .upsert_device(
                "INV0001",
                gw,
                DeviceFamily::Inverter,
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
        assert!(s.bind_gateway(gw, plant, ann, None, 3).await?);
        assert_eq!(s.plant_devices(plant).await?.len(), 1);
        let bat = s
            .upsert_device(
                "BAT0001",
                gw,
                DeviceFamily::Battery,
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
                DeviceFamily::Inverter,
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
        assert!(s.bind_gateway(gw, again, ann, None, 7).await?);
        assert!(s.unbind_gateway(gw, 8, None).await?);
        assert!(s.plant_gateways(again).await?.is_empty());
        Ok(())
    })
    .await
}

fn owner(
    account: &'static str,
    kind: UserKind,
    company: Option<domain::ids::CompanyId>,
) -> NewUser<'static> {
    NewUser {
        account,
        email: account,
        mobile: "",
        password_hash: "h",
        nickname: "n",
        kind,
        company,
        role: None,
        user_src: "web",
        now: 1,
    }
}

fn plant_fields(name: &str) -> PlantFields {
    PlantFields {
        name: name.into(),
        plant_type: 1,
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
        tilt: None,
        azimuth: None,
    }
}

#[tokio::test]
async fn gateways_are_taken_only_while_free_or_held_by_the_taker_and_listed_by_visibility()
-> TestResult {
    use domain::policy::{PlantVisibility, ShareRole};
    use store::gateways::{GatewayFilter, Holder};

    each_backend(|s| async move {
        let acme = s.create_company("Acme", 1).await?;
        let ann = s
            .create_user(&owner("ann@example.com", UserKind::Owner, None))
            .await?;
        let bob = s
            .create_user(&owner("bob@example.com", UserKind::Owner, None))
            .await?;
        let staff = s
            .create_user(&owner("staff@example.com", UserKind::Company, Some(acme)))
            .await?;
        let plant = s
            .create_plant(ann, None, ann, &plant_fields("Ann home"), 1)
            .await?;
        let free = s.create_gateway("GWFREE01", "K1", "", 1).await?;
        let on_plant = s.create_gateway("GWPLANT1", "K2", "p1", 1).await?;
        let stock = s.create_gateway("GWSTOCK1", "K3", "", 1).await?;

        let to_plant = Holder {
            plant: Some(plant),
            owner: ann,
            company: None,
        };
        assert!(s.take_gateway(on_plant, &to_plant, (ann, None), 2).await?);
        assert!(
            !s.take_gateway(on_plant, &to_plant, (bob, None), 3).await?,
            "a gateway on a plant cannot be taken"
        );
        let to_acme = Holder {
            plant: None,
            owner: staff,
            company: Some(acme),
        };
        assert!(
            s.take_gateway(stock, &to_acme, (staff, Some(acme)), 3)
                .await?
        );
        let to_bob = Holder {
            plant: None,
            owner: bob,
            company: None,
        };
        assert!(
            !s.take_gateway(stock, &to_bob, (bob, None), 4).await?,
            "someone else's stock cannot be taken"
        );

        let page = GatewayFilter {
            limit: 10,
            ..GatewayFilter::default()
        };
        let sns = |rows: Vec<store::gateways::GatewayListRow>| -> Vec<String> {
            rows.into_iter().map(|r| r.gateway.sn).collect()
        };
        let of = |user: domain::ids::UserId, company| PlantVisibility::Of { user, company };
        let (rows, total) = s.gateways_visible(of(ann, None), ann, &page).await?;
        assert_eq!((sns(rows), total), (vec!["GWPLANT1".to_string()], 1));
        let (rows, _) = s.gateways_visible(of(ann, None), ann, &page).await?;
        assert_eq!(rows[0].plant_name.as_deref(), Some("Ann home"));
        let (rows, _) = s
            .gateways_visible(of(staff, Some(acme)), staff, &page)
            .await?;
        assert_eq!(sns(rows), vec!["GWSTOCK1".to_string()]);
        assert_eq!(s.gateways_visible(of(bob, None), bob, &page).await?.1, 0);
        s.share_plant(plant, bob, ShareRole::Visitor, 5).await?;
        assert_eq!(
            s.gateways_visible(of(bob, None), bob, &page).await?.1,
            1,
            "shared plant"
        );
        let (_, all) = s.gateways_visible(PlantVisibility::All, bob, &page).await?;
        assert_eq!(all, 3, "the whole registry, unbound too");
        let filtered = GatewayFilter {
            sn: Some("plant".into()),
            protocol: Some("p1".into()),
            online: Some(false),
            ..page.clone()
        };
        assert_eq!(
            s.gateways_visible(PlantVisibility::All, bob, &filtered)
                .await?
                .1,
            1
        );
        let online = GatewayFilter {
            online: Some(true),
            ..page.clone()
        };
        assert_eq!(
            s.gateways_visible(PlantVisibility::All, bob, &online)
                .await?
                .1,
            0
        );
        // Only the gateways named (a restart's follow-up), still within what the reader sees;
        // an id is not matched by another that contains its digits.
        let named = GatewayFilter {
            ids: Some(vec![free, stock]),
            ..page.clone()
        };
        let (rows, total) = s
            .gateways_visible(PlantVisibility::All, bob, &named)
            .await?;
        let mut named_sns = sns(rows);
        named_sns.sort();
        assert_eq!(
            (named_sns, total),
            (vec!["GWFREE01".to_string(), "GWSTOCK1".to_string()], 2)
        );
        let (rows, _) = s
            .gateways_visible(of(staff, Some(acme)), staff, &named)
            .await?;
        assert_eq!(sns(rows), vec!["GWSTOCK1".to_string()]);
        let none = GatewayFilter {
            ids: Some(vec![domain::ids::GatewayId(on_plant.0 * 1000 + on_plant.0)]),
            ..page.clone()
        };
        assert_eq!(
            s.gateways_visible(PlantVisibility::All, bob, &none)
                .await?
                .1,
            0
        );
        assert_eq!(s.gateway_counts(PlantVisibility::All, bob).await?, (3, 0));
        assert_eq!(s.gateway_counts(of(ann, None), ann).await?, (1, 0));

        assert!(!s.delete_gateway(on_plant, None).await?, "in use");
        assert!(!s.delete_gateway(stock, None).await?, "held");
        assert!(s.delete_gateway(free, None).await?);
        assert!(s.gateway(free).await?.is_none());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_rotated_key_replaces_the_current_one_only_once_the_gateway_takes_it() -> TestResult {
    each_backend(|s| async move {
        let gw = s.create_gateway("GWKEY01", "OLDKEY", "", 1).await?;
        assert!(s.set_pending_gateway_key(gw, "NEWKEY1", 2).await?);
        let g = s.gateway(gw).await?.ok_or("gateway")?;
        assert_eq!(
            (g.reg_key.as_str(), g.pending_key.as_deref()),
            ("OLDKEY", Some("NEWKEY1"))
        );

        // A second rotation replaces the first; the first can no longer be taken.
        assert!(s.set_pending_gateway_key(gw, "NEWKEY2", 3).await?);
        assert!(!s.take_pending_gateway_key(gw, "NEWKEY1", 4).await?);
        assert!(s.take_pending_gateway_key(gw, "NEWKEY2", 5).await?);
        let g = s.gateway(gw).await?.ok_or("gateway")?;
        assert_eq!((g.reg_key.as_str(), g.pending_key), ("NEWKEY2", None));
        assert_eq!(g.key_changed_at, Some(5));
        assert!(
            !s.take_pending_gateway_key(gw, "NEWKEY2", 6).await?,
            "taken once"
        );

        // A refused rotation leaves the current key alone.
        assert!(s.set_pending_gateway_key(gw, "NEWKEY3", 7).await?);
        assert!(s.drop_pending_gateway_key(gw, "NEWKEY3").await?);
        let g = s.gateway(gw).await?.ok_or("gateway")?;
        assert_eq!((g.reg_key.as_str(), g.pending_key), ("NEWKEY2", None));
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_sign_in_is_a_connection_or_an_online_status_that_finds_the_gateway_offline() -> TestResult
{
    use store::telemetry::GatewayStatusUpdate;
    each_backend(|s| async move {
        let gw = s.create_gateway("GWSIGN01", "KEY12345", "", 1).await?;
        let other = s.create_gateway("GWSIGN02", "KEY12345", "", 1).await?;
        let signed_in = |id| {
            let s = s.clone();
            async move { Ok::<_, store::StoreError>(s.gateway(id).await?.and_then(|g| g.signed_in_at)) }
        };
        let status = |online| GatewayStatusUpdate {
            online,
            ..GatewayStatusUpdate::default()
        };
        assert_eq!(signed_in(gw).await?, None);

        // The broker's connections: the newest wins, an older one written late does not.
        s.gateways_signed_in(&[("GWSIGN01".into(), 100)]).await?;
        s.gateways_signed_in(&[("GWSIGN01".into(), 90), ("NOSUCHGW".into(), 95)])
            .await?;
        assert_eq!(signed_in(gw).await?, Some(100));

        // Its first status finds it offline: a sign-in (behind an external broker, the only
        // one the portal sees). The next, while online, is not; nor is an offline one.
        assert!(s.update_gateway_status(gw, &status(true), 110).await?);
        assert_eq!(signed_in(gw).await?, Some(110));
        assert!(s.update_gateway_status(gw, &status(true), 120).await?);
        assert_eq!(signed_in(gw).await?, Some(110));
        assert!(s.update_gateway_status(gw, &status(false), 130).await?);
        assert_eq!(signed_in(gw).await?, Some(110));
        // Back after its last will.
        assert!(s.update_gateway_status(gw, &status(true), 140).await?);
        assert_eq!(signed_in(gw).await?, Some(140));
        // A connection recorded late (the link writes once a second) moves nothing back.
        s.gateways_signed_in(&[("GWSIGN01".into(), 135)]).await?;
        assert_eq!(signed_in(gw).await?, Some(140));
        let g = s.gateway(gw).await?.ok_or("gateway")?;
        assert!(g.online && g.last_online == Some(140));
        assert_eq!(signed_in(other).await?, None, "another gateway");
        Ok(())
    })
    .await
}
