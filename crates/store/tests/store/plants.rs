//! Store contract for plants: visibility, paging and filters, tariffs, shares, transfer and
//! delete, on every backend.

use domain::{
    ids::UserId,
    policy::{PlantVisibility, ShareRole},
    user::UserKind,
};
use store::testing::{TestResult, each_backend};
use store::{
    Store,
    plants::{NewTariffSegment, PlantFields, PlantFilter, PlantSort},
    users::NewUser,
};

async fn user(
    s: &Store,
    account: &str,
    kind: UserKind,
    company: Option<domain::ids::CompanyId>,
) -> Result<UserId, store::StoreError> {
    s.create_user(&NewUser {
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
    })
    .await
}

fn fields(name: &str, power: f64) -> PlantFields {
    PlantFields {
        name: name.into(),
        plant_type: 2,
        total_power: power,
        join_date: "2024-05-01".into(),
        currency: "GBP".into(),
        timezone: "Europe/London".into(),
        address: "1 Solar Way".into(),
        lon: -0.72,
        lat: 51.32,
        image_url: String::new(),
        thumb_url: String::new(),
        principal: "Ann".into(),
        phone: "+44123456".into(),
        email: "ann@example.com".into(),
        installer: "Acme".into(),
        invest: 1000.0,
        tilt: None,
        azimuth: None,
    }
}

fn page(limit: i64) -> PlantFilter {
    PlantFilter {
        limit,
        ..PlantFilter::default()
    }
}

#[tokio::test]
async fn owners_see_their_plants_staff_see_their_company_and_sharees_see_what_is_shared()
-> TestResult {
    each_backend(|s| async move {
        let acme = s.create_company("Acme", 1).await?;
        let ann = user(&s, "ann@example.com", UserKind::Owner, None).await?;
        let bob = user(&s, "bob@example.com", UserKind::Owner, None).await?;
        let staff = user(&s, "staff@acme.com", UserKind::Company, Some(acme)).await?;
        let home = s
            .create_plant(ann, None, ann, &fields("Ann home", 5.0), 10)
            .await?;
        let depot = s
            .create_plant(bob, Some(acme), staff, &fields("Acme depot", 50.0), 11)
            .await?;

        let of = |user, company| PlantVisibility::Of { user, company };
        let (ann_list, total) = s.plants(of(ann, None), ann, &page(10)).await?;
        assert_eq!((total, ann_list[0].id), (1, home));
        let (staff_list, _) = s.plants(of(staff, Some(acme)), staff, &page(10)).await?;
        assert_eq!(
            staff_list.iter().map(|p| p.id).collect::<Vec<_>>(),
            vec![depot]
        );
        let (_, all) = s.plants(PlantVisibility::All, ann, &page(10)).await?;
        assert_eq!(all, 2);

        s.share_plant(home, bob, ShareRole::Visitor, 12).await?;
        let (bob_list, bob_total) = s.plants(of(bob, None), bob, &page(10)).await?;
        assert_eq!(bob_total, 2, "own depot and shared home");
        let shared = bob_list
            .iter()
            .find(|p| p.id == home)
            .ok_or("home missing")?;
        assert_eq!(shared.scope().shared_as, Some(ShareRole::Visitor));
        s.share_plant(home, bob, ShareRole::Maintainer, 13).await?;
        assert_eq!(
            s.plant(home, bob)
                .await?
                .ok_or("gone")?
                .shared_as
                .as_deref(),
            Some("maintainer")
        );
        assert_eq!(s.plant_shares(home).await?.len(), 1);
        // A page's plants read at once are the plants read one by one, for the same reader.
        let mut both = s.plants_by_ids(&[depot, home], bob).await?;
        both.sort_by_key(|p| p.id);
        let one_by_one = [
            s.plant(home, bob).await?.ok_or("gone")?,
            s.plant(depot, bob).await?.ok_or("gone")?,
        ];
        let mut one_by_one = one_by_one.to_vec();
        one_by_one.sort_by_key(|p| p.id);
        let key = |p: &store::plants::PlantRow| (p.id, p.shared_as.clone(), p.linked_company);
        assert_eq!(
            both.iter().map(key).collect::<Vec<_>>(),
            one_by_one.iter().map(key).collect::<Vec<_>>()
        );
        assert!(s.unshare_plant(home, bob).await?);
        assert_eq!(s.plants(of(bob, None), bob, &page(10)).await?.1, 1);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn listings_page_filter_and_sort() -> TestResult {
    each_backend(|s| async move {
        let ann = user(&s, "ann@example.com", UserKind::Owner, None).await?;
        for (i, name) in ["Zeta roof", "alpha barn", "Beta field", "Gamma lake"]
            .iter()
            .enumerate()
        {
            s.create_plant(ann, None, ann, &fields(name, i as f64), i as i64)
                .await?;
        }
        let vis = PlantVisibility::Of {
            user: ann,
            company: None,
        };
        let by_name = PlantFilter {
            sort: PlantSort::Name,
            limit: 2,
            offset: 1,
            ..PlantFilter::default()
        };
        let (rows, total) = s.plants(vis, ann, &by_name).await?;
        assert_eq!(total, 4);
        assert_eq!(
            rows.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
            vec!["Beta field", "Gamma lake"]
        );
        let past_the_end = PlantFilter {
            limit: 2,
            offset: 10,
            ..PlantFilter::default()
        };
        let (rows, total) = s.plants(vis, ann, &past_the_end).await?;
        assert!(rows.is_empty());
        assert_eq!(total, 4, "a page past the end still counts the list");
        let search = PlantFilter {
            name: Some("ROOF".into()),
            limit: 10,
            ..PlantFilter::default()
        };
        assert_eq!(
            s.plants(vis, ann, &search).await?.1,
            1,
            "search ignores case"
        );
        let big_first = PlantFilter {
            sort: PlantSort::Capacity,
            descending: true,
            limit: 1,
            ..PlantFilter::default()
        };
        assert_eq!(
            s.plants(vis, ann, &big_first).await?.0[0].name,
            "Gamma lake"
        );
        let typed = PlantFilter {
            plant_type: Some(1),
            limit: 10,
            ..PlantFilter::default()
        };
        assert_eq!(s.plants(vis, ann, &typed).await?.1, 0);
        let offline = PlantFilter {
            status: Some(0),
            limit: 10,
            ..PlantFilter::default()
        };
        assert_eq!(s.plants(vis, ann, &offline).await?.1, 4);
        assert_eq!(s.plant_status_counts(vis, ann).await?, vec![(0, 4)]);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn sorted_pages_walk_every_visible_plant_once_with_the_whole_total() -> TestResult {
    each_backend(|s| async move {
        let ann = user(&s, "ann@example.com", UserKind::Owner, None).await?;
        let bob = user(&s, "bob@example.com", UserKind::Owner, None).await?;
        // Ties in capacity and in name (case apart), and a neighbour's plants between them.
        for (i, (name, power)) in [("b", 5.0), ("A", 7.0), ("c", 5.0), ("a", 5.0), ("D", 9.0)]
            .iter()
            .enumerate()
        {
            s.create_plant(ann, None, ann, &fields(name, *power), i as i64)
                .await?;
            s.create_plant(bob, None, bob, &fields(name, *power), i as i64)
                .await?;
        }
        let vis = PlantVisibility::Of {
            user: ann,
            company: None,
        };
        for (sort, descending, expected) in [
            (PlantSort::Capacity, true, ["D", "A", "a", "c", "b"]),
            (PlantSort::Capacity, false, ["b", "c", "a", "A", "D"]),
            (PlantSort::Name, false, ["A", "a", "b", "c", "D"]),
            (PlantSort::Name, true, ["D", "c", "b", "a", "A"]),
            (PlantSort::Created, true, ["D", "a", "c", "A", "b"]),
        ] {
            let mut walked = Vec::new();
            for offset in [0, 2, 4] {
                let filter = PlantFilter {
                    sort,
                    descending,
                    limit: 2,
                    offset,
                    ..PlantFilter::default()
                };
                let (rows, total) = s.plants(vis, ann, &filter).await?;
                assert_eq!(
                    total, 5,
                    "{sort:?} at {offset}: the whole match, not the page"
                );
                assert!(rows.iter().all(|p| p.owner_id == ann));
                walked.extend(rows.into_iter().map(|p| p.name));
            }
            assert_eq!(walked, expected, "{sort:?} descending {descending}");
        }
        Ok(())
    })
    .await
}

#[tokio::test]
async fn tariffs_edits_transfer_and_delete_leave_no_orphans() -> TestResult {
    each_backend(|s| async move {
        let ann = user(&s, "ann@example.com", UserKind::Owner, None).await?;
        let bob = user(&s, "bob@example.com", UserKind::Owner, None).await?;
        let id = s
            .create_plant(ann, None, ann, &fields("Ann home", 5.0), 10)
            .await?;
        let tou = |a: &str, b: &str, p: f64| NewTariffSegment {
            kind: 2,
            start_range: a.into(),
            end_range: b.into(),
            price: p,
            direction: None,
        };
        let mut priced = fields("Ann home", 5.0);
        (priced.currency, priced.invest) = ("EUR".into(), 2500.5);
        (priced.tilt, priced.azimuth) = (Some(32.5), Some(195.0));
        let tariff = [tou("00:00", "08:00", 0.1), tou("08:00", "24:00", 0.3)];
        assert!(s.update_plant(id, &priced, Some(&tariff), 20).await?);
        let tariff = s.tariff(id).await?;
        assert_eq!(tariff.len(), 2);
        assert_eq!(
            (tariff[1].start_range.as_str(), tariff[1].price),
            ("08:00", 0.3)
        );
        let plant = s.plant(id, ann).await?.ok_or("gone")?;
        assert_eq!((plant.currency.as_str(), plant.invest), ("EUR", 2500.5));
        assert_eq!((plant.tilt, plant.azimuth), (Some(32.5), Some(195.0)));

        let mut edited = fields("Ann new home", 7.5);
        edited.currency = "EUR".into();
        assert!(s.update_plant(id, &edited, None, 30).await?);
        assert_eq!(
            s.tariff(id).await?.len(),
            2,
            "no tariff given keeps the tariff"
        );
        let edited = s.plant(id, ann).await?.ok_or("gone")?;
        assert_eq!(edited.total_power, 7.5);
        assert_eq!(
            (edited.tilt, edited.azimuth),
            (None, None),
            "orientation cleared"
        );

        s.share_plant(id, bob, ShareRole::Visitor, 31).await?;
        assert!(s.transfer_plant(id, bob, None, 40).await?);
        let moved = s.plant(id, bob).await?.ok_or("gone")?;
        assert_eq!(
            (moved.owner_id, moved.shared_as),
            (bob, None),
            "the share with the new owner ends"
        );
        assert_eq!(
            s.plants(
                PlantVisibility::Of {
                    user: ann,
                    company: None
                },
                ann,
                &page(10)
            )
            .await?
            .1,
            0
        );

        s.share_plant(id, ann, ShareRole::Visitor, 41).await?;
        assert!(s.delete_plant(id).await?);
        assert!(s.plant(id, bob).await?.is_none());
        assert!(s.tariff(id).await?.is_empty());
        assert!(s.plant_shares(id).await?.is_empty());
        Ok(())
    })
    .await
}
