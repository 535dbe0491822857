//! The product catalogue's use cases: internal administrators add, edit and remove products
//! (`sys.product.edit`), read them (`sys.product.view`); an inverter is told which product it
//! is when the product fits its type code.

use domain::permissions::SYS_PRODUCT_EDIT;
use domain::{
    Code, DomainError,
    ids::ProductId,
    policy::Actor,
    product::{Category, Product, ProductInput},
};
use store::{
    Store,
    devices::DeviceListRow,
    plants::PlantRow,
    products::{ProductRow, Refusal},
};

use crate::{Result, audit};

/// The catalogue is the platform's: internal staff with the key, nobody else (code 2).
pub fn require(actor: &Actor, key: &str) -> Result<()> {
    if actor.is_internal() {
        actor.require(key)?;
        Ok(())
    } else {
        Err(Code::NoPermission.into())
    }
}

/// The rules of `domain::product`, and an inverter product's label must be a secondary label
/// of the inverter-type tree (4 `typeId`).
async fn checked(store: &Store, input: &ProductInput) -> Result<Product> {
    let p = input.check()?;
    if let Some(label) = p.type_id
        && !store.is_secondary_label(label).await?
    {
        return Err(DomainError::invalid("typeId").into());
    }
    Ok(p)
}

/// Adds a product with its hardware list and its audit entry (one transaction). A taken part
/// number: 4 `partNumber`.
pub async fn add(
    store: &Store,
    actor: &Actor,
    input: &ProductInput,
    now: i64,
) -> Result<ProductId> {
    require(actor, SYS_PRODUCT_EDIT)?;
    actor.require_writable()?;
    let p = checked(store, input).await?;
    let detail = serde_json::json!({"partNumber": input.part_number, "category": input.category})
        .to_string();
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::PRODUCT_CREATE,
        "product",
        &detail,
        now,
    );
    Ok(store.insert_product(&p, now, Some(&entry)).await?)
}

/// Replaces a product and its hardware list, with its audit entry. Unknown id: 4 `id`; dropping a hardware version a
/// firmware file names: 4 `hardware` (nothing changes).
pub async fn edit(
    store: &Store,
    actor: &Actor,
    id: ProductId,
    input: &ProductInput,
    now: i64,
) -> Result<Product> {
    require(actor, SYS_PRODUCT_EDIT)?;
    actor.require_writable()?;
    let p = checked(store, input).await?;
    let detail =
        serde_json::json!({"partNumber": p.part_number, "hardware": p.hardware}).to_string();
    let target = format!("product:{}", id.0);
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::PRODUCT_EDIT,
        &target,
        &detail,
        now,
    );
    match store.update_product(id, &p, now, &entry).await? {
        Ok(()) => Ok(p),
        Err(Refusal::HardwareInUse(v)) => {
            tracing::info!(product = id.0, hardware = %v, "edit refused: firmware names the version");
            Err(DomainError::invalid("hardware").into())
        }
        Err(_) => Err(DomainError::invalid("id").into()),
    }
}

/// Removes a product with its audit entry, refused (4 `inUse`) while firmware or devices refer
/// to it.
pub async fn remove(store: &Store, actor: &Actor, id: ProductId, now: i64) -> Result<ProductRow> {
    require(actor, SYS_PRODUCT_EDIT)?;
    actor.require_writable()?;
    let row = store
        .product(id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    let detail = serde_json::json!({"partNumber": row.part_number, "name": row.name}).to_string();
    let target = format!("product:{}", id.0);
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::PRODUCT_DELETE,
        &target,
        &detail,
        now,
    );
    match store.delete_product(id, &entry).await? {
        Ok(()) => Ok(row),
        Err(Refusal::InUse) => Err(DomainError::invalid("inUse").into()),
        Err(_) => Err(DomainError::invalid("id").into()),
    }
}

/// Whether an inverter of `type_code` may be the product: an inverter product whose label
/// holds the code, or one without a label. Anything else answers 4 `productId`.
pub async fn check_fits(store: &Store, product: &ProductRow, type_code: i64) -> Result<()> {
    let fits = product.category == Category::Inverter.as_str()
        && match product.type_id {
            None => true,
            Some(label) => store.label_of_code(type_code).await? == Some(label),
        };
    if fits {
        Ok(())
    } else {
        Err(DomainError::invalid("productId").into())
    }
}

/// Tells an inverter the caller may set (the API found it visible and checked
/// `inverter.setting` on it) which product it is, or none, with its audit entry filed under
/// the inverter's plant when the caller may see that plant. The product must fit the
/// inverter's type code ([`check_fits`]); an unknown one answers 4 `productId`.
pub async fn assign(
    store: &Store,
    actor: &Actor,
    inverter: &DeviceListRow,
    plant: Option<&PlantRow>,
    product: Option<ProductId>,
    now: i64,
) -> Result<()> {
    let product = match product {
        None => None,
        Some(id) => {
            let p = store
                .product(id)
                .await?
                .ok_or_else(|| DomainError::invalid("productId"))?;
            check_fits(store, &p, inverter.type_code).await?;
            Some(p.id)
        }
    };
    let plant = plant.filter(|p| actor.plant_access(&p.scope()).is_some());
    let detail = serde_json::json!({"productId": product.map(|p| p.0)}).to_string();
    let entry = audit::admin_entry(
        audit::author(actor, plant),
        domain::audit_action::INVERTER_PRODUCT,
        &inverter.sn,
        &detail,
        now,
    );
    store
        .set_device_product(inverter.id, product, now, &entry)
        .await?;
    Ok(())
}
