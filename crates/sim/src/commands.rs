//! How a simulated gateway answers commands: parameters, power on/off, restart, firmware
//! upgrade (which sometimes fails, like real ones), and raw Modbus frames answered from the
//! device's register image with a valid CRC.

use std::collections::BTreeMap;

use devices::{
    decode::RegisterImage,
    modbus::{self, Request, Response},
    protocol::{ProtocolConfig, RegisterType},
    report::{Command, CommandReply, PAYLOAD_VERSION},
};
use serde_json::{Value as Json, json};

use crate::{fleet::SimGateway, noise, readings::Values};

/// Device failure codes carried in replies.
pub const UNSUPPORTED: i64 = 1;
pub const BAD_PARAMS: i64 = 2;
pub const UPGRADE_FAILED: i64 = 3;

/// What a gateway keeps between commands.
#[derive(Debug, Default)]
pub struct GatewayState {
    pub params: BTreeMap<String, String>,
    pub firmware: String,
    pub restarts: u64,
}

fn reply(cmd: &Command, code: i64, msg: &str, data: Json) -> CommandReply {
    CommandReply {
        v: PAYLOAD_VERSION,
        id: cmd.id.clone(),
        code,
        msg: msg.into(),
        data,
    }
}

/// Answers one command. `latest` holds the device's current values (for Modbus reads).
pub fn answer(
    gw: &mut SimGateway,
    state: &mut GatewayState,
    cmd: &Command,
    latest: &Values,
    config: Option<&ProtocolConfig>,
) -> CommandReply {
    match cmd.kind.as_str() {
        "set_params" => match cmd.params.as_object() {
            Some(map) => {
                for (k, v) in map {
                    let text = match v {
                        Json::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    state.params.insert(k.clone(), text);
                }
                reply(cmd, 0, "applied", json!(state.params))
            }
            None => reply(cmd, BAD_PARAMS, "params must be an object", Json::Null),
        },
        "read_params" => reply(cmd, 0, "", json!(state.params)),
        "power_on" | "power_off" => {
            gw.inverter_on = cmd.kind == "power_on";
            reply(cmd, 0, "", json!({"on": gw.inverter_on}))
        }
        "restart" => {
            state.restarts += 1;
            reply(cmd, 0, "restarting", json!({"restarts": state.restarts}))
        }
        "upgrade" => {
            let version = cmd
                .params
                .get("version")
                .and_then(Json::as_str)
                .unwrap_or("");
            if version.is_empty() {
                return reply(cmd, BAD_PARAMS, "version missing", Json::Null);
            }
            // One upgrade in ten fails its checksum, deterministically per command id.
            if noise::unit(
                0x0DA7,
                noise::mix(cmd.id.bytes().fold(0, |h, b| h * 31 + u64::from(b))),
            ) < 0.1
            {
                return reply(
                    cmd,
                    UPGRADE_FAILED,
                    "firmware checksum mismatch",
                    json!({"progress": 37}),
                );
            }
            state.firmware = version.to_string();
            reply(
                cmd,
                0,
                "upgraded",
                json!({"progress": 100, "version": version}),
            )
        }
        "modbus_raw" => modbus_raw(cmd, latest, config),
        _ => reply(cmd, UNSUPPORTED, "unsupported command", Json::Null),
    }
}

fn modbus_raw(cmd: &Command, latest: &Values, config: Option<&ProtocolConfig>) -> CommandReply {
    let Some(frame) = cmd.params.get("frame").and_then(Json::as_str) else {
        return reply(cmd, BAD_PARAMS, "frame missing", Json::Null);
    };
    let Ok(bytes) = modbus::parse_hex(frame) else {
        return reply(cmd, BAD_PARAMS, "frame is not hex", Json::Null);
    };
    let Ok((unit, request)) = modbus::parse_rtu_request(&bytes) else {
        return reply(
            cmd,
            BAD_PARAMS,
            "not a valid Modbus RTU request (CRC?)",
            Json::Null,
        );
    };
    let mut image = RegisterImage::new();
    if let Some(config) = config {
        for point in &config.points {
            if let Some(v) = latest.get(&point.key) {
                let _ = image.encode(point, v);
            }
        }
    }
    let words = |kind, start: u16, count: u16| {
        (0..count)
            .map(|i| image.word(kind, start.saturating_add(i)))
            .collect()
    };
    let response = match request {
        Request::ReadHolding { start, count } => Response::Registers {
            function: 3,
            values: words(RegisterType::Holding, start, count),
        },
        Request::ReadInput { start, count } => Response::Registers {
            function: 4,
            values: words(RegisterType::Input, start, count),
        },
        Request::WriteSingle { address, value } => Response::WriteSingle { address, value },
        Request::WriteMultiple { start, values } => Response::WriteMultiple {
            start,
            count: values.len() as u16,
        },
    };
    match response.to_pdu() {
        Ok(pdu) => reply(
            cmd,
            0,
            "",
            json!({"frame": modbus::to_hex(&modbus::rtu_frame(unit, &pdu))}),
        ),
        Err(e) => reply(cmd, BAD_PARAMS, &e.to_string(), Json::Null),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fleet::demo_fleet;

    fn cmd(kind: &str, params: Json) -> Command {
        Command {
            v: 1,
            id: format!("c-{kind}"),
            sn: "SIMINV000001".into(),
            kind: kind.into(),
            params,
            timeout_ms: 5000,
        }
    }

    #[test]
    fn parameters_are_kept_and_power_commands_switch_the_inverter() {
        let mut gw = SimGateway::new(demo_fleet(1, 1).remove(0));
        let mut state = GatewayState::default();
        let r = answer(
            &mut gw,
            &mut state,
            &cmd("set_params", json!({"battMode": "1", "cap1": 80})),
            &Values::new(),
            None,
        );
        assert_eq!(r.code, 0);
        assert_eq!(
            answer(
                &mut gw,
                &mut state,
                &cmd("read_params", Json::Null),
                &Values::new(),
                None
            )
            .data["cap1"],
            "80"
        );
        answer(
            &mut gw,
            &mut state,
            &cmd("power_off", Json::Null),
            &Values::new(),
            None,
        );
        assert!(!gw.inverter_on);
        assert_eq!(
            answer(
                &mut gw,
                &mut state,
                &cmd("dance", Json::Null),
                &Values::new(),
                None
            )
            .code,
            UNSUPPORTED
        );
    }

    #[test]
    fn a_raw_read_is_answered_from_the_devices_registers_with_a_valid_crc() {
        let configs = devices::protocol::shipped().unwrap();
        let config = configs
            .iter()
            .find(|c| c.code == "deye-hybrid-1ph")
            .unwrap();
        let soc = config
            .points
            .iter()
            .find(|p| p.key == "battery_soc")
            .unwrap();
        let mut latest = Values::new();
        latest.insert("battery_soc".into(), devices::Value::Number(77.0));
        let frame = modbus::read_holding_frame(1, u16::try_from(soc.address).unwrap(), 1).unwrap();
        let mut gw = SimGateway::new(demo_fleet(1, 1).remove(0));
        let r = answer(
            &mut gw,
            &mut GatewayState::default(),
            &cmd("modbus_raw", json!({"frame": modbus::to_hex(&frame)})),
            &latest,
            Some(config),
        );
        assert_eq!(r.code, 0, "{}", r.msg);
        let bytes = modbus::parse_hex(r.data["frame"].as_str().unwrap()).unwrap();
        let (_, response) = modbus::parse_rtu_response(&bytes).unwrap();
        assert_eq!(
            response,
            Response::Registers {
                function: 3,
                values: vec![77]
            }
        );
        let bad = answer(
            &mut gw,
            &mut GatewayState::default(),
            &cmd("modbus_raw", json!({"frame": "01 03 00 00"})),
            &latest,
            Some(config),
        );
        assert_eq!(bad.code, BAD_PARAMS);
    }
}
