//! Gateways over HTTP: the registry, SN checks, claiming one gateway or a spreadsheet batch,
//! the plant wizard's gateway step, the list and its field types, detail, unbind and delete,
//! and tenancy (another tenant's gateway answers 305 like a missing one).

use crate::common;

use common::{App, fixtures, spawn};
use domain::user::BuiltinRole;
use rust_xlsxwriter::Workbook;
use serde_json::{Value, json};

mod batch;
mod bind;
mod list;
mod register;
mod unbind;

struct TwoOwners {
    admin: String,
    ann: String,
    bob: String,
    ann_plant: i64,
    bob_plant: i64,
}

async fn register(app: &App, admin: &str, sn: &str, key: &str) -> i64 {
    let r = app
        .post(
            "/api/v1/gateway/create",
            json!({"sn": sn, "key": key, "protocol": "deye-hybrid-1ph"}),
            Some(admin),
        )
        .await;
    r.expect_code(0);
    r.data().as_i64().expect("gateway id")
}

/// An internal administrator, two owners with one plant each.
async fn two_owners(app: &App) -> TwoOwners {
    let (_, admin) = app
        .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    let (_, ann) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (_, bob) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let ann_plant = fixtures::grid_tied_plant(app, &ann, "Ann home plant").await;
    let bob_plant = fixtures::grid_tied_plant(app, &bob, "Bob home plant").await;
    TwoOwners {
        admin,
        ann,
        bob,
        ann_plant,
        bob_plant,
    }
}
