//! Directory lists the forms choose from: currencies, time zones, plant types, protocols.

use axum::{Router, routing::get};
use chrono::{Offset, Utc};
use chrono_tz::{TZ_VARIANTS, Tz};
use domain::{Lang, currency::CURRENCIES, plant::PlantType};
use serde_json::{Value, json};

use crate::{AppState, envelope::Data, envelope::current_lang};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/dict/currencies", get(currencies))
        .route("/api/v1/dict/timezones", get(timezones))
        .route("/api/v1/dict/plantTypes", get(plant_types))
        .route("/api/v1/dict/protocols", get(protocols))
}

#[utoipa::path(get, path = "/api/v1/dict/currencies", tag = "directories",
    responses((status = 200, description = "Envelope with [{id, code, text (symbol), name}]")))]
pub async fn currencies() -> Data<Vec<Value>> {
    let lang = current_lang();
    Data(
        CURRENCIES
            .iter()
            .map(|c| json!({"id": c.id, "code": c.code, "text": c.symbol, "name": c.name(lang)}))
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

/// `{id, code, text}` of a zone, with its current UTC offset in the text.
pub fn timezone_json(id: i64, tz: Tz) -> Value {
    let seconds = Utc::now()
        .with_timezone(&tz)
        .offset()
        .fix()
        .local_minus_utc();
    let sign = if seconds < 0 { '-' } else { '+' };
    let (h, m) = (seconds.abs() / 3600, seconds.abs() % 3600 / 60);
    json!({"id": id, "code": tz.name(), "text": format!("(UTC{sign}{h:02}:{m:02}) {}", tz.name())})
}

#[utoipa::path(get, path = "/api/v1/dict/timezones", tag = "directories",
    responses((status = 200, description = "Envelope with [{id, code (IANA), text}]")))]
pub async fn timezones() -> Data<Vec<Value>> {
    Data(
        TZ_VARIANTS
            .iter()
            .enumerate()
            .map(|(i, tz)| timezone_json(i as i64 + 1, *tz))
            .collect(),
    )
}

#[utoipa::path(get, path = "/api/v1/dict/plantTypes", tag = "directories",
    responses((status = 200, description = "Envelope with [{id, name}]")))]
pub async fn plant_types() -> Data<Vec<Value>> {
    let lang = current_lang();
    Data(
        PlantType::ALL
            .iter()
            .map(|t| json!({"id": *t as i64, "name": t.name(lang)}))
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

#[utoipa::path(get, path = "/api/v1/dict/protocols", tag = "directories",
    responses((status = 200, description = "Envelope with [{id, code, name}]")))]
pub async fn protocols() -> Data<Vec<Value>> {
    let i = match current_lang() {
        Lang::En => 0,
        Lang::Zh => 1,
        Lang::Es => 2,
    };
    Data(
        PROTOCOLS
            .iter()
            .map(|(id, code, names)| json!({"id": id, "code": code, "name": names[i]}))
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
