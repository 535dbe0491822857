//! Which settings an inverter offers: its family's fields that its protocol config (register
//! map) can write. The config is the stored one administrators edit; before the store has been
//! seeded with the shipped configs (a fresh database in tests) the shipped one of that code.

use std::sync::OnceLock;

use devices::protocol::{ProtocolConfig, shipped};
use domain::settings::{Offer, Writable};

use crate::{AppState, envelope::ApiResult, inverters::Inverter};

/// The settings the inverter offers (601 when its map writes nothing, 605 when it writes none
/// of its family's fields).
pub(crate) async fn offer_of(app: &AppState, inv: &Inverter) -> ApiResult<Offer> {
    offer_for(app, inv.row.type_code, &inv.row.protocol).await
}

/// The settings an inverter of type `type_code` with protocol config `protocol` offers.
pub(crate) async fn offer_for(app: &AppState, type_code: i64, protocol: &str) -> ApiResult<Offer> {
    let writable = match config(app, protocol).await? {
        Some(c) => writable(&c),
        None => Vec::new(),
    };
    Ok(Offer::new(type_code, &writable)?)
}

/// The protocol config named `code`: stored, else shipped; none when neither has it (or the
/// stored one no longer parses and nothing was shipped under its code).
async fn config(app: &AppState, code: &str) -> ApiResult<Option<ProtocolConfig>> {
    if code.trim().is_empty() {
        return Ok(None);
    }
    if let Some(row) = app.store.protocol(code).await? {
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
pub(crate) fn writable(config: &ProtocolConfig) -> Vec<Writable> {
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
