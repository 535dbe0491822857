//! Who a user is: the kind of account, built-in roles, and profile enums.

use serde::{Deserialize, Serialize};

use crate::{Code, DomainError, ids::RoleId, permissions::CATALOGUE, policy::Actor};

/// The three kinds of account of the tenancy model (docs/overview.md, "Who uses it").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UserKind {
    /// Platform staff: sees every tenant.
    Internal,
    /// Staff of an installer, distributor or agent company.
    Company,
    /// A plant owner (end customer), possibly a customer of a company.
    Owner,
}

impl UserKind {
    pub fn as_str(self) -> &'static str {
        match self {
            UserKind::Internal => "internal",
            UserKind::Company => "company",
            UserKind::Owner => "owner",
        }
    }

    pub fn parse(s: &str) -> Option<UserKind> {
        match s {
            "internal" => Some(UserKind::Internal),
            "company" => Some(UserKind::Company),
            "owner" => Some(UserKind::Owner),
            _ => None,
        }
    }
}

/// Roles every installation has. Companies add up to [`MAX_CUSTOM_ROLES`] of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuiltinRole {
    InternalAdmin,
    CompanyAdmin,
    CompanyStaff,
    PlantOwner,
}

pub const MAX_CUSTOM_ROLES: usize = 5;
/// The server's limit on role names (docs/overview.md, "Limits").
pub const ROLE_NAME_MAX: usize = 5;

impl BuiltinRole {
    pub const ALL: [BuiltinRole; 4] = [
        BuiltinRole::InternalAdmin,
        BuiltinRole::CompanyAdmin,
        BuiltinRole::CompanyStaff,
        BuiltinRole::PlantOwner,
    ];

    pub fn slug(self) -> &'static str {
        match self {
            BuiltinRole::InternalAdmin => "internal-admin",
            BuiltinRole::CompanyAdmin => "company-admin",
            BuiltinRole::CompanyStaff => "company-staff",
            BuiltinRole::PlantOwner => "owner",
        }
    }

    pub fn parse(slug: &str) -> Option<BuiltinRole> {
        BuiltinRole::ALL.into_iter().find(|r| r.slug() == slug)
    }

    /// The role's name as people read it.
    pub fn display_name(self, lang: crate::Lang) -> &'static str {
        use crate::Lang::{En, Es, Zh};
        match (self, lang) {
            (BuiltinRole::CompanyAdmin, En) => "Administrator",
            (BuiltinRole::CompanyAdmin, Zh) => "管理员",
            (BuiltinRole::CompanyAdmin, Es) => "Administrador",
            (BuiltinRole::CompanyStaff, En) => "Staff",
            (BuiltinRole::CompanyStaff, Zh) => "员工",
            (BuiltinRole::CompanyStaff, Es) => "Personal",
            (BuiltinRole::InternalAdmin, En) => "Internal administrator",
            (BuiltinRole::InternalAdmin, Zh) => "内部管理员",
            (BuiltinRole::InternalAdmin, Es) => "Administrador interno",
            (BuiltinRole::PlantOwner, En) => "Owner",
            (BuiltinRole::PlantOwner, Zh) => "业主",
            (BuiltinRole::PlantOwner, Es) => "Propietario",
        }
    }

    pub fn user_kind(self) -> UserKind {
        match self {
            BuiltinRole::InternalAdmin => UserKind::Internal,
            BuiltinRole::CompanyAdmin | BuiltinRole::CompanyStaff => UserKind::Company,
            BuiltinRole::PlantOwner => UserKind::Owner,
        }
    }

    /// The permission keys of the role; docs/permissions.md shows the same table and a test
    /// keeps the two in step.
    pub fn permissions(self) -> Vec<&'static str> {
        let all = CATALOGUE.iter().map(|p| p.key);
        match self {
            BuiltinRole::InternalAdmin => all.collect(),
            BuiltinRole::CompanyAdmin => all
                .filter(|k| {
                    !k.starts_with("firmware.")
                        && !k.starts_with("sys")
                        && *k != "system.management"
                })
                .collect(),
            BuiltinRole::CompanyStaff => vec![
                "station.view",
                "station.create",
                "station.edit",
                "equip.view",
                "gateway.view",
                "gateway.add",
                "gateway.export",
                "inverter.view",
                "inverter.setting",
                "inverter.alias",
                "battery.list.view",
                "manual.view",
                "event.view",
                "event.export",
                "workdata.view",
                "workdata.export",
                "user.producer",
                "customer.list.view",
                "logger.management",
                "logger.communication",
                "application.center",
                "energyhub.view",
                "energyhub.enroll",
                "energyhub.event.cancel",
            ],
            BuiltinRole::PlantOwner => vec![
                "station.view",
                "station.create",
                "station.edit",
                "station.delete",
                "station.share",
                "station.share.cancle",
                "station.transfer",
                "equip.view",
                "gateway.view",
                "gateway.add",
                "gateway.unbind",
                "gateway.key",
                "inverter.view",
                "inverter.setting",
                "inverter.power",
                "inverter.alias",
                "battery.list.view",
                "manual.view",
                "event.view",
                "event.export",
                "workdata.view",
                "workdata.export",
                "application.center",
                "energyhub.view",
                "energyhub.enroll",
                "energyhub.event.cancel",
            ],
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum TempUnit {
    #[default]
    C,
    F,
}

impl TempUnit {
    pub fn parse(s: &str) -> Result<TempUnit, DomainError> {
        match s.trim() {
            "C" | "c" | "℃" => Ok(TempUnit::C),
            "F" | "f" | "℉" => Ok(TempUnit::F),
            _ => Err(DomainError::invalid("tempUnit")),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TempUnit::C => "C",
            TempUnit::F => "F",
        }
    }
}

/// Wire values: 0 not said, 1 male, 2 female.
pub fn check_gender(g: i64) -> Result<i64, DomainError> {
    if (0..=2).contains(&g) {
        Ok(g)
    } else {
        Err(DomainError::invalid("gender"))
    }
}

/// A custom role's name: 1 to [`ROLE_NAME_MAX`] characters, no control characters, trimmed
/// (4 `name`).
pub fn role_name(raw: Option<&str>) -> Result<String, DomainError> {
    let name = raw.unwrap_or("").trim();
    if name.is_empty() || name.chars().count() > ROLE_NAME_MAX || name.chars().any(char::is_control)
    {
        return Err(DomainError::invalid("name"));
    }
    Ok(name.to_string())
}

/// The permission keys `actor` may put in a role: keys of the catalogue (4 `permissions`)
/// that the actor holds (2), since nobody grants more than they have.
pub fn grantable_keys<'a>(actor: &Actor, keys: &'a [String]) -> Result<Vec<&'a str>, DomainError> {
    keys.iter()
        .map(|k| {
            if crate::permissions::find(k).is_none() {
                Err(DomainError::invalid("permissions"))
            } else if !actor.has(k) {
                Err(Code::NoPermission.into())
            } else {
                Ok(k.as_str())
            }
        })
        .collect()
}

/// The role `actor` gives a staff member: one of the company's `assignable` roles (4 `roleId`
/// otherwise).
pub fn assignable_role(assignable: &[RoleId], raw: Option<i64>) -> Result<RoleId, DomainError> {
    match raw.map(RoleId) {
        Some(id) if assignable.contains(&id) => Ok(id),
        _ => Err(DomainError::invalid("roleId")),
    }
}

/// Whether `actor` may give a role granting `keys`: only when they hold every one (2).
pub fn may_grant(actor: &Actor, keys: &[String]) -> Result<(), DomainError> {
    if keys.iter().any(|k| !actor.has(k)) {
        Err(Code::NoPermission.into())
    } else {
        Ok(())
    }
}

/// The offline delay of alarm e-mails, in minutes: at least five (a gateway restarting is not
/// an alarm), at most a day.
pub const OFFLINE_MINUTES_MIN: i64 = 5;
pub const OFFLINE_MINUTES_MAX: i64 = 1440;

/// An offline delay as typed (4 `offlineMinutes` unless a whole number of minutes in range).
pub fn parse_offline_minutes(raw: &str) -> Result<i64, DomainError> {
    raw.trim()
        .parse::<i64>()
        .ok()
        .filter(|m| (OFFLINE_MINUTES_MIN..=OFFLINE_MINUTES_MAX).contains(m))
        .ok_or_else(|| DomainError::invalid("offlineMinutes"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permissions::find;

    #[test]
    fn role_names_and_grants_follow_the_rules() {
        assert_eq!(role_name(Some(" Ops ")).ok().as_deref(), Some("Ops"));
        for bad in [None, Some(" "), Some("Sixchr"), Some("a\tb")] {
            assert!(role_name(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            assignable_role(&[RoleId(3), RoleId(4)], Some(4)).ok(),
            Some(RoleId(4))
        );
        assert!(assignable_role(&[RoleId(3), RoleId(4)], Some(5)).is_err());
        assert!(assignable_role(&[RoleId(3), RoleId(4)], None).is_err());
    }

    #[test]
    fn builtin_roles_only_grant_catalogue_keys() {
        for role in BuiltinRole::ALL {
            for key in role.permissions() {
                assert!(find(key).is_some(), "{role:?} grants unknown {key}");
            }
        }
    }

    #[test]
    fn only_internal_admins_manage_firmware_and_the_system() {
        for role in [
            BuiltinRole::CompanyAdmin,
            BuiltinRole::CompanyStaff,
            BuiltinRole::PlantOwner,
        ] {
            let keys = role.permissions();
            assert!(!keys.contains(&"firmware.management"), "{role:?}");
            assert!(!keys.contains(&"system.management"), "{role:?}");
        }
    }

    #[test]
    fn every_granted_child_has_its_parent_granted() {
        for role in BuiltinRole::ALL {
            let keys = role.permissions();
            for key in &keys {
                if let Some(parent) = find(key).and_then(|p| p.parent) {
                    assert!(keys.contains(&parent), "{role:?}: {key} without {parent}");
                }
            }
        }
    }

    #[test]
    fn an_offline_delay_is_five_minutes_to_a_day() {
        assert_eq!(parse_offline_minutes(" 5 "), Ok(5));
        assert_eq!(parse_offline_minutes("1440"), Ok(1440));
        assert!(parse_offline_minutes("4").is_err());
        assert!(parse_offline_minutes("1441").is_err());
        assert!(parse_offline_minutes("ten").is_err());
    }
}
