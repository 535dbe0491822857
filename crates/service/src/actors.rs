//! Who is acting: an account with its role's permissions, as every use case takes it.

use std::collections::HashSet;

use domain::policy::Actor;
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
