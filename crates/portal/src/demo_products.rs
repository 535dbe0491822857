//! The demo's product catalogue: one product per simulated inverter model (filed under the
//! secondary label holding its type code when the inverter-type tree has one), a gateway and
//! a battery product, each with two hardware versions; the demo inverters are told their
//! product, and the demo's firmware files name the product of their label. A few unbound gateways are registered too, so the system gateway screen has stock
//! to show and to bind. Idempotent: a second start adds nothing.

use domain::ids::InverterTypeId;
use std::collections::BTreeMap;

use domain::{
    DeviceFamily,
    ids::ProductId,
    product::{Category, Product},
};
use sim::fleet::GatewaySpec;
use store::Store;

const MANUFACTURER: &str = "Sim Power";
const GATEWAY_MODEL: &str = "SIM-GW-4G";
/// Registered, on no plant and held by nobody: the registry's stock.
const STOCK: [&str; 4] = ["SYS26000001", "SYS26000002", "SYS26000003", "SYS26000004"];

fn product(part: &str, name: String, category: Category, hardware: [&str; 2]) -> Product {
    Product {
        name,
        part_number: part.into(),
        category,
        manufacturer: MANUFACTURER.into(),
        type_id: None,
        rated_power: None,
        remark: "Demo product".into(),
        hardware: hardware.iter().map(|h| (*h).to_string()).collect(),
    }
}

/// The product with `p`'s part number, added when missing.
async fn ensure(store: &Store, p: &Product) -> anyhow::Result<ProductId> {
    if let Some(found) = store.product_by_part_number(&p.part_number).await? {
        return Ok(found.id);
    }
    Ok(store
        .insert_product(p, domain::time::now_ms(), None)
        .await?)
}

/// The model's rated power in watts, from the simulator's `SIM-{type}-{kW}K`.
fn rated_watts(model: &str) -> Option<f64> {
    let kw = model.rsplit('-').next()?.strip_suffix('K')?;
    kw.parse::<f64>().ok().map(|kw| kw * 1000.0)
}

/// A simulated inverter model: its type code and its inverters (gateway, index of the device).
type Model<'a> = (i64, Vec<(&'a GatewaySpec, usize)>);

pub async fn prepare(store: &Store, fleet: &[GatewaySpec]) -> anyhow::Result<()> {
    let mut models: BTreeMap<&str, Model> = BTreeMap::new();
    for gw in fleet {
        for (i, d) in gw.devices.iter().enumerate() {
            if d.family == DeviceFamily::Inverter {
                models
                    .entry(d.model.as_str())
                    .or_insert_with(|| (d.type_code, Vec::new()))
                    .1
                    .push((gw, i));
            }
        }
    }
    for (model, (type_code, inverters)) in &models {
        let mut p = product(
            model,
            format!("Sim inverter {model}"),
            Category::Inverter,
            ["H1.0", "H2.0"],
        );
        p.type_id = store.label_of_code(*type_code).await?;
        p.rated_power = rated_watts(model);
        let id = ensure(store, &p).await?;
        if let Some(label) = p.type_id {
            store
                .file_seeded_firmware("inverter", label, id, "H2.0")
                .await?;
        }
        for (gw, i) in inverters {
            let d = &gw.devices[*i];
            if store.device_by_sn(&d.sn).await?.is_none() {
                // Registered as its first report would register it, so that it has its product
                // from the start.
                let Some(g) = store.gateway_by_sn(&gw.sn).await? else {
                    continue;
                };
                store
                    .upsert_device(
                        &d.sn,
                        g.id,
                        d.family,
                        d.type_code,
                        d.protocol,
                        &d.model,
                        d.parent.as_deref(),
                        domain::time::now_ms(),
                    )
                    .await?;
            }
            store.set_device_product_if_unset(&d.sn, id).await?;
        }
    }
    let gateway = product(
        GATEWAY_MODEL,
        "Sim 4G data logger".into(),
        Category::Gateway,
        ["V1", "V2"],
    );
    let gateway = ensure(store, &gateway).await?;
    store
        .file_seeded_firmware("gateway", InverterTypeId(0), gateway, "V2")
        .await?;
    let battery = product(
        "SIM-BMS",
        "Sim LFP battery stack".into(),
        Category::Battery,
        ["B1", "B2"],
    );
    ensure(store, &battery).await?;
    for sn in STOCK {
        if store.gateway_by_sn(sn).await?.is_none() {
            store
                .register_gateway(
                    sn,
                    &crate::demo::random_key(),
                    "deye-hybrid-1ph",
                    GATEWAY_MODEL,
                    "4g",
                    domain::time::now_ms(),
                )
                .await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rated_power_comes_from_the_model_name() {
        assert_eq!(rated_watts("SIM-94-30K"), Some(30_000.0));
        assert_eq!(rated_watts("SIM-METER"), None);
    }
}
