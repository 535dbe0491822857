//! What the use-case tests share: actors with built-in roles, a plant draft with a two-segment
//! tariff, and the row counts a failed use case must leave as they were.

use domain::{
    ids::{CompanyId, PlantId},
    plant::{TariffSegment, Valuation},
    policy::Actor,
    user::BuiltinRole,
};
use service::plants::PlantDraft;
use store::{
    Store,
    plants::PlantFilter,
    testing::{new_user, plant_fields},
    users::NewUser,
};

pub type Error = Box<dyn std::error::Error>;

/// A new account with a built-in role, as the actor it is.
pub async fn actor(s: &Store, account: &str, role: BuiltinRole) -> Result<Actor, Error> {
    s.sync_builtin_roles(1).await?;
    let role_id = s.builtin_role(role).await?;
    s.create_user(&NewUser {
        role: Some(role_id),
        ..new_user(account, role.user_kind())
    })
    .await?;
    let user = s.user_by_account(account).await?.ok_or("user")?;
    Ok(service::actors::actor_of(s, &user).await?)
}

/// A new member of `company`'s staff (role `CompanyStaff`), as the actor they are.
pub async fn staff(s: &Store, account: &str, company: CompanyId) -> Result<Actor, Error> {
    s.sync_builtin_roles(1).await?;
    let role = BuiltinRole::CompanyStaff;
    let role_id = s.builtin_role(role).await?;
    s.create_user(&NewUser {
        role: Some(role_id),
        company: Some(company),
        ..new_user(account, role.user_kind())
    })
    .await?;
    let user = s.user_by_account(account).await?.ok_or("user")?;
    Ok(service::actors::actor_of(s, &user).await?)
}

/// A plant in Madrid named `name`, priced by time of use (two segments, so two tariff rows).
pub fn draft(name: &str) -> PlantDraft {
    let segment = |start: &str, end: &str, price| TariffSegment {
        kind: Valuation::TimeOfUse,
        start: start.into(),
        end: end.into(),
        price,
        direction: None,
    };
    PlantDraft {
        fields: plant_fields(name),
        tariff: vec![
            segment("00:00", "08:00", 0.1),
            segment("08:00", "24:00", 0.3),
        ],
        owner: None,
    }
}

/// How many plants `actor` can see.
pub async fn plant_count(s: &Store, actor: &Actor) -> Result<i64, Error> {
    let filter = PlantFilter {
        limit: 10,
        ..PlantFilter::default()
    };
    Ok(s.plants(actor.plant_visibility(), actor.id, &filter)
        .await?
        .1)
}

/// A plant of `owner` with its tariff, made by the use case.
pub async fn plant(s: &Store, owner: &Actor, name: &str) -> Result<PlantId, Error> {
    Ok(service::plants::create(s, owner, &draft(name), 10).await?)
}

/// Whether a use case failed in the database (the injected failure), not by a rule.
pub fn failed_in_store<T: std::fmt::Debug>(r: &service::Result<T>) -> bool {
    matches!(r, Err(service::ServiceError::Store(_)))
}

/// Every audit entry, oldest first, as (action, target).
pub async fn audit_entries(s: &Store) -> Result<Vec<(String, String)>, Error> {
    let filter = store::audit::AuditFilter {
        limit: 1000,
        ..Default::default()
    };
    let (rows, _) = s
        .audit_visible(
            domain::policy::PlantVisibility::All,
            domain::ids::UserId(0),
            &filter,
        )
        .await?;
    Ok(rows
        .into_iter()
        .rev()
        .map(|r| (r.action, r.target))
        .collect())
}

/// Makes every later audit entry fail to be written: the last statement of a use case that
/// changes something, so a use case that succeeds despite it wrote its change outside its
/// entry's transaction.
pub async fn fail_audit(s: &Store) -> Result<(), Error> {
    s.fail_writes_for_tests("audit_log", store::testing::Write::Insert)
        .await?;
    Ok(())
}

/// The actions of every audit entry, oldest first.
pub async fn audit_actions(s: &Store) -> Result<Vec<String>, Error> {
    Ok(audit_entries(s)
        .await?
        .into_iter()
        .map(|(action, _)| action)
        .collect())
}
