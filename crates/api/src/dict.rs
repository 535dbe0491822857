//! Directory lists the forms choose from: currencies, time zones, plant types, protocols.

use chrono::{Offset, Utc};
use chrono_tz::{TZ_VARIANTS, Tz};
use domain::{Lang, currency::CURRENCIES, plant::PlantType};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    AppState,
    envelope::{Data, Envelope, current_lang},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(currencies))
        .routes(routes!(timezones))
        .routes(routes!(plant_types))
        .routes(routes!(protocols))
}

/// A currency plants may price energy in.
#[derive(Debug, Serialize, ToSchema)]
pub struct CurrencyOption {
    pub id: i64,
    /// ISO 4217 (`EUR`).
    pub code: &'static str,
    /// The symbol (`€`).
    pub text: &'static str,
    /// The name in the caller's language.
    pub name: &'static str,
}

#[utoipa::path(get, path = "/api/v1/dict/currencies", tag = "directories",
    responses((status = 200, description = "Every currency", body = Envelope<Vec<CurrencyOption>>)))]
pub async fn currencies() -> Data<Vec<CurrencyOption>> {
    let lang = current_lang();
    Data(
        CURRENCIES
            .iter()
            .map(|c| CurrencyOption {
                id: c.id,
                code: c.code,
                text: c.symbol,
                name: c.name(lang),
            })
            .collect(),
    )
}

/// Time zones are IANA names; the id is the zone's position in the tz database list.
pub fn timezone_by_id_or_code(raw: &str) -> Option<(i64, Tz)> {
    let raw = raw.trim();
    match raw.parse::<usize>() {
        Ok(id) if id >= 1 => TZ_VARIANTS.get(id - 1).map(|tz| (id as i64, *tz)),
        Ok(_) => None,
        Err(_) => TZ_VARIANTS
            .iter()
            .position(|tz| tz.name() == raw)
            .map(|i| (i as i64 + 1, TZ_VARIANTS[i])),
    }
}

/// A time zone of the tz database.
#[derive(Debug, Serialize, ToSchema)]
pub struct TimeZoneOption {
    /// The zone's position in the tz database list, from 1.
    pub id: i64,
    /// The IANA name (`Europe/London`).
    pub code: &'static str,
    /// The name with the zone's current UTC offset: `(UTC+01:00) Europe/London`.
    pub text: String,
}

/// A zone with its current UTC offset in the text.
pub fn timezone(id: i64, tz: Tz) -> TimeZoneOption {
    let seconds = Utc::now()
        .with_timezone(&tz)
        .offset()
        .fix()
        .local_minus_utc();
    let sign = if seconds < 0 { '-' } else { '+' };
    let (h, m) = (seconds.abs() / 3600, seconds.abs() % 3600 / 60);
    TimeZoneOption {
        id,
        code: tz.name(),
        text: format!("(UTC{sign}{h:02}:{m:02}) {}", tz.name()),
    }
}

/// [`timezone`] as JSON, for answers not typed yet.
pub fn timezone_json(id: i64, tz: Tz) -> Value {
    serde_json::to_value(timezone(id, tz)).unwrap_or_default()
}

#[utoipa::path(get, path = "/api/v1/dict/timezones", tag = "directories",
    responses((status = 200, description = "Every time zone", body = Envelope<Vec<TimeZoneOption>>)))]
pub async fn timezones() -> Data<Vec<TimeZoneOption>> {
    Data(
        TZ_VARIANTS
            .iter()
            .enumerate()
            .map(|(i, tz)| timezone(i as i64 + 1, *tz))
            .collect(),
    )
}

/// A kind of plant (grid-tied, ...), named in the caller's language.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlantTypeOption {
    pub id: i64,
    pub name: &'static str,
}

#[utoipa::path(get, path = "/api/v1/dict/plantTypes", tag = "directories",
    responses((status = 200, description = "Every plant type", body = Envelope<Vec<PlantTypeOption>>)))]
pub async fn plant_types() -> Data<Vec<PlantTypeOption>> {
    let lang = current_lang();
    Data(
        PlantType::ALL
            .iter()
            .map(|t| PlantTypeOption {
                id: *t as i64,
                name: t.name(lang),
            })
            .collect(),
    )
}

const PROTOCOLS: [(i64, &str, [&str; 3]); 3] = [
    (
        1,
        "modbus-rtu",
        [
            "Modbus RTU (RS485)",
            "Modbus RTU（RS485）",
            "Modbus RTU (RS485)",
        ],
    ),
    (2, "modbus-tcp", ["Modbus TCP", "Modbus TCP", "Modbus TCP"]),
    (
        3,
        "mqtt-json",
        [
            "MQTT JSON (decoded values)",
            "MQTT JSON（已解码数值）",
            "MQTT JSON (valores decodificados)",
        ],
    ),
];

/// A protocol gateways speak to their devices.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProtocolOption {
    pub id: i64,
    /// `modbus-rtu`, `modbus-tcp` or `mqtt-json`.
    pub code: &'static str,
    /// The name in the caller's language.
    pub name: &'static str,
}

#[utoipa::path(get, path = "/api/v1/dict/protocols", tag = "directories",
    responses((status = 200, description = "Every protocol", body = Envelope<Vec<ProtocolOption>>)))]
pub async fn protocols() -> Data<Vec<ProtocolOption>> {
    let i = match current_lang() {
        Lang::En => 0,
        Lang::Zh => 1,
        Lang::Es => 2,
    };
    Data(
        PROTOCOLS
            .iter()
            .map(|(id, code, names)| ProtocolOption {
                id: *id,
                code,
                name: names[i],
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_are_found_by_id_and_by_name() {
        let (id, tz) = timezone_by_id_or_code("Europe/London").unwrap();
        assert_eq!(timezone_by_id_or_code(&id.to_string()).unwrap().1, tz);
        assert!(timezone_by_id_or_code("Mars/Olympus").is_none());
        assert!(timezone_by_id_or_code("0").is_none());
        assert_eq!(timezone_json(id, tz)["code"], "Europe/London");
    }
}
