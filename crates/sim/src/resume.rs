//! Picking up after a restart. A real inverter keeps its lifetime counters, today's counters
//! and its on/off switch when the portal restarts, and its battery keeps its charge; a
//! simulated one starting from zero would make every lifetime counter fall back (which the
//! portal would count as a day's energy of the whole history). So a restarted demo gateway
//! continues from what its devices last reported.

use chrono::{DateTime, Utc};
use devices::DeviceFamily;

use crate::{
    fleet::SimGateway,
    plant::{Energy, InverterCounters},
    readings::Values,
};

/// The newest report of one device as the portal stored it.
#[derive(Debug, Clone)]
pub struct LastReport {
    pub sn: String,
    pub ts_ms: i64,
    /// The values as a JSON object.
    pub payload: String,
}

fn number(v: &Values, key: &str) -> Option<f64> {
    v.get(key).and_then(devices::Value::as_f64)
}

/// The counters an inverter reports under `prefix` (`today` or `total`).
fn energy(v: &Values, prefix: &str) -> Energy {
    let get = |name: &str| number(v, &format!("{prefix}_{name}")).unwrap_or(0.0);
    Energy {
        pv: get("pv_energy"),
        load: get("load_energy"),
        import: get("grid_import"),
        export: get("grid_export"),
        charge: get("battery_charge"),
        discharge: get("battery_discharge"),
    }
}

/// Restores `gw`'s model from its devices' last reports. Answers when the inverters last
/// reported, or `None` (nothing restored) when they never did.
pub fn resume(gw: &mut SimGateway, reports: &[LastReport]) -> Option<DateTime<Utc>> {
    let parsed = |sn: &str| {
        reports.iter().find(|r| r.sn == sn).and_then(|r| {
            let values = serde_json::from_str::<Values>(&r.payload).ok()?;
            Some((r.ts_ms, values))
        })
    };
    let mut last = None;
    // Each inverter's counters and when it reported them.
    let mut counters: Vec<(Option<i64>, InverterCounters)> = Vec::new();
    let mut soc = None;
    let mut irradiation = None;
    for d in &gw.spec.devices {
        let Some((ts, values)) = parsed(&d.sn) else {
            if d.family == DeviceFamily::Inverter {
                counters.push((None, InverterCounters::default()));
            }
            continue;
        };
        match d.family {
            DeviceFamily::Inverter => {
                last = last.max(Some(ts));
                soc = soc.or(number(&values, "battery_soc"));
                counters.push((
                    Some(ts),
                    InverterCounters {
                        off: values.get("power_on") == Some(&devices::Value::Bool(false)),
                        today: energy(&values, "today"),
                        total: energy(&values, "total"),
                    },
                ));
            }
            DeviceFamily::Battery => soc = number(&values, "soc").or(soc),
            DeviceFamily::WeatherStation => {
                irradiation = number(&values, "today_irradiation").map(|h| (ts, h));
            }
            DeviceFamily::Meter | DeviceFamily::Combiner => {}
        }
    }
    let at = DateTime::from_timestamp_millis(last?)?;
    let tz = gw.spec.plant.tz;
    let day = at.with_timezone(&tz).date_naive();
    // The station's count of the same day goes on; one of an earlier day starts again.
    let same_day = |ts: i64| {
        DateTime::from_timestamp_millis(ts)
            .is_some_and(|t| t.with_timezone(&tz).date_naive() == day)
    };
    // So does the day's count of an inverter last heard on an earlier day (one that fell
    // silent): its lifetime counters go on, today's start again.
    let counters = counters
        .into_iter()
        .map(|(ts, c)| match ts {
            Some(ts) if !same_day(ts) => InverterCounters {
                today: Energy::default(),
                ..c
            },
            _ => c,
        })
        .collect();
    gw.model.resume(day, counters, soc);
    if let Some((_, h)) = irradiation.filter(|(ts, _)| same_day(*ts)) {
        gw.model.resume_irradiation(h);
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        commands::{self, GatewayState},
        fleet::demo_fleet,
    };
    use chrono::TimeZone;
    use devices::report::Command;

    #[test]
    fn a_restarted_gateway_continues_its_counters_switch_and_charge() {
        let configs = devices::protocol::shipped().unwrap();
        let spec = demo_fleet(1, 3).remove(0);
        let mut first = SimGateway::new(spec.clone());
        let start = Utc.with_ymd_and_hms(2025, 5, 1, 6, 0, 0).unwrap();
        let mut sent = None;
        for i in 1..=72 {
            sent = Some(first.telemetry(start + chrono::Duration::minutes(5 * i), 300.0, &configs));
        }
        let off = Command {
            v: 1,
            id: "c".into(),
            sn: spec.devices[0].sn.clone(),
            kind: "power_off".into(),
            params: serde_json::Value::Null,
            timeout_ms: 1000,
        };
        commands::answer(
            &mut first,
            &mut GatewayState::default(),
            &off,
            &Values::new(),
            None,
        );
        let at = start + chrono::Duration::minutes(5 * 73);
        let (snapshot, telemetry) = first.telemetry(at, 300.0, &configs);
        // What the portal stored: decoded values (the raw inverter's through its config).
        let reports: Vec<LastReport> = telemetry
            .devices
            .iter()
            .map(|r| {
                let values: Values = if r.raw.is_empty() {
                    r.values.clone()
                } else {
                    let config = configs.iter().find(|c| c.code == r.protocol).unwrap();
                    devices::decode(config, &r.raw)
                        .values
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect()
                };
                LastReport {
                    sn: r.sn.clone(),
                    ts_ms: telemetry.ts,
                    payload: serde_json::to_string(&values).unwrap(),
                }
            })
            .collect();
        assert!(sent.is_some());

        let mut second = SimGateway::new(spec);
        assert_eq!(resume(&mut second, &reports), Some(at));
        assert!(!second.model.is_on(0), "still switched off");
        let soc = second.model.soc().unwrap();
        assert!((soc - snapshot.soc().unwrap()).abs() <= 0.5, "{soc}");
        let (next, _) = second.telemetry(at + chrono::Duration::minutes(5), 300.0, &configs);
        assert!(
            (next.total.load - snapshot.total.load).abs() < 0.2,
            "{} after {}",
            next.total.load,
            snapshot.total.load
        );
        assert!(next.total.pv >= snapshot.total.pv - 0.05);
        assert!(
            next.today.pv >= snapshot.today.pv - 0.05,
            "same day: today's counters go on"
        );

        let mut fresh = SimGateway::new(demo_fleet(1, 3).remove(0));
        assert_eq!(resume(&mut fresh, &[]), None);
    }
}
