//! Rules of the business side: a company's details and branding, who may run a company, which
//! staff may be changed or removed, and who may become a company's agent.

use crate::{
    Code, DomainError,
    account::{check_text, parse_email},
    ids::{CompanyId, UserId},
    policy::{Actor, UserScope},
    user::UserKind,
};

pub const COMPANY_NAME_MAX: usize = 40;
pub const CONTACT_NAME_MAX: usize = 30;
pub const COMPANY_PHONE_MAX: usize = 20;
pub const ADDRESS_MAX: usize = 100;
pub const REMARK_MAX: usize = 200;
/// Company logos and icons: JPG, PNG or GIF of at most 3 MB.
pub const LOGO_MAX_BYTES: usize = 3 * 1024 * 1024;

/// A company name: trimmed, 1-40 characters, no control characters.
pub fn company_name(raw: &str) -> Result<String, DomainError> {
    let name = check_text("name", raw, COMPANY_NAME_MAX)?;
    if name.is_empty() {
        return Err(DomainError::invalid("name"));
    }
    Ok(name)
}

/// Names are compared trimmed and without regard to case.
pub fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// A company's editable details, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompanyDetails {
    pub name: String,
    pub contact_name: String,
    pub email: String,
    pub phone: String,
    pub address: String,
    pub remark: String,
}

/// The raw details as a form sends them.
#[derive(Debug, Clone, Default)]
pub struct DetailsInput<'a> {
    pub name: &'a str,
    pub contact_name: &'a str,
    pub email: &'a str,
    pub phone: &'a str,
    pub address: &'a str,
    pub remark: &'a str,
}

impl CompanyDetails {
    pub fn parse(raw: &DetailsInput<'_>) -> Result<CompanyDetails, DomainError> {
        let email = match raw.email.trim() {
            "" => String::new(),
            e => parse_email(e)?,
        };
        let phone = check_text("phone", raw.phone, COMPANY_PHONE_MAX)?;
        if phone
            .chars()
            .any(|c| !(c.is_ascii_digit() || " +-()".contains(c)))
        {
            return Err(DomainError::invalid("phone"));
        }
        Ok(CompanyDetails {
            name: company_name(raw.name)?,
            contact_name: check_text("contactName", raw.contact_name, CONTACT_NAME_MAX)?,
            email,
            phone,
            address: check_text("address", raw.address, ADDRESS_MAX)?,
            remark: check_text("remark", raw.remark, REMARK_MAX)?,
        })
    }
}

/// A theme colour: `#rgb` or `#rrggbb` (stored in lower case), or empty for the default.
pub fn theme_color(raw: &str) -> Result<String, DomainError> {
    let c = raw.trim();
    if c.is_empty() {
        return Ok(String::new());
    }
    let hex = c
        .strip_prefix('#')
        .filter(|h| (h.len() == 3 || h.len() == 6) && h.chars().all(|d| d.is_ascii_hexdigit()));
    match hex {
        Some(_) => Ok(c.to_ascii_lowercase()),
        None => Err(DomainError::invalid("themeColor")),
    }
}

/// A logo or icon URL: a file this server stored (`/files/logos/...`) or empty to clear.
pub fn logo_url(field: &str, raw: &str) -> Result<String, DomainError> {
    let url = raw.trim();
    if url.is_empty() {
        return Ok(String::new());
    }
    let name = url.strip_prefix("/files/logos/").unwrap_or("");
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        && !name.starts_with('.');
    if ok {
        Ok(url.to_string())
    } else {
        Err(DomainError::invalid(field))
    }
}

/// What becomes of the administrator account named for a new company.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewAdmin {
    /// No such account: it is created in the company.
    Create,
    /// An owner account with no company joins the company as its administrator, keeping its
    /// plants.
    Promote(UserId),
}

/// Decides what the named administrator account becomes: any company or internal account is
/// refused (106); an owner without a company is promoted.
pub fn new_admin(existing: Option<&UserScope>) -> Result<NewAdmin, DomainError> {
    match existing {
        None => Ok(NewAdmin::Create),
        Some(u) if u.kind == UserKind::Owner && u.company.is_none() => Ok(NewAdmin::Promote(u.id)),
        Some(_) => Err(Code::OtherCompany.into()),
    }
}

/// Which company an internal administrator acts on (they may name any), or the caller's own.
/// A caller with no company and no choice has nothing to act on (2).
pub fn acting_company(actor: &Actor, asked: Option<i64>) -> Result<CompanyId, DomainError> {
    let company = match (actor.is_internal(), asked) {
        (true, Some(id)) => Some(CompanyId(id)),
        _ => actor.company,
    };
    company.ok_or_else(|| Code::NoPermission.into())
}

/// Whether `actor` may edit company `id`'s details and branding: internal administrators with
/// `sys.company.edit` any company, a company's staff with `company.edit` their own. `false`
/// answers as a missing company.
pub fn may_edit_company(actor: &Actor, id: CompanyId) -> bool {
    if actor.is_internal() {
        actor.has("sys.company.edit")
    } else {
        actor.company == Some(id) && actor.has("company.edit")
    }
}

/// A staff member the actor may manage: a colleague in the same company (internal
/// administrators: any company account). Anything else answers as missing.
pub fn may_manage_staff(actor: &Actor, target: &UserScope) -> bool {
    target.kind == UserKind::Company
        && target.company.is_some()
        && (actor.is_internal()
            || (actor.company == target.company && actor.has("company.user.edit")))
}

/// A staff member's access as an edit would change it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccessChange {
    pub role_changes: bool,
    pub disabled_changes: bool,
}

/// Nobody changes their own role (802) or disables themselves (4 `disabled`). The company's
/// administrator keeps their role and access unless an internal administrator changes them
/// (4 `roleId` / `disabled`): a colleague who may manage staff cannot lock the company out.
pub fn check_staff_edit(
    actor: &Actor,
    target: &UserScope,
    company_admin: Option<UserId>,
    change: AccessChange,
) -> Result<(), DomainError> {
    let own = target.id == actor.id;
    let protected = own || (company_admin == Some(target.id) && !actor.is_internal());
    if !protected {
        return Ok(());
    }
    if change.role_changes {
        return Err(if own {
            Code::OwnRoleLocked.into()
        } else {
            DomainError::invalid("roleId")
        });
    }
    if change.disabled_changes {
        return Err(DomainError::invalid("disabled"));
    }
    Ok(())
}

/// Nobody deletes themselves or their company's administrator (4 `id`).
pub fn check_staff_delete(
    actor: &Actor,
    target: &UserScope,
    company_admin: Option<UserId>,
) -> Result<(), DomainError> {
    if target.id == actor.id || company_admin == Some(target.id) {
        return Err(DomainError::invalid("id"));
    }
    Ok(())
}

/// The account named to become an agent, as the checks need it.
#[derive(Debug, Clone, Copy)]
pub struct AgentCandidate {
    pub user: UserScope,
    /// The company whose administrator (`companies.admin_id`) the account is.
    pub administers: Option<CompanyId>,
    /// The company the administered company is already an agent of.
    pub agent_of: Option<CompanyId>,
}

/// Whether `candidate` may become an agent of `company`: 900 the caller or a colleague, 902
/// any account that is not another company's administrator, 202 already this company's agent,
/// 903 another company's. Answers the agent company. A missing account, an internal
/// employee, staff and owners all answer 902 alike, so that a company cannot learn from the
/// answer which accounts exist or belong to the platform's staff.
pub fn check_agent(
    actor: &Actor,
    company: CompanyId,
    candidate: Option<&AgentCandidate>,
) -> Result<CompanyId, DomainError> {
    let Some(c) = candidate else {
        return Err(Code::AgentNotAdmin.into());
    };
    if c.user.kind != UserKind::Internal
        && (c.user.id == actor.id || c.user.company == Some(company))
    {
        return Err(Code::AgentSelf.into());
    }
    let agent = match c.administers {
        Some(agent) if c.user.kind == UserKind::Company && agent != company => agent,
        _ => return Err(Code::AgentNotAdmin.into()),
    };
    match c.agent_of {
        Some(principal) if principal == company => Err(Code::AgentExists.into()),
        Some(_) => Err(Code::AgentTaken.into()),
        None => Ok(agent),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn actor(id: i64, kind: UserKind, company: Option<i64>, perms: &[&str]) -> Actor {
        Actor {
            id: UserId(id),
            account: format!("user{id}"),
            kind,
            company: company.map(CompanyId),
            role: None,
            read_only: false,
            permissions: perms.iter().map(|s| s.to_string()).collect::<HashSet<_>>(),
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
    fn company_names_are_one_to_forty_characters() {
        assert_eq!(company_name("  Sun Co ").unwrap(), "Sun Co");
        assert!(company_name("   ").is_err());
        assert!(company_name(&"x".repeat(41)).is_err());
        assert!(company_name(&"太".repeat(40)).is_ok());
        assert!(same_name(" Sun CO", "sun co "));
    }

    #[test]
    fn details_are_checked_field_by_field() {
        let ok = DetailsInput {
            name: "Sun",
            email: "A@B.example",
            phone: "+44 123",
            ..Default::default()
        };
        assert_eq!(CompanyDetails::parse(&ok).unwrap().email, "a@b.example");
        let field = |raw: DetailsInput| CompanyDetails::parse(&raw).unwrap_err().detail;
        let long = "x".repeat(31);
        assert_eq!(
            field(DetailsInput {
                contact_name: &long,
                ..ok.clone()
            }),
            Some("contactName".into())
        );
        assert_eq!(
            field(DetailsInput {
                email: "nope",
                ..ok.clone()
            }),
            Some("email".into())
        );
        assert_eq!(
            field(DetailsInput {
                phone: "call me",
                ..ok.clone()
            }),
            Some("phone".into())
        );
        let remark = "r".repeat(201);
        assert_eq!(
            field(DetailsInput {
                remark: &remark,
                ..ok.clone()
            }),
            Some("remark".into())
        );
    }

    #[test]
    fn theme_colours_are_short_or_long_hex_or_empty() {
        assert_eq!(theme_color("#ABC").unwrap(), "#abc");
        assert_eq!(theme_color("#00cc00").unwrap(), "#00cc00");
        assert_eq!(theme_color("").unwrap(), "");
        for bad in ["red", "#12", "#1234567", "00cc00", "#ggg"] {
            assert!(theme_color(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn logos_must_be_files_this_server_stored() {
        assert!(logo_url("logoUrl", "/files/logos/abc_-1.png").is_ok());
        assert_eq!(logo_url("logoUrl", " ").unwrap(), "");
        for bad in [
            "https://evil.example/x.png",
            "/files/logos/../secret",
            "/files/avatars/a.png",
            "/files/logos/",
        ] {
            assert!(logo_url("logoUrl", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_an_owner_without_a_company_can_be_promoted_to_run_a_new_one() {
        assert_eq!(new_admin(None), Ok(NewAdmin::Create));
        assert_eq!(
            new_admin(Some(&scope(3, UserKind::Owner, None))),
            Ok(NewAdmin::Promote(UserId(3)))
        );
        for other in [
            scope(4, UserKind::Company, Some(1)),
            scope(5, UserKind::Internal, None),
        ] {
            assert_eq!(
                new_admin(Some(&other)).unwrap_err().code,
                Code::OtherCompany
            );
        }
    }

    #[test]
    fn company_admins_edit_their_own_company_and_internal_admins_any() {
        let admin = actor(1, UserKind::Company, Some(10), &["company.edit"]);
        assert!(may_edit_company(&admin, CompanyId(10)));
        assert!(!may_edit_company(&admin, CompanyId(11)));
        let staff = actor(2, UserKind::Company, Some(10), &[]);
        assert!(!may_edit_company(&staff, CompanyId(10)));
        let internal = actor(9, UserKind::Internal, None, &["sys.company.edit"]);
        assert!(may_edit_company(&internal, CompanyId(11)));
    }

    #[test]
    fn nobody_changes_their_own_access_or_deletes_themselves_or_the_company_admin() {
        let admin = actor(1, UserKind::Company, Some(10), &["company.user.edit"]);
        let me = scope(1, UserKind::Company, Some(10));
        let colleague = scope(2, UserKind::Company, Some(10));
        let role = AccessChange {
            role_changes: true,
            disabled_changes: false,
        };
        assert_eq!(
            check_staff_edit(&admin, &me, None, role).unwrap_err().code,
            Code::OwnRoleLocked
        );
        assert!(check_staff_edit(&admin, &colleague, None, role).is_ok());
        // A colleague who may manage staff cannot demote or lock out the company's administrator;
        // an internal administrator can.
        let manager = actor(3, UserKind::Company, Some(10), &["company.user.edit"]);
        let lock = AccessChange {
            role_changes: false,
            disabled_changes: true,
        };
        for change in [role, lock] {
            assert_eq!(
                check_staff_edit(&manager, &me, Some(UserId(1)), change)
                    .unwrap_err()
                    .code,
                Code::InvalidParameter
            );
        }
        let internal = actor(9, UserKind::Internal, None, &["company.user.edit"]);
        assert!(check_staff_edit(&internal, &me, Some(UserId(1)), lock).is_ok());
        let rename_only = AccessChange {
            role_changes: false,
            disabled_changes: false,
        };
        assert!(check_staff_edit(&manager, &me, Some(UserId(1)), rename_only).is_ok());
        assert!(check_staff_delete(&admin, &me, None).is_err());
        assert!(check_staff_delete(&admin, &colleague, Some(UserId(2))).is_err());
        assert!(check_staff_delete(&admin, &colleague, Some(UserId(1))).is_ok());
        assert!(may_manage_staff(&admin, &colleague));
        assert!(!may_manage_staff(
            &admin,
            &scope(3, UserKind::Company, Some(11))
        ));
        assert!(!may_manage_staff(&admin, &scope(4, UserKind::Owner, None)));
    }

    #[test]
    fn agent_checks_follow_the_contract_order() {
        let me = actor(1, UserKind::Company, Some(10), &["company.agent.edit"]);
        let home = CompanyId(10);
        let cand = |user, administers: Option<i64>, agent_of: Option<i64>| AgentCandidate {
            user,
            administers: administers.map(CompanyId),
            agent_of: agent_of.map(CompanyId),
        };
        let code = |c: Option<&AgentCandidate>| check_agent(&me, home, c).map_err(|e| e.code);
        assert_eq!(code(None), Err(Code::AgentNotAdmin));
        let colleague = cand(scope(2, UserKind::Company, Some(10)), Some(10), None);
        assert_eq!(code(Some(&colleague)), Err(Code::AgentSelf));
        let internal = cand(scope(3, UserKind::Internal, None), None, None);
        assert_eq!(code(Some(&internal)), Err(Code::AgentNotAdmin));
        let staff = cand(scope(4, UserKind::Company, Some(11)), None, None);
        assert_eq!(code(Some(&staff)), Err(Code::AgentNotAdmin));
        let owner = cand(scope(5, UserKind::Owner, None), None, None);
        assert_eq!(code(Some(&owner)), Err(Code::AgentNotAdmin));
        let ours = cand(scope(6, UserKind::Company, Some(11)), Some(11), Some(10));
        assert_eq!(code(Some(&ours)), Err(Code::AgentExists));
        let theirs = cand(scope(6, UserKind::Company, Some(11)), Some(11), Some(12));
        assert_eq!(code(Some(&theirs)), Err(Code::AgentTaken));
        let free = cand(scope(6, UserKind::Company, Some(11)), Some(11), None);
        assert_eq!(code(Some(&free)), Ok(CompanyId(11)));
    }
}
