//! One plant's physics: PV from the sun and clouds, a household load, and a battery that
//! charges from surplus and covers deficits. Every step keeps the energy balance
//! PV + discharge + import = load + charge + export, and integrates the energy counters the
//! devices report (today's, reset at local midnight, and lifetime totals).

use chrono::{DateTime, NaiveDate, Timelike, Utc};
use chrono_tz::Tz;

use crate::{noise, sun};

#[derive(Debug, Clone)]
pub struct PlantSpec {
    pub seed: u64,
    pub lat: f64,
    pub lon: f64,
    pub tz: Tz,
    pub pv_kwp: f64,
    /// 1 to 4 strings, sharing the array evenly.
    pub mppt_count: usize,
    /// 0 for a grid-tied plant without storage.
    pub battery_kwh: f64,
    pub battery_max_kw: f64,
    pub daily_load_kwh: f64,
    /// Chance per hour that the inverter trips (then it recovers within the hour).
    pub fault_rate: f64,
}

/// Energy counters in kWh.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Energy {
    pub pv: f64,
    pub load: f64,
    pub import: f64,
    pub export: f64,
    pub charge: f64,
    pub discharge: f64,
}

impl Energy {
    fn add(&mut self, s: &Flows, hours: f64) {
        self.pv += s.pv_w * hours / 1000.0;
        self.load += s.load_w * hours / 1000.0;
        self.import += s.grid_w.max(0.0) * hours / 1000.0;
        self.export += (-s.grid_w).max(0.0) * hours / 1000.0;
        self.charge += (-s.battery_w).max(0.0) * hours / 1000.0;
        self.discharge += s.battery_w.max(0.0) * hours / 1000.0;
    }
}

/// Power flows in W. `battery_w` > 0 discharges; `grid_w` > 0 imports.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Flows {
    pub pv_w: f64,
    pub load_w: f64,
    pub battery_w: f64,
    pub grid_w: f64,
}

#[derive(Debug, Clone)]
pub struct Snapshot {
    pub at: DateTime<Utc>,
    pub local_day: NaiveDate,
    pub flows: Flows,
    /// Per string: (volts, amps, watts).
    pub strings: Vec<(f64, f64, f64)>,
    pub soc: f64,
    pub irradiance: f64,
    pub ambient_c: f64,
    pub module_c: f64,
    pub wind_ms: f64,
    pub faulted: bool,
    pub today: Energy,
    pub total: Energy,
    pub battery_cycles: f64,
}

impl Snapshot {
    /// The part of the plant one of `n` identical inverters sees: powers, currents and energies
    /// divided by `n`; voltages, SOC and the weather as they are. The inverters of a plant
    /// together then report exactly the plant's energy.
    pub fn share(&self, n: usize) -> Snapshot {
        let k = 1.0 / n.max(1) as f64;
        let part = |e: &Energy| Energy {
            pv: e.pv * k,
            load: e.load * k,
            import: e.import * k,
            export: e.export * k,
            charge: e.charge * k,
            discharge: e.discharge * k,
        };
        Snapshot {
            flows: Flows {
                pv_w: self.flows.pv_w * k,
                load_w: self.flows.load_w * k,
                battery_w: self.flows.battery_w * k,
                grid_w: self.flows.grid_w * k,
            },
            strings: self
                .strings
                .iter()
                .map(|(v, a, w)| (*v, a * k, w * k))
                .collect(),
            today: part(&self.today),
            total: part(&self.total),
            ..self.clone()
        }
    }
}

pub struct PlantModel {
    pub spec: PlantSpec,
    soc: f64,
    day: Option<NaiveDate>,
    today: Energy,
    total: Energy,
}

const MIN_SOC: f64 = 10.0;

impl PlantModel {
    pub fn new(spec: PlantSpec) -> PlantModel {
        PlantModel {
            spec,
            soc: 60.0,
            day: None,
            today: Energy::default(),
            total: Energy::default(),
        }
    }

    /// Lifetime totals so far (the same numbers the devices report).
    pub fn total(&self) -> Energy {
        self.total
    }

    /// Advances the model by `dt_secs` ending at `at` and returns what the devices see then.
    pub fn step(&mut self, at: DateTime<Utc>, dt_secs: f64) -> Snapshot {
        let s = &self.spec;
        let t = at.timestamp();
        let local = at.with_timezone(&s.tz);
        let local_day = local.date_naive();
        if self.day != Some(local_day) {
            self.day = Some(local_day);
            self.today = Energy::default();
        }
        let elevation = sun::elevation(s.lat, s.lon, at);
        let day_index = t.div_euclid(86_400) as u64;
        // Some days are overcast all day; on others clouds come and go.
        let overcast = noise::unit(s.seed ^ 0xC10D, day_index);
        let drift = noise::smooth(s.seed ^ 0xD81F, t, 1800);
        let flicker = noise::smooth(s.seed ^ 0xF11C, t, 240);
        let clearness =
            (1.0 - 0.65 * overcast * overcast - 0.35 * drift * flicker).clamp(0.08, 1.0);
        let irradiance = sun::clear_sky_irradiance(elevation) * clearness;
        let ambient_c = 12.0 + 8.0 * (elevation.max(-10.0) / 60.0) + 4.0 * drift;
        let module_c = ambient_c + irradiance * 0.03;
        let faulted = self.faulted(t);
        let temp_derate = 1.0 - 0.004 * (module_c - 25.0).max(0.0);
        let pv_w = if faulted {
            0.0
        } else {
            s.pv_kwp * irradiance * 0.86 * temp_derate
        };
        let load_w = self.load_w(local.hour() as f64 + local.minute() as f64 / 60.0, t);

        let hours = dt_secs.max(0.0) / 3600.0;
        let battery_w = if faulted || s.battery_kwh <= 0.0 || hours <= 0.0 {
            0.0
        } else {
            let max_w = s.battery_max_kw * 1000.0;
            let capacity_wh = s.battery_kwh * 1000.0;
            let surplus = pv_w - load_w;
            if surplus > 0.0 {
                let room_w = (100.0 - self.soc) / 100.0 * capacity_wh / hours;
                -surplus.min(max_w).min(room_w.max(0.0))
            } else {
                let available_w = (self.soc - MIN_SOC) / 100.0 * capacity_wh / hours;
                (-surplus).min(max_w).min(available_w.max(0.0))
            }
        };
        if s.battery_kwh > 0.0 {
            self.soc =
                (self.soc - battery_w * hours / (s.battery_kwh * 1000.0) * 100.0).clamp(0.0, 100.0);
        }
        let flows = Flows {
            pv_w,
            load_w,
            battery_w,
            grid_w: load_w - pv_w - battery_w,
        };
        self.today.add(&flows, hours);
        self.total.add(&flows, hours);

        let strings = (0..s.mppt_count.max(1))
            .map(|i| {
                let p = pv_w / s.mppt_count.max(1) as f64;
                let v = if p > 0.0 {
                    320.0 + 40.0 * noise::smooth(s.seed ^ i as u64, t, 600)
                } else {
                    0.0
                };
                let a = if v > 0.0 { p / v } else { 0.0 };
                (round(v, 1), round(a, 1), round(p, 0))
            })
            .collect();
        let wind_ms = 1.0 + 6.0 * noise::smooth(s.seed ^ 0x3117, t, 1200);
        let battery_cycles = if s.battery_kwh > 0.0 {
            self.total.discharge / s.battery_kwh
        } else {
            0.0
        };
        Snapshot {
            at,
            local_day,
            flows,
            strings,
            soc: self.soc,
            irradiance,
            ambient_c,
            module_c,
            wind_ms,
            faulted,
            today: self.today,
            total: self.total,
            battery_cycles,
        }
    }

    /// A trip in hour `h` lasts 10-40 minutes from the top of the hour.
    fn faulted(&self, t: i64) -> bool {
        let hour = t.div_euclid(3600) as u64;
        if noise::unit(self.spec.seed ^ 0xFA17, hour) >= self.spec.fault_rate {
            return false;
        }
        let minutes = 10 + (noise::unit(self.spec.seed ^ 0xFA18, hour) * 30.0) as i64;
        t.rem_euclid(3600) < minutes * 60
    }

    /// Household load: a base, a morning and a larger evening peak, and appliance noise.
    fn load_w(&self, local_hour: f64, t: i64) -> f64 {
        let bump = |centre: f64, width: f64| (-((local_hour - centre) / width).powi(2)).exp();
        let shape = 0.55 + 0.9 * bump(7.5, 1.2) + 1.4 * bump(19.5, 2.0) + 0.3 * bump(13.0, 2.5);
        let mean_w = self.spec.daily_load_kwh * 1000.0 / 24.0;
        let noise = 0.8 + 0.4 * noise::smooth(self.spec.seed ^ 0x10AD, t, 300);
        mean_w * shape / 1.12 * noise
    }
}

pub fn round(v: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    (v * f).round() / f
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, TimeZone};

    fn spec(battery_kwh: f64) -> PlantSpec {
        PlantSpec {
            seed: 42,
            lat: 40.4,
            lon: -3.7,
            tz: chrono_tz::Europe::Madrid,
            pv_kwp: 6.0,
            mppt_count: 2,
            battery_kwh,
            battery_max_kw: 3.0,
            daily_load_kwh: 12.0,
            fault_rate: 0.02,
        }
    }

    fn run_day(model: &mut PlantModel, start: DateTime<Utc>) -> Vec<Snapshot> {
        (1..=288)
            .map(|i| model.step(start + Duration::minutes(5 * i), 300.0))
            .collect()
    }

    #[test]
    fn every_step_keeps_the_energy_balance() {
        let mut model = PlantModel::new(spec(10.0));
        let start = Utc.with_ymd_and_hms(2024, 6, 1, 0, 0, 0).unwrap();
        for s in run_day(&mut model, start) {
            let f = s.flows;
            let lhs = f.pv_w + f.battery_w.max(0.0) + f.grid_w.max(0.0);
            let rhs = f.load_w + (-f.battery_w).max(0.0) + (-f.grid_w).max(0.0);
            assert!((lhs - rhs).abs() < 1e-6, "{f:?}");
            assert!((MIN_SOC - 1e-9..=100.0).contains(&s.soc) || s.soc >= 0.0);
            let e = s.total;
            assert!((e.pv + e.discharge + e.import - (e.load + e.charge + e.export)).abs() < 1e-6);
        }
    }

    #[test]
    fn pv_follows_the_sun_and_a_summer_day_makes_sense() {
        let mut model = PlantModel::new(spec(0.0));
        let start = Utc.with_ymd_and_hms(2024, 6, 21, 0, 0, 0).unwrap();
        let day = run_day(&mut model, start);
        let at = |h: u32| {
            day.iter()
                .find(|s| s.at.with_timezone(&chrono_tz::Europe::Madrid).hour() == h)
                .map(|s| s.flows.pv_w)
                .unwrap_or(-1.0)
        };
        assert_eq!(at(2), 0.0, "no sun at night");
        let e = model.total();
        assert!(
            (5.0..60.0).contains(&e.pv),
            "daily PV {} kWh for 6 kWp",
            e.pv
        );
        assert!((8.0..16.0).contains(&e.load), "daily load {} kWh", e.load);
        assert_eq!(e.charge + e.discharge, 0.0, "no battery");
    }

    #[test]
    fn the_same_seed_and_times_give_the_same_history() {
        let start = Utc.with_ymd_and_hms(2024, 3, 3, 0, 0, 0).unwrap();
        let a = run_day(&mut PlantModel::new(spec(5.0)), start);
        let b = run_day(&mut PlantModel::new(spec(5.0)), start);
        assert_eq!(a.last().map(|s| s.total), b.last().map(|s| s.total));
    }

    #[test]
    fn today_counters_restart_at_local_midnight() {
        let mut model = PlantModel::new(spec(5.0));
        let start = Utc.with_ymd_and_hms(2024, 6, 1, 20, 0, 0).unwrap();
        let steps: Vec<Snapshot> = (1..=48)
            .map(|i| model.step(start + Duration::minutes(5 * i), 300.0))
            .collect();
        let before = steps
            .iter()
            .rev()
            .find(|s| s.local_day.to_string() == "2024-06-01")
            .unwrap();
        let after = steps
            .iter()
            .find(|s| s.local_day.to_string() == "2024-06-02")
            .unwrap();
        assert!(after.today.load < before.today.load);
        assert!(after.total.load > before.total.load);
    }
}
