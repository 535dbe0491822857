//! Plants over HTTP: the wizard's create call with a tariff, list, map and counts, detail and
//! edits, pictures, sharing, transfer and delete, and tenancy (another tenant's plant is 700).

use crate::common;

use common::{App, fixtures, spawn};
use domain::user::BuiltinRole;
use serde_json::{Value, json};

mod access;
mod create;
mod edit;
mod pictures;
mod sharing;
mod transfer;

const PW: &str = "secret12";

fn tou() -> Value {
    json!([
        {"type": 2, "startRange": "00:00", "endRange": "07:00", "price": 0.1},
        {"type": 2, "startRange": "07:00", "endRange": "19:00", "price": "0.35"},
        {"type": 2, "startRange": "19:00", "endRange": "23:59", "price": 0.2},
    ])
}

fn plant(name: &str) -> Value {
    json!({
        "name": name, "totalPower": "5.5", "type": 2, "currency": "GBP", "timezone": "Europe/London",
        "joinDate": "2024-05-01", "address": "1 Solar Way", "lon": -0.72, "lat": 51.32,
        "principal": "Ann", "phone": "+44 1234 5678", "email": "ann@example.com", "installer": "Acme",
        "invest": 4200, "charges": tou(),
    })
}

async fn create(app: &App, token: &str, body: Value) -> i64 {
    let r = app.post("/api/v1/plant", body, Some(token)).await;
    r.expect_code(0);
    r.data()
        .as_i64()
        .unwrap_or_else(|| panic!("{}: no id in {}", r.ctx, r.text()))
}

async fn total(app: &App, token: &str) -> i64 {
    app.get("/api/v1/plants?page=1&limit=10&name=&status=", Some(token))
        .await
        .data()["total"]
        .as_i64()
        .unwrap_or(-1)
}
