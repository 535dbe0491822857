//! Tenancy: nobody reads or changes another company's users or roles, and the answer for
//! another tenant's object is exactly the answer for a missing one.

use crate::common;

use common::{App, spawn};
use domain::{
    ids::{CompanyId, RoleId, UserId},
    user::BuiltinRole,
};
use serde_json::json;

mod business;
mod profiles;
mod roles;
mod staff;

struct World {
    a: CompanyId,
    b: CompanyId,
    admin_a: String,
    admin_a_id: UserId,
    staff_a: UserId,
    staff_a_token: String,
    staff_b: UserId,
    owner: UserId,
    owner_token: String,
    role_b: RoleId,
}

async fn world(app: &App) -> World {
    let a = app.company("Alpha Solar").await;
    let b = app.company("Beta Energy").await;
    let (admin_a_id, admin_a) = app
        .signed_in("admin@alpha.example", BuiltinRole::CompanyAdmin, Some(a))
        .await;
    let (staff_a, staff_a_token) = app
        .signed_in("staff@alpha.example", BuiltinRole::CompanyStaff, Some(a))
        .await;
    let staff_b = app
        .user(
            "staff@beta.example",
            "secret123",
            BuiltinRole::CompanyStaff,
            Some(b),
        )
        .await;
    let (owner, owner_token) = app
        .signed_in("owner@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let role_b = app
        .store
        .create_role(b, "Ops", &["station.view"], domain::time::now_ms(), None)
        .await
        .expect("role");
    World {
        a,
        b,
        admin_a,
        admin_a_id,
        staff_a,
        staff_a_token,
        staff_b,
        owner,
        owner_token,
        role_b,
    }
}

const MISSING: i64 = 987_654;
