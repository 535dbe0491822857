//! Company administration: a company with its administrator, its details, branding and
//! access, its custom roles and its staff are each written together with their audit entry,
//! or not at all.

use crate::common::{Error, actor, audit_entries, fail_audit, failed_in_store};
use domain::{
    company::DetailsInput,
    ids::{CompanyId, RoleId},
    policy::Actor,
    user::BuiltinRole,
};
use service::{
    companies::{self, DetailsEdit, NewCompanyInput},
    roles::{self, RoleDraft},
    staff::{self, StaffChanges, StaffInput},
};
use store::{
    Store,
    testing::{TestResult, each_backend},
};

/// An internal administrator and the company they made, with its administrator (as actors).
async fn sun(s: &Store) -> Result<(Actor, CompanyId, Actor), Error> {
    let admin = actor(s, "root@example.com", BuiltinRole::InternalAdmin).await?;
    let (id, _) = new_company(s, &admin, "Sun", "boss@sun.example").await?;
    let boss = s.user_by_account("boss@sun.example").await?.ok_or("boss")?;
    let boss = service::actors::actor_of(s, &boss).await?;
    Ok((admin, id, boss))
}

async fn new_company(
    s: &Store,
    admin: &Actor,
    name: &str,
    account: &str,
) -> Result<(CompanyId, domain::ids::UserId), service::ServiceError> {
    let input = NewCompanyInput {
        details: DetailsInput {
            name,
            ..DetailsInput::default()
        },
        admin_account: account,
        admin_password: "Sunny-Days-42",
        admin_nickname: "",
    };
    let prepared = companies::prepare_company(s, admin, &input).await?;
    companies::create_company(s, admin, &prepared, Some("hash"), 1).await
}

fn actions(entries: &[(String, String)]) -> Vec<&str> {
    entries.iter().map(|(a, _)| a.as_str()).collect()
}

#[tokio::test]
async fn a_company_and_its_administrator_are_made_with_their_entry_or_not_at_all() -> TestResult {
    each_backend(|s| async move {
        let (admin, sun, _) = sun(&s).await?;
        assert_eq!(
            audit_entries(&s).await?,
            [("company.add".to_string(), format!("company:{sun}"))]
        );
        fail_audit(&s).await?;
        let moon = new_company(&s, &admin, "Moon", "boss@moon.example").await;
        assert!(failed_in_store(&moon), "{moon:?}");
        assert!(s.company_by_name("Moon").await?.is_none());
        assert!(s.user_by_account("boss@moon.example").await?.is_none());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_company_change_whose_entry_fails_changes_nothing() -> TestResult {
    each_backend(|s| async move {
        let (admin, sun, boss) = sun(&s).await?;
        companies::edit(
            &s,
            &boss,
            sun,
            &DetailsEdit {
                phone: "+34600000000",
                ..DetailsEdit::default()
            },
            2,
        )
        .await?;
        companies::set_theme(&s, &boss, sun, "#123456", 3).await?;
        companies::set_logo(&s, &boss, sun, "/files/logos/a.png", "", 4).await?;
        companies::set_disabled(&s, &admin, sun, true, 5).await?;
        let entries = audit_entries(&s).await?;
        assert_eq!(
            actions(&entries),
            [
                "company.add",
                "company.edit",
                "company.theme",
                "company.logo",
                "company.disable"
            ]
        );

        fail_audit(&s).await?;
        let edited = companies::edit(
            &s,
            &boss,
            sun,
            &DetailsEdit {
                name: Some("Sol"),
                ..DetailsEdit::default()
            },
            6,
        )
        .await;
        assert!(failed_in_store(&edited), "{edited:?}");
        let themed = companies::set_theme(&s, &boss, sun, "#abcdef", 7).await;
        assert!(failed_in_store(&themed), "{themed:?}");
        let logo = companies::set_logo(&s, &boss, sun, "", "", 8).await;
        assert!(failed_in_store(&logo), "{logo:?}");
        let enabled = companies::set_disabled(&s, &admin, sun, false, 9).await;
        assert!(failed_in_store(&enabled), "{enabled:?}");
        let row = s.company(sun).await?.ok_or("company")?;
        assert_eq!(
            (
                row.name.as_str(),
                row.phone.as_str(),
                row.theme_color.as_str()
            ),
            ("Sun", "+34600000000", "#123456")
        );
        assert_eq!(
            (row.logo_url.as_str(), row.disabled),
            ("/files/logos/a.png", true)
        );
        assert_eq!(audit_entries(&s).await?.len(), 5);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_role_change_whose_entry_fails_changes_nothing() -> TestResult {
    each_backend(|s| async move {
        let (_, sun, boss) = sun(&s).await?;
        let keys = vec!["station.view".to_string()];
        let draft = RoleDraft {
            name: Some("Ops"),
            permissions: &keys,
        };
        let ops = roles::create(&s, &boss, None, &draft, 2).await?;
        let target = format!("role:{}", ops.0);
        assert_eq!(
            audit_entries(&s).await?.last(),
            Some(&("role.add".to_string(), target))
        );

        fail_audit(&s).await?;
        let other = RoleDraft {
            name: Some("Field"),
            permissions: &keys,
        };
        let created = roles::create(&s, &boss, None, &other, 3).await;
        assert!(failed_in_store(&created), "{created:?}");
        let renamed = roles::update(&s, &boss, ops, &other, 4).await;
        assert!(failed_in_store(&renamed), "{renamed:?}");
        let deleted = roles::delete(&s, &boss, ops, 5).await;
        assert!(failed_in_store(&deleted), "{deleted:?}");
        let names: Vec<String> = s
            .company_roles(sun)
            .await?
            .into_iter()
            .map(|r| r.name)
            .collect();
        assert_eq!(names, ["Ops"]);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_staff_change_whose_entry_fails_changes_nothing() -> TestResult {
    each_backend(|s| async move {
        let (_, _, boss) = sun(&s).await?;
        let staff_role = s.builtin_role(BuiltinRole::CompanyStaff).await?;
        let role = staff_role.0.to_string();
        let input = |account| StaffInput {
            account,
            password: "Sunny-Days-42",
            role_id: Some(role.as_str()),
            ..StaffInput::default()
        };
        let p = staff::prepare_add(&s, &boss, &input("sam@sun.example")).await?;
        let sam = staff::add(&s, &boss, &p, "hash", "", 2).await?;
        assert_eq!(
            audit_entries(&s).await?.last(),
            Some(&("staff.add".to_string(), format!("user:{sam}")))
        );

        fail_audit(&s).await?;
        let p = staff::prepare_add(&s, &boss, &input("tia@sun.example")).await?;
        let added = staff::add(&s, &boss, &p, "hash", "", 3).await;
        assert!(failed_in_store(&added), "{added:?}");
        assert!(s.user_by_account("tia@sun.example").await?.is_none());

        let changes = StaffChanges {
            nickname: Some("Samuel".into()),
            disabled: Some(true),
            ..StaffChanges::default()
        };
        let edited = staff::edit(&s, &boss, sam, changes, 4).await;
        assert!(failed_in_store(&edited), "{edited:?}");
        let deleted = staff::delete(&s, &boss, sam, 5).await;
        assert!(failed_in_store(&deleted), "{deleted:?}");
        let row = s.user(sam).await?.ok_or("sam")?;
        assert_eq!(
            (row.nickname.as_str(), row.disabled, row.deleted_at),
            ("sam", false, None)
        );
        assert_eq!(row.role(), Some(RoleId(staff_role.0)));
        Ok(())
    })
    .await
}
