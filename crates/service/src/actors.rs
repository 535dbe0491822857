//! Who is acting: an account with its role's permissions, as every use case takes it.

use std::collections::HashSet;

use domain::{ids::UserId, policy::Actor, user::UserKind};
use store::{Store, users::UserRow};

use crate::Result;

/// The actor `user` is: their kind, company, role and the permissions the role grants now.
pub async fn actor_of(store: &Store, user: &UserRow) -> Result<Actor> {
    let permissions: HashSet<String> = match user.role() {
        Some(role) => store.role_permissions(role).await?.into_iter().collect(),
        None => HashSet::new(),
    };
    Ok(actor(user, permissions))
}

fn actor(user: &UserRow, permissions: HashSet<String>) -> Actor {
    Actor {
        id: user.id(),
        account: user.account.clone(),
        kind: user.kind(),
        company: user.company(),
        role: user.role(),
        read_only: user.read_only,
        permissions,
    }
}

/// Whether `user` is staff of a disabled company: such staff get 101 at sign-in, at refresh
/// and on every request until the company is enabled again.
pub async fn company_locked(store: &Store, user: &UserRow) -> Result<bool> {
    match user.company() {
        Some(company) if is_staff(user) => Ok(store.company_disabled(company).await?),
        _ => Ok(false),
    }
}

fn is_staff(user: &UserRow) -> bool {
    user.kind() == UserKind::Company
}

/// The caller of a signed-in request, read in one statement.
pub struct SessionActor {
    pub user: UserRow,
    pub actor: Actor,
    /// Staff of a disabled company (see [`company_locked`]).
    pub company_locked: bool,
}

/// The caller behind `session` when it is `user_id`'s and still live.
pub async fn session_actor(
    store: &Store,
    session: &str,
    user_id: UserId,
) -> Result<Option<SessionActor>> {
    let Some(caller) = store.session_caller(session, user_id).await? else {
        return Ok(None);
    };
    let company_locked = is_staff(&caller.user) && caller.company_disabled;
    let actor = actor(&caller.user, caller.permissions.into_iter().collect());
    Ok(Some(SessionActor {
        user: caller.user,
        actor,
        company_locked,
    }))
}
