//! The business side of `portal serve --demo`: an installer company that serves the demo owner,
//! with staff in two roles, customers of two types and an agent company, so that every company
//! and customer screen has real content, and a maintenance company whose request to become the
//! demo owner's customer waits for an answer (the shared-management screen). The installer's
//! relations are seeded as accepted. Everyone signs in with the demo password.

use anyhow::Context;
use domain::{
    company::CompanyDetails,
    ids::{CompanyId, CustomerTypeId, RoleId},
    user::BuiltinRole,
};
use store::{
    Store,
    audit::NewAudit,
    companies::AdminAccount,
    customer_offers::NewCustomerOffer,
    customer_types::TypeWrite,
    gateways::Holder,
    log_pages::Author,
    users::{NewStaff, UserRow},
};

use crate::{admin, demo::DEMO_PASSWORD};

pub const INSTALLER: &str = "SunWorks Installers";
pub const INSTALLER_ADMIN: &str = "installer@example.com";
const AGENT: &str = "Coastal Solar";
const AGENT_ADMIN: &str = "agent@example.com";
const SHOP_OWNER: &str = "shop@example.com";
const MAINTAINER: &str = "Helios Maintenance";
const MAINTAINER_ADMIN: &str = "helios@example.com";

/// What the "Ops" role may do: watch and operate plants and devices, no company settings.
const OPS_KEYS: [&str; 14] = [
    "station.view",
    "station.edit",
    "equip.view",
    "gateway.view",
    "gateway.restart",
    "inverter.view",
    "inverter.setting",
    "inverter.power",
    "battery.list.view",
    "event.view",
    "event.export",
    "workdata.view",
    "user.producer",
    "customer.list.view",
];

/// Creates the installer company and everything around it on the first demo start; later
/// starts leave whatever users changed alone.
pub async fn prepare(store: &Store, demo_owner: &UserRow) -> anyhow::Result<()> {
    if store.company_by_name(INSTALLER).await?.is_some() {
        return Ok(());
    }
    let now = domain::time::now_ms();
    let hash = service::passwords::hash(DEMO_PASSWORD.to_string())
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let admin_role = store.builtin_role(BuiltinRole::CompanyAdmin).await?;
    let installer = company(
        store,
        details(
            INSTALLER,
            "Ines Ortega",
            "+34 600 100 200",
            "Calle del Sol 12, Valencia",
        ),
        INSTALLER_ADMIN,
        &hash,
        admin_role,
    )
    .await?;
    store.set_company_theme(installer, "#1f7a5c", None).await?;

    let ops = store
        .create_role(installer, "Ops", &OPS_KEYS, now, None)
        .await?;
    let staff_role = store.builtin_role(BuiltinRole::CompanyStaff).await?;
    staff(store, installer, "ops@example.com", "Omar Ops", ops, &hash).await?;
    staff(
        store,
        installer,
        "staff@example.com",
        "Sara Staff",
        staff_role,
        &hash,
    )
    .await?;

    let homes = customer_type(
        store,
        installer,
        ("HOME", "Households", "Homes with rooftop PV"),
        None,
    )
    .await?;
    let storage = customer_type(
        store,
        installer,
        ("HOME-ESS", "With storage", "Homes with a battery"),
        Some(homes),
    )
    .await?;
    let business = customer_type(
        store,
        installer,
        ("BIZ", "Businesses", "Shops, offices and farms"),
        None,
    )
    .await?;
    store
        .insert_customer(installer, demo_owner.id(), Some(storage), "Demo fleet", now)
        .await?;
    let shop = admin::create_user(
        store,
        SHOP_OWNER,
        DEMO_PASSWORD,
        BuiltinRole::PlantOwner,
        None,
        "Corner shop",
        false,
    )
    .await?;
    store
        .insert_customer(installer, shop, Some(business), "Roof planned", now)
        .await?;

    let agent = company(
        store,
        details(AGENT, "Ana Costa", "+351 910 200 300", "Rua do Mar 5, Faro"),
        AGENT_ADMIN,
        &hash,
        admin_role,
    )
    .await?;
    store.create_agent(installer, agent, now).await?;
    agent_stock(store, agent).await?;

    let maintainer = company(
        store,
        details(
            MAINTAINER,
            "Hugo Lind",
            "+46 70 300 400",
            "Solgatan 3, Malmö",
        ),
        MAINTAINER_ADMIN,
        &hash,
        admin_role,
    )
    .await?;
    ask_demo_owner(store, maintainer, demo_owner).await
}

/// The maintenance company asks the demo owner to become its customer; the owner answers on
/// the shared-management screen.
async fn ask_demo_owner(
    store: &Store,
    company: CompanyId,
    demo_owner: &UserRow,
) -> anyhow::Result<()> {
    let admin = store
        .user_by_account(MAINTAINER_ADMIN)
        .await?
        .context("demo maintenance administrator")?;
    let now = domain::time::now_ms();
    let detail = format!(
        "{{\"userId\":{},\"companyId\":{}}}",
        demo_owner.id, company.0
    );
    let audit = NewAudit {
        by: Author {
            user_id: Some(admin.id),
            account: MAINTAINER_ADMIN,
            actor_company_id: Some(company),
            plant_id: None,
            plant_owner_id: None,
            plant_company_id: None,
        },
        action: domain::audit_action::CUSTOMER_OFFER,
        target: &demo_owner.account,
        detail: &detail,
        result: "succeeded",
        command_id: None,
        now,
    };
    let offer = NewCustomerOffer {
        company,
        user: demo_owner.id(),
        type_id: None,
        remark: "",
        message: "We service inverters and batteries in your area: yearly checks and firmware updates.",
        by: admin.id(),
        now,
    };
    store.insert_customer_offer(&offer, &audit).await?;
    Ok(())
}

/// Gateways the agent holds in stock, not yet on a plant: the installer sees them among its
/// agent's gateways.
async fn agent_stock(store: &Store, agent: CompanyId) -> anyhow::Result<()> {
    let admin = store
        .user_by_account(AGENT_ADMIN)
        .await?
        .context("demo agent administrator")?;
    for sn in ["CS24000001", "CS24000002"] {
        let now = domain::time::now_ms();
        let id = store
            .create_gateway(sn, &crate::demo::random_key(), "deye-hybrid-1ph", now)
            .await?;
        let holder = Holder {
            plant: None,
            owner: admin.id,
            company: Some(agent),
        };
        store
            .take_gateway(id, &holder, (admin.id, Some(agent)), now)
            .await?;
    }
    Ok(())
}

fn details(name: &str, contact: &str, phone: &str, address: &str) -> CompanyDetails {
    CompanyDetails {
        name: name.into(),
        contact_name: contact.into(),
        email: format!(
            "hello@{}.example.com",
            name.split(' ').next().unwrap_or("demo").to_lowercase()
        ),
        phone: phone.into(),
        address: address.into(),
        remark: "Demo company".into(),
    }
}

async fn company(
    store: &Store,
    details: CompanyDetails,
    admin: &str,
    hash: &str,
    role: RoleId,
) -> anyhow::Result<CompanyId> {
    let nickname = details.contact_name.clone();
    let account = AdminAccount::Create {
        account: admin,
        email: admin,
        mobile: "",
        password_hash: hash,
        nickname: &nickname,
    };
    let (id, _) = store
        .create_company_with_admin(&details, &account, role, domain::time::now_ms(), None)
        .await
        .with_context(|| format!("demo company {}", details.name))?;
    Ok(id)
}

async fn staff(
    store: &Store,
    company: CompanyId,
    account: &str,
    nickname: &str,
    role: RoleId,
    hash: &str,
) -> anyhow::Result<()> {
    store
        .create_staff(
            &NewStaff {
                account,
                password_hash: hash,
                nickname,
                name: nickname,
                email: account,
                mobile: "",
                avatar: "",
                company,
                role,
                now: domain::time::now_ms(),
            },
            None,
        )
        .await
        .with_context(|| format!("demo staff {account}"))?;
    Ok(())
}

async fn customer_type(
    store: &Store,
    company: CompanyId,
    (code, name, remark): (&str, &str, &str),
    parent: Option<CustomerTypeId>,
) -> anyhow::Result<CustomerTypeId> {
    Ok(store
        .insert_customer_type(
            company,
            &TypeWrite {
                code,
                name,
                remark,
                parent,
            },
            domain::time::now_ms(),
            None,
        )
        .await?)
}
