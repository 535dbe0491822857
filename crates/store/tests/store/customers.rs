//! Store contract for customers, customer types and the visibility they give company staff,
//! on every backend.

use domain::ids::PlantId;
use domain::{
    ids::{CompanyId, CustomerTypeId, UserId},
    policy::PlantVisibility,
    user::UserKind,
};
use store::testing::{TestResult, each_backend};
use store::{
    Conflict, Store, StoreError,
    customer_types::{TypeRemoval, TypeWrite},
    customers::CustomerFilter,
    plants::{PlantFields, PlantFilter},
    users::NewUser,
};

async fn user(
    s: &Store,
    account: &str,
    kind: UserKind,
    company: Option<CompanyId>,
) -> Result<UserId, StoreError> {
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

fn fields(name: &str) -> PlantFields {
    PlantFields {
        name: name.into(),
        plant_type: 1,
        total_power: 5.0,
        join_date: "2024-05-01".into(),
        currency: "EUR".into(),
        timezone: "UTC".into(),
        address: String::new(),
        lon: 0.0,
        lat: 0.0,
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

fn kind(code: &str, parent: Option<CustomerTypeId>) -> TypeWrite<'_> {
    TypeWrite {
        code,
        name: code,
        remark: "",
        parent,
    }
}

#[tokio::test]
async fn customers_and_types_are_confined_to_their_company() -> TestResult {
    each_backend(|s| async move {
        let a = s.create_company("Alpha", 1).await?;
        let b = s.create_company("Beta", 1).await?;
        let ann = user(&s, "ann@example.com", UserKind::Owner, None).await?;
        let vip = s
            .insert_customer_type(a, &kind("VIP", None), 1, None)
            .await?;
        let gold = s
            .insert_customer_type(a, &kind("GOLD", Some(vip)), 1, None)
            .await?;
        assert!(matches!(
            s.insert_customer_type(a, &kind("VIP", None), 1, None).await,
            Err(StoreError::Conflict(Conflict::CustomerTypeCode))
        ));
        s.insert_customer_type(b, &kind("VIP", None), 1, None)
            .await?;

        let c = s.insert_customer(a, ann, Some(gold), "r", 2).await?;
        assert!(matches!(
            s.insert_customer(a, ann, None, "", 2).await,
            Err(StoreError::Conflict(Conflict::Customer))
        ));
        assert!(s.customer(b, c).await?.is_none(), "another company's");
        let row = s.customer(a, c).await?.expect("customer");
        assert_eq!((row.type_name.as_deref(), row.plants), (Some("GOLD"), 0));
        let page = CustomerFilter {
            limit: 10,
            type_id: Some(gold),
            ..Default::default()
        };
        assert_eq!(s.customers(a, &page).await?.1, 1);
        assert_eq!(s.customers(b, &page).await?.1, 0);

        assert_eq!(
            s.delete_customer_type(b, gold, None).await?,
            TypeRemoval::Missing
        );
        assert_eq!(
            s.delete_customer_type(a, vip, None).await?,
            TypeRemoval::HasChildren
        );
        assert_eq!(
            s.delete_customer_type(a, gold, None).await?,
            TypeRemoval::HasCustomers
        );
        assert!(!s.update_customer(b, c, None, "", None).await?);
        assert!(s.update_customer(a, c, None, "", None).await?);
        assert_eq!(
            s.delete_customer_type(a, gold, None).await?,
            TypeRemoval::Removed
        );
        assert!(!s.delete_customer(b, c, None).await?);
        assert!(s.delete_customer(a, c, None).await?);
        assert!(s.user(ann).await?.is_some());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn staff_see_their_customers_and_agents_plants() -> TestResult {
    each_backend(|s| async move {
        let a = s.create_company("Alpha", 1).await?;
        let b = s.create_company("Beta", 1).await?;
        let staff = user(&s, "staff@alpha.example", UserKind::Company, Some(a)).await?;
        let agent = user(&s, "agent@beta.example", UserKind::Company, Some(b)).await?;
        let ann = user(&s, "ann@example.com", UserKind::Owner, None).await?;
        let anns = s
            .create_plant(ann, None, ann, &fields("Ann roof"), 1)
            .await?;
        let betas = s
            .create_plant(agent, Some(b), agent, &fields("Beta field"), 1)
            .await?;
        let vis = PlantVisibility::Of {
            user: staff,
            company: Some(a),
        };
        let page = PlantFilter {
            limit: 10,
            ..Default::default()
        };
        let seen = |rows: Vec<store::plants::PlantRow>| -> Vec<PlantId> {
            rows.iter().map(|p| p.id).collect()
        };
        assert_eq!(s.plants(vis, staff, &page).await?.1, 0);
        assert!(
            s.plant(anns, staff)
                .await?
                .unwrap()
                .linked_company
                .is_none()
        );

        let c = s.insert_customer(a, ann, None, "", 1).await?;
        s.create_agent(a, b, 1).await?;
        assert!(s.is_agent_of(a, b).await? && !s.is_agent_of(b, a).await?);
        let (rows, total) = s.plants(vis, staff, &page).await?;
        assert_eq!((seen(rows.clone()), total), (vec![anns, betas], 2));
        assert!(rows.iter().all(|p| p.linked_company == Some(a)));
        assert_eq!(s.plant(anns, staff).await?.unwrap().linked_company, Some(a));
        assert_eq!(
            s.plant(anns, ann).await?.unwrap().linked_company,
            None,
            "not staff"
        );
        let of_beta = PlantFilter {
            company: Some(b),
            ..page.clone()
        };
        assert_eq!(seen(s.plants(vis, staff, &of_beta).await?.0), vec![betas]);

        s.delete_customer(a, c, None).await?;
        assert_eq!(seen(s.plants(vis, staff, &page).await?.0), vec![betas]);
        assert!(
            s.plant(anns, staff)
                .await?
                .unwrap()
                .linked_company
                .is_none()
        );
        Ok(())
    })
    .await
}
