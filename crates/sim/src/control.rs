//! What an inverter's settings make its plant do beyond the default self-consumption: a
//! forced discharge in the time-of-use slots ("selling first" with the timer on) and a cap on
//! what it exports. Only settings someone wrote count: an inverter nobody configured behaves
//! as before settings existed.

use std::collections::BTreeMap;

/// Time-of-use slots (`sellTime1` .. `sellTime6`).
const SLOTS: usize = 6;

/// One time-of-use slot: from `start` (minutes after local midnight) to the next slot's start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    pub start: u32,
    /// `sellTime{i}Pac`: the power the battery gives, W.
    pub power_w: f64,
    /// `cap{i}`: the state of charge it stops at, %.
    pub floor_soc: f64,
}

/// One inverter's settings as the model reads them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Control {
    /// Every value written to the inverter (key → text), as the device keeps them.
    params: BTreeMap<String, String>,
    /// The slots, when `sysWorkMode` is 0 (selling first) and `peakAndVallery` (use timer) on.
    slots: Option<[Slot; SLOTS]>,
    /// `solarMaxSellPower`, W, once written.
    export_cap_w: Option<f64>,
    /// `activePowerLimit`, % of the rated output, once written (string and micro inverters).
    active_limit_pct: Option<f64>,
}

fn minutes(hhmm: &str) -> Option<u32> {
    let (h, m) = hhmm.split_once(':')?;
    let (h, m) = (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

impl Control {
    /// Takes written values (later ones replace earlier ones) and re-reads what they mean.
    pub fn write<'a>(&mut self, values: impl IntoIterator<Item = (&'a str, String)>) {
        for (k, v) in values {
            self.params.insert(k.to_string(), v);
        }
        let get = |k: &str| self.params.get(k).map(String::as_str);
        let num = |k: &str| get(k).and_then(|v| v.parse::<f64>().ok());
        self.export_cap_w = num("solarMaxSellPower").map(|w| w.max(0.0));
        self.active_limit_pct = num("activePowerLimit").map(|p| p.clamp(0.0, 200.0));
        // The portal writes the timer as the original API does ("1"); older writes said "true".
        let timed =
            get("sysWorkMode") == Some("0") && matches!(get("peakAndVallery"), Some("1" | "true"));
        self.slots = timed.then(|| {
            std::array::from_fn(|i| {
                let n = i + 1;
                Slot {
                    // The catalogue's defaults: slot n starts at 4 × (n - 1) hours, gives 5 kW
                    // and stops at 100 % (so an unset slot gives nothing).
                    start: get(&format!("sellTime{n}"))
                        .and_then(minutes)
                        .unwrap_or(240 * i as u32),
                    power_w: num(&format!("sellTime{n}Pac")).unwrap_or(5000.0).max(0.0),
                    floor_soc: num(&format!("cap{n}")).unwrap_or(100.0).clamp(0.0, 100.0),
                }
            })
        });
    }

    /// The slot that holds `minute` (after local midnight), when the timer is on. A slot runs
    /// until the next later start; the latest start runs past midnight to the earliest.
    pub fn slot_at(&self, minute: u32) -> Option<Slot> {
        let slots = self.slots?;
        let started = slots.iter().filter(|s| s.start <= minute);
        let latest = |a: &&Slot, b: &&Slot| a.start.cmp(&b.start);
        started
            .max_by(latest)
            .or_else(|| slots.iter().max_by(latest))
            .copied()
    }

    /// The forced discharge at `minute`: (W, floor %), when a slot asks for one.
    pub fn forced_at(&self, minute: u32) -> Option<(f64, f64)> {
        self.slot_at(minute)
            .filter(|s| s.power_w > 0.0)
            .map(|s| (s.power_w, s.floor_soc))
    }

    pub fn export_cap_w(&self) -> Option<f64> {
        self.export_cap_w
    }

    /// The output limit in % of the rated power: 100 until someone writes one.
    pub fn active_limit_pct(&self) -> f64 {
        self.active_limit_pct.unwrap_or(100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(pairs: &[(&'static str, &str)]) -> Control {
        let mut c = Control::default();
        c.write(pairs.iter().map(|(k, v)| (*k, v.to_string())));
        c
    }

    #[test]
    fn an_unconfigured_inverter_forces_nothing() {
        let c = Control::default();
        assert_eq!((c.forced_at(600), c.export_cap_w()), (None, None));
        let load_first = control(&[("sysWorkMode", "2"), ("peakAndVallery", "1")]);
        assert_eq!(load_first.forced_at(600), None);
    }

    #[test]
    fn selling_first_with_the_timer_discharges_in_the_slot_down_to_its_cap() {
        let c = control(&[
            ("sysWorkMode", "0"),
            ("peakAndVallery", "1"),
            ("sellTime5Pac", "3000"),
            ("cap5", "20"),
        ]);
        // Slot 5 runs 16:00-20:00 by default; slot 4 (12:00) keeps its 100 % cap.
        assert_eq!(c.forced_at(18 * 60), Some((3000.0, 20.0)));
        assert_eq!(c.forced_at(13 * 60), Some((5000.0, 100.0)));
        let late = control(&[
            ("sysWorkMode", "0"),
            ("peakAndVallery", "true"),
            ("sellTime1", "06:00"),
            ("sellTime6Pac", "700"),
            ("cap6", "30"),
        ]);
        // Slot 6 (20:00) runs past midnight until the earliest start (slot 2 at 04:00).
        assert_eq!(late.forced_at(2 * 60), Some((700.0, 30.0)));
    }

    #[test]
    fn an_active_power_limit_is_a_share_of_the_rating() {
        assert_eq!(Control::default().active_limit_pct(), 100.0);
        let c = control(&[("activePowerLimit", "40.5")]);
        assert_eq!(c.active_limit_pct(), 40.5);
    }

    #[test]
    fn a_written_export_limit_caps_export() {
        let c = control(&[("solarMaxSellPower", "1500")]);
        assert_eq!(c.export_cap_w(), Some(1500.0));
        assert_eq!(c.forced_at(0), None);
    }
}
