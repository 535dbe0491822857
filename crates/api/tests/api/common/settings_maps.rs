//! Protocol configs with writable settings, stored the way an administrator's edit is: which
//! settings an inverter offers comes from its config's `settings` list, so a test that needs
//! an inverter with settings stores the map it means, independent of what the shipped maps
//! hold.

use devices::protocol::{ProtocolConfig, shipped};
use domain::DeviceFamily;
use domain::settings::Family;
use serde_json::{Value, json};

use super::App;

/// Every settings key of every family.
pub fn every_setting() -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for family in Family::ALL {
        for f in family.fields() {
            if !keys.contains(&f.key) {
                keys.push(f.key.clone());
            }
        }
    }
    keys
}

/// Stores config `code` whose settings are `params` (each given as `(param, min, max)`) on
/// holding registers of their own (9000 up), over the shipped config of that code when there
/// is one (so telemetry still decodes) or an empty inverter map.
pub async fn store_map(app: &App, code: &str, params: &[(&str, Option<f64>, Option<f64>)]) {
    let base = shipped()
        .unwrap_or_default()
        .into_iter()
        .find(|c| c.code == code);
    let mut config: Value = match base {
        Some(c) => serde_json::to_value(&c).expect("shipped config"),
        None => {
            json!({"code": code, "name": code, "family": "inverter", "version": 1, "points": []})
        }
    };
    let mut settings = Vec::new();
    for (i, (param, min, max)) in params.iter().enumerate() {
        let point = format!("test_setting_{i}");
        config["points"]
            .as_array_mut()
            .expect("points")
            .push(json!({"key": point, "address": 9000 + i, "data_type": "i16"}));
        let mut s = json!({"param": param, "point": point});
        if let Some(min) = min {
            s["min"] = json!(min);
        }
        if let Some(max) = max {
            s["max"] = json!(max);
        }
        settings.push(s);
    }
    config["settings"] = Value::Array(settings);
    let parsed = ProtocolConfig::from_json(&config.to_string()).expect("config parses");
    assert_eq!(parsed.settings.len(), params.len());
    let stored = app
        .store
        .seed_protocol(
            code,
            DeviceFamily::Inverter,
            code,
            &config.to_string(),
            domain::time::now_ms(),
        )
        .await
        .expect("store config");
    assert!(stored, "{code} stored once");
}

/// Stores `code` writing `params` without limits of their own.
pub async fn store_params(app: &App, code: &str, params: &[&str]) {
    let params: Vec<(&str, Option<f64>, Option<f64>)> =
        params.iter().map(|p| (*p, None, None)).collect();
    store_map(app, code, &params).await;
}

/// The three Deye hybrid maps writing every setting the portal knows.
pub async fn writable_hybrids(app: &App) {
    let every = every_setting();
    let every: Vec<&str> = every.iter().map(String::as_str).collect();
    for code in [
        "deye-hybrid-1ph",
        "deye-hybrid-3ph-lv",
        "deye-hybrid-3ph-hv",
    ] {
        store_params(app, code, &every).await;
    }
}
