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
/// Codes of docs/device-protocol.md: busy (4), upgrade failed (6), upgrade cancelled (7).
pub const BUSY: i64 = 4;
pub const UPGRADE_FAILED: i64 = 6;
pub const UPGRADE_CANCELLED: i64 = 7;

/// Models that can stop an upgrade midway: the three-phase HV hybrids (type 94). Others
/// refuse `upgrade_cancel`.
pub fn supports_upgrade_cancel(type_code: i64) -> bool {
    type_code == 94
}

/// How long simulated upgrades take (each between `min` and `max`, by command id) and how
/// often they report progress.
#[derive(Debug, Clone, Copy)]
pub struct UpgradeTiming {
    pub min: std::time::Duration,
    pub max: std::time::Duration,
    pub report_every: std::time::Duration,
}

impl Default for UpgradeTiming {
    fn default() -> Self {
        UpgradeTiming {
            min: std::time::Duration::from_secs(10),
            max: std::time::Duration::from_secs(20),
            report_every: std::time::Duration::from_secs(1),
        }
    }
}

/// One firmware upgrade in progress on a simulated device: the file is sent (0-40 %), then
/// flashed (40-100 %). One upgrade in ten fails its checksum at 37 %, deterministically per
/// command id; a cancellable one stops when asked.
#[derive(Debug, Clone)]
pub struct UpgradeJob {
    pub cmd: Command,
    pub version: String,
    pub duration: std::time::Duration,
    pub fails: bool,
    pub cancellable: bool,
    pub cancelled: bool,
}

/// Where a file transfer ends and flashing begins, in percent.
const SENT_AT: i64 = 40;
const FAILS_AT: i64 = 37;

impl UpgradeJob {
    /// Starts the job, or answers the refusal (no version).
    pub fn start(
        cmd: &Command,
        cancellable: bool,
        timing: UpgradeTiming,
    ) -> Result<UpgradeJob, CommandReply> {
        let version = cmd
            .params
            .get("version")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string();
        if version.is_empty() {
            return Err(reply(cmd, BAD_PARAMS, "version missing", Json::Null));
        }
        // Wrapping: command ids are 32 hex digits, far past what a plain polynomial hash fits.
        let seed = noise::mix(
            cmd.id
                .bytes()
                .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))),
        );
        let spread = timing.max.saturating_sub(timing.min);
        Ok(UpgradeJob {
            cmd: cmd.clone(),
            version,
            duration: timing.min + spread.mul_f64(noise::unit(0x7153, seed)),
            fails: noise::unit(0x0DA7, seed) < 0.1,
            cancellable,
            cancelled: false,
        })
    }

    /// The reply for the time elapsed since the start; a final one ends the job (and, on
    /// success, the device runs the new version).
    pub fn step(&self, elapsed: std::time::Duration, state: &mut GatewayState) -> CommandReply {
        let total = self.duration.as_secs_f64().max(0.001);
        let progress = ((elapsed.as_secs_f64() / total) * 100.0).clamp(0.0, 100.0) as i64;
        let phase = if progress < SENT_AT {
            "sending"
        } else {
            "upgrading"
        };
        if self.cancelled {
            return reply(
                &self.cmd,
                UPGRADE_CANCELLED,
                "upgrade cancelled",
                json!({"state": "cancelled", "progress": progress}),
            );
        }
        if self.fails && progress >= FAILS_AT {
            return reply(
                &self.cmd,
                UPGRADE_FAILED,
                "firmware checksum mismatch",
                json!({"state": "failed", "progress": FAILS_AT}),
            );
        }
        if progress >= 100 {
            state.firmware = self.version.clone();
            return reply(
                &self.cmd,
                0,
                "upgraded",
                json!({"state": "successful", "progress": 100, "version": self.version}),
            );
        }
        reply(
            &self.cmd,
            0,
            phase,
            json!({"final": false, "state": phase, "progress": progress,
                   "cancellable": self.cancellable}),
        )
    }
}

/// Whether a reply ends its command (see docs/device-protocol.md).
pub fn is_final(r: &CommandReply) -> bool {
    r.code != 0 || r.data.get("final").and_then(Json::as_bool) != Some(false)
}

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

/// A reply with no data (refusals, and the answer to a cancel request).
pub fn refusal(cmd: &Command, code: i64, msg: &str) -> CommandReply {
    reply(cmd, code, msg, Json::Null)
}

/// The upload cycles a gateway takes, in seconds (the portal checks the same).
const UPLOAD_CYCLE_S: std::ops::RangeInclusive<i64> = 10..=3600;

/// A `set_params` to the gateway itself that asks for another upload cycle: `None` when the
/// command is not one; else the new cycle (when valid) and the reply.
pub fn upload_cycle(cmd: &Command, gateway_sn: &str) -> Option<(Option<i64>, CommandReply)> {
    if cmd.kind != "set_params" || cmd.sn != gateway_sn {
        return None;
    }
    let asked = cmd.params.get("uploadCycle")?;
    let seconds = match asked {
        Json::String(s) => s.trim().parse::<i64>().ok(),
        other => other.as_i64(),
    }
    .filter(|s| UPLOAD_CYCLE_S.contains(s));
    Some(match seconds {
        Some(s) => (
            Some(s),
            reply(cmd, 0, "applied", json!({"uploadCycle": s.to_string()})),
        ),
        None => (
            None,
            reply(cmd, BAD_PARAMS, "uploadCycle: 10 to 3600 s", Json::Null),
        ),
    })
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
                let values: Vec<(&str, String)> = map
                    .iter()
                    .map(|(k, v)| {
                        let text = match v {
                            Json::String(s) => s.clone(),
                            other => other.to_string(),
                        };
                        (k.as_str(), text)
                    })
                    .collect();
                if let Some(refused) = refused_by_map(config, &values) {
                    return reply(cmd, BAD_PARAMS, &refused, Json::Null);
                }
                for (k, v) in &values {
                    state.params.insert((*k).to_string(), v.clone());
                }
                // The inverter's plant follows what it was told (work mode, slots, limits).
                if let Some(k) = gw.inverter_index(&cmd.sn) {
                    gw.model.write_settings(k, values);
                }
                reply(cmd, 0, "applied", json!(state.params))
            }
            None => reply(cmd, BAD_PARAMS, "params must be an object", Json::Null),
        },
        "read_params" => reply(cmd, 0, "", json!(state.params)),
        "power_on" | "power_off" => power(gw, cmd),
        "restart" => {
            state.restarts += 1;
            reply(cmd, 0, "restarting", json!({"restarts": state.restarts}))
        }
        // Upgrades run over time: the gateway runtime drives them with `UpgradeJob`.
        "upgrade" => reply(cmd, BAD_PARAMS, "upgrade runs as a job", Json::Null),
        "modbus_raw" => modbus_raw(cmd, latest, config),
        "rotate_key" => rotate_key(gw, cmd),
        _ => reply(cmd, UNSUPPORTED, "unsupported command", Json::Null),
    }
}

/// Why a string or micro inverter refuses parameters: one its register map has no setting for,
/// or a value outside the setting's limits (as the device answers a write to a register it
/// does not have, or a value it does not take). The hybrids keep every parameter, as before
/// their maps listed settings: the screens' catalogue holds keys their maps do not.
fn refused_by_map(config: Option<&ProtocolConfig>, values: &[(&str, String)]) -> Option<String> {
    let config = config.filter(|c| matches!(c.inverter_type, Some(1 | 3)))?;
    values.iter().find_map(|(param, text)| {
        config
            .setting(param)
            .and_then(|(def, _)| def.parse(text))
            .err()
            .map(|e| e.to_string())
    })
}

/// Switches the inverter the command names on or off; it reports the new state (`power_on`,
/// `running_state`) and its output from its next upload on.
fn power(gw: &mut SimGateway, cmd: &Command) -> CommandReply {
    let on = cmd.kind == "power_on";
    match gw.inverter_index(&cmd.sn) {
        Some(k) if gw.model.set_on(k, on) => reply(
            cmd,
            0,
            if on { "switched on" } else { "switched off" },
            json!({"on": on}),
        ),
        _ => reply(cmd, UNSUPPORTED, "not an inverter", Json::Null),
    }
}

/// Stores the gateway's next registration key (it signs in with it from its next connection;
/// the runtime reconnects at once after a successful answer). The reply never echoes the key.
fn rotate_key(gw: &mut SimGateway, cmd: &Command) -> CommandReply {
    let key = cmd.params.get("key").and_then(Json::as_str).unwrap_or("");
    if !(4..=32).contains(&key.len()) || !key.bytes().all(|b| b.is_ascii_graphic()) {
        return reply(
            cmd,
            BAD_PARAMS,
            "key must be 4-32 visible characters",
            Json::Null,
        );
    }
    gw.spec.key = key.to_string();
    reply(cmd, 0, "key stored", Json::Null)
}

/// Whether `reply` answers a key rotation the gateway accepted (it must then reconnect).
pub fn took_new_key(cmd: &Command, reply: &CommandReply) -> bool {
    cmd.kind == "rotate_key" && reply.code == 0
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
    fn the_gateway_takes_an_upload_cycle_of_10_to_3600_seconds() {
        let mut c = cmd("set_params", json!({"uploadCycle": "60"}));
        assert!(upload_cycle(&c, "GW").is_none(), "sent to a device");
        c.sn = "GW".into();
        let (cycle, r) = upload_cycle(&c, "GW").expect("asks");
        assert_eq!((cycle, r.code), (Some(60), 0));
        assert_eq!(r.data, json!({"uploadCycle": "60"}));
        for bad in [json!("9"), json!(3601), json!("often"), json!(12.5)] {
            c.params = json!({ "uploadCycle": bad });
            let (cycle, r) = upload_cycle(&c, "GW").expect("asks");
            assert_eq!((cycle, r.code), (None, BAD_PARAMS), "{bad}");
        }
        c.params = json!({"remoteSettings": "1"});
        assert!(upload_cycle(&c, "GW").is_none());
    }

    #[test]
    fn a_new_key_is_stored_never_echoed_and_a_bad_one_refused() {
        let mut gw = SimGateway::new(demo_fleet(1, 1).remove(0));
        let mut state = GatewayState::default();
        let rotate = cmd("rotate_key", json!({"key": "N3wKeyN3wKey"}));
        let r = answer(&mut gw, &mut state, &rotate, &Values::new(), None);
        assert_eq!((r.code, gw.spec.key.as_str()), (0, "N3wKeyN3wKey"));
        assert!(took_new_key(&rotate, &r));
        assert!(
            !r.data.to_string().contains("N3wKey"),
            "the reply must not carry the key"
        );
        let bad = cmd("rotate_key", json!({"key": "no"}));
        let r = answer(&mut gw, &mut state, &bad, &Values::new(), None);
        assert_eq!((r.code, gw.spec.key.as_str()), (BAD_PARAMS, "N3wKeyN3wKey"));
        assert!(!took_new_key(&bad, &r));
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
        let off = answer(
            &mut gw,
            &mut state,
            &cmd("power_off", Json::Null),
            &Values::new(),
            None,
        );
        assert_eq!((off.code, off.data["on"].as_bool()), (0, Some(false)));
        assert!(!gw.model.is_on(0));
        let meter = Command {
            sn: gw.spec.devices[1].sn.clone(),
            ..cmd("power_on", Json::Null)
        };
        let refused = answer(&mut gw, &mut state, &meter, &Values::new(), None);
        assert_eq!(refused.code, UNSUPPORTED, "a meter has no power switch");
        assert!(!gw.model.is_on(0));
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
    fn a_micro_inverter_takes_only_what_its_map_writes() {
        let configs = devices::protocol::shipped().unwrap();
        let mut gw = SimGateway::new(demo_fleet(7, 1).remove(6));
        let inverter = gw.spec.devices[0].clone();
        assert_eq!((inverter.type_code, inverter.protocol), (3, "deye-micro"));
        let config = configs.iter().find(|c| c.code == inverter.protocol);
        let mut state = GatewayState::default();
        let mut send = |gw: &mut SimGateway, params: Json| {
            let c = Command {
                sn: inverter.sn.clone(),
                ..cmd("set_params", params)
            };
            answer(gw, &mut state, &c, &Values::new(), config)
        };
        let refused = send(&mut gw, json!({"sellTime1": "01:00"}));
        assert_eq!(refused.code, BAD_PARAMS);
        assert!(refused.msg.contains("sellTime1"), "{}", refused.msg);
        let too_high = send(&mut gw, json!({"activePowerLimit": "150"}));
        assert_eq!(too_high.code, BAD_PARAMS, "{}", too_high.msg);
        assert_eq!(send(&mut gw, json!({"activePowerLimit": "25"})).code, 0);
        assert_eq!(send(&mut gw, json!({"powerOn": "0"})).code, 0);
        assert!(!gw.model.is_on(0), "powerOn 0 switches it off");
        assert_eq!(send(&mut gw, json!({"powerOn": "1"})).code, 0);
        assert!(gw.model.is_on(0));
        let noon =
            chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2024, 12, 21, 11, 0, 0).unwrap();
        let s = gw.model.step(noon, 300.0);
        assert!(s.flows.pv_w <= 2000.0 * 0.25 + 0.01, "{} W", s.flows.pv_w);
        assert_eq!(s.inverter(0).active_limit_pct, 25.0);
    }

    fn timing(ms: u64) -> UpgradeTiming {
        UpgradeTiming {
            min: std::time::Duration::from_millis(ms),
            max: std::time::Duration::from_millis(ms),
            report_every: std::time::Duration::from_millis(10),
        }
    }

    fn upgrade(id: &str) -> Command {
        Command {
            id: id.into(),
            ..cmd("upgrade", json!({"version": "V2"}))
        }
    }

    #[test]
    fn an_upgrade_sends_the_file_then_flashes_then_runs_the_new_version() {
        // Find a command id that does not fail (one in ten does).
        let job = (0..50)
            .map(|i| UpgradeJob::start(&upgrade(&format!("ok-{i}")), false, timing(1000)).unwrap())
            .find(|j| !j.fails)
            .unwrap();
        let mut state = GatewayState::default();
        let ms = std::time::Duration::from_millis;
        let early = job.step(ms(100), &mut state);
        assert_eq!(early.data["state"], "sending");
        assert_eq!(early.data["progress"], 10);
        assert!(!is_final(&early));
        let later = job.step(ms(500), &mut state);
        assert_eq!(later.data["state"], "upgrading");
        assert_eq!(later.data["cancellable"], false);
        assert_eq!(state.firmware, "");
        let done = job.step(ms(1000), &mut state);
        assert!(is_final(&done));
        assert_eq!(done.code, 0);
        assert_eq!(done.data["version"], "V2");
        assert_eq!(state.firmware, "V2");
    }

    #[test]
    fn about_one_upgrade_in_ten_fails_and_a_cancelled_one_stops() {
        let failing = (0..200)
            .filter(|i| {
                UpgradeJob::start(&upgrade(&format!("{i:032x}")), false, timing(10))
                    .unwrap()
                    .fails
            })
            .count();
        assert!((8..=40).contains(&failing), "{failing} of 200 failed");
        let mut job = UpgradeJob::start(&upgrade("c"), true, timing(1000)).unwrap();
        job.cancelled = true;
        let r = job.step(
            std::time::Duration::from_millis(300),
            &mut GatewayState::default(),
        );
        assert_eq!(r.code, UPGRADE_CANCELLED);
        assert_eq!(r.data["state"], "cancelled");
        assert!(is_final(&r));
        assert!(UpgradeJob::start(&cmd("upgrade", json!({})), false, timing(10)).is_err());
        assert!(supports_upgrade_cancel(94) && !supports_upgrade_cancel(2));
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
