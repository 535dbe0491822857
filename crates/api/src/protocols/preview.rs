//! Testing a protocol config against a captured frame before saving it: the frame is decoded
//! with the decoder ingest uses (`devices::decode::preview`), and each point answers its value
//! and the bytes it came from. See docs/device-protocol.md ("Previewing a config") for the
//! frame format.

use axum::{Json, extract::State};
use devices::decode::{self, FrameFormat, Value as Decoded};
use domain::{Code, DomainError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{VIEW, invalid_config, parse_config, require_admin};
use crate::{
    AppState,
    envelope::{ApiResult, Data, Envelope},
    session::CurrentUser,
};

/// A config and a captured Modbus response.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewRequest {
    /// A protocol config (see docs/device-protocol.md), saved or not.
    #[schema(value_type = Object)]
    pub config: Value,
    /// Hex, spaces, commas and `0x` allowed: an RTU response to function 3 or 4 (unit, function,
    /// byte count, data, CRC; the CRC must check), or bare register data.
    pub frame: String,
    /// The register the data starts at; default: the config's first read (of the RTU
    /// function's register kind).
    #[serde(default)]
    pub start: Option<u16>,
}

/// One point's decoded value.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewValue {
    pub key: String,
    /// The point's name (configs name points by their key).
    pub name: String,
    pub unit: String,
    /// A number or text (a one-bit field reads 0 or 1); null when the frame does not hold all
    /// of the point's registers or the value cannot be decoded.
    #[schema(value_type = Option<Object>)]
    pub value: Option<Value>,
    /// The point's registers as they were in the frame (spaced hex; empty when none were).
    pub raw: String,
}

/// What a frame decodes to.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewAnswer {
    /// `rtu` or `registers`: how the frame was read.
    pub format: String,
    /// The register the data starts at, and how many registers it holds.
    pub start: u16,
    pub registers: usize,
    pub values: Vec<PreviewValue>,
    /// Points that could not be decoded, and how many the frame does not cover.
    pub problems: Vec<String>,
}

fn json_value(v: &Decoded) -> Value {
    match v {
        Decoded::Bool(b) => Value::from(u8::from(*b)),
        Decoded::Number(n) => serde_json::Number::from_f64(*n).map_or(Value::Null, Value::Number),
        Decoded::Text(t) => Value::from(t.as_str()),
    }
}

/// Decodes a captured frame with a config (`sys.protocol.view`; nothing is stored). A config
/// the decoder's checks refuse answers 4 with the same message as saving it; a frame that is
/// not hex, or an RTU frame whose CRC does not check, answers 4 `frame: ...`.
#[utoipa::path(post, path = "/api/v1/logger/function/preview", tag = "protocols", request_body = PreviewRequest,
    security(("bearer" = [])), responses((status = 200, description = "Each point's value; 2, 4", body = Envelope<PreviewAnswer>)))]
pub async fn preview(
    State(_app): State<AppState>,
    me: CurrentUser,
    body: Result<Json<PreviewRequest>, axum::extract::rejection::JsonRejection>,
) -> ApiResult<Data<PreviewAnswer>> {
    require_admin(&me, VIEW)?;
    let Json(req) = body.map_err(|_| DomainError::invalid("body"))?;
    let config = parse_config(req.config)?;
    config
        .validate()
        .map_err(|e| invalid_config(&e.to_string()))?;
    let (block, format) = decode::frame_block(&config, &req.frame, req.start)
        .map_err(|e| DomainError::with_detail(Code::InvalidParameter, e))?;
    let (start, registers) = (block.start, block.words.len());
    let points = decode::preview(&config, &[block]);
    let mut problems: Vec<String> = points
        .iter()
        .filter(|p| p.invalid)
        .map(|p| format!("{}: cannot be decoded", p.point.key))
        .collect();
    problems.extend(
        points
            .iter()
            .filter(|p| p.out_of_range)
            .map(|p| format!("{}: outside its valid range (ingest drops it)", p.point.key)),
    );
    let missing = points.iter().filter(|p| p.missing).count();
    if missing > 0 {
        problems.push(format!("points outside the frame: {missing}"));
    }
    let values = points
        .iter()
        .map(|p| PreviewValue {
            key: p.point.key.clone(),
            name: p.point.key.clone(),
            unit: p.point.unit.clone(),
            value: p.value.as_ref().map(json_value),
            raw: p.raw.clone(),
        })
        .collect();
    Ok(Data(PreviewAnswer {
        format: match format {
            FrameFormat::Rtu => "rtu",
            FrameFormat::Registers => "registers",
        }
        .into(),
        start,
        registers,
        values,
        problems,
    }))
}
