//! Faults given to plants on purpose, so that the demo's first screens have something to act on
//! (docs/simulator.md, "The demo's fault scenarios"): dirty modules that make a plant produce
//! less than its size and place give, a tree that shades one string in the morning, and an
//! inverter whose data link breaks while its gateway goes on reporting the others. Each is the
//! same on every start: the first two are part of the plant's physics at every moment, the
//! third starts at a fixed local hour of the day the demo starts.

use chrono::{DateTime, Duration, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

use crate::fleet::GatewaySpec;

/// Losses of a plant's array beyond the model's own (none by default).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Losses {
    /// Share of the light the modules lose to dirt, 0-1 (0: clean).
    pub soiling: f64,
    /// One string shaded in the morning.
    pub shade: Option<Shade>,
}

impl Losses {
    /// The share of its light the array keeps after soiling, 0-1.
    pub fn kept(&self) -> f64 {
        (1.0 - self.soiling).clamp(0.0, 1.0)
    }

    /// The share of its part of the light each string (MPPT input) of inverter `k` gets at
    /// `local_hour` (hours after local midnight): 1 for every string but a shaded one.
    pub fn string_light(&self, k: usize, strings: usize, local_hour: f64) -> Vec<f64> {
        (0..strings.max(1))
            .map(|i| match self.shade {
                Some(s) if s.inverter == k && s.string == i => s.light_at(local_hour),
                _ => 1.0,
            })
            .collect()
    }
}

/// A tree in front of one string: until `clears_at` (local hours) the string gets `kept` of
/// the light its siblings get; over the following hour the shadow moves off it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shade {
    /// The inverter (0 for the plant's first) and its MPPT input (0 for the first).
    pub inverter: usize,
    pub string: usize,
    /// Share of the light the shaded string gets, 0-1.
    pub kept: f64,
    /// Local hour the shadow starts to leave the string.
    pub clears_at: f64,
}

impl Shade {
    /// The share of the light the string gets at `local_hour`.
    pub fn light_at(&self, local_hour: f64) -> f64 {
        let lifted = (local_hour - self.clears_at).clamp(0.0, 1.0);
        self.kept + (1.0 - self.kept) * lifted
    }
}

/// A device whose link to its gateway breaks at `from`: the gateway leaves it out of every
/// report from then on (the device itself keeps working: the meter still sees its power).
#[derive(Debug, Clone, PartialEq)]
pub struct Silence {
    pub sn: String,
    pub from: DateTime<Utc>,
}

/// The demo's underperforming plant: the Madrid rooftop, 28 % of its light lost to dirt.
pub const SOILED_GATEWAY: &str = "SIMGW000001";
pub const SOILING: f64 = 0.28;
/// The demo's shaded string: the Los Angeles home's inverter, its second input, which a tree
/// leaves 60 % of the light until 10:00 (gone by 11:00).
pub const SHADED_GATEWAY: &str = "SIMGW000003";
pub const SHADE: Shade = Shade {
    inverter: 0,
    string: 1,
    kept: 0.6,
    clears_at: 10.0,
};
/// The demo's silent inverter: the seventh of the Zaragoza roof's ten.
pub const SILENT_GATEWAY: &str = "SIMGW000008";
pub const SILENT_INVERTER: &str = "SIMINV000807";
/// It falls silent at this local hour of the day the demo starts ...
pub const SILENT_FROM_HOUR: u32 = 9;
/// ... or this long after the start, if that is earlier.
pub const SILENT_AFTER_START_MIN: i64 = 5;

/// When the silent inverter stops reporting for a demo started at `start` at a plant in `tz`:
/// [`SILENT_FROM_HOUR`] local time on the start's day, or [`SILENT_AFTER_START_MIN`] after the
/// start if that comes first. Started in the afternoon, the history already shows it stop at
/// 09:00; started in the early morning, it stops a few minutes in.
pub fn silent_from(start: DateTime<Utc>, tz: Tz) -> DateTime<Utc> {
    let day = start.with_timezone(&tz).date_naive();
    let nine = NaiveTime::from_hms_opt(SILENT_FROM_HOUR, 0, 0).unwrap_or_default();
    let local = tz
        .from_local_datetime(&day.and_time(nine))
        .earliest()
        .map_or(start, |t| t.with_timezone(&Utc));
    local.min(start + Duration::minutes(SILENT_AFTER_START_MIN))
}

/// Gives the demo's plants their faults, for a demo started at `start`: the soiled plant, the
/// shaded string and the silent inverter, each on its plant of `fleet` (found by its gateway's
/// SN; a fleet without it is left as it is).
pub fn demo(fleet: &mut [GatewaySpec], start: DateTime<Utc>) {
    for gw in fleet {
        match gw.sn.as_str() {
            SOILED_GATEWAY => gw.plant.losses.soiling = SOILING,
            SHADED_GATEWAY => gw.plant.losses.shade = Some(SHADE),
            SILENT_GATEWAY => {
                gw.silent = Some(Silence {
                    sn: SILENT_INVERTER.into(),
                    from: silent_from(start, gw.plant.tz),
                })
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fleet::{SimGateway, commercial_plant, demo_fleet};
    use chrono::Timelike;
    use devices::{DeviceFamily, Value};

    /// The plants `serve --demo` runs, with their faults, for a demo started at `start`.
    fn demo_plants(start: DateTime<Utc>) -> Vec<GatewaySpec> {
        let mut plants = demo_fleet(7, 2024);
        plants.push(commercial_plant(plants.len(), 2024));
        demo(&mut plants, start);
        plants
    }

    fn plant(plants: &[GatewaySpec], sn: &str) -> GatewaySpec {
        plants
            .iter()
            .find(|g| g.sn == sn)
            .cloned()
            .unwrap_or_else(|| panic!("{sn}"))
    }

    fn local(tz: Tz, y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
        tz.with_ymd_and_hms(y, m, d, h, min, 0)
            .earliest()
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_default()
    }

    fn number(values: &crate::readings::Values, key: &str) -> Option<f64> {
        values.get(key).and_then(Value::as_f64)
    }

    #[test]
    fn the_shaded_string_makes_sixty_percent_of_its_sibling_in_the_morning_only() {
        let configs = devices::protocol::shipped().unwrap_or_default();
        let spec = plant(&demo_plants(Utc::now()), SHADED_GATEWAY);
        let tz = spec.plant.tz;
        let mut gw = SimGateway::new(spec);
        // A history step (5 minutes) and live steps (5 s) alike, on days around the year.
        for (m, d) in [(3, 21), (6, 21), (9, 1), (11, 30), (12, 21)] {
            let mut morning = Vec::new();
            let mut noon = Vec::new();
            for (h, min, dt) in [(9, 0, 300.0), (9, 30, 5.0), (9, 55, 300.0), (13, 0, 300.0)] {
                let (snapshot, t) = gw.telemetry(local(tz, 2026, m, d, h, min), dt, &configs);
                if snapshot.faulted {
                    continue;
                }
                let inv = &t.devices[0];
                let (Some(p1), Some(p2)) = (
                    number(&inv.values, "pv1_power"),
                    number(&inv.values, "pv2_power"),
                ) else {
                    panic!("no PV inputs: {:?}", inv.values.keys());
                };
                assert!(p1 > 100.0, "{m}-{d} {h}:{min}: {p1} W");
                if h < 10 {
                    morning.push(p2 / p1);
                } else {
                    noon.push(p2 / p1);
                }
            }
            for r in morning {
                assert!((0.55..=0.65).contains(&r), "{m}-{d} morning: {r}");
            }
            for r in noon {
                assert!((0.98..=1.02).contains(&r), "{m}-{d} noon: {r}");
            }
        }
    }

    #[test]
    fn the_shadow_leaves_the_string_over_an_hour() {
        assert_eq!(SHADE.light_at(7.0), 0.6);
        assert!((SHADE.light_at(10.5) - 0.8).abs() < 1e-9);
        assert_eq!(SHADE.light_at(11.0), 1.0);
        let losses = Losses {
            shade: Some(SHADE),
            ..Losses::default()
        };
        assert_eq!(losses.string_light(0, 2, 8.0), [1.0, 0.6]);
        assert_eq!(losses.string_light(1, 2, 8.0), [1.0, 1.0]);
    }

    #[test]
    fn the_silent_inverter_is_left_out_while_its_gateway_reports_the_others() {
        let configs = devices::protocol::shipped().unwrap_or_default();
        let tz = chrono_tz::Europe::Madrid;
        let start = local(tz, 2026, 6, 21, 15, 0);
        let spec = plant(&demo_plants(start), SILENT_GATEWAY);
        assert_eq!(
            spec.silent.as_ref().map(|s| s.from),
            Some(local(tz, 2026, 6, 21, 9, 0))
        );
        let mut gw = SimGateway::new(spec.clone());
        let inverters = |t: &devices::report::Telemetry| -> Vec<String> {
            t.devices
                .iter()
                .filter(|d| d.family == DeviceFamily::Inverter.as_str())
                .map(|d| d.sn.clone())
                .collect()
        };
        let (_, before) = gw.telemetry(local(tz, 2026, 6, 21, 8, 55), 300.0, &configs);
        assert_eq!(inverters(&before).len(), 10);
        assert!(inverters(&before).contains(&SILENT_INVERTER.to_string()));
        for at in [(9, 0), (12, 0), (23, 55)] {
            let (_, t) = gw.telemetry(local(tz, 2026, 6, 21, at.0, at.1), 300.0, &configs);
            let sns = inverters(&t);
            assert_eq!(sns.len(), 9, "{at:?}");
            assert!(!sns.contains(&SILENT_INVERTER.to_string()), "{at:?}");
            // The meter, battery, station and combiner report on; the others' PV is there.
            assert_eq!(t.devices.len(), spec.devices.len() - 1);
            assert!(t.devices.iter().any(|d| d.family == "meter"));
        }
        let (_, noon) = gw.telemetry(local(tz, 2026, 6, 22, 13, 0), 300.0, &configs);
        let pv: f64 = noon
            .devices
            .iter()
            .filter_map(|d| number(&d.values, "pv1_power"))
            .sum();
        assert!(pv > 9.0 * 2_000.0, "{pv}");
        assert!(gw.is_silent(SILENT_INVERTER, local(tz, 2026, 6, 23, 13, 0)));
        assert!(!gw.is_silent("SIMINV000801", local(tz, 2026, 6, 23, 13, 0)));
    }

    #[test]
    fn the_inverter_falls_silent_at_nine_or_five_minutes_after_an_early_start() {
        let tz = chrono_tz::Europe::Madrid;
        let afternoon = local(tz, 2026, 11, 30, 16, 20);
        assert_eq!(silent_from(afternoon, tz), local(tz, 2026, 11, 30, 9, 0));
        let early = local(tz, 2026, 11, 30, 6, 40);
        assert_eq!(silent_from(early, tz), local(tz, 2026, 11, 30, 6, 45));
        // The same on every start of the same day.
        let later = local(tz, 2026, 11, 30, 21, 0);
        assert_eq!(silent_from(later, tz), silent_from(afternoon, tz));
        assert_eq!(silent_from(later, tz).with_timezone(&tz).hour(), 9);
    }

    /// PV energy of `spec`'s plant over the `days` local days ending with `last`, kWh.
    fn energy(spec: &GatewaySpec, last: DateTime<Utc>, days: i64) -> f64 {
        let mut model = crate::PlantModel::new(spec.plant.clone());
        let from = last - Duration::days(days);
        let steps = days * 24 * 12;
        let mut pv = 0.0;
        for i in 1..=steps {
            let s = model.step(from + Duration::minutes(5 * i), 300.0);
            pv += s.flows.pv_w * 300.0 / 3.6e6;
        }
        pv
    }

    #[test]
    fn the_soiled_plant_makes_about_seventy_two_percent_of_what_its_size_and_place_give() {
        let plants = demo_plants(Utc::now());
        let soiled = plant(&plants, SOILED_GATEWAY);
        let clean = plant(&demo_fleet(7, 2024), SOILED_GATEWAY);
        assert_eq!(clean.plant.losses, Losses::default());
        for (m, d) in [(1, 10), (6, 21), (11, 30)] {
            let end = local(soiled.plant.tz, 2026, m, d, 0, 0);
            let ratio = energy(&soiled, end, 3) / energy(&clean, end, 3);
            assert!((0.70..=0.75).contains(&ratio), "{m}-{d}: {ratio}");
        }
    }

    /// The fault codes (Fnn) an inverter's reading sets, decoded as the portal decodes it.
    fn fault_codes(
        r: &devices::report::DeviceReading,
        configs: &[devices::protocol::ProtocolConfig],
    ) -> Vec<u32> {
        let values: crate::readings::Values = if r.raw.is_empty() {
            r.values.clone()
        } else {
            configs
                .iter()
                .find(|c| c.code == r.protocol)
                .map(|c| {
                    devices::decode(c, &r.raw)
                        .values
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut codes = Vec::new();
        for (key, word) in values {
            let Some(n) = key
                .strip_prefix("fault_word_")
                .or_else(|| key.strip_prefix("micro_fault_word_"))
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            let word = word.as_f64().unwrap_or(0.0) as u32;
            codes.extend(
                (0..16)
                    .filter(|b| word & (1 << b) != 0)
                    .map(|b| 16 * (n - 1) + b + 1),
            );
        }
        codes
    }

    #[test]
    fn the_demos_random_faults_fit_each_model() {
        let configs = devices::protocol::shipped().unwrap_or_default();
        let start = local(chrono_tz::Europe::Madrid, 2026, 3, 1, 0, 0);
        for mut spec in demo_plants(start) {
            // Every hour a trip (10-40 minutes from the top of the hour): look at :05.
            spec.plant.fault_rate = 1.0;
            let battery = spec.plant.battery.is_some();
            let parallel = spec.plant.inverters > 1;
            let mut gw = SimGateway::new(spec.clone());
            let mut seen = std::collections::BTreeSet::new();
            for h in 0..240 {
                let at = start + Duration::hours(h) + Duration::minutes(5);
                let (_, t) = gw.telemetry(at, 300.0, &configs);
                for r in t.devices.iter().filter(|d| d.family == "inverter") {
                    seen.extend(fault_codes(r, &configs));
                }
            }
            let name = &spec.plant_name;
            assert!(seen.contains(&35), "{name}: grid outages {seen:?}");
            assert_eq!(
                seen.contains(&56),
                battery,
                "{name}: battery fault {seen:?}"
            );
            assert_eq!(
                seen.contains(&41),
                parallel && battery,
                "{name}: parallel {seen:?}"
            );
        }
    }
}
