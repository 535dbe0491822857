//! Pure steps of ingest: checking a telemetry report, decoding raw register blocks, and turning
//! one device's reading into the rows storage writes.

use domain::ids::{DeviceId, PlantId};
use std::collections::HashMap;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use domain::combiner;
use store::telemetry::EnergyWrite;

use super::{
    skipped::{Reason, Skipped},
    values::{self, Watched},
};
use crate::{
    decode::{RegisterBlock, decode},
    events,
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

fn valid_sn(sn: &str) -> bool {
    !sn.is_empty() && sn.len() <= MAX_SN_LEN && !sn.chars().any(|c| c.is_control())
}

/// Checks a report and decodes its raw blocks. A problem of the whole report (version, time,
/// too many devices) refuses it; a device reading that cannot be used, or a value that breaks
/// the rules, is left out alone (reported to `skipped`) and the rest is kept.
pub fn check_telemetry(
    t: Report,
    now: i64,
    protocols: &HashMap<String, ProtocolConfig>,
    skipped: &mut Skipped,
) -> Result<Vec<Checked>, String> {
    if t.v != PAYLOAD_VERSION {
        return Err(format!("unsupported payload version {}", t.v));
    }
    check_ts(t.ts, now)?;
    if t.devices.len() > MAX_DEVICES {
        return Err("too many devices".into());
    }
    let mut checked = Vec::with_capacity(t.devices.len());
    for mut d in t.devices {
        match check_reading(&mut d, protocols, skipped) {
            Ok((family, values)) => checked.push(Checked {
                model: d.model.chars().take(64).collect(),
                sn: d.sn,
                family,
                type_code: d.type_code,
                protocol: d.protocol,
                parent: d.parent,
                payload: values.text,
                points: values.scan.points,
                watched: with_derived(family, values.scan.watched),
            }),
            Err(reason) => skipped.device(&d.sn, reason),
        }
    }
    Ok(checked)
}

/// `watched` with the words ingest derives: for a combiner, [`events::WEAK_STRING_WORD`] (1
/// while the weak-string rule flags a string, 0 while it flags none, absent when it cannot
/// judge, so an open weak-string event stays open through the night).
fn with_derived(family: DeviceFamily, mut watched: Watched) -> Watched {
    if family == DeviceFamily::Combiner
        && let combiner::StringCheck::Weak(weak) =
            combiner::check_strings(&combiner::currents(|k| watched.get(k)))
    {
        let on = if weak.is_empty() { 0.0 } else { 1.0 };
        watched.derive(events::WEAK_STRING_WORD, on);
    }
    watched
}

/// A reading's family and values fit to store (its values are taken out of `d`).
fn check_reading(
    d: &mut ReportReading,
    protocols: &HashMap<String, ProtocolConfig>,
    skipped: &mut Skipped,
) -> Result<(DeviceFamily, values::Values), Reason> {
    if !valid_sn(&d.sn) || d.parent.as_deref().is_some_and(|p| !valid_sn(p)) {
        return Err(Reason::BadSn);
    }
    let family = DeviceFamily::reported(&d.family).ok_or(Reason::UnknownFamily)?;
    let sent: String = d
        .values
        .take()
        .map(|v| String::from(Box::<str>::from(v)))
        .unwrap_or_else(|| "{}".to_string());
    let mut values = values::check(sent, family, &d.sn, skipped)?;
    if !d.raw.is_empty() {
        let config = protocols
            .get(&d.protocol)
            .filter(|c| c.family == family)
            .ok_or(Reason::UndecodableRaw)?;
        let merged = with_decoded(&values.text, config, &d.raw, &d.sn, skipped)?;
        values = values::check(merged, family, &d.sn, skipped)?;
    }
    Ok((family, values))
}

/// The values the gateway sent (already checked) merged with those decoded from its raw
/// blocks, as one JSON object; values the gateway decoded itself win over decoded ones of the
/// same key. A decoded value outside its point's valid range is left out and reported.
fn with_decoded(
    sent: &str,
    config: &ProtocolConfig,
    raw: &[RegisterBlock],
    sn: &str,
    skipped: &mut Skipped,
) -> Result<String, Reason> {
    let mut values: ValueMap = serde_json::from_str(sent).map_err(|_| Reason::UnreadableValues)?;
    let decoded = decode(config, raw);
    for (key, value) in &decoded.out_of_range {
        let (min, max) = config.point(key).map_or((None, None), |p| (p.min, p.max));
        skipped.out_of_range(sn, key, *value, min, max);
    }
    if !decoded.invalid.is_empty() {
        ::metrics::counter!("ingest_decode_invalid_points_total")
            .increment(decoded.invalid.len() as u64);
    }
    for (key, value) in decoded.values {
        values.entry(key.to_string()).or_insert(value);
    }
    serde_json::to_string(&values).map_err(|_| Reason::UndecodableRaw)
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
    pub device_id: DeviceId,
    pub plant_id: Option<PlantId>,
    pub tz: Option<Tz>,
    /// The plant's (latitude, longitude) when it has one the sun can be computed for.
    pub location: Option<(f64, f64)>,
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
            family: DeviceFamily::Inverter.to_string(),
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

    fn check(t: Report) -> (Result<Vec<Checked>, String>, Skipped) {
        let mut skipped = Skipped::default();
        let checked = check_telemetry(t, NOW, &protocols(), &mut skipped);
        (checked, skipped)
    }

    #[test]
    fn reports_from_the_far_future_or_older_than_a_year_are_refused() {
        let ok = report(NOW + MAX_FUTURE_MS, vec![reading(&[])]);
        assert!(check(ok.clone()).0.is_ok());
        let future = report(NOW + MAX_FUTURE_MS + 1, vec![reading(&[])]);
        assert!(check(future).0.is_err());
        let old = report(NOW - MAX_AGE_MS - 1, vec![reading(&[])]);
        assert!(check(old).0.is_err());
        let v2 = Report { v: 2, ..ok };
        assert!(check(v2).0.is_err());
    }

    #[test]
    fn an_unusable_device_is_left_out_and_the_others_are_kept() {
        let ok = |sn: &str| {
            let mut r = reading(&[("pv1_power", Value::Number(1.0))]);
            r.sn = sn.into();
            r
        };
        let mut fridge = ok("FRIDGE");
        fridge.family = "fridge".into();
        let mut unknown_protocol = ok("RAW1");
        unknown_protocol.protocol = "nope".into();
        unknown_protocol.raw = vec![RegisterBlock::holding(0, vec![1])];
        let mut meter_protocol = ok("RAW2");
        meter_protocol.protocol = "meter-3ph".into();
        meter_protocol.raw = vec![RegisterBlock::input(0, vec![1, 2])];
        let mut bad_parent = ok("BAT9");
        bad_parent.parent = Some("x".repeat(MAX_SN_LEN + 1));
        let devices = vec![
            ok("INV1"),
            fridge,
            ok(""),
            unknown_protocol,
            meter_protocol,
            bad_parent,
            ok("INV2"),
        ];
        let mut t = report(NOW, devices);
        t.devices.push(ReportReading {
            sn: "ARRAY".into(),
            values: serde_json::value::RawValue::from_string("[1,2]".into()).ok(),
            ..t.devices[0].clone()
        });
        let (checked, skipped) = check(t);
        let kept: Vec<String> = checked
            .unwrap_or_default()
            .into_iter()
            .map(|c| c.sn)
            .collect();
        assert_eq!(kept, ["INV1", "INV2"]);
        assert_eq!(skipped.count(Reason::UnknownFamily), 1);
        assert_eq!(skipped.count(Reason::BadSn), 2);
        assert_eq!(skipped.count(Reason::UndecodableRaw), 2);
        assert_eq!(skipped.count(Reason::UnreadableValues), 1);
        assert_eq!(skipped.total("device"), 6);
    }

    #[test]
    fn a_value_that_is_not_a_number_text_or_boolean_is_left_out() {
        // A NaN the simulator could send is written as null.
        let nan = reading(&[
            ("pv1_power", Value::Number(f64::NAN)),
            ("today_pv_energy", Value::Number(2.0)),
        ]);
        let (checked, skipped) = check(report(NOW, vec![nan]));
        let checked = checked.unwrap_or_default();
        assert_eq!(checked[0].payload, r#"{"today_pv_energy":2.0}"#);
        assert_eq!(checked[0].points, 1);
        assert_eq!(skipped.count(Reason::NotAScalar), 1);
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
        let mut t = report(NOW, vec![r]);
        // A bad value next to raw blocks is left out before the decoded values join.
        t.devices[0].values =
            serde_json::value::RawValue::from_string(r#"{"grid_power":-5.0,"x":{}}"#.into()).ok();
        let (checked, skipped) = check(t);
        let checked = checked.unwrap_or_default();
        let v: ValueMap = serde_json::from_str(&checked[0].payload).unwrap_or_default();
        assert_eq!(
            v.get("today_pv_energy"),
            Some(&Value::Number(123.0 * point.scale))
        );
        assert_eq!(v.get("grid_power"), Some(&Value::Number(-5.0)));
        assert!(!v.contains_key("x"));
        assert_eq!(skipped.count(Reason::NotAScalar), 1);
        assert_eq!(checked[0].watched.get("today_pv_energy"), Some(12.3));
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
        let (checked, skipped) = check(t);
        let checked = checked?;
        assert!(skipped.is_empty());
        let c = &checked[0];
        assert_eq!((c.payload.as_str(), c.points), (sent, 3));
        let at = Placement {
            device_id: DeviceId(7),
            plant_id: Some(PlantId(3)),
            tz: None,
            location: None,
        };
        let energy = energy_rows(c, at, NOW);
        assert_eq!(energy.len(), 2);
        assert!(
            energy
                .iter()
                .all(|e| e.plant_id == Some(PlantId(3)) && e.day == "2023-11-14")
        );
        Ok(())
    }

    fn combiner(currents: &[f64]) -> Result<Checked, String> {
        let strings: Vec<String> = currents
            .iter()
            .enumerate()
            .map(|(i, a)| {
                format!(
                    r#""string{}_current":{a},"string{}_voltage":640.5"#,
                    i + 1,
                    i + 1
                )
            })
            .collect();
        let json = format!(
            r#"{{"v":1,"ts":{NOW},"devices":[{{"sn":"CB1","family":"combiner","protocol":"combiner-dc16",
            "values":{{{},"power":20000,"status_word":2,"today_energy":31.5}}}}]}}"#,
            strings.join(",")
        );
        let t: Report = serde_json::from_str(&json).map_err(|e| e.to_string())?;
        let (checked, skipped) = check(t);
        assert!(skipped.is_empty());
        checked?.pop().ok_or_else(|| "no reading".to_string())
    }

    #[test]
    fn a_combiner_reading_feeds_pv_energy_and_flags_a_weak_string() -> Result<(), String> {
        let c = combiner(&[8.1, 8.0, 3.2, 7.9, 8.2, 8.0, 7.8, 8.1])?;
        assert_eq!(c.family, DeviceFamily::Combiner);
        assert_eq!(c.points, 19);
        assert_eq!(c.watched.get(events::WEAK_STRING_WORD), Some(1.0));
        assert_eq!(c.watched.get("status_word"), Some(2.0));
        let at = Placement {
            device_id: DeviceId(9),
            plant_id: Some(PlantId(1)),
            tz: None,
            location: None,
        };
        let energy = energy_rows(&c, at, NOW);
        assert_eq!(energy.len(), 1);
        assert_eq!((energy[0].metric.as_str(), energy[0].value), ("pv", 31.5));
        assert_eq!(energy[0].rank, metrics::rank(DeviceFamily::Combiner));
        let opened: Vec<&str> = events::word_events(c.family, |k| c.watched.get(k))
            .into_iter()
            .filter(|(_, on)| *on)
            .map(|(d, _)| d.code.as_str())
            .collect();
        assert_eq!(opened, vec!["CB02", "CB04"]);
        Ok(())
    }

    #[test]
    fn healthy_strings_clear_the_weak_word_and_night_leaves_it_alone() -> Result<(), String> {
        let day = combiner(&[8.1, 8.0, 7.2, 7.9])?;
        assert_eq!(day.watched.get(events::WEAK_STRING_WORD), Some(0.0));
        let night = combiner(&[0.0, 0.0, 0.0, 0.0])?;
        assert_eq!(night.watched.get(events::WEAK_STRING_WORD), None);
        Ok(())
    }
}
