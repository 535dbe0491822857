//! The portal's commands carried out on the real devices (docs/device-protocol.md, "Commands
//! and replies"). A setting is written only to the registers the device's protocol config lists
//! as writable settings, with function 16, and read back and compared before the reply says
//! "applied"; a Modbus exception ends the command with code 5 and its meaning.

use std::{
    collections::BTreeMap,
    sync::{Arc, Mutex},
};

use devices::{
    RegisterType,
    decode::{RegisterImage, plan_reads},
    modbus::{self, Request},
    protocol::{ProtocolConfig, SettingError},
    report::{Command, CommandReply, PAYLOAD_VERSION},
};
use serde_json::{Value as Json, json};

use crate::{
    config::UPLOAD_CYCLE_RANGE,
    poller::{Device, Site},
    state::State,
    transport::TransportError,
};

pub const OK: i64 = 0;
pub const UNSUPPORTED: i64 = 1;
pub const BAD_PARAMS: i64 = 2;
pub const NOT_ANSWERING: i64 = 3;
pub const REFUSED: i64 = 5;
/// The device took the write but reads back another value.
pub const NOT_CONFIRMED: i64 = 8;

/// What the agent does once the reply is acknowledged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum After {
    Nothing,
    /// Sign in again with this key.
    Rekey(String),
    /// Exit, for systemd to start the agent again.
    Restart,
    /// The upload cycle changed: the poll timer follows, the status says it.
    Cycle(u32),
}

pub struct Handler {
    pub gateway_sn: String,
    pub site: Arc<Site>,
    pub state: Arc<Mutex<State>>,
}

fn reply(cmd: &Command, code: i64, msg: impl Into<String>, data: Json) -> CommandReply {
    CommandReply {
        v: PAYLOAD_VERSION,
        id: cmd.id.clone(),
        code,
        msg: msg.into(),
        data,
    }
}

/// A failed step of a command: its reply code and message.
struct Failure(i64, String);

impl From<TransportError> for Failure {
    fn from(e: TransportError) -> Self {
        match e {
            TransportError::Exception { .. } => {
                Failure(REFUSED, format!("the device refused: {e}"))
            }
            other => Failure(NOT_ANSWERING, format!("the device did not answer: {other}")),
        }
    }
}

impl Handler {
    pub async fn answer(&self, cmd: &Command) -> (CommandReply, After) {
        if cmd.sn == self.gateway_sn {
            return self.gateway(cmd);
        }
        let Some(device) = self.site.device(&cmd.sn) else {
            return (
                reply(
                    cmd,
                    NOT_ANSWERING,
                    format!("no device `{}` behind this gateway", cmd.sn),
                    Json::Null,
                ),
                After::Nothing,
            );
        };
        let remote = self.state.lock().is_ok_and(|s| s.remote_settings);
        let result = match cmd.kind.as_str() {
            "set_params" => match texts(&cmd.params) {
                Some(texts) if remote => set(device, &texts).await,
                Some(_) => Err(Failure(
                    REFUSED,
                    "remote settings are switched off on this gateway".into(),
                )),
                None => Err(Failure(
                    BAD_PARAMS,
                    "params must be an object of settings".into(),
                )),
            },
            "power_on" | "power_off" if !remote => Err(Failure(
                REFUSED,
                "remote settings are switched off on this gateway".into(),
            )),
            "power_on" | "power_off" => {
                let on = if cmd.kind == "power_on" { "1" } else { "0" };
                if device.config.protocol.setting("powerOn").is_err() {
                    Err(Failure(
                        BAD_PARAMS,
                        format!(
                            "protocol `{}` has no remote on/off (no `powerOn` setting)",
                            device.config.protocol.code
                        ),
                    ))
                } else {
                    set(device, &[("powerOn".to_string(), on.to_string())]).await
                }
            }
            "read_params" => read_settings(device).await,
            "modbus_raw" => raw(device, &cmd.params, remote).await,
            "restart" | "upgrade" | "upgrade_cancel" => Err(Failure(
                UNSUPPORTED,
                format!("`{}` of a device is not supported by this agent", cmd.kind),
            )),
            other => Err(Failure(UNSUPPORTED, format!("unknown command `{other}`"))),
        };
        let r = match result {
            Ok((msg, data)) => reply(cmd, OK, msg, data),
            Err(Failure(code, msg)) => reply(cmd, code, msg, Json::Null),
        };
        (r, After::Nothing)
    }

    /// Commands to the gateway itself.
    fn gateway(&self, cmd: &Command) -> (CommandReply, After) {
        let Ok(mut state) = self.state.lock() else {
            return (
                reply(cmd, REFUSED, "state unavailable", Json::Null),
                After::Nothing,
            );
        };
        match cmd.kind.as_str() {
            "set_params" => {
                let Some(texts) = texts(&cmd.params) else {
                    return (
                        reply(cmd, BAD_PARAMS, "params must be an object", Json::Null),
                        After::Nothing,
                    );
                };
                let mut after = After::Nothing;
                for (param, text) in &texts {
                    let stored = match param.as_str() {
                        "uploadCycle" => match text.parse::<u32>() {
                            Ok(s) if UPLOAD_CYCLE_RANGE.contains(&s) => {
                                after = After::Cycle(s);
                                state.set_upload_cycle(s)
                            }
                            _ => {
                                return (
                                    reply(
                                        cmd,
                                        BAD_PARAMS,
                                        "uploadCycle: seconds in 10..=3600",
                                        Json::Null,
                                    ),
                                    After::Nothing,
                                );
                            }
                        },
                        "remoteSettings" => match text.as_str() {
                            "1" | "true" => state.set_remote_settings(true),
                            "0" | "false" => state.set_remote_settings(false),
                            _ => {
                                return (
                                    reply(cmd, BAD_PARAMS, "remoteSettings: 0 or 1", Json::Null),
                                    After::Nothing,
                                );
                            }
                        },
                        other => {
                            return (
                                reply(
                                    cmd,
                                    BAD_PARAMS,
                                    format!(
                                        "`{other}` is not a gateway setting (uploadCycle, remoteSettings)"
                                    ),
                                    Json::Null,
                                ),
                                After::Nothing,
                            );
                        }
                    };
                    if let Err(e) = stored {
                        return (
                            reply(
                                cmd,
                                REFUSED,
                                format!("could not store {param}: {e}"),
                                Json::Null,
                            ),
                            After::Nothing,
                        );
                    }
                }
                (reply(cmd, OK, "applied", gateway_params(&state)), after)
            }
            "read_params" => (reply(cmd, OK, "", gateway_params(&state)), After::Nothing),
            "restart" => (reply(cmd, OK, "restarting", Json::Null), After::Restart),
            "rotate_key" => {
                let key = cmd.params.get("key").and_then(Json::as_str).unwrap_or("");
                if !(4..=32).contains(&key.len()) || !key.bytes().all(|b| b.is_ascii_graphic()) {
                    return (
                        reply(
                            cmd,
                            BAD_PARAMS,
                            "key must be 4-32 visible characters",
                            Json::Null,
                        ),
                        After::Nothing,
                    );
                }
                match state.set_key(key) {
                    Ok(()) => (
                        reply(cmd, OK, "key stored", Json::Null),
                        After::Rekey(key.to_string()),
                    ),
                    Err(e) => (
                        reply(
                            cmd,
                            REFUSED,
                            format!("could not store the key: {e}"),
                            Json::Null,
                        ),
                        After::Nothing,
                    ),
                }
            }
            "upgrade" | "upgrade_cancel" => (
                reply(
                    cmd,
                    UNSUPPORTED,
                    "not supported by this agent: upgrade it with its package (docs/agent.md)",
                    Json::Null,
                ),
                After::Nothing,
            ),
            other => (
                reply(
                    cmd,
                    UNSUPPORTED,
                    format!("unknown command `{other}`"),
                    Json::Null,
                ),
                After::Nothing,
            ),
        }
    }
}

fn gateway_params(state: &State) -> Json {
    json!({
        "uploadCycle": state.upload_cycle.to_string(),
        "remoteSettings": if state.remote_settings { "1" } else { "0" },
    })
}

/// The params object as (key, text) pairs: numbers and booleans as their JSON text.
fn texts(params: &Json) -> Option<Vec<(String, String)>> {
    Some(
        params
            .as_object()?
            .iter()
            .map(|(k, v)| {
                let text = match v {
                    Json::String(s) => s.clone(),
                    Json::Bool(b) => if *b { "1" } else { "0" }.to_string(),
                    other => other.to_string(),
                };
                (k.clone(), text)
            })
            .collect(),
    )
}

/// The holding registers a setting's point covers.
fn registers(config: &ProtocolConfig, param: &str) -> Result<Vec<u16>, SettingError> {
    let (_, point) = config.setting(param)?;
    let count = point.register_count().unwrap_or(0);
    Ok((0..count)
        .filter_map(|i| u16::try_from(point.register_address(i)).ok())
        .collect())
}

/// Runs of consecutive addresses: (start, count).
fn runs(addresses: &[u16]) -> Vec<(u16, u16)> {
    let mut sorted = addresses.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out: Vec<(u16, u16)> = Vec::new();
    for a in sorted {
        match out.last_mut() {
            Some((s, c)) if u32::from(*s) + u32::from(*c) == u32::from(a) && *c < 123 => *c += 1,
            _ => out.push((a, 1)),
        }
    }
    out
}

async fn read_into(device: &Device, addresses: &[u16]) -> Result<RegisterImage, TransportError> {
    let mut image = RegisterImage::new();
    for (start, count) in runs(addresses) {
        let words = device
            .bus
            .read(device.config.unit, RegisterType::Holding, start, count)
            .await?;
        for (i, w) in words.into_iter().enumerate() {
            image.set_word(RegisterType::Holding, start + i as u16, w);
        }
    }
    Ok(image)
}

/// Writes each setting (checked first, all of them), reads it back and compares.
async fn set(device: &Device, texts: &[(String, String)]) -> Result<(String, Json), Failure> {
    let config = &device.config.protocol;
    for (param, text) in texts {
        let (def, _) = config
            .setting(param)
            .map_err(|e| Failure(BAD_PARAMS, e.to_string()))?;
        def.parse(text)
            .map_err(|e| Failure(BAD_PARAMS, e.to_string()))?;
    }
    let writable = config.writable_registers();
    let mut applied = BTreeMap::new();
    for (param, text) in texts {
        let regs = registers(config, param).map_err(|e| Failure(BAD_PARAMS, e.to_string()))?;
        let current = read_into(device, &regs)
            .await
            .map_err(|e| in_param(param, e))?;
        let words = config
            .setting_words(param, text, &current)
            .map_err(|e| Failure(BAD_PARAMS, e.to_string()))?;
        // setting_words only names the setting's own registers; checked again all the same,
        // as nothing else may ever be written.
        if let Some((a, _)) = words.iter().find(|(a, _)| !writable.contains(a)) {
            return Err(Failure(
                REFUSED,
                format!("register {a} is not a writable setting"),
            ));
        }
        let by_address: BTreeMap<u16, u16> = words.iter().copied().collect();
        for (start, count) in runs(&words.iter().map(|(a, _)| *a).collect::<Vec<_>>()) {
            let values = (0..count)
                .map(|i| by_address.get(&(start + i)).copied().unwrap_or(0))
                .collect();
            device
                .bus
                .request(
                    device.config.unit,
                    &Request::WriteMultiple { start, values },
                )
                .await
                .map_err(|e| in_param(param, e))?;
        }
        let back = read_into(device, &regs)
            .await
            .map_err(|e| in_param(param, e))?;
        for (a, w) in &words {
            let got = back.word(RegisterType::Holding, *a);
            if got != *w {
                return Err(Failure(
                    NOT_CONFIRMED,
                    format!("`{param}`: wrote {w} to register {a}, the device reads back {got}"),
                ));
            }
        }
        let text = config.setting_text(param, &back).unwrap_or_default();
        applied.insert(param.clone(), Json::String(text));
    }
    Ok((
        "applied".into(),
        Json::Object(applied.into_iter().collect()),
    ))
}

fn in_param(param: &str, e: TransportError) -> Failure {
    let Failure(code, msg) = Failure::from(e);
    Failure(code, format!("`{param}`: {msg}"))
}

/// The device's settings as it holds them now, as settings text.
async fn read_settings(device: &Device) -> Result<(String, Json), Failure> {
    let config = &device.config.protocol;
    let mut only = config.clone();
    only.points
        .retain(|p| config.settings.iter().any(|s| s.point == p.key));
    let mut image = RegisterImage::new();
    for req in plan_reads(&only, 125, 0) {
        let words = device
            .bus
            .read(device.config.unit, req.kind, req.start, req.count)
            .await?;
        for (i, w) in words.into_iter().enumerate() {
            image.set_word(req.kind, req.start + i as u16, w);
        }
    }
    let values: serde_json::Map<String, Json> = config
        .settings
        .iter()
        .filter_map(|s| {
            Some((
                s.param.clone(),
                Json::String(config.setting_text(&s.param, &image)?),
            ))
        })
        .collect();
    Ok((String::new(), Json::Object(values)))
}

/// The debug toolbox's RTU frame passed to the device's bus; the device's RTU reply back. A
/// write to any register that is not a writable setting of the device's map is refused before
/// anything is sent.
async fn raw(device: &Device, params: &Json, remote: bool) -> Result<(String, Json), Failure> {
    let frame = params
        .get("frame")
        .and_then(Json::as_str)
        .ok_or_else(|| Failure(BAD_PARAMS, "frame missing".into()))?;
    let bytes =
        modbus::parse_hex(frame).map_err(|_| Failure(BAD_PARAMS, "frame is not hex".into()))?;
    let (unit, request) = modbus::parse_rtu_request(&bytes)
        .map_err(|e| Failure(BAD_PARAMS, format!("not a Modbus RTU request: {e}")))?;
    if unit != device.config.unit {
        return Err(Failure(
            BAD_PARAMS,
            format!(
                "the frame addresses unit {unit}; device {} is unit {}",
                device.config.sn, device.config.unit
            ),
        ));
    }
    let written: Vec<u16> = match &request {
        Request::WriteSingle { address, .. } => vec![*address],
        Request::WriteMultiple { start, values } => (0..values.len())
            .filter_map(|i| start.checked_add(u16::try_from(i).ok()?))
            .collect(),
        Request::ReadHolding { .. } | Request::ReadInput { .. } => Vec::new(),
    };
    if !written.is_empty() {
        if !remote {
            return Err(Failure(
                REFUSED,
                "remote settings are switched off on this gateway".into(),
            ));
        }
        let writable = device.config.protocol.writable_registers();
        if let Some(a) = written.iter().find(|a| !writable.contains(a)) {
            return Err(Failure(
                REFUSED,
                format!(
                    "register {a} is not a writable setting of protocol `{}`: not sent",
                    device.config.protocol.code
                ),
            ));
        }
    }
    let response = device.bus.exchange(unit, &request).await?;
    let pdu = response
        .to_pdu()
        .map_err(|e| Failure(NOT_ANSWERING, e.to_string()))?;
    Ok((
        String::new(),
        json!({"frame": modbus::to_hex(&modbus::rtu_frame(unit, &pdu))}),
    ))
}
