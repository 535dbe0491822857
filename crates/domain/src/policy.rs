//! The one place that decides who may see or change what. Handlers ask; they never decide.
//! Anything an actor may not see is reported exactly like something that does not exist.

use std::collections::HashSet;

use crate::{
    Code, DomainError,
    ids::{CompanyId, RoleId, UserId},
    user::UserKind,
};

/// The signed-in caller, as loaded for each request.
#[derive(Debug, Clone)]
pub struct Actor {
    pub id: UserId,
    pub kind: UserKind,
    pub company: Option<CompanyId>,
    pub role: Option<RoleId>,
    pub read_only: bool,
    pub permissions: HashSet<String>,
}

/// The facts about a user account that access decisions need.
#[derive(Debug, Clone, Copy)]
pub struct UserScope {
    pub id: UserId,
    pub kind: UserKind,
    pub company: Option<CompanyId>,
}

impl Actor {
    pub fn is_internal(&self) -> bool {
        self.kind == UserKind::Internal
    }

    pub fn has(&self, permission: &str) -> bool {
        self.permissions.contains(permission)
    }

    /// Refuses an action the caller's role does not grant (code 2).
    pub fn require(&self, permission: &str) -> Result<(), DomainError> {
        if self.has(permission) {
            Ok(())
        } else {
            Err(Code::NoPermission.into())
        }
    }

    /// Read-only accounts may look but change nothing, not even their own profile.
    pub fn require_writable(&self) -> Result<(), DomainError> {
        if self.read_only {
            Err(Code::NoPermission.into())
        } else {
            Ok(())
        }
    }

    /// Whether the caller may see another account at all. Internal staff see everyone; company
    /// staff see their colleagues; everyone sees themselves.
    pub fn can_see_user(&self, target: &UserScope) -> bool {
        target.id == self.id
            || self.is_internal()
            || (self.kind == UserKind::Company
                && target.kind == UserKind::Company
                && self.company.is_some()
                && target.company == self.company)
    }

    /// Whether the caller may change another account's profile or access: themselves, an
    /// internal administrator, or a company administrator for their own staff.
    pub fn can_manage_user(&self, target: &UserScope) -> bool {
        target.id == self.id
            || (self.can_see_user(target) && (self.is_internal() || self.has("company.user.edit")))
    }

    /// Whether the caller may see a company's details, staff and roles.
    pub fn can_see_company(&self, company: CompanyId) -> bool {
        self.is_internal() || self.company == Some(company)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn actor(id: i64, kind: UserKind, company: Option<i64>, perms: &[&str]) -> Actor {
        Actor {
            id: UserId(id),
            kind,
            company: company.map(CompanyId),
            role: None,
            read_only: false,
            permissions: perms.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn scope(id: i64, kind: UserKind, company: Option<i64>) -> UserScope {
        UserScope {
            id: UserId(id),
            kind,
            company: company.map(CompanyId),
        }
    }

    #[test]
    fn staff_see_colleagues_but_not_other_companies() {
        let staff = actor(1, UserKind::Company, Some(10), &[]);
        assert!(staff.can_see_user(&scope(2, UserKind::Company, Some(10))));
        assert!(!staff.can_see_user(&scope(3, UserKind::Company, Some(11))));
        assert!(!staff.can_see_user(&scope(4, UserKind::Owner, None)));
    }

    #[test]
    fn only_company_admins_manage_colleagues() {
        let staff = actor(1, UserKind::Company, Some(10), &[]);
        let admin = actor(5, UserKind::Company, Some(10), &["company.user.edit"]);
        let colleague = scope(2, UserKind::Company, Some(10));
        assert!(!staff.can_manage_user(&colleague));
        assert!(admin.can_manage_user(&colleague));
        assert!(!admin.can_manage_user(&scope(3, UserKind::Company, Some(11))));
    }

    #[test]
    fn owners_only_see_themselves_and_internal_admins_see_all() {
        let owner = actor(1, UserKind::Owner, None, &[]);
        assert!(owner.can_see_user(&scope(1, UserKind::Owner, None)));
        assert!(owner.can_manage_user(&scope(1, UserKind::Owner, None)));
        assert!(!owner.can_see_user(&scope(2, UserKind::Owner, None)));
        let admin = actor(9, UserKind::Internal, None, &[]);
        assert!(admin.can_manage_user(&scope(2, UserKind::Owner, None)));
        assert!(admin.can_see_company(CompanyId(3)));
        assert!(!owner.can_see_company(CompanyId(3)));
    }
}
