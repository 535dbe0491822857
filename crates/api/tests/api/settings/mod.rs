//! Inverter parameter settings and power on/off over HTTP: support per family (601 other
//! brands, 605 without settings), the read's shape (a flat object, every value a string, the
//! keys clients echo), validation per field kind (code 4 naming the field), a write applied by
//! a fake gateway over a real device link and followed to `succeeded` through the command
//! status, the applied values read back while offline, refusals (offline 602, upgrading 603,
//! state 604, no link 606, visitors 2, strangers 600), a timeout, a device failure, custom
//! profile limits, and boot/shutdown. Every test runs on SQLite and, when configured,
//! PostgreSQL.

use crate::common;
use crate::fake_gateway;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use std::time::Duration;

use common::{
    App,
    fixtures::{self, set_status},
    settings_maps, spawn,
};
use fake_gateway::{Linked, Mode, gateway, linked};
use serde_json::{Map, Value, json};

mod power;
mod profiles;
mod read;
mod support;
mod validation;
mod write;

const INV: &str = "INV-SET01";

struct SettableInverters {
    ann: String,
    max: String,
    vic: String,
    bob: String,
    inverter: i64,
}

/// Ann owns a plant with gateway GW-SET01 (key KEY12345) and behind it a 48 V hybrid (INV-SET01,
/// Normal), an HV hybrid, a grid-tied inverter (the hybrid maps writing every setting), a micro
/// inverter whose map writes no micro setting and another brand's hybrid without a map; Max
/// (maintainer) and Vic (visitor) share the plant; Bob is a stranger.
async fn settable_inverters(app: &App) -> SettableInverters {
    settings_maps::writable_hybrids(app).await;
    settings_maps::store_params(app, "deye-micro-old", &["sellTime1", "batteryCap"]).await;
    let admin = fixtures::admin(app).await;
    let [ann, max, vic, bob] = fixtures::owners(app, ["ann", "max", "vic", "bob"]).await;
    let body = fixtures::madrid_plant("Ann settings plant", 2, 8);
    let plant = fixtures::plant(app, &ann, body).await;
    let gw = fixtures::hybrid_gateway(app, &admin, &ann, plant, "GW-SET01").await;
    let mut inverter = 0;
    for (sn, code, protocol) in [
        (INV, 2, "deye-hybrid-1ph"),
        ("INV-SETHV", 94, "deye-hybrid-3ph-hv"),
        ("INV-SETGT", 1, "deye-hybrid-1ph"),
        ("INV-SETMI", 3, "deye-micro-old"),
        ("INV-SETAC", 2, "acme-x"),
    ] {
        let id = app
            .store
            .upsert_device(
                sn,
                GatewayId(gw),
                DeviceFamily::Inverter,
                code,
                protocol,
                "M",
                None,
                1,
            )
            .await
            .expect("device");
        set_status(app, id.0, 1).await;
        if sn == INV {
            inverter = id.0;
        }
    }
    fixtures::share(app, &ann, plant, &fixtures::MAX_AND_VIC).await;
    SettableInverters {
        ann,
        max,
        vic,
        bob,
        inverter,
    }
}

fn read_url(sn: &str) -> String {
    format!("/api/v1/common/setting/{sn}/read")
}

fn set_url(sn: &str) -> String {
    format!("/api/v1/common/setting/{sn}/set")
}

/// Waits until the portal has GW-SET01 offline.
async fn wait_offline(app: &App) {
    let until = tokio::time::Instant::now() + Duration::from_secs(15);
    while app
        .store
        .gateway_by_sn("GW-SET01")
        .await
        .expect("gateway")
        .is_some_and(|g| g.online)
    {
        assert!(tokio::time::Instant::now() < until, "gateway stays online");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The command status, key by key with its JSON type.
#[track_caller]
fn assert_command(c: &Value, kind: &str, sn: &str) {
    assert!(c["id"].is_i64(), "{c}");
    assert_eq!(c["kind"], kind);
    assert_eq!(c["deviceSn"], sn);
    assert_eq!(c["gatewaySn"], "GW-SET01");
    assert!(c["status"].is_string(), "{c}");
    assert!(c["message"].is_string(), "{c}");
    assert!(c.get("result").is_some(), "{c}");
    assert!(c["resultCode"].is_i64() || c["resultCode"].is_null(), "{c}");
    let create = c["createAt"].as_str().expect("createAt");
    assert!(create.ends_with("+00:00") && create.len() == 29, "{create}");
    let update = c["updateAt"].as_str().expect("updateAt");
    assert!(update.ends_with('Z') && update.len() == 20, "{update}");
}
