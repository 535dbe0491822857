//! Which settings an inverter offers: its family's fields that its protocol config (register
//! map) can write. The config is the stored one administrators edit; before the store has been
//! seeded with the shipped configs (a fresh database in tests) the shipped one of that code.
//! And the values a device confirmed: a succeeded `set_params` becomes what reads show. The
//! settings screens and the demand-response dispatch both go through here.

use std::{sync::OnceLock, time::Duration};

use devices::{
    link::Dispatcher,
    protocol::{ProtocolConfig, shipped},
};
use domain::{
    plant::Status,
    settings::{Offer, Writable},
};
use serde_json::{Map, Value};
use store::{
    Store,
    commands::{CommandRow, CommandStatus},
    devices::DeviceListRow,
};

use crate::Result;

/// The settings an inverter of type `type_code` with protocol config `protocol` offers (601
/// when its map writes nothing, 605 when it writes none of its family's fields).
pub async fn offer_for(store: &Store, type_code: i64, protocol: &str) -> Result<Offer> {
    let writable = match config(store, protocol).await? {
        Some(c) => writable(&c),
        None => Vec::new(),
    };
    Ok(Offer::new(type_code, &writable)?)
}

/// The protocol config named `code`: stored, else shipped; none when neither has it (or the
/// stored one no longer parses and nothing was shipped under its code).
async fn config(store: &Store, code: &str) -> Result<Option<ProtocolConfig>> {
    if code.trim().is_empty() {
        return Ok(None);
    }
    if let Some(row) = store.protocol(code).await? {
        match ProtocolConfig::from_json(&row.config) {
            Ok(c) => return Ok(Some(c)),
            Err(e) => tracing::warn!(code, %e, "stored protocol config unreadable"),
        }
    }
    Ok(shipped_configs().iter().find(|c| c.code == code).cloned())
}

/// The shipped configs, parsed once.
fn shipped_configs() -> &'static [ProtocolConfig] {
    static SHIPPED: OnceLock<Vec<ProtocolConfig>> = OnceLock::new();
    SHIPPED.get_or_init(|| shipped().unwrap_or_default())
}

/// The settings a config can write: each of its `settings` whose point is a writable holding
/// register of the config (the same rule the gateway agent writes by), with its limits.
pub fn writable(config: &ProtocolConfig) -> Vec<Writable> {
    config
        .settings
        .iter()
        .filter(|s| config.setting(&s.param).is_ok())
        .map(|s| Writable {
            param: s.param.clone(),
            min: s.min,
            max: s.max,
        })
        .collect()
}

/// The values a succeeded `set_params` command wrote; `None` for any other command.
fn applied(c: &CommandRow) -> Option<Map<String, Value>> {
    if c.kind != "set_params" || c.status() != CommandStatus::Succeeded {
        return None;
    }
    serde_json::from_str::<Value>(&c.params)
        .ok()?
        .as_object()
        .cloned()
}

/// Records the values of a succeeded `set_params` command as the device's confirmed values
/// (idempotent: older values never overwrite newer ones).
pub async fn remember_applied(store: &Store, c: &CommandRow) -> store::Result<()> {
    if let Some(values) = applied(c) {
        let values: Vec<(String, String)> = values
            .into_iter()
            .filter_map(|(k, v)| v.as_str().map(|s| (k, s.to_string())))
            .collect();
        store
            .store_device_settings(&c.device_sn, &values, c.updated_at)
            .await?;
    }
    Ok(())
}

/// The values a reply carried, as strings, keeping only the offered keys.
fn known_values(offer: &Offer, data: &Map<String, Value>) -> Vec<(String, String)> {
    data.iter()
        .filter(|(k, _)| offer.field(k).is_some())
        .filter_map(|(k, v)| {
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                _ => return None,
            };
            Some((k.clone(), text))
        })
        .collect()
}

/// Asks an online device for its values (waiting at most `wait`) and keeps what it answered
/// as its confirmed values, for a read the caller may make. Nothing happens without a device
/// link, a gateway or an answer in time: the read then shows the values kept before.
pub async fn read_from_device(
    store: &Store,
    dispatcher: Option<&Dispatcher>,
    device: &DeviceListRow,
    offer: &Offer,
    wait: Duration,
) {
    let (Some(dispatcher), Some(gateway)) = (dispatcher, device.gateway_sn.as_deref()) else {
        return;
    };
    if device.status == Status::Offline as i64 {
        return;
    }
    let Ok(id) = dispatcher
        .send(gateway, &device.sn, "read_params", Value::Null, wait)
        .await
    else {
        return;
    };
    let Ok(Some(row)) = dispatcher.wait(id, wait).await else {
        return;
    };
    if row.status() != CommandStatus::Succeeded {
        return;
    }
    if let Some(data) = serde_json::from_str::<Value>(&row.result_data)
        .ok()
        .and_then(|v| v.as_object().cloned())
    {
        let values = known_values(offer, &data);
        if let Err(e) = store
            .store_device_settings(&device.sn, &values, row.updated_at)
            .await
        {
            tracing::warn!(error = %e, sn = %device.sn, "settings read not kept");
        }
    }
}

#[cfg(test)]
mod tests {
    use devices::DeviceFamily;
    use domain::settings::Family;

    use super::*;

    /// Every shipped inverter map offers settings, and every setting it lists is a field of its
    /// family: none is silently dropped (a key the catalogue does not know would never be
    /// offered, so never written).
    #[test]
    fn every_shipped_inverter_map_offers_each_setting_it_writes() {
        let configs = shipped().expect("shipped configs");
        let inverters: Vec<&ProtocolConfig> = configs
            .iter()
            .filter(|c| c.family == DeviceFamily::Inverter)
            .collect();
        assert!(
            inverters.len() >= 6,
            "hybrids, string, micro, another brand"
        );
        for c in inverters {
            let type_code = i64::from(c.inverter_type.expect("inverter type"));
            let writable = writable(c);
            assert_eq!(writable.len(), c.settings.len(), "{}: a bad point", c.code);
            let offer = Offer::new(type_code, &writable).expect(&c.code);
            for w in &writable {
                assert!(
                    offer.field(&w.param).is_some(),
                    "{}: {} is no {:?} field",
                    c.code,
                    w.param,
                    offer.family()
                );
            }
            let family = Family::of_kind(type_code);
            assert_eq!(offer.family(), family);
            if matches!(family, Family::GridTied | Family::Micro) {
                assert!(offer.field("powerOn").is_some(), "{}: on/off", c.code);
                assert!(offer.field("activePowerLimit").is_some(), "{}", c.code);
            }
        }
    }
}
