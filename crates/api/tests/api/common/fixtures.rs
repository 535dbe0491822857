//! Fixture pieces the monitoring tests share (batteries, meters and weather stations, plant
//! monitoring, inverters): the people, a plant, a gateway bound to it, samples and energy rows,
//! and the checks of the client field types.

use domain::DeviceFamily;
use domain::ids::{DeviceId, GatewayId, PlantId};
use domain::user::BuiltinRole;
use serde_json::Value;
use store::telemetry::{CounterKind, EnergyWrite, SampleWrite};

use super::App;

/// The internal admin, and Ann and Bob (plant owners), signed in: their access tokens.
pub struct People {
    pub admin: String,
    pub ann: String,
    pub bob: String,
}

pub async fn people(app: &App) -> People {
    let (_, admin) = app
        .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    let (_, ann) = app
        .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
        .await;
    let (_, bob) = app
        .signed_in("bob@example.com", BuiltinRole::PlantOwner, None)
        .await;
    People { admin, ann, bob }
}

/// A plant created over HTTP by `token` from `body`: its id.
pub async fn plant(app: &App, token: &str, body: Value) -> i64 {
    let r = app.post("/api/v1/plant", body, Some(token)).await;
    r.expect_code(0);
    r.data().as_i64().expect("plant id")
}

/// Puts gateway `sn` (key KEY12345) in the factory registry, straight through the store: the
/// registry's own route is tested in gateways.rs and system_gateways.rs, and its audit entry
/// would crowd the audit tests that count the entries of remote actions.
async fn registry_row(app: &App, sn: &str, protocol: &str) {
    app.store
        .create_gateway(sn, "KEY12345", protocol, domain::time::now_ms())
        .await
        .expect("registered gateway");
}

/// Gateway `sn` in the registry (`admin` stands for who registers it) and bound by the plant's
/// owner to `plant`: its id.
pub async fn bound_gateway(app: &App, _admin: &str, owner: &str, plant: i64, sn: &str) -> i64 {
    let key = serde_json::json!({"sn": sn, "key": "KEY12345"});
    registry_row(app, sn, "").await;
    app.post(&format!("/api/v1/plant/{plant}/gateway"), key, Some(owner))
        .await
        .expect_code(0);
    app.store
        .gateway_by_sn(sn)
        .await
        .expect("gateway")
        .expect("gateway row")
        .id
        .0
}

/// A hybrid inverter (type 2) `sn` behind gateway `gw`, as ingest would place it: its id.
pub async fn inverter(app: &App, gw: i64, sn: &str) -> i64 {
    let now = domain::time::now_ms();
    (app.store
        .upsert_device(
            sn,
            GatewayId(gw),
            DeviceFamily::Inverter,
            2,
            "deye-hybrid-1ph",
            "SIM",
            None,
            now,
        )
        .await
        .expect("inverter"))
    .0
}

/// A report of `device_id` at `ts`.
pub fn sample(device_id: i64, ts: i64, payload: &Value) -> SampleWrite {
    SampleWrite {
        device_id: DeviceId(device_id),
        ts,
        payload: payload.to_string(),
    }
}

/// A day's energy row of `metric` (kWh), a daily counter of rank 0; change `kind` and `rank`
/// with `EnergyWrite { rank: 2, ..energy(..) }`.
pub fn energy(device: i64, plant: i64, day: impl ToString, metric: &str, kwh: f64) -> EnergyWrite {
    EnergyWrite {
        device_id: DeviceId(device),
        plant_id: Some(PlantId(plant)),
        day: day.to_string(),
        metric: metric.into(),
        value: kwh,
        kind: CounterKind::Daily,
        rank: 0,
    }
}

/// `updateAt`: UTC as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn is_update_at(v: &Value) -> bool {
    v.as_str().is_some_and(|s| {
        s.len() == 20 && chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%SZ").is_ok()
    })
}

/// `v[key]` is a number sent as a string (docs/api-conventions.md).
#[track_caller]
pub fn numeric_string(v: &Value, key: &str) {
    let s = v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string: {}", v[key]));
    assert!(s.parse::<f64>().is_ok(), "{key}: {s}");
}

/// The internal admin (`admin@example.com`) signed in: their access token.
pub async fn admin(app: &App) -> String {
    let (_, admin) = app
        .signed_in("admin@example.com", BuiltinRole::InternalAdmin, None)
        .await;
    admin
}

/// Plant owners `<name>@example.com` signed in, in order: their access tokens.
pub async fn owners<const N: usize>(app: &App, names: [&str; N]) -> [String; N] {
    let mut tokens = Vec::with_capacity(N);
    for name in names {
        let (_, t) = app
            .signed_in(
                &format!("{name}@example.com"),
                BuiltinRole::PlantOwner,
                None,
            )
            .await;
        tokens.push(t);
    }
    <[String; N]>::try_from(tokens).unwrap_or_else(|_| unreachable!("one token per name"))
}

/// The body of a plant in Madrid priced in EUR, of `kind` (1 grid-tied, 2 with storage) and
/// `kw` total power.
pub fn madrid_plant(name: &str, kind: i64, kw: i64) -> Value {
    serde_json::json!({"name": name, "type": kind, "currency": "EUR",
        "timezone": "Europe/Madrid", "lon": -3.7, "lat": 40.4, "totalPower": kw})
}

/// `back` ms before `now`, but never before halfway through Madrid's today: a report "minutes
/// earlier" then stays within a Madrid plant's day, also in the first minutes after its midnight.
pub fn earlier_today(now: i64, back: i64) -> i64 {
    use chrono::{TimeZone, Timelike};
    let local = chrono_tz::Europe::Madrid
        .timestamp_millis_opt(now)
        .single()
        .expect("a time in Madrid");
    let since_midnight = i64::from(local.time().num_seconds_from_midnight()) * 1000;
    now - back.min(since_midnight / 2)
}

/// Registers gateway `sn` (key KEY12345, the Deye 1-phase hybrid protocol; `admin` stands for
/// who registers it).
pub async fn register_hybrid_gateway(app: &App, _admin: &str, sn: &str) {
    registry_row(app, sn, "deye-hybrid-1ph").await;
}

/// Binds registered gateway `sn` (key KEY12345) to `plant` as its owner.
pub async fn bind_gateway(app: &App, owner: &str, plant: i64, sn: &str) {
    let body = serde_json::json!({"sn": sn, "key": "KEY12345"});
    app.post(&format!("/api/v1/plant/{plant}/gateway"), body, Some(owner))
        .await
        .expect_code(0);
}

/// Gateway `sn` registered with the hybrid protocol and bound by `owner` to `plant`: its id.
pub async fn hybrid_gateway(app: &App, admin: &str, owner: &str, plant: i64, sn: &str) -> i64 {
    register_hybrid_gateway(app, admin, sn).await;
    bind_gateway(app, owner, plant, sn).await;
    app.store
        .gateway_by_sn(sn)
        .await
        .expect("gateway")
        .expect("registered")
        .id
        .0
}

/// `owner` shares `plant` with each `(account, role)`.
pub async fn share(app: &App, owner: &str, plant: i64, with: &[(&str, &str)]) {
    for (account, role) in with {
        let body = serde_json::json!({"account": account, "role": role});
        app.post(&format!("/api/v1/plant/{plant}/share"), body, Some(owner))
            .await
            .expect_code(0);
    }
}

/// Max as the plant's maintainer and Vic as its visitor.
pub const MAX_AND_VIC: [(&str, &str); 2] = [
    ("max@example.com", "maintainer"),
    ("vic@example.com", "visitor"),
];

/// Sets a device's status as the status job would (0 offline ... 4 upgrading).
pub async fn set_status(app: &App, device: i64, status: i64) {
    app.store
        .apply_statuses(&[(DeviceId(device), status, status != 0)], &[])
        .await
        .expect("status");
}

/// A company (`token` of its staff with `customer.edit`) asks an owner to become its customer
/// with `body`, and the owner (`owner`, their token) accepts: the customer's id.
pub async fn customer(app: &App, token: &str, body: Value, owner: &str) -> i64 {
    let r = app.post("/api/v1/customer", body, Some(token)).await;
    r.expect_code(0);
    let offer = r.data().as_i64().expect("offer id");
    let received = app
        .get("/api/v1/customer/offers/received", Some(owner))
        .await;
    let company = received
        .data()
        .as_array()
        .and_then(|all| all.iter().find(|o| o["id"].as_i64() == Some(offer)))
        .map(|o| o["companyId"].clone())
        .expect("the owner sees the request");
    app.post(
        &format!("/api/v1/customer/offer/{offer}/accept"),
        serde_json::json!({}),
        Some(owner),
    )
    .await
    .expect_code(0);
    let shares = app.get("/api/v1/shares", Some(owner)).await;
    shares.data()["companies"]
        .as_array()
        .and_then(|all| all.iter().find(|c| c["companyId"] == company))
        .and_then(|c| c["id"].as_i64())
        .expect("the relation")
}

/// A company (`principal`, its administrator's token) asks `account`'s company to become its
/// agent and that company's administrator (`agent`, their token) accepts: the agency's id.
pub async fn agent(app: &App, principal: &str, account: &str, agent: &str) -> i64 {
    let r = app
        .post(
            "/api/v1/agent",
            serde_json::json!({"account": account}),
            Some(principal),
        )
        .await;
    r.expect_code(0);
    let offer = r.data().as_i64().expect("offer id");
    let r = app
        .post(
            &format!("/api/v1/agent/offer/{offer}/accept"),
            serde_json::json!({}),
            Some(agent),
        )
        .await;
    r.expect_code(0);
    r.data().as_i64().expect("agency id")
}

/// A 5 kW grid-tied plant in Madrid created by `token`: its id.
pub async fn grid_tied_plant(app: &App, token: &str, name: &str) -> i64 {
    plant(app, token, madrid_plant(name, 1, 5)).await
}

/// A 5 kW plant with storage in Madrid created by `token`: its id.
pub async fn storage_plant(app: &App, token: &str, name: &str) -> i64 {
    plant(app, token, madrid_plant(name, 2, 5)).await
}

/// The password of the company administrators `add_company` creates.
pub const COMPANY_ADMIN_PASSWORD: &str = "Sunny-2024";

/// The internal admin (`root`, their token) adds company `name` with administrator account
/// `admin` (password `COMPANY_ADMIN_PASSWORD`): the company's id.
pub async fn add_company(app: &App, root: &str, name: &str, admin: &str) -> i64 {
    let r = app
        .post(
            "/api/v1/company/add",
            serde_json::json!({"name": name, "contactName": "Ann", "phone": "123",
                "email": "c@x.example", "adminAccount": admin,
                "adminPassword": COMPANY_ADMIN_PASSWORD}),
            Some(root),
        )
        .await;
    r.expect_code(0);
    r.data().as_i64().expect("company id")
}

/// Polls command `id` until it is final (neither sent nor acknowledged), for at most 20 s:
/// the command as `/command/{id}` answers it.
pub async fn settled_command(app: &App, token: &str, id: i64) -> Value {
    let until = tokio::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let r = app.get(&format!("/api/v1/command/{id}"), Some(token)).await;
        r.expect_code(0);
        let c = r.data().clone();
        if !matches!(c["status"].as_str(), Some("sent" | "acknowledged")) {
            return c;
        }
        assert!(tokio::time::Instant::now() < until, "never final: {c}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// A PNG image of `width` by `height` pixels of one colour.
pub fn png(width: u32, height: u32) -> Vec<u8> {
    let img = image::RgbImage::from_pixel(width, height, image::Rgb([250, 180, 0]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .expect("png");
    out.into_inner()
}
