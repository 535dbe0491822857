//! Pure steps of ingest: checking a telemetry report, decoding raw register blocks, and turning
//! one device's reading into the rows storage writes.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use store::telemetry::EnergyWrite;

use super::values::{self, Watched};
use crate::{
    decode::{RegisterBlock, decode},
    ingest::metrics,
    protocol::{DeviceFamily, ProtocolConfig},
    report::{PAYLOAD_VERSION, Report, ReportReading, ValueMap},
};

/// Reports stamped further ahead than this are refused (gateway clock wrong).
pub const MAX_FUTURE_MS: i64 = 10 * 60 * 1000;
/// Reports older than this are refused.
pub const MAX_AGE_MS: i64 = 366 * 24 * 60 * 60 * 1000;
pub const MAX_DEVICES: usize = 1000;
pub const MAX_SN_LEN: usize = 64;
pub use super::values::{MAX_KEY_LEN, MAX_TEXT_LEN, MAX_VALUES};

/// One device's reading after checking and decoding.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub sn: String,
    pub family: DeviceFamily,
    pub type_code: i64,
    pub protocol: String,
    pub model: String,
    pub parent: Option<String>,
    /// The values as one JSON object text: the sample's payload.
    pub payload: String,
    /// Values in the reading (data points).
    pub points: usize,
    /// The numbers ingest acts on (energy counters, status words).
    pub watched: Watched,
}

pub fn parse_family(name: &str) -> Option<DeviceFamily> {
    match name {
        "inverter" => Some(DeviceFamily::Inverter),
        "meter" => Some(DeviceFamily::Meter),
        "battery" => Some(DeviceFamily::Battery),
        "weather_station" | "weather" => Some(DeviceFamily::WeatherStation),
        _ => None,
    }
}

/// Whether `ts` is a plausible report time at `now`.
pub fn check_ts(ts: i64, now: i64) -> Result<(), String> {
    if ts > now.saturating_add(MAX_FUTURE_MS) {
        return Err(format!("timestamp {ts} is in the future"));
    }
    if ts < now.saturating_sub(MAX_AGE_MS) {
        return Err(format!("timestamp {ts} is older than a year"));
    }
    Ok(())
}

fn check_sn(sn: &str) -> Result<(), String> {
    if sn.is_empty() || sn.len() > MAX_SN_LEN || sn.chars().any(|c| c.is_control()) {
        return Err("bad device sn".into());
    }
    Ok(())
}

/// Checks a report and decodes its raw blocks; any problem refuses the whole report, so a
/// gateway never has half a report stored.
pub fn check_telemetry(
    t: Report,
    now: i64,
    protocols: &HashMap<String, ProtocolConfig>,
) -> Result<Vec<Checked>, String> {
    if t.v != PAYLOAD_VERSION {
        return Err(format!("unsupported payload version {}", t.v));
    }
    check_ts(t.ts, now)?;
    if t.devices.len() > MAX_DEVICES {
        return Err("too many devices".into());
    }
    t.devices
        .into_iter()
        .map(|d| check_reading(d, protocols))
        .collect()
}

fn check_reading(
    d: ReportReading,
    protocols: &HashMap<String, ProtocolConfig>,
) -> Result<Checked, String> {
    check_sn(&d.sn)?;
    if let Some(parent) = &d.parent {
        check_sn(parent)?;
    }
    let family = parse_family(&d.family).ok_or_else(|| format!("unknown family {}", d.family))?;
    let sent: String = d
        .values
        .map(|v| String::from(Box::<str>::from(v)))
        .unwrap_or_default();
    let payload = if d.raw.is_empty() {
        if sent.is_empty() {
            "{}".to_string()
        } else {
            sent
        }
    } else {
        let config = protocols
            .get(&d.protocol)
            .ok_or_else(|| format!("unknown protocol {:?}", d.protocol))?;
        if config.family != family {
            return Err(format!("protocol {} is not for {}", d.protocol, d.family));
        }
        with_decoded(&sent, config, &d.raw)?
    };
    let scan = values::scan(&payload, family)?;
    Ok(Checked {
        sn: d.sn,
        family,
        type_code: d.type_code,
        protocol: d.protocol,
        model: d.model.chars().take(64).collect(),
        parent: d.parent,
        payload,
        points: scan.points,
        watched: scan.watched,
    })
}

/// The values the gateway sent merged with those decoded from its raw blocks, as one JSON
/// object; values the gateway decoded itself win over decoded ones of the same key.
fn with_decoded(
    sent: &str,
    config: &ProtocolConfig,
    raw: &[RegisterBlock],
) -> Result<String, String> {
    let mut values: ValueMap = if sent.is_empty() {
        ValueMap::new()
    } else {
        serde_json::from_str(sent).map_err(|e| format!("values: {e}"))?
    };
    let decoded = decode(config, raw);
    if !decoded.invalid.is_empty() {
        ::metrics::counter!("ingest_decode_invalid_points_total")
            .increment(decoded.invalid.len() as u64);
    }
    for (key, value) in decoded.values {
        values.entry(key.to_string()).or_insert(value);
    }
    serde_json::to_string(&values).map_err(|e| e.to_string())
}

/// The calendar day (`YYYY-MM-DD`) of `ts` in `tz` (UTC without a time zone).
pub fn local_day(ts: i64, tz: Option<Tz>) -> String {
    let utc = DateTime::<Utc>::from_timestamp_millis(ts).unwrap_or_default();
    match tz {
        Some(tz) => utc.with_timezone(&tz).format("%Y-%m-%d").to_string(),
        None => utc.format("%Y-%m-%d").to_string(),
    }
}

/// Where a device belongs, as ingest needs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    pub device_id: i64,
    pub plant_id: Option<i64>,
    pub tz: Option<Tz>,
}

/// The energy rows of one checked reading.
pub fn energy_rows(c: &Checked, at: Placement, ts: i64) -> Vec<EnergyWrite> {
    let readings = metrics::readings(c.family, |k| c.watched.get(k));
    if readings.is_empty() {
        return Vec::new();
    }
    let day = local_day(ts, at.tz);
    let rank = metrics::rank(c.family);
    readings
        .into_iter()
        .map(|(metric, value, kind)| EnergyWrite {
            device_id: at.device_id,
            plant_id: at.plant_id,
            day: day.clone(),
            metric: metric.to_string(),
            value,
            kind,
            rank,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        decode::Value,
        report::{DeviceReading, Telemetry},
    };

    const NOW: i64 = 1_700_000_000_000;

    fn protocols() -> HashMap<String, ProtocolConfig> {
        crate::protocol::shipped()
            .unwrap_or_default()
            .into_iter()
            .map(|c| (c.code.clone(), c))
            .collect()
    }

    fn reading(values: &[(&str, Value)]) -> DeviceReading {
        DeviceReading {
            sn: "INV1".into(),
            family: "inverter".into(),
            type_code: 2,
            protocol: "deye-hybrid-1ph".into(),
            model: String::new(),
            parent: None,
            values: values
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            raw: Vec::new(),
        }
    }

    fn report(ts: i64, devices: Vec<DeviceReading>) -> Report {
        Telemetry { v: 1, ts, devices }.into()
    }

    #[test]
    fn reports_from_the_far_future_or_older_than_a_year_are_refused() {
        let p = protocols();
        let ok = report(NOW + MAX_FUTURE_MS, vec![reading(&[])]);
        assert!(check_telemetry(ok.clone(), NOW, &p).is_ok());
        let future = report(NOW + MAX_FUTURE_MS + 1, vec![reading(&[])]);
        assert!(check_telemetry(future.clone(), NOW, &p).is_err());
        let old = report(NOW - MAX_AGE_MS - 1, vec![reading(&[])]);
        assert!(check_telemetry(old.clone(), NOW, &p).is_err());
        let v2 = Report { v: 2, ..ok };
        assert!(check_telemetry(v2.clone(), NOW, &p).is_err());
    }

    #[test]
    fn non_finite_values_unknown_families_and_unknown_protocols_are_refused() {
        let p = protocols();
        let nan = reading(&[("pv1_power", Value::Number(f64::NAN))]);
        assert!(check_telemetry(report(NOW, vec![nan]), NOW, &p).is_err());
        let mut fridge = reading(&[]);
        fridge.family = "fridge".into();
        assert!(check_telemetry(report(NOW, vec![fridge]), NOW, &p).is_err());
        let mut raw = reading(&[]);
        raw.protocol = "nope".into();
        raw.raw = vec![RegisterBlock::holding(0, vec![1])];
        assert!(check_telemetry(report(NOW, vec![raw]), NOW, &p).is_err());
        let mut empty_sn = reading(&[]);
        empty_sn.sn.clear();
        assert!(check_telemetry(report(NOW, vec![empty_sn]), NOW, &p).is_err());
    }

    #[test]
    fn raw_blocks_are_decoded_and_explicit_values_win() {
        let p = protocols();
        let config = &p["deye-hybrid-1ph"];
        let point = config.point("today_pv_energy").cloned();
        let Some(point) = point else {
            panic!("no today_pv_energy")
        };
        let address = u16::try_from(point.address).unwrap_or(0);
        let mut r = reading(&[("grid_power", Value::Number(-5.0))]);
        r.raw = vec![RegisterBlock::holding(address, vec![123])];
        let checked = check_telemetry(report(NOW, vec![r]), NOW, &p).unwrap_or_default();
        let v: ValueMap = serde_json::from_str(&checked[0].payload).unwrap_or_default();
        assert_eq!(
            v.get("today_pv_energy"),
            Some(&Value::Number(123.0 * point.scale))
        );
        assert_eq!(v.get("grid_power"), Some(&Value::Number(-5.0)));
    }

    #[test]
    fn the_day_is_the_plants_local_day() {
        // 2024-03-10 16:30 UTC = 2024-03-11 00:30 in Shanghai = 2024-03-10 09:30 in Los Angeles.
        let ts = 1_710_088_200_000;
        assert_eq!(local_day(ts, Some(chrono_tz::Asia::Shanghai)), "2024-03-11");
        assert_eq!(
            local_day(ts, Some(chrono_tz::America::Los_Angeles)),
            "2024-03-10"
        );
        assert_eq!(local_day(ts, None), "2024-03-10");
    }

    #[test]
    fn values_are_stored_as_sent_and_energy_counters_become_rows() -> Result<(), String> {
        let sent = r#"{"today_pv_energy":4.5, "today_load_energy":2,"pv1_power":900.0}"#;
        let json = format!(
            r#"{{"v":1,"ts":{NOW},"devices":[{{"sn":"INV1","family":"inverter","values":{sent}}}]}}"#
        );
        let t: Report = serde_json::from_str(&json).map_err(|e| e.to_string())?;
        let checked = check_telemetry(t, NOW, &protocols())?;
        let c = &checked[0];
        assert_eq!((c.payload.as_str(), c.points), (sent, 3));
        let at = Placement {
            device_id: 7,
            plant_id: Some(3),
            tz: None,
        };
        let energy = energy_rows(c, at, NOW);
        assert_eq!(energy.len(), 2);
        assert!(
            energy
                .iter()
                .all(|e| e.plant_id == Some(3) && e.day == "2023-11-14")
        );
        Ok(())
    }
}
