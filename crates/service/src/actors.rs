//! Who is acting: an account with its role's permissions, as every use case takes it.

use std::collections::HashSet;

use domain::{policy::Actor, user::UserKind};
use store::{Store, users::UserRow};

use crate::Result;

/// The actor `user` is: their kind, company, role and the permissions the role grants now.
pub async fn actor_of(store: &Store, user: &UserRow) -> Result<Actor> {
    let permissions: HashSet<String> = match user.role() {
        Some(role) => store.role_permissions(role).await?.into_iter().collect(),
        None => HashSet::new(),
    };
    Ok(Actor {
        id: user.id(),
        account: user.account.clone(),
        kind: user.kind(),
        company: user.company(),
        role: user.role(),
        read_only: user.read_only,
        permissions,
    })
}

/// Whether `user` is staff of a disabled company: such staff get 101 at sign-in, at refresh
/// and on every request until the company is enabled again.
pub async fn company_locked(store: &Store, user: &UserRow) -> Result<bool> {
    match user.company() {
        Some(company) if user.kind() == UserKind::Company => {
            Ok(store.company_disabled(company).await?)
        }
        _ => Ok(false),
    }
}
