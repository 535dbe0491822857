//! The dispatch rules, free of I/O: which event holds each enrolled inverter now, and the
//! settings that make a hybrid inverter of the Deye family do what the event asks.

use domain::ids::{EnrollmentId, HubEventId, PlantId};
use std::collections::BTreeMap;

use chrono::DateTime;
use domain::settings::Family;
use serde_json::Value;
use store::energy_hub::dispatch::PlanRow;

/// Time-of-use slots a discharge fills (all of them: the event holds the whole day).
const SLOTS: usize = 6;
/// The reserve a discharge keeps when the inverter has no `batteryLowCap`.
const RESERVE_SOC: &str = "20";
/// The largest power a W setting takes.
const MAX_W: f64 = 99_999.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Kind {
    /// The battery gives this many W.
    Discharge,
    /// The inverter exports at most this many W.
    ExportLimit,
    /// The battery takes this many W from the grid (0: it holds its charge). From OpenADR
    /// `DISPATCH_SETPOINT`, the consumption asked of the plant's battery.
    Charge,
}

/// What one inverter is asked now: by which event, and how many W of which kind.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Want {
    pub event_id: HubEventId,
    pub plant_id: PlantId,
    pub kind: Kind,
    pub watts: f64,
}

/// One normalised interval of an event, read leniently (unix seconds or RFC 3339).
struct Interval {
    start: i64,
    end: i64,
    kind: Option<Kind>,
    target_kw: Option<f64>,
}

fn time(v: &Value, keys: &[&str]) -> Option<i64> {
    keys.iter().find_map(|k| match v.get(*k)? {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => DateTime::parse_from_rfc3339(s).ok().map(|t| t.timestamp()),
        _ => None,
    })
}

fn kind(text: &str) -> Option<Kind> {
    match text {
        "discharge" => Some(Kind::Discharge),
        "export_limit" | "exportLimit" => Some(Kind::ExportLimit),
        "charge" => Some(Kind::Charge),
        _ => None,
    }
}

fn intervals(json: &str) -> Vec<Interval> {
    let Ok(Value::Array(items)) = serde_json::from_str::<Value>(json) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|v| {
            Some(Interval {
                start: time(v, &["start", "startAt", "startDate"])?,
                end: time(v, &["end", "endAt", "endDate"])?,
                kind: v.get("kind").and_then(Value::as_str).and_then(kind),
                target_kw: v.get("targetKw").and_then(Value::as_f64),
            })
        })
        .collect()
}

/// The event's kind and target (kW) at `now`: its interval's when one covers `now`.
fn target_at(row: &PlanRow, now: i64) -> Option<(Kind, f64)> {
    let base = (kind(&row.kind)?, row.target_kw);
    let Some(i) = intervals(&row.intervals)
        .into_iter()
        .find(|i| i.start <= now && now < i.end)
    else {
        return Some(base);
    };
    Some((i.kind.unwrap_or(base.0), i.target_kw.unwrap_or(base.1)))
}

/// The interval starts and ends after `now` (the job re-evaluates there).
pub(crate) fn boundaries(rows: &[PlanRow], now: i64) -> Option<i64> {
    rows.iter()
        .flat_map(|r| intervals(&r.intervals))
        .flat_map(|i| [i.start, i.end])
        .filter(|t| *t > now)
        .min()
}

/// Whether event `a` wins over `b`: the lower priority number, then the later start (then
/// the later event, so the choice never flips between ticks).
fn wins(a: &PlanRow, b: &PlanRow) -> bool {
    (a.priority, -a.start_at, -a.event_id.0) < (b.priority, -b.start_at, -b.event_id.0)
}

/// What each enrolled inverter held by an event is asked now. A plant's discharge is the
/// event's target, at most its devices' discharge capacity × participation, split evenly
/// over its enrolled inverters; an export limit is split evenly too.
pub(crate) fn wants(rows: &[PlanRow], now: i64) -> BTreeMap<String, Want> {
    // The winning event of each enrollment (its devices all take part in the same events).
    let mut winner: BTreeMap<EnrollmentId, &PlanRow> = BTreeMap::new();
    for r in rows {
        let best = winner.entry(r.enrollment_id).or_insert(r);
        if wins(r, best) {
            *best = r;
        }
    }
    let mut out: BTreeMap<String, (Want, &PlanRow)> = BTreeMap::new();
    for (enrollment, event) in winner {
        let Some((kind, target_kw)) = target_at(event, now) else {
            continue;
        };
        let devices: Vec<&PlanRow> = rows
            .iter()
            .filter(|r| r.enrollment_id == enrollment && r.event_id == event.event_id)
            .collect();
        let n = devices.len().max(1) as f64;
        let share = event.participation.clamp(0, 100) as f64 / 100.0;
        let plant_kw = match kind {
            Kind::Discharge => {
                let capacity: f64 = devices.iter().map(|d| d.discharge_kw.max(0.0)).sum();
                target_kw.max(0.0).min(capacity * share)
            }
            Kind::ExportLimit => target_kw.max(0.0),
            Kind::Charge => {
                let capacity: f64 = devices.iter().map(|d| d.charge_kw.max(0.0)).sum();
                target_kw.max(0.0).min(capacity * share)
            }
        };
        let watts = (plant_kw * 1000.0 / n).round().min(MAX_W);
        for d in devices {
            let want = Want {
                event_id: event.event_id,
                plant_id: event.plant_id,
                kind,
                watts,
            };
            // An inverter in two enrollments (not allowed, but cheap to settle) follows the
            // winning event of the two.
            match out.get(&d.sn) {
                Some((_, held)) if !wins(event, held) => {}
                _ => {
                    out.insert(d.sn.clone(), (want, event));
                }
            }
        }
    }
    out.into_iter().map(|(sn, (w, _))| (sn, w)).collect()
}

/// The value `key` has on the device: what it confirmed, else the family's default.
pub(crate) fn current(family: Family, confirmed: &[(String, String)], key: &str) -> String {
    confirmed
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
        .or_else(|| family.field(key).map(|f| f.default.clone()))
        .unwrap_or_default()
}

/// The settings that make a hybrid inverter do `want`: a discharge is "selling first" with
/// the timer on and every slot giving the power down to the battery's low cap, without grid
/// charging; an export limit caps what the inverter sells; a charge turns grid charging on in
/// every slot up to 100 % at the charge current that gives the power at the battery's float
/// voltage (a hold: grid charging off, every slot's floor at 100 %, so the battery neither
/// charges from the grid nor discharges). Other families: none.
pub(crate) fn settings(
    family: Family,
    want: &Want,
    confirmed: &[(String, String)],
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if !matches!(family, Family::HybridLv | Family::HybridHv) {
        return out;
    }
    let watts = format!("{}", want.watts.max(0.0) as i64);
    if want.kind != Kind::Charge {
        out.insert("sysWorkMode".into(), "0".into());
    }
    match want.kind {
        Kind::Discharge => {
            let mut reserve = current(family, confirmed, "batteryLowCap");
            if reserve.is_empty() {
                reserve = RESERVE_SOC.into();
            }
            out.insert("peakAndVallery".into(), "1".into());
            for i in 1..=SLOTS {
                out.insert(format!("sellTime{i}Pac"), watts.clone());
                out.insert(format!("cap{i}"), reserve.clone());
                out.insert(format!("time{i}on"), "false".into());
            }
        }
        Kind::ExportLimit => {
            out.insert("solarMaxSellPower".into(), watts);
        }
        Kind::Charge => {
            let charging = want.watts > 0.0;
            out.insert("peakAndVallery".into(), "true".into());
            for i in 1..=SLOTS {
                out.insert(format!("cap{i}"), "100".into());
                out.insert(format!("time{i}on"), charging.to_string());
            }
            if charging {
                let volts: f64 = current(family, confirmed, "floatVolt")
                    .parse()
                    .unwrap_or(0.0);
                let max_a = match family.field("batteryMaxCurrentCharge").map(|f| &f.kind) {
                    Some(domain::settings::Kind::Number { max, .. }) => *max,
                    _ => 0.0,
                };
                if volts > 0.0 {
                    let amps = (want.watts / volts).ceil().clamp(1.0, max_a.max(1.0));
                    out.insert("batteryMaxCurrentCharge".into(), format!("{}", amps as i64));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(sn: &str, enrollment: i64, event: i64, priority: i64, start: i64) -> PlanRow {
        PlanRow {
            sn: sn.into(),
            plant_id: PlantId(enrollment * 10),
            enrollment_id: EnrollmentId(enrollment),
            participation: 50,
            discharge_kw: 5.0,
            charge_kw: 4.0,
            event_id: HubEventId(event),
            priority,
            start_at: start,
            end_at: start + 3600,
            kind: "discharge".into(),
            target_kw: 3.0,
            intervals: "[]".into(),
        }
    }

    #[test]
    fn the_lowest_priority_number_wins_then_the_latest_start() {
        let rows = [row("A", 1, 7, 5, 100), row("A", 1, 8, 1, 50)];
        assert_eq!(wants(&rows, 120)["A"].event_id, HubEventId(8));
        let rows = [row("A", 1, 7, 1, 100), row("A", 1, 8, 1, 50)];
        assert_eq!(wants(&rows, 120)["A"].event_id, HubEventId(7));
    }

    #[test]
    fn a_plant_discharges_at_most_its_offered_capacity_split_over_its_inverters() {
        // Two inverters of 5 kW at 50 %: 5 kW offered; a 3 kW target gives 1.5 kW each.
        let rows = [row("A", 1, 7, 0, 0), row("B", 1, 7, 0, 0)];
        let w = wants(&rows, 10);
        assert_eq!((w["A"].watts, w["B"].watts), (1500.0, 1500.0));
        let big = [PlanRow {
            target_kw: 40.0,
            ..row("A", 1, 7, 0, 0)
        }];
        assert_eq!(wants(&big, 10)["A"].watts, 2500.0);
    }

    #[test]
    fn an_interval_covering_now_sets_the_target_and_its_ends_are_boundaries() {
        let rows = [PlanRow {
            intervals: r#"[{"startDate":"1970-01-01T00:00:00Z","endDate":"1970-01-01T00:01:40Z","targetKw":1},
                          {"start":100,"end":200,"kind":"exportLimit","targetKw":4}]"#
                .into(),
            ..row("A", 1, 7, 0, 0)
        }];
        assert_eq!(wants(&rows, 50)["A"].watts, 1000.0);
        let later = &wants(&rows, 150)["A"];
        assert_eq!((later.kind, later.watts), (Kind::ExportLimit, 4000.0));
        assert_eq!(boundaries(&rows, 50), Some(100));
    }

    #[test]
    fn a_discharge_fills_every_slot_down_to_the_low_cap_without_grid_charge() {
        let want = wants(&[row("A", 1, 7, 0, 0)], 10)["A"].clone();
        let confirmed = [("batteryLowCap".to_string(), "35".to_string())];
        let s = settings(Family::HybridLv, &want, &confirmed);
        assert_eq!(s["sysWorkMode"], "0");
        assert_eq!(s["peakAndVallery"], "1");
        assert_eq!(
            (s["sellTime6Pac"].as_str(), s["cap1"].as_str()),
            ("2500", "35")
        );
        assert_eq!(s["time3on"], "false");
        for (k, v) in &s {
            let field = Family::HybridLv.field(k).expect(k);
            assert!(
                field
                    .check(&domain::settings::Raw::from(v.as_str()))
                    .is_ok()
            );
        }
        assert!(settings(Family::GridTied, &want, &[]).is_empty());
    }

    #[test]
    fn an_export_limit_sets_the_sell_power() {
        let want = Want {
            event_id: HubEventId(1),
            plant_id: PlantId(1),
            kind: Kind::ExportLimit,
            watts: 1200.0,
        };
        let s = settings(Family::HybridHv, &want, &[]);
        assert_eq!(s.len(), 2);
        assert_eq!(s["solarMaxSellPower"], "1200");
    }

    #[test]
    fn a_dispatch_setpoint_charges_from_the_grid_at_the_current_of_its_power_or_holds_at_zero() {
        // Two inverters of 4 kW charge at 50 %: 4 kW offered; a 3 kW target gives 1.5 kW each.
        let rows = [
            PlanRow {
                kind: "charge".into(),
                ..row("A", 1, 7, 0, 0)
            },
            PlanRow {
                kind: "charge".into(),
                ..row("B", 1, 7, 0, 0)
            },
        ];
        let want = wants(&rows, 10)["A"].clone();
        assert_eq!((want.kind, want.watts), (Kind::Charge, 1500.0));
        let s = settings(Family::HybridLv, &want, &[]);
        // 1500 W at the default 53.6 V float voltage: 28 A (rounded up).
        assert_eq!(s["batteryMaxCurrentCharge"], "28");
        assert_eq!((s["time1on"].as_str(), s["cap6"].as_str()), ("true", "100"));
        assert!(!s.contains_key("sysWorkMode"), "the work mode stays");
        for (k, v) in &s {
            let field = Family::HybridLv.field(k).expect(k);
            assert!(
                field
                    .check(&domain::settings::Raw::from(v.as_str()))
                    .is_ok(),
                "{k}={v}"
            );
        }

        let hold = Want { watts: 0.0, ..want };
        let s = settings(Family::HybridLv, &hold, &[]);
        assert_eq!(
            (s["time4on"].as_str(), s["cap4"].as_str()),
            ("false", "100")
        );
        assert!(!s.contains_key("batteryMaxCurrentCharge"));
    }
}
