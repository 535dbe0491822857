//! Customers: a company adds plant owners' accounts as its customers, gives them a type and a
//! remark, and removes them; while an account is a customer its plants (with their gateways
//! and devices) are visible to the company's staff. Every endpoint is confined to the
//! caller's company, and another company's customer answers exactly like a missing one.

use crate::common;

use common::{App, Resp, fixtures, spawn};
use domain::{
    ids::{CompanyId, UserId},
    policy::PlantVisibility,
    user::BuiltinRole,
};
use serde_json::{Value, json};
use store::audit::AuditFilter;

mod access;
mod agents;
mod lifecycle;
mod plants;

const MISSING: i64 = 987_654;

struct World {
    a: CompanyId,
    b: CompanyId,
    internal: String,
    admin_a: String,
    staff_a: String,
    /// Company A staff whose role grants no customer key.
    plain_a: String,
    admin_b: String,
    ann: UserId,
    ann_token: String,
    bob_token: String,
}

async fn world(app: &App) -> World {
    let a = app.company("Alpha Solar").await;
    let b = app.company("Beta Energy").await;
    let (_, internal) = app
        .signed_in("root@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    let (_, admin_a) = app
        .signed_in("admin@alpha.example", BuiltinRole::CompanyAdmin, Some(a))
        .await;
    let (_, staff_a) = app
        .signed_in("staff@alpha.example", BuiltinRole::CompanyStaff, Some(a))
        .await;
    let plain = app
        .user(
            "plain@alpha.example",
            "secret123",
            BuiltinRole::CompanyStaff,
            Some(a),
        )
        .await;
    let role = app
        .store
        .create_role(a, "Field", &["station.view"], domain::time::now_ms(), None)
        .await
        .expect("role");
    app.store.set_role(plain, role).await.expect("set role");
    let plain_a = app.login("plain@alpha.example", "secret123").await.access;
    let (_, admin_b) = app
        .signed_in("admin@beta.example", BuiltinRole::CompanyAdmin, Some(b))
        .await;
    let (ann, ann_token) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (_, bob_token) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    World {
        a,
        b,
        internal,
        admin_a,
        staff_a,
        plain_a,
        admin_b,
        ann,
        ann_token,
        bob_token,
    }
}

/// Asked by the company and accepted by the owner (`owner`, their token).
async fn add_customer(app: &App, token: &str, body: Value, owner: &str) -> i64 {
    fixtures::customer(app, token, body, owner).await
}

fn ids(list: &Resp) -> Vec<i64> {
    list.data()["infos"]
        .as_array()
        .expect("infos")
        .iter()
        .map(|i| i["id"].as_i64().expect("id"))
        .collect()
}

async fn delete(app: &App, path: &str, token: &str) -> Resp {
    app.send(
        app.request(axum::http::Method::DELETE, path)
            .header("authorization", common::bearer(token))
            .body(axum::body::Body::empty())
            .expect("request"),
    )
    .await
}

async fn check(app: &App, token: Option<&str>, account: &str) -> Resp {
    app.get(&format!("/api/v1/customer/check?account={account}"), token)
        .await
}
