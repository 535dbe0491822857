//! Remote debug: a raw Modbus RTU frame typed in the toolbox goes to an inverter (through its
//! gateway) or to a gateway itself as a `modbus_raw` command; the reply frame comes back on the
//! command's row. Every exchange, refused ones included, is written to the debug log and the
//! audit log. The gateway routes live with the gateway actions (they share gateway lookup);
//! both paths end in [`send_frame`].

pub(crate) mod log;

use domain::ids::CommandId;
use std::time::Duration;
use utoipa_axum::{router::OpenApiRouter, routes};

use axum::extract::{Path, State};
use devices::modbus;
use domain::{Code, DeviceFamily, DomainError};
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::{
    AppState,
    envelope::{ApiError, ApiResult, Data, Envelope},
    extract::{Body, num},
    session::CurrentUser,
};
use domain::time::now_ms;

pub(crate) use log::{DebugEntry, entry_json, find};
pub(crate) use service::debug_log::Target;

/// How long a raw frame may wait for its reply before the command times out.
pub(crate) const DEBUG_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest frame accepted: an RTU ADU is at most 256 bytes.
const MAX_FRAME: usize = 256;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(inverter_debug))
        .routes(routes!(log::reply))
        .routes(routes!(log::list))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DebugRequest {
    /// The RTU frame as hex (spaces, commas and `0x` allowed), CRC included.
    #[serde(default, alias = "frame", deserialize_with = "num::opt_text")]
    pub code: Option<String>,
}

/// The frame of a request: hex, 4 to 256 bytes, with a CRC that checks (a device drops a frame
/// whose CRC is wrong, so sending one would only ever time out). Code 4 `code` otherwise.
pub(crate) fn parse_frame(raw: Option<&str>) -> Result<String, DomainError> {
    let bytes =
        modbus::parse_hex(raw.unwrap_or_default()).map_err(|_| DomainError::invalid("code"))?;
    if bytes.len() > MAX_FRAME || modbus::rtu_split(&bytes).is_err() {
        return Err(DomainError::invalid("code"));
    }
    Ok(modbus::to_hex(&bytes))
}

/// Writes the debug log entry of an exchange whose send ended in `outcome` (the command id, or
/// the refusal the sending helper already audited) and answers the entry as the screen shows
/// it; a refusal is logged and then answered as the error it is.
pub(crate) async fn log_exchange(
    app: &AppState,
    me: &CurrentUser,
    target: &Target<'_>,
    frame: &str,
    outcome: ApiResult<CommandId>,
) -> ApiResult<Data<DebugEntry>> {
    let sent = match &outcome {
        Ok(id) => Ok(*id),
        Err(ApiError::Domain(e)) => Err(e),
        Err(_) => return Err(outcome.expect_err("an error")),
    };
    service::debug_log::record(&app.store, &me.actor, target, frame, sent, now_ms()).await?;
    let id = outcome?;
    tracing::info!(device = target.device_sn, command = %id, by = %me.id(), "debug frame sent");
    let row = app
        .store
        .debug_entry_of_command(id)
        .await?
        .ok_or(Code::RequestError)?;
    Ok(Data(entry_json(&row)))
}

/// Sends a raw Modbus RTU frame (`code`) to an inverter through its gateway; the reply is read
/// with `GET /api/v1/debug/reply?id={commandId}`.
#[utoipa::path(post, path = "/api/v1/inverter/{sn}/debug", tag = "debug", params(("sn" = String, Path)),
    request_body = DebugRequest, security(("bearer" = [])),
    responses((status = 200, description = "The exchange as logged; 2, 4 code, 600, 602 offline, 603 upgrading, 604 state forbids, 606 connection failed", body = Envelope<DebugEntry>)))]
pub async fn inverter_debug(
    State(app): State<AppState>,
    me: CurrentUser,
    Path(sn): Path<String>,
    Body(req): Body<DebugRequest>,
) -> ApiResult<Data<DebugEntry>> {
    let device = app
        .store
        .device_visible(me.actor.plant_visibility(), me.id(), sn.trim())
        .await?
        .filter(|d| d.family == DeviceFamily::Inverter)
        .ok_or(Code::InverterMissing)?;
    let plant = match device.plant_id {
        Some(id) => app.store.plant(id, me.id()).await?,
        None => None,
    };
    match &plant {
        Some(p) => {
            me.actor
                .require_on_plant(&p.scope(), domain::permissions::INVERTER_DEBUG)?;
        }
        // Only internal staff see a device that is on no plant.
        None => me.actor.require(domain::permissions::INVERTER_DEBUG)?,
    }
    me.actor.require_writable()?;
    let frame = parse_frame(req.code.as_deref())?;
    let outcome = crate::commands::send_to_device(
        &app,
        &me,
        domain::audit_action::INVERTER_DEBUG,
        &device,
        domain::command::CommandKind::ModbusRaw,
        json!({ "frame": frame }),
        DEBUG_TIMEOUT,
    )
    .await;
    let gateway_sn = device.gateway_sn.clone().unwrap_or_default();
    let target = Target {
        kind: "inverter",
        device_sn: &device.sn,
        gateway_sn: &gateway_sn,
        plant: plant.as_ref(),
    };
    log_exchange(&app, &me, &target, &frame, outcome).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_must_be_hex_with_a_good_crc() {
        assert_eq!(
            parse_frame(Some("01 03 00 00 00 0a c5 cd")).as_deref(),
            Ok("01 03 00 00 00 0A C5 CD")
        );
        assert_eq!(
            parse_frame(Some("0x11,0x03,0x00,0x6B,0x00,0x03,0x76,0x87")).as_deref(),
            Ok("11 03 00 6B 00 03 76 87")
        );
        for bad in ["01 03 00 00 00 0A C5 CE", "01 0", "zz", "", "01 03"] {
            assert_eq!(
                parse_frame(Some(bad)).unwrap_err(),
                DomainError::invalid("code"),
                "{bad}"
            );
        }
        assert!(parse_frame(None).is_err());
    }
}
