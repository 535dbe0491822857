//! Request extractors that follow docs/api-conventions.md: lenient query strings, bodies as JSON or
//! url-encoded forms, and client addresses. Bad input becomes code 4, never a 4xx/5xx.

use std::net::{IpAddr, SocketAddr};

use axum::{
    body::Bytes,
    extract::{ConnectInfo, FromRef, FromRequest, FromRequestParts, Request},
    http::{header, request::Parts},
};
use domain::DomainError;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::{AppState, envelope::ApiError};

/// Query parameters parsed the lenient way: bare keys and empty values count as "not given",
/// unknown keys are ignored, repeated keys keep the last value, and every value reaches `T` as a
/// string (use [`crate::extract::num`] helpers for numeric fields).
pub struct Query<T>(pub T);

pub fn query_map(raw: Option<&str>) -> Map<String, Value> {
    let mut map = Map::new();
    for (key, value) in form_urlencoded::parse(raw.unwrap_or_default().as_bytes()) {
        if !value.is_empty() {
            map.insert(key.into_owned(), Value::String(value.into_owned()));
        }
    }
    map
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let map = query_map(parts.uri.query());
        serde_json::from_value(Value::Object(map))
            .map(Query)
            .map_err(|e| DomainError::invalid(field_of(&e.to_string())).into())
    }
}

/// A request body as JSON, or as an url-encoded form (whose values arrive as strings).
pub struct Body<T>(pub T);

impl<S, T> FromRequest<S> for Body<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let is_form = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
        // Past the route's body limit (limits.rs) the stream is cut off with 413.
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                DomainError::invalid("body too large")
            } else {
                DomainError::invalid("body")
            }
        })?;
        let value = if is_form {
            let raw = std::str::from_utf8(&bytes).map_err(|_| DomainError::invalid("body"))?;
            Value::Object(query_map(Some(raw)))
        } else if bytes.iter().all(u8::is_ascii_whitespace) {
            Value::Object(Map::new())
        } else {
            serde_json::from_slice(&bytes).map_err(|_| DomainError::invalid("body"))?
        };
        serde_json::from_value(value)
            .map(Body)
            .map_err(|e| DomainError::invalid(field_of(&e.to_string())).into())
    }
}

/// serde names the offending field in backticks; that name is all the caller needs.
fn field_of(message: &str) -> String {
    message
        .split('`')
        .nth(1)
        .unwrap_or("body")
        .chars()
        .take(40)
        .collect()
}

/// The caller's address: the socket peer, or, when the portal is configured to sit behind a
/// trusted proxy, the last `X-Forwarded-For` entry: the one that proxy appended. Earlier
/// entries come from the client and could be anything, which would let one client pass for
/// many addresses and slip past every per-address limit.
pub struct ClientIp(pub IpAddr);

impl<S> FromRequestParts<S> for ClientIp
where
    S: Send + Sync,
    AppState: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let app = AppState::from_ref(state);
        if app.config.trust_proxy
            && let Some(ip) = parts
                .headers
                .get_all("x-forwarded-for")
                .iter()
                .next_back()
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .and_then(|v| v.trim().parse().ok())
        {
            return Ok(ClientIp(ip));
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        Ok(ClientIp(peer.unwrap_or(IpAddr::from([127, 0, 0, 1]))))
    }
}

/// Deserializers for values that clients send either as numbers or as numeric strings.
pub mod num {
    use serde::{Deserialize, Deserializer, de::Error};
    use serde_json::Value;

    fn to_f64(v: &Value) -> Option<Option<f64>> {
        match v {
            Value::Null => Some(None),
            Value::Number(n) => n.as_f64().map(Some),
            Value::String(s) if s.trim().is_empty() => Some(None),
            Value::String(s) => s
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .map(Some),
            _ => None,
        }
    }

    pub fn opt_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        let v = Value::deserialize(d)?;
        match to_f64(&v) {
            Some(Some(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(Some(f as i64)),
            Some(None) => Ok(None),
            _ => Err(D::Error::custom("not an integer")),
        }
    }

    pub fn opt_f64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        let v = Value::deserialize(d)?;
        to_f64(&v).ok_or_else(|| D::Error::custom("not a number"))
    }

    /// A number an edit may also clear: absent stays `None` (with `#[serde(default)]`: keep
    /// the value), `null` or `""` is `Some(None)` (clear it), a number or numeric string
    /// `Some(Some(v))`.
    pub fn clearable_f64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<f64>>, D::Error> {
        let v = Value::deserialize(d)?;
        to_f64(&v)
            .map(Some)
            .ok_or_else(|| D::Error::custom("not a number"))
    }

    /// Strings, numbers and booleans all read as text (clients send `nonce` either way).
    pub fn opt_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::Null => None,
            Value::String(s) => Some(s),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => return Err(D::Error::custom("not text")),
        })
    }

    pub fn opt_bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::Null => None,
            Value::Bool(b) => Some(b),
            Value::Number(n) => Some(n.as_f64() != Some(0.0)),
            Value::String(s) => match s.trim() {
                "" => None,
                "true" | "1" => Some(true),
                "false" | "0" => Some(false),
                _ => return Err(D::Error::custom("not a boolean")),
            },
            _ => return Err(D::Error::custom("not a boolean")),
        })
    }
}

/// The route's one numeric path parameter (`{id}`) as a typed id such as `PlantId`; anything
/// but a number is code 4, like every bad parameter.
pub struct PathId<T>(pub T);

impl<S: Send + Sync, T: From<i64>> FromRequestParts<S> for PathId<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let raw = axum::extract::Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::from(DomainError::invalid("id")))?;
        raw.0
            .trim()
            .parse::<i64>()
            .map(|id| PathId(T::from(id)))
            .map_err(|_| DomainError::invalid("id").into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_keys_and_empty_values_are_not_given() {
        let map = query_map(Some("name=&status=&lan&page=2&column=dc_temp,igbt_temp"));
        assert_eq!(map.len(), 2);
        assert_eq!(map["page"], "2");
        assert_eq!(map["column"], "dc_temp,igbt_temp");
    }

    #[test]
    fn serde_field_names_are_kept_for_messages() {
        assert_eq!(
            field_of("invalid type: map, expected a string for `password`"),
            "password"
        );
        assert_eq!(field_of("EOF"), "body");
    }
}
