//! Which value keys of a report (crates/devices/protocols/deye-hybrid-*.json and what gateways
//! decode with the same names) make each figure an inverter screen shows. One table per port,
//! so the realtime answers and the day curves read the same keys.

use serde::Serialize;
use utoipa::ToSchema;

use crate::readings::{Reading, num_text, round2};

/// One phase of an AC port: voltage (V) and current (A) as numeric strings, power (W) a number.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Vip {
    pub volt: String,
    pub current: String,
    pub power: Option<f64>,
}

/// Most PV inputs a report may carry (`pv1_*` .. `pv12_*`).
pub const MAX_PV_INPUTS: usize = 12;

/// The PV inputs a report has values for (`pvN_voltage`, `pvN_current` or `pvN_power`).
pub fn pv_inputs(r: &Reading) -> Vec<usize> {
    (1..=MAX_PV_INPUTS)
        .filter(|n| {
            ["voltage", "current", "power"]
                .iter()
                .any(|q| r.num(&format!("pv{n}_{q}")).is_some())
        })
        .collect()
}

/// An input's DC power (W): as reported, or its voltage times its current for maps without a
/// power register per input (Deye string and micro inverters), to 0.1 W.
pub fn input_power(r: &Reading, n: usize) -> Option<f64> {
    r.num(&format!("pv{n}_power")).or_else(|| {
        let v = r.num(&format!("pv{n}_voltage"))?;
        let i = r.num(&format!("pv{n}_current"))?;
        Some((v * i * 10.0).round() / 10.0)
    })
}

/// PV power now: the inputs' sum, or the AC output when no input reports power (grid-tied
/// and micro inverters without per-input registers).
pub fn pv_power(r: &Reading) -> Option<f64> {
    let keys: Vec<String> = (1..=MAX_PV_INPUTS)
        .map(|n| format!("pv{n}_power"))
        .collect();
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    r.sum(&refs).or_else(|| r.num("inverter_power"))
}

/// Whether an inverter reports itself switched on: its `power_on` switch (what power on/off
/// commands change), else, for configs without one, a running state other than Deye's
/// standby (0).
pub fn switched_on(r: &Reading) -> bool {
    match r.num("power_on") {
        Some(v) => v != 0.0,
        None => r.num("running_state") != Some(0.0),
    }
}

/// The key prefixes of one AC port: voltage, current, power (`{prefix}_l1`.. per phase, or the
/// bare key on single-phase models).
#[derive(Debug, Clone, Copy)]
pub struct Ac {
    pub volt: &'static str,
    pub current: Option<&'static str>,
    pub power: &'static str,
}

pub const OUTPUT: Ac = Ac {
    volt: "inverter_voltage",
    current: Some("inverter_current"),
    power: "inverter_power",
};
pub const GRID: Ac = Ac {
    volt: "grid_voltage",
    current: Some("grid_current"),
    power: "grid_power",
};
/// The external CT / meter the inverter reads: its power per phase, at the grid's voltage.
pub const METER: Ac = Ac {
    volt: "grid_voltage",
    current: None,
    power: "grid_ct_power",
};
/// The backup (EPS/UPS) port: Deye's `load_*` registers measure it.
pub const LOAD: Ac = Ac {
    volt: "load_voltage",
    current: None,
    power: "load_power",
};

/// The phases a report has values for on a port: 1..=3, or none (single-phase bare keys).
pub fn phases(r: &Reading, ac: Ac) -> Vec<usize> {
    (1..=3)
        .filter(|l| {
            r.num(&format!("{}_l{l}", ac.volt)).is_some()
                || r.num(&format!("{}_l{l}", ac.power)).is_some()
        })
        .collect()
}

/// `vip[{volt, current, power}]` of a port: strings for volt and current, a number for power
/// (the original API's types). A port without a current register gets it from power and
/// voltage. On a single-phase model the line keys may be absent: the bare keys make one phase.
/// A phase whose voltage or current is unknown is left out (its power still counts in the
/// port's totals): clients convert both with `float()`, which fails on null.
pub fn vip(r: &Reading, ac: Ac) -> Vec<Vip> {
    let one = |v: Option<f64>, i: Option<f64>, p: Option<f64>| {
        let i = i.or(match (v, p) {
            (Some(v), Some(p)) if v > 1.0 => Some(p / v),
            _ => None,
        });
        let (v, i) = (v?, i?);
        Some(Vip {
            volt: num_text(v),
            current: num_text(i),
            power: p.map(round2),
        })
    };
    let lines = phases(r, ac);
    if lines.is_empty() {
        let (v, p) = (r.num(ac.volt), r.num(ac.power));
        return one(v, ac.current.and_then(|c| r.num(c)), p)
            .into_iter()
            .collect();
    }
    lines
        .iter()
        .filter_map(|l| {
            one(
                r.num(&format!("{}_l{l}", ac.volt))
                    .or_else(|| r.num(ac.volt)),
                ac.current.and_then(|c| r.num(&format!("{c}_l{l}"))),
                r.num(&format!("{}_l{l}", ac.power)),
            )
        })
        .collect()
}

/// A port's total power: its total key, or the sum of its phases.
pub fn port_power(r: &Reading, ac: Ac) -> Option<f64> {
    r.num(ac.power).or_else(|| {
        r.sum(&[
            &format!("{}_l1", ac.power),
            &format!("{}_l2", ac.power),
            &format!("{}_l3", ac.power),
        ])
    })
}

/// Numeric text of a value, or `null`.
pub fn text(r: Option<&Reading>, key: &str) -> Option<String> {
    r.and_then(|r| r.num(key)).map(num_text)
}

/// A number rounded to 2 decimals, or `null`.
pub fn number(r: Option<&Reading>, key: &str) -> Option<f64> {
    r.and_then(|r| r.num(key)).map(round2)
}

/// A kWh figure as the numeric string clients parse.
pub fn kwh_text(v: f64) -> String {
    num_text(v)
}

/// Day-curve columns of `output/day?column=`: the names clients ask for and the keys they read.
/// Unknown names still answer (an empty series) so a client asking for a column this model
/// lacks is not refused.
pub fn output_column(name: &str) -> Option<(&'static str, &'static [&'static str])> {
    Some(match name {
        "dc_temp" | "dc_temperature" => ("°C", &["dc_temperature"]),
        "igbt_temp" | "ac_temp" | "inverter_temp" | "inverter_temperature" => {
            ("°C", &["inverter_temperature"])
        }
        "battery_temp" | "bat_temp" => ("°C", &["battery_temperature"]),
        "pac" | "p_inv" | "inverter_power" => ("W", &["inverter_power"]),
        "fac" | "inverter_frequency" => ("Hz", &["inverter_frequency"]),
        "vac1" => ("V", &["inverter_voltage_l1", "inverter_voltage"]),
        "vac2" => ("V", &["inverter_voltage_l2"]),
        "vac3" => ("V", &["inverter_voltage_l3"]),
        "iac1" => ("A", &["inverter_current_l1", "inverter_current"]),
        "iac2" => ("A", &["inverter_current_l2"]),
        "iac3" => ("A", &["inverter_current_l3"]),
        "pac1" => ("W", &["inverter_power_l1", "inverter_power"]),
        "pac2" => ("W", &["inverter_power_l2"]),
        "pac3" => ("W", &["inverter_power_l3"]),
        _ => return None,
    })
}

/// The columns `output/day` answers when none are asked for.
pub const DEFAULT_OUTPUT_COLUMNS: [&str; 4] = ["pac", "fac", "dc_temp", "igbt_temp"];

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn reading(json: &str) -> Reading {
        Reading::from_sample(0, json)
    }

    #[test]
    fn pv_inputs_are_the_numbered_keys_present() {
        let r = reading(r#"{"pv1_voltage":300,"pv1_power":900,"pv3_current":1.2}"#);
        assert_eq!(pv_inputs(&r), vec![1, 3]);
        assert_eq!(pv_power(&r), Some(900.0));
        let micro = reading(r#"{"pv2_voltage":37.5,"pv2_current":8.13}"#);
        assert_eq!(input_power(&micro, 2), Some(304.9), "volts times amps");
        assert_eq!(input_power(&r, 1), Some(900.0), "as reported");
        assert_eq!(pv_power(&reading(r#"{"inverter_power":50}"#)), Some(50.0));
    }

    #[test]
    fn three_phase_ports_answer_one_vip_per_line_and_single_phase_one() {
        let three = reading(
            r#"{"grid_voltage_l1":230,"grid_current_l1":1.5,"grid_power_l1":345,
                "grid_voltage_l2":231,"grid_power_l2":10,"grid_voltage_l3":229,"grid_power_l3":0}"#,
        );
        let v = serde_json::to_value(vip(&three, GRID)).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 3);
        assert_eq!(v[0]["volt"], "230.0");
        assert_eq!(v[0]["current"], "1.5");
        assert_eq!(v[0]["power"], 345.0);
        assert_eq!(v[1]["current"], "0.04", "derived from power and voltage");
        let single =
            reading(r#"{"inverter_voltage":230.8,"inverter_current":0.3,"inverter_power":-50}"#);
        let v = serde_json::to_value(vip(&single, OUTPUT)).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 1);
        assert_eq!(
            v[0],
            json!({"volt": "230.8", "current": "0.3", "power": -50.0})
        );
        assert!(vip(&reading("{}"), OUTPUT).is_empty());
        // Without a voltage there is nothing a client could parse: the phase is left out.
        let load = reading(r#"{"load_power_l1":400,"load_power_l2":0}"#);
        assert!(vip(&load, LOAD).is_empty());
        let half = reading(r#"{"load_voltage_l1":230,"load_power_l1":460,"load_power_l2":5}"#);
        assert_eq!(
            serde_json::to_value(vip(&half, LOAD)).unwrap(),
            json!([{"volt": "230.0", "current": "2.0", "power": 460.0}])
        );
    }

    #[test]
    fn output_columns_map_client_names_to_value_keys() {
        assert_eq!(
            output_column("dc_temp"),
            Some(("°C", &["dc_temperature"][..]))
        );
        assert_eq!(
            output_column("igbt_temp").map(|c| c.1),
            Some(&["inverter_temperature"][..])
        );
        assert_eq!(output_column("nonsense"), None);
    }
}
