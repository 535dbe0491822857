//! Income: what a plant's generation earns under its tariff ([`crate::plant::TariffSegment`]).
//!
//! The rule values the energy the plant generated (PV), because that is what the owner's
//! "income" means on every screen: energy not bought plus energy sold. Segments marked
//! `import` are the price of energy bought from the grid and do not value generation; when a
//! tariff has only `import` segments they are used anyway (the owner entered one price list).

use crate::plant::{TariffSegment, Valuation};

/// One day's generation as the tariff needs it.
#[derive(Debug, Clone, Copy, Default)]
pub struct DayGeneration<'a> {
    /// The day's energy, kWh.
    pub kwh: f64,
    /// How the energy spread over the day: `(minute of the local day, weight)`, e.g. the PV
    /// power of each sample. Empty or all zero: spread evenly over the day.
    pub profile: &'a [(u32, f64)],
    /// Energy generated earlier in the same month, kWh (volume tiers count from it).
    pub month_before_kwh: f64,
}

/// Minutes since midnight of `HH:MM`; `24:00` (and `23:59` as an end) is the day's end.
fn minute(raw: &str, is_end: bool) -> Option<u32> {
    let (h, m) = raw.trim().split_once(':')?;
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    match (h, m) {
        (24, 0) | (23, 59) if is_end => Some(1440),
        (0..=23, 0..=59) => Some(h * 60 + m),
        _ => None,
    }
}

/// The segments that price generation (see the module comment).
fn selling(tariff: &[TariffSegment]) -> Vec<&TariffSegment> {
    let chosen: Vec<&TariffSegment> = tariff
        .iter()
        .filter(|c| c.direction.as_deref() != Some("import"))
        .collect();
    if chosen.is_empty() {
        tariff.iter().collect()
    } else {
        chosen
    }
}

/// The money one day's generation earns, in the plant's currency, rounded to cents. A plant
/// without a tariff earns nothing.
pub fn income(tariff: &[TariffSegment], day: &DayGeneration<'_>) -> f64 {
    let kwh = day.kwh.max(0.0);
    let tariff = selling(tariff);
    let Some(first) = tariff.first() else {
        return 0.0;
    };
    let value = match first.kind {
        Valuation::Constant => kwh * first.price,
        Valuation::TimeOfUse => time_of_use(&tariff, kwh, day.profile),
        Valuation::Volume => volume(&tariff, kwh, day.month_before_kwh.max(0.0)),
    };
    (value * 100.0).round() / 100.0
}

fn time_of_use(tariff: &[&TariffSegment], kwh: f64, profile: &[(u32, f64)]) -> f64 {
    let segments: Vec<(u32, u32, f64)> = tariff
        .iter()
        .filter_map(|c| Some((minute(&c.start, false)?, minute(&c.end, true)?, c.price)))
        .filter(|(s, e, _)| e > s)
        .collect();
    let weight_in = |s: u32, e: u32| -> f64 {
        profile
            .iter()
            .filter(|(m, w)| *m >= s && *m < e && w.is_finite() && *w > 0.0)
            .map(|(_, w)| w)
            .sum()
    };
    let total: f64 = segments.iter().map(|(s, e, _)| weight_in(*s, *e)).sum();
    if total > 0.0 {
        segments
            .iter()
            .map(|(s, e, price)| kwh * weight_in(*s, *e) / total * price)
            .sum()
    } else {
        // No profile: the energy is spread evenly over the segments' time.
        let minutes: f64 = segments.iter().map(|(s, e, _)| f64::from(e - s)).sum();
        if minutes <= 0.0 {
            return 0.0;
        }
        segments
            .iter()
            .map(|(s, e, price)| kwh * f64::from(e - s) / minutes * price)
            .sum()
    }
}

/// Tiers by the month's cumulated volume: today's energy occupies
/// `[month_before, month_before + kwh]` on that axis and each part is priced by its tier.
fn volume(tariff: &[&TariffSegment], kwh: f64, month_before: f64) -> f64 {
    let (from, to) = (month_before, month_before + kwh);
    tariff
        .iter()
        .filter_map(|c| {
            let start: f64 = c.start.trim().parse().ok()?;
            let end: f64 = match c.end.trim() {
                "" => f64::INFINITY,
                e => e.parse().ok()?,
            };
            let overlap = (to.min(end) - from.max(start)).max(0.0);
            Some(overlap * c.price)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn charge(
        kind: Valuation,
        start: &str,
        end: &str,
        price: f64,
        dir: Option<&str>,
    ) -> TariffSegment {
        TariffSegment {
            kind,
            start: start.into(),
            end: end.into(),
            price,
            direction: dir.map(Into::into),
        }
    }

    fn day(kwh: f64) -> DayGeneration<'static> {
        DayGeneration {
            kwh,
            ..Default::default()
        }
    }

    #[test]
    fn a_constant_price_multiplies_the_days_energy() {
        let t = [charge(Valuation::Constant, "00:00", "24:00", 0.15, None)];
        assert_eq!(income(&t, &day(12.0)), 1.8);
    }

    #[test]
    fn no_tariff_earns_nothing() {
        assert_eq!(income(&[], &day(12.0)), 0.0);
    }

    #[test]
    fn time_of_use_follows_the_generation_profile() {
        let t = [
            charge(Valuation::TimeOfUse, "00:00", "07:00", 0.1, None),
            charge(Valuation::TimeOfUse, "07:00", "19:00", 0.3, None),
            charge(Valuation::TimeOfUse, "19:00", "24:00", 0.2, None),
        ];
        // Three quarters of the weight at noon, one quarter at 20:00.
        let profile = [(720, 3.0), (1200, 1.0)];
        let d = DayGeneration {
            kwh: 10.0,
            profile: &profile,
            month_before_kwh: 0.0,
        };
        assert_eq!(income(&t, &d), 7.5 * 0.3 + 2.5 * 0.2);
    }

    #[test]
    fn time_of_use_without_a_profile_spreads_evenly() {
        let t = [
            charge(Valuation::TimeOfUse, "00:00", "12:00", 0.1, None),
            charge(Valuation::TimeOfUse, "12:00", "23:59", 0.3, None),
        ];
        assert_eq!(income(&t, &day(10.0)), 2.0);
    }

    #[test]
    fn volume_tiers_count_from_the_months_earlier_energy() {
        let t = [
            charge(Valuation::Volume, "0", "100", 0.2, None),
            charge(Valuation::Volume, "100", "", 0.1, None),
        ];
        let d = DayGeneration {
            kwh: 30.0,
            profile: &[],
            month_before_kwh: 90.0,
        };
        // 10 kWh in the first tier, 20 in the second.
        assert_eq!(income(&t, &d), 4.0);
    }

    #[test]
    fn import_prices_do_not_value_generation() {
        let t = [
            charge(Valuation::Constant, "00:00", "24:00", 0.3, Some("import")),
            charge(Valuation::Constant, "00:00", "24:00", 0.05, Some("export")),
        ];
        assert_eq!(income(&t, &day(10.0)), 0.5);
        let only_import = [charge(
            Valuation::Constant,
            "00:00",
            "24:00",
            0.3,
            Some("import"),
        )];
        assert_eq!(income(&only_import, &day(10.0)), 3.0);
    }

    #[test]
    fn negative_energy_earns_nothing() {
        let t = [charge(Valuation::Constant, "00:00", "24:00", 0.15, None)];
        assert_eq!(income(&t, &day(-3.0)), 0.0);
    }
}
