//! A company's customer types, customers and agents, and owner accounts as internal staff
//! manage them: each change is written with its audit entry, or not at all.

use crate::common::{Error, actor, audit_entries, fail_audit, failed_in_store, staff};
use domain::{ids::CompanyId, policy::Actor, user::BuiltinRole};
use service::{
    agency, customer_types,
    customer_types::TypeDraft,
    customers::{self, CustomerDraft},
    owners,
};
use store::{
    Store,
    testing::{TestResult, each_backend},
};

/// Acme, the company administrator acting for it, and Ann, an owner who is its customer.
async fn acme(s: &Store) -> Result<(CompanyId, Actor, Actor), Error> {
    let acme = s.create_company("Acme", 1).await?;
    s.sync_builtin_roles(1).await?;
    let role = s.builtin_role(BuiltinRole::CompanyAdmin).await?;
    staff(s, "boss@acme.com", acme).await?;
    let boss = s.user_by_account("boss@acme.com").await?.ok_or("boss")?;
    s.set_role(boss.id(), role).await?;
    let boss = service::actors::actor_of(s, &s.user(boss.id()).await?.ok_or("boss")?).await?;
    let ann = actor(s, "ann@example.com", BuiltinRole::PlantOwner).await?;
    Ok((acme, boss, ann))
}

fn draft<'a>(code: &'a str, parent: Option<i64>) -> TypeDraft<'a> {
    TypeDraft {
        code: Some(code),
        name: Some(code),
        remark: None,
        parent,
    }
}

#[tokio::test]
async fn a_customer_type_change_whose_entry_fails_changes_nothing() -> TestResult {
    each_backend(|s| async move {
        let (acme, boss, _) = acme(&s).await?;
        let vip = customer_types::add(&s, &boss, acme, &draft("VIP", None), 2).await?;
        assert_eq!(
            audit_entries(&s).await?,
            [(
                "customerType.add".to_string(),
                "customerType:VIP".to_string()
            )]
        );

        fail_audit(&s).await?;
        let added = customer_types::add(&s, &boss, acme, &draft("GOLD", None), 3).await;
        assert!(failed_in_store(&added), "{added:?}");
        let edited = customer_types::edit(&s, &boss, acme, vip, &draft("TOP", None), 4).await;
        assert!(failed_in_store(&edited), "{edited:?}");
        let deleted = customer_types::delete(&s, &boss, acme, vip, 5).await;
        assert!(failed_in_store(&deleted), "{deleted:?}");
        let codes: Vec<String> = s
            .customer_types(acme)
            .await?
            .into_iter()
            .map(|t| t.code)
            .collect();
        assert_eq!(codes, ["VIP"]);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_customer_change_whose_entry_fails_changes_nothing() -> TestResult {
    each_backend(|s| async move {
        let (acme, boss, ann) = acme(&s).await?;
        let vip = customer_types::add(&s, &boss, acme, &draft("VIP", None), 2).await?;
        let id = s.insert_customer(acme, ann.id, None, "", 3).await?;
        let d = CustomerDraft {
            type_id: Some(vip.0),
            remark: Some("roof"),
        };
        customers::edit(&s, &boss, acme, id, &d, 4).await?;
        let last = audit_entries(&s).await?.pop();
        assert_eq!(
            last,
            Some(("customer.edit".to_string(), "ann@example.com".to_string()))
        );

        fail_audit(&s).await?;
        let none = CustomerDraft::default();
        let edited = customers::edit(&s, &boss, acme, id, &none, 5).await;
        assert!(failed_in_store(&edited), "{edited:?}");
        let removed = customers::remove(&s, &boss, acme, id, 6).await;
        assert!(failed_in_store(&removed), "{removed:?}");
        let row = customers::visible(&s, acme, id).await?;
        assert_eq!((row.type_id, row.remark.as_str()), (Some(vip), "roof"));
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_agency_ended_or_an_owner_disabled_without_its_entry_stays() -> TestResult {
    each_backend(|s| async move {
        let (acme, boss, ann) = acme(&s).await?;
        let scout = s.create_company("Scout", 1).await?;
        let agent = s.create_agent(acme, scout, 2).await?;
        let root = actor(&s, "root@example.com", BuiltinRole::InternalAdmin).await?;

        fail_audit(&s).await?;
        let ended = agency::remove(&s, &boss, agent, 3).await;
        assert!(failed_in_store(&ended), "{ended:?}");
        assert!(s.agent(acme, agent).await?.is_some());
        let disabled = owners::set_disabled(&s, &root, ann.id, true, 4).await;
        assert!(failed_in_store(&disabled), "{disabled:?}");
        assert!(!s.user(ann.id).await?.ok_or("ann")?.disabled);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_agency_ended_and_an_owner_disabled_are_audited() -> TestResult {
    each_backend(|s| async move {
        let (acme, boss, ann) = acme(&s).await?;
        let scout = s.create_company("Scout", 1).await?;
        let agent = s.create_agent(acme, scout, 2).await?;
        let root = actor(&s, "root@example.com", BuiltinRole::InternalAdmin).await?;
        agency::remove(&s, &boss, agent, 3).await?;
        owners::set_disabled(&s, &root, ann.id, true, 4).await?;
        let expected = [
            ("agent.delete".to_string(), format!("agent:{agent}")),
            ("owner.disable".to_string(), "ann@example.com".to_string()),
        ];
        assert_eq!(audit_entries(&s).await?, expected);
        assert!(s.agent(acme, agent).await?.is_none());
        Ok(())
    })
    .await
}
