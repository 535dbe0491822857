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
    /// The sign-in name, as audit entries name their author.
    pub account: String,
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

/// How a plant is shared with a user (docs/overview.md, "Who uses it").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShareRole {
    /// Read-only guest.
    Visitor,
    /// May act on the plant's devices.
    Maintainer,
}

impl ShareRole {
    pub fn as_str(self) -> &'static str {
        match self {
            ShareRole::Visitor => "visitor",
            ShareRole::Maintainer => "maintainer",
        }
    }

    /// Clients say `visitor`/`guest`/`1` or `maintainer`/`manager`/`2`.
    pub fn parse(raw: &str) -> Option<ShareRole> {
        match raw.trim() {
            "visitor" | "guest" | "1" => Some(ShareRole::Visitor),
            "maintainer" | "manager" | "2" => Some(ShareRole::Maintainer),
            _ => None,
        }
    }
}

/// The facts about a plant that access decisions need.
#[derive(Debug, Clone, Copy)]
pub struct PlantScope {
    pub owner: UserId,
    pub company: Option<CompanyId>,
    /// How the plant is shared with the caller, if it is.
    pub shared_as: Option<ShareRole>,
    /// The caller's company when it serves the plant without owning it: the plant's owner is
    /// one of its customers, or the plant belongs to one of its agent companies.
    pub linked_company: Option<CompanyId>,
}

/// Why the caller may see a plant; decides what they may do with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlantAccess {
    Internal,
    Owner,
    Company,
    Maintainer,
    Visitor,
}

/// Which plants a listing may return, for the store to turn into a filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlantVisibility {
    All,
    /// Plants the user owns or that are shared with them, plus (for company staff) the
    /// company's plants, the plants its customers own and its agent companies' plants.
    Of {
        user: UserId,
        company: Option<CompanyId>,
    },
}

/// Device actions a maintainer may take on a shared plant.
const MAINTAINER_ACTIONS: [&str; 5] = [
    "inverter.setting",
    "inverter.upgrade",
    "inverter.power",
    "inverter.debug",
    "gateway.restart",
];

impl Actor {
    pub fn plant_visibility(&self) -> PlantVisibility {
        if self.is_internal() {
            return PlantVisibility::All;
        }
        let company = if self.kind == UserKind::Company {
            self.company
        } else {
            None
        };
        PlantVisibility::Of {
            user: self.id,
            company,
        }
    }

    /// Whether and why the caller may see this plant. `None` answers as "plant does not exist".
    pub fn plant_access(&self, plant: &PlantScope) -> Option<PlantAccess> {
        if plant.owner == self.id {
            Some(PlantAccess::Owner)
        } else if self.is_internal() {
            Some(PlantAccess::Internal)
        } else if self.kind == UserKind::Company
            && self.company.is_some()
            && (plant.company == self.company || plant.linked_company == self.company)
        {
            Some(PlantAccess::Company)
        } else {
            match plant.shared_as {
                Some(ShareRole::Maintainer) => Some(PlantAccess::Maintainer),
                Some(ShareRole::Visitor) => Some(PlantAccess::Visitor),
                None => None,
            }
        }
    }

    /// The keys this caller may use on this plant (`plantPermission` on the wire): their
    /// role's plant and device keys when they own or manage the plant, a narrower set when it
    /// is shared with them. Read-only accounts get none.
    pub fn plant_permissions(&self, access: PlantAccess) -> Vec<String> {
        if self.read_only {
            return Vec::new();
        }
        let mut keys: Vec<String> = match access {
            PlantAccess::Internal | PlantAccess::Owner | PlantAccess::Company => {
                let mut keys: Vec<String> = self
                    .permissions
                    .iter()
                    .filter(|k| {
                        k.starts_with("station.")
                            || k.starts_with("inverter.")
                            || k.starts_with("gateway.")
                    })
                    .filter(|k| !k.ends_with(".view") && k.as_str() != "station.create")
                    .cloned()
                    .collect();
                // Sharing and transfer belong to the plant's creator alone.
                if access != PlantAccess::Owner {
                    keys.retain(|k| !matches!(k.as_str(), "station.share" | "station.transfer"));
                }
                keys
            }
            PlantAccess::Maintainer => std::iter::once("station.share.cancle")
                .chain(MAINTAINER_ACTIONS)
                .map(String::from)
                .collect(),
            PlantAccess::Visitor => vec!["station.share.cancle".to_string()],
        };
        keys.sort();
        keys
    }

    /// Requires a key on a plant the caller can see; a plant they cannot see answers 700.
    pub fn require_on_plant(
        &self,
        plant: &PlantScope,
        key: &str,
    ) -> Result<PlantAccess, DomainError> {
        let access = self.plant_access(plant).ok_or(Code::PlantMissing)?;
        if self.plant_permissions(access).iter().any(|k| k == key) {
            Ok(access)
        } else {
            Err(Code::NoPermission.into())
        }
    }
}

/// What the staff of a company may do on the plants it serves (its customers' plants, or its
/// agent companies' plants) when their roles together hold `staff_permissions`: seeing the
/// plants, then exactly the keys [`Actor::plant_permissions`] grants a company's staff there.
/// The consent screens show this, so that what an owner is asked to allow is what the policy
/// will allow.
pub fn served_plant_rights<I>(staff_permissions: I) -> Vec<String>
where
    I: IntoIterator<Item = String>,
{
    let staff = Actor {
        id: UserId(0),
        account: String::new(),
        kind: UserKind::Company,
        company: Some(CompanyId(0)),
        role: None,
        read_only: false,
        permissions: staff_permissions.into_iter().collect(),
    };
    let mut rights = vec!["station.view".to_string()];
    rights.extend(staff.plant_permissions(PlantAccess::Company));
    rights
}

/// Where a plant the caller creates for another account goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewPlantOwner {
    /// The account owns it at once.
    Account,
    /// The caller owns it and the account is asked to accept it: nobody gets a company's plant
    /// in their account without consent.
    Offered,
}

impl Actor {
    /// Whether and how the caller may create a plant for `target`, another owner account.
    /// Owners create only for themselves (2); plants are made for owner accounts only (4
    /// `owner`). Internal staff act for owners directly; company staff directly only for their
    /// company's customers, and anyone else is offered the plant.
    pub fn new_plant_owner(
        &self,
        target: &UserScope,
        is_customer: bool,
    ) -> Result<NewPlantOwner, DomainError> {
        if target.id == self.id {
            return Ok(NewPlantOwner::Account);
        }
        if self.kind == UserKind::Owner {
            return Err(Code::NoPermission.into());
        }
        if target.kind != UserKind::Owner {
            return Err(DomainError::invalid("owner"));
        }
        if self.is_internal() || is_customer {
            Ok(NewPlantOwner::Account)
        } else {
            Ok(NewPlantOwner::Offered)
        }
    }
}

/// The facts about a registered gateway that access decisions need: the plant it is on (as the
/// caller sees that plant) and who holds it.
#[derive(Debug, Clone, Copy)]
pub struct GatewayScope {
    pub plant: Option<PlantScope>,
    pub owner: Option<UserId>,
    pub company: Option<CompanyId>,
    /// The holding company is an agent of the caller's company: its stock is the principal's
    /// to see (never to take, nor to read the key of).
    pub held_by_agent: bool,
}

impl GatewayScope {
    /// In the registry and given to nobody yet.
    pub fn is_free(&self) -> bool {
        self.plant.is_none() && self.owner.is_none() && self.company.is_none()
    }
}

impl Actor {
    /// Creating and deleting registry entries belongs to internal administrators.
    pub fn require_gateway_registry(&self) -> Result<(), DomainError> {
        if self.is_internal() {
            self.require("sys.gateway.edit")
        } else {
            Err(Code::NoPermission.into())
        }
    }

    /// Whether the caller may see a gateway: internal staff see the whole registry; anyone else
    /// sees the gateways on plants they can see and the stock they (or their company) hold.
    /// `false` answers as "gateway does not exist".
    pub fn can_see_gateway(&self, gateway: &GatewayScope) -> bool {
        if self.is_internal() {
            return true;
        }
        match &gateway.plant {
            Some(plant) => self.plant_access(plant).is_some(),
            None => {
                self.holds(gateway) || (self.kind == UserKind::Company && gateway.held_by_agent)
            }
        }
    }

    /// Whether the caller may take this gateway (claim it or put it on a plant): it is on no
    /// plant, and either free or already held by them or their company.
    pub fn can_take_gateway(&self, gateway: &GatewayScope) -> bool {
        gateway.plant.is_none() && (gateway.is_free() || self.holds(gateway))
    }

    /// Whether the caller may read and rotate a gateway's registration key, its MQTT password:
    /// whoever may edit the gateway. On a plant the plant's permissions decide (owners, company
    /// administrators and internal staff hold `gateway.key`; maintainers and visitors never do,
    /// nor does anyone who merely sees the plant); a gateway on no plant, its holder with the key
    /// or internal staff with registry rights. Read-only accounts never see it.
    pub fn may_edit_gateway_key(&self, gateway: &GatewayScope) -> bool {
        if self.read_only {
            return false;
        }
        match &gateway.plant {
            Some(plant) => self
                .plant_access(plant)
                .is_some_and(|a| self.plant_permissions(a).iter().any(|k| k == "gateway.key")),
            None => {
                (self.holds(gateway) && self.has("gateway.key"))
                    || (self.is_internal() && self.has("sys.gateway.edit"))
            }
        }
    }

    fn holds(&self, gateway: &GatewayScope) -> bool {
        gateway.owner == Some(self.id)
            || (self.kind == UserKind::Company
                && self.company.is_some()
                && gateway.company == self.company)
    }

    /// Requires any one of `keys` on a plant the caller can see; a plant they cannot see
    /// answers 700.
    pub fn require_any_on_plant(
        &self,
        plant: &PlantScope,
        keys: &[&str],
    ) -> Result<PlantAccess, DomainError> {
        let access = self.plant_access(plant).ok_or(Code::PlantMissing)?;
        let granted = self.plant_permissions(access);
        if keys.iter().any(|key| granted.iter().any(|k| k == key)) {
            Ok(access)
        } else {
            Err(Code::NoPermission.into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn actor(id: i64, kind: UserKind, company: Option<i64>, perms: &[&str]) -> Actor {
        Actor {
            id: UserId(id),
            account: format!("user{id}"),
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
    fn served_plant_rights_follow_the_company_access_and_never_include_sharing() {
        let keys = [
            "station.view",
            "station.edit",
            "station.share",
            "station.transfer",
            "gateway.key",
            "inverter.power",
            "company.user",
            "station.create",
        ];
        let rights = served_plant_rights(keys.iter().map(|k| k.to_string()));
        assert_eq!(
            rights,
            [
                "station.view",
                "gateway.key",
                "inverter.power",
                "station.edit"
            ]
        );
        assert_eq!(served_plant_rights(Vec::new()), ["station.view"]);
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

    fn plant(owner: i64, company: Option<i64>, shared_as: Option<ShareRole>) -> PlantScope {
        PlantScope {
            owner: UserId(owner),
            company: company.map(CompanyId),
            shared_as,
            linked_company: None,
        }
    }

    #[test]
    fn company_staff_see_their_customers_and_agents_plants_as_their_own() {
        let staff = actor(3, UserKind::Company, Some(10), &["station.edit"]);
        let owner_of_another = actor(4, UserKind::Owner, Some(10), &["station.edit"]);
        let linked = |company: Option<i64>| PlantScope {
            linked_company: company.map(CompanyId),
            ..plant(1, Some(11), None)
        };
        assert_eq!(
            staff.plant_access(&linked(Some(10))),
            Some(PlantAccess::Company)
        );
        assert!(
            staff
                .require_on_plant(&linked(Some(10)), "station.edit")
                .is_ok()
        );
        assert_eq!(
            staff.plant_access(&linked(Some(12))),
            None,
            "another company's link"
        );
        assert_eq!(staff.plant_access(&linked(None)), None);
        assert_eq!(
            owner_of_another.plant_access(&linked(Some(10))),
            None,
            "staff only"
        );
    }

    #[test]
    fn plants_are_seen_by_owner_company_sharees_and_internal_staff_only() {
        let owner = actor(
            1,
            UserKind::Owner,
            None,
            &["station.view", "station.share", "station.edit"],
        );
        let stranger = actor(2, UserKind::Owner, None, &["station.view"]);
        let staff = actor(
            3,
            UserKind::Company,
            Some(10),
            &["station.edit", "station.share"],
        );
        let p = plant(1, Some(10), None);
        assert_eq!(owner.plant_access(&p), Some(PlantAccess::Owner));
        assert_eq!(stranger.plant_access(&p), None);
        assert_eq!(staff.plant_access(&p), Some(PlantAccess::Company));
        assert_eq!(staff.plant_access(&plant(1, Some(11), None)), None);
        assert_eq!(
            stranger.plant_access(&plant(1, None, Some(ShareRole::Visitor))),
            Some(PlantAccess::Visitor)
        );
    }

    #[test]
    fn only_the_creator_may_share_and_visitors_may_only_leave() {
        let staff = actor(
            3,
            UserKind::Company,
            Some(10),
            &["station.edit", "station.share"],
        );
        let p = plant(1, Some(10), None);
        assert_eq!(
            staff
                .require_on_plant(&p, "station.share")
                .unwrap_err()
                .code,
            Code::NoPermission
        );
        assert!(staff.require_on_plant(&p, "station.edit").is_ok());
        let visitor = actor(
            2,
            UserKind::Owner,
            None,
            &["station.edit", "inverter.setting"],
        );
        let shared = plant(1, None, Some(ShareRole::Visitor));
        assert_eq!(
            visitor.plant_permissions(PlantAccess::Visitor),
            vec!["station.share.cancle"]
        );
        assert_eq!(
            visitor
                .require_on_plant(&shared, "station.edit")
                .unwrap_err()
                .code,
            Code::NoPermission
        );
        let maintained = plant(1, None, Some(ShareRole::Maintainer));
        assert!(
            visitor
                .require_on_plant(&maintained, "inverter.setting")
                .is_ok()
        );
        assert_eq!(
            visitor
                .require_on_plant(&plant(1, None, None), "station.edit")
                .unwrap_err()
                .code,
            Code::PlantMissing
        );
    }
    #[test]
    fn gateways_are_seen_through_their_plant_or_their_holder() {
        let owner = actor(1, UserKind::Owner, None, &["gateway.add"]);
        let staff = actor(3, UserKind::Company, Some(10), &["gateway.add"]);
        let stranger = actor(2, UserKind::Owner, None, &["gateway.add"]);
        let admin = actor(9, UserKind::Internal, None, &["sys.gateway.edit"]);
        let free = GatewayScope {
            plant: None,
            owner: None,
            company: None,
            held_by_agent: false,
        };
        assert!(free.is_free());
        assert!(!owner.can_see_gateway(&free) && admin.can_see_gateway(&free));
        assert!(owner.can_take_gateway(&free) && stranger.can_take_gateway(&free));

        let on_plant = GatewayScope {
            plant: Some(plant(1, Some(10), None)),
            owner: Some(UserId(1)),
            company: Some(CompanyId(10)),
            held_by_agent: false,
        };
        assert!(owner.can_see_gateway(&on_plant) && staff.can_see_gateway(&on_plant));
        assert!(!stranger.can_see_gateway(&on_plant));
        assert!(!owner.can_take_gateway(&on_plant), "already on a plant");

        let stock = GatewayScope {
            plant: None,
            owner: Some(UserId(4)),
            company: Some(CompanyId(10)),
            held_by_agent: false,
        };
        assert!(staff.can_see_gateway(&stock) && staff.can_take_gateway(&stock));
        assert!(!stranger.can_see_gateway(&stock) && !stranger.can_take_gateway(&stock));

        // An agent's stock: the principal's staff see it, but neither take it nor read its key.
        let principal = actor(
            5,
            UserKind::Company,
            Some(20),
            &["gateway.add", "gateway.key"],
        );
        let agents_stock = GatewayScope {
            company: Some(CompanyId(10)),
            held_by_agent: true,
            ..stock
        };
        assert!(principal.can_see_gateway(&agents_stock));
        assert!(!principal.can_take_gateway(&agents_stock));
        assert!(!principal.may_edit_gateway_key(&agents_stock));
    }

    #[test]
    fn a_gateway_key_is_for_those_who_may_edit_the_gateway_never_for_visitors() {
        let keys = &["gateway.view", "gateway.key"];
        let owner = actor(1, UserKind::Owner, None, keys);
        let sharee = actor(2, UserKind::Owner, None, keys);
        let company_admin = actor(3, UserKind::Company, Some(10), keys);
        let company_staff = actor(4, UserKind::Company, Some(10), &["gateway.view"]);
        let admin = actor(
            9,
            UserKind::Internal,
            None,
            &["gateway.key", "sys.gateway.edit"],
        );
        let gateway = |shared_as| GatewayScope {
            plant: Some(plant(1, Some(10), shared_as)),
            owner: Some(UserId(1)),
            company: Some(CompanyId(10)),
            held_by_agent: false,
        };
        assert!(owner.may_edit_gateway_key(&gateway(None)));
        assert!(company_admin.may_edit_gateway_key(&gateway(None)));
        assert!(admin.may_edit_gateway_key(&gateway(None)));
        assert!(!company_staff.may_edit_gateway_key(&gateway(None)));
        for role in [ShareRole::Visitor, ShareRole::Maintainer] {
            assert!(
                !sharee.may_edit_gateway_key(&gateway(Some(role))),
                "{role:?}"
            );
        }
        let read_only = Actor {
            read_only: true,
            ..owner.clone()
        };
        assert!(!read_only.may_edit_gateway_key(&gateway(None)));

        let stock = GatewayScope {
            plant: None,
            owner: Some(UserId(1)),
            company: None,
            held_by_agent: false,
        };
        assert!(owner.may_edit_gateway_key(&stock) && admin.may_edit_gateway_key(&stock));
        assert!(!sharee.may_edit_gateway_key(&stock));
    }

    #[test]
    fn company_staff_put_plants_only_into_their_customers_accounts_and_offer_the_rest() {
        let staff = actor(3, UserKind::Company, Some(10), &["station.create"]);
        let owner = actor(1, UserKind::Owner, None, &["station.create"]);
        let admin = actor(9, UserKind::Internal, None, &["station.create"]);
        let ann = scope(1, UserKind::Owner, None);
        assert_eq!(
            staff.new_plant_owner(&ann, true),
            Ok(NewPlantOwner::Account)
        );
        assert_eq!(
            staff.new_plant_owner(&ann, false),
            Ok(NewPlantOwner::Offered)
        );
        assert_eq!(
            admin.new_plant_owner(&ann, false),
            Ok(NewPlantOwner::Account)
        );
        assert_eq!(
            owner.new_plant_owner(&ann, false),
            Ok(NewPlantOwner::Account),
            "herself"
        );
        let bob = scope(2, UserKind::Owner, None);
        assert_eq!(
            owner.new_plant_owner(&bob, false).unwrap_err().code,
            Code::NoPermission
        );
        let colleague = scope(4, UserKind::Company, Some(10));
        assert_eq!(
            staff.new_plant_owner(&colleague, true).unwrap_err().code,
            Code::InvalidParameter
        );
    }

    #[test]
    fn only_internal_administrators_manage_the_gateway_registry() {
        let admin = actor(9, UserKind::Internal, None, &["sys.gateway.edit"]);
        let viewer = actor(8, UserKind::Internal, None, &["sys.gateway.view"]);
        let company = actor(3, UserKind::Company, Some(10), &["sys.gateway.edit"]);
        assert!(admin.require_gateway_registry().is_ok());
        assert!(viewer.require_gateway_registry().is_err());
        assert!(company.require_gateway_registry().is_err());
    }

    #[test]
    fn binding_a_gateway_needs_one_of_the_keys_on_a_visible_plant() {
        let staff = actor(3, UserKind::Company, Some(10), &["gateway.add"]);
        let p = plant(1, Some(10), None);
        assert!(
            staff
                .require_any_on_plant(&p, &["station.edit", "gateway.add"])
                .is_ok()
        );
        assert_eq!(
            staff
                .require_any_on_plant(&p, &["gateway.unbind"])
                .unwrap_err()
                .code,
            Code::NoPermission
        );
        assert_eq!(
            staff
                .require_any_on_plant(&plant(1, Some(11), None), &["gateway.add"])
                .unwrap_err()
                .code,
            Code::PlantMissing
        );
    }
}
