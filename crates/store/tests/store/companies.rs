//! Store contract for the business side: a company made with its administrator in one
//! transaction (and nothing made when a part fails), soft-deleted staff, and agents.

use domain::{company::CompanyDetails, ids::AgentId, user::UserKind};
use store::{
    Conflict, StoreError,
    companies::AdminAccount,
    testing::{TestResult, each_backend, new_user},
};

fn details(name: &str) -> CompanyDetails {
    CompanyDetails {
        name: name.into(),
        contact_name: "Ann".into(),
        email: String::new(),
        phone: String::new(),
        address: String::new(),
        remark: String::new(),
    }
}

fn new_admin(account: &str) -> AdminAccount<'_> {
    AdminAccount::Create {
        account,
        email: account,
        mobile: "",
        password_hash: "h",
        nickname: "Boss",
    }
}

#[tokio::test]
async fn a_company_and_its_administrator_are_made_together_or_not_at_all() -> TestResult {
    each_backend(|s| async move {
        s.sync_builtin_roles(1).await?;
        let role = s
            .builtin_role(domain::user::BuiltinRole::CompanyAdmin)
            .await?;
        let (sun, boss) = s
            .create_company_with_admin(
                &details("Sun"),
                &new_admin("boss@sun.example"),
                role,
                5,
                None,
            )
            .await?;
        let row = s.company(sun).await?.ok_or("company")?;
        assert_eq!(row.admin(), Some(boss));
        let summary = s.company_summary(sun).await?.ok_or("summary")?;
        assert_eq!(
            (
                summary.admin_account.as_str(),
                summary.staff,
                summary.plants
            ),
            ("boss@sun.example", 1, 0)
        );
        assert!(s.company_name_taken(" sUN ", None).await?);
        assert!(!s.company_name_taken("Sun", Some(sun)).await?);

        // The account is taken: the company is not made either.
        let failed = s
            .create_company_with_admin(
                &details("Moon"),
                &new_admin("boss@sun.example"),
                role,
                6,
                None,
            )
            .await;
        assert!(matches!(
            failed,
            Err(StoreError::Conflict(Conflict::AdminAccount))
        ));
        assert!(s.company_by_name("Moon").await?.is_none());
        // Only an owner without a company may be promoted.
        let failed = s
            .create_company_with_admin(
                &details("Moon"),
                &AdminAccount::Promote(boss),
                role,
                7,
                None,
            )
            .await;
        assert!(matches!(
            failed,
            Err(StoreError::Conflict(Conflict::AdminAccount))
        ));
        assert!(s.company_by_name("Moon").await?.is_none());
        let ann = s
            .create_user(&new_user("ann@example.com", UserKind::Owner))
            .await?;
        let (moon, admin) = s
            .create_company_with_admin(&details("Moon"), &AdminAccount::Promote(ann), role, 8, None)
            .await?;
        assert_eq!(admin, ann);
        let ann_row = s.user(ann).await?.ok_or("ann")?;
        assert_eq!(
            (ann_row.kind.as_str(), ann_row.company_id),
            ("company", Some(moon))
        );
        let (page, total) = s.company_summaries(Some("o"), 10, 0).await?;
        assert_eq!((page.len(), total), (1, 1), "only Moon has an o");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_deleted_staff_member_keeps_the_row_and_frees_the_account() -> TestResult {
    each_backend(|s| async move {
        let sun = s.create_company("Sun", 1).await?;
        let sam = s
            .create_user(&store::users::NewUser {
                company: Some(sun),
                ..new_user("sam@sun.example", UserKind::Company)
            })
            .await?;
        s.create_session("sess", sam, 1, 1_000_000).await?;
        assert!(s.delete_staff(sam, 9, None).await?);
        assert!(!s.delete_staff(sam, 10, None).await?, "once");
        let row = s.user(sam).await?.ok_or("row stays")?;
        assert_eq!(row.account, format!("deleted-{sam}-sam@sun.example"));
        assert!(row.disabled && row.deleted_at == Some(9));
        assert!(s.session_caller("sess", sam).await?.is_none(), "signed out");
        assert!(s.user_by_account("sam@sun.example").await?.is_none());
        assert!(s.users(Some(sun)).await?.is_empty());
        // The name is free again.
        s.create_user(&store::users::NewUser {
            company: Some(sun),
            ..new_user("sam@sun.example", UserKind::Company)
        })
        .await?;
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_agent_serves_one_principal_and_only_its_principal_deletes_it() -> TestResult {
    each_backend(|s| async move {
        let sun = s.create_company("Sun", 1).await?;
        let moon = s.create_company("Moon", 1).await?;
        let star = s.create_company("Star", 1).await?;
        let id = s.create_agent(sun, moon, 2).await?;
        assert_eq!(s.principal_of(moon).await?, Some(sun));
        assert!(matches!(
            s.create_agent(star, moon, 3).await,
            Err(StoreError::Conflict(Conflict::AgentTaken))
        ));
        let (rows, total) = s.agents(sun, Some("MO"), 10, 0).await?;
        assert_eq!(
            (rows.len(), total, rows[0].company_name.as_str()),
            (1, 1, "Moon")
        );
        assert!(s.agent(star, id).await?.is_none());
        assert!(!s.delete_agent(star, id, None).await?);
        assert!(!s.delete_agent(sun, AgentId(id.0 + 100), None).await?);
        assert!(s.delete_agent(sun, id, None).await?);
        assert_eq!(s.principal_of(moon).await?, None);
        Ok(())
    })
    .await
}
