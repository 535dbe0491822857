//! Performance figures of a plant in the sense of IEC 61724-1, and how a fleet's plants compare.
//! For now the specific (final) yield and the rule that marks a plant far from the fleet's
//! median; other figures of the standard (reference yield, performance ratio) belong here too.

/// Energy over installed capacity, kWh/kWp: the specific yield (IEC 61724-1's final yield
/// Y_f = E / P_0) over whatever period `energy_kwh` covers. `None` when the plant has no
/// capacity (or the figures are not numbers): such a plant has no yield, which is not a yield
/// of 0.
pub fn specific_yield(energy_kwh: f64, capacity_kwp: f64) -> Option<f64> {
    if !(capacity_kwp.is_finite() && capacity_kwp > 0.0 && energy_kwh.is_finite()) {
        return None;
    }
    Some(energy_kwh.max(0.0) / capacity_kwp)
}

/// Plants below this share of the median are far below it (and above `2 - share` far above).
pub const OUTLIER_SHARE_OF_MEDIAN: f64 = 0.7;
/// ... and so are plants more than this many median absolute deviations from it.
pub const OUTLIER_MADS: f64 = 2.0;
/// The deviation counts as at least this share of the median: in a fleet of near-identical
/// yields (a MAD near 0) a plant a percent off is not an outlier.
pub const OUTLIER_MIN_MAD_SHARE: f64 = 0.05;
/// Fewer ranked plants than this mark no outliers: their median says little.
pub const OUTLIER_MIN_PLANTS: usize = 5;

/// The middle of a fleet's yields and how far they spread around it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    pub median: f64,
    /// The median absolute deviation: the median of |value - median|.
    pub mad: f64,
}

/// Which side of the fleet a plant stands out on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outlier {
    /// Far below the median: production lost (a fault, soiling, shading, a tripped string).
    Low,
    /// Far above it: most often a capacity entered too small.
    High,
}

impl Outlier {
    pub fn key(self) -> &'static str {
        match self {
            Outlier::Low => "low",
            Outlier::High => "high",
        }
    }
}

fn median_of(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// The median and median absolute deviation of `values` (non-numbers left out); `None` for
/// none.
pub fn spread(values: &[f64]) -> Option<Spread> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    let median = median_of(&v)?;
    let mut deviations: Vec<f64> = v.iter().map(|x| (x - median).abs()).collect();
    deviations.sort_by(f64::total_cmp);
    let mad = median_of(&deviations)?;
    Some(Spread { median, mad })
}

/// The bounds outside which a yield is an outlier: (low, high). Low: below 70 % of the median,
/// or more than 2 MAD below it; high: above 130 % of the median, or more than 2 MAD above it;
/// the MAD counting as at least 5 % of the median. Either test alone marks a plant: a plant
/// that produced nothing is low in a scattered fleet (large MAD) too, and one a tenth below
/// its peers in a tight fleet (small MAD) stands out as well.
pub fn outlier_bounds(s: Spread) -> (f64, f64) {
    let mad = s.mad.max(s.median.abs() * OUTLIER_MIN_MAD_SHARE);
    let low = (s.median * OUTLIER_SHARE_OF_MEDIAN).max(s.median - OUTLIER_MADS * mad);
    let high = (s.median * (2.0 - OUTLIER_SHARE_OF_MEDIAN)).min(s.median + OUTLIER_MADS * mad);
    (low, high)
}

/// Whether `value` stands out of a fleet of `count` ranked plants with this spread
/// ([`outlier_bounds`]); never for fewer than [`OUTLIER_MIN_PLANTS`] plants or a median of 0
/// (nothing produced anywhere: night, or no data).
pub fn outlier(value: f64, s: Spread, count: usize) -> Option<Outlier> {
    if count < OUTLIER_MIN_PLANTS || s.median <= 0.0 || !value.is_finite() {
        return None;
    }
    let (low, high) = outlier_bounds(s);
    if value < low {
        Some(Outlier::Low)
    } else if value > high {
        Some(Outlier::High)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specific_yield_is_energy_over_capacity() {
        assert_eq!(specific_yield(40.0, 8.0), Some(5.0));
        assert_eq!(specific_yield(0.0, 8.0), Some(0.0));
        let y = specific_yield(1234.5, 10.5).expect("a yield");
        assert!((y - 117.571_428_571).abs() < 1e-6);
    }

    #[test]
    fn a_plant_without_capacity_has_no_yield_rather_than_zero() {
        assert_eq!(specific_yield(40.0, 0.0), None);
        assert_eq!(specific_yield(0.0, 0.0), None);
        assert_eq!(specific_yield(40.0, -3.0), None);
        assert_eq!(specific_yield(40.0, f64::NAN), None);
        assert_eq!(specific_yield(f64::INFINITY, 5.0), None);
    }

    #[test]
    fn negative_energy_counts_as_none_produced() {
        assert_eq!(specific_yield(-2.0, 4.0), Some(0.0));
    }

    #[test]
    fn the_spread_is_the_median_and_the_median_absolute_deviation() {
        let s = spread(&[1.0, 2.0, 3.0, 4.0, 100.0]).expect("spread");
        assert_eq!(s.median, 3.0);
        // deviations 2, 1, 0, 1, 97 -> median 1
        assert_eq!(s.mad, 1.0);
        let even = spread(&[4.0, 1.0, 3.0, 2.0]).expect("spread");
        assert_eq!(even.median, 2.5);
        assert_eq!(spread(&[]), None);
        assert_eq!(spread(&[f64::NAN]), None);
    }

    #[test]
    fn a_plant_far_below_the_median_is_a_low_outlier() {
        let yields = [4.0, 4.1, 3.9, 4.05, 3.95, 4.0, 2.0];
        let s = spread(&yields).expect("spread");
        assert_eq!(outlier(2.0, s, yields.len()), Some(Outlier::Low));
        assert_eq!(outlier(3.9, s, yields.len()), None);
    }

    #[test]
    fn a_tight_fleet_marks_a_plant_a_tenth_down_but_not_one_a_few_percent_off() {
        // MAD 0.05, counted as 5 % of the median (0.2): low below 4.0 - 0.4 = 3.6.
        let yields = [4.0, 4.05, 3.95, 4.0, 4.1, 3.9, 3.85, 3.5, 4.0];
        let s = spread(&yields).expect("spread");
        let (low, high) = outlier_bounds(s);
        assert!((low - 3.6).abs() < 1e-9, "{low}");
        assert!((high - 4.4).abs() < 1e-9, "{high}");
        assert_eq!(outlier(3.85, s, yields.len()), None);
        assert_eq!(outlier(3.5, s, yields.len()), Some(Outlier::Low));
    }

    #[test]
    fn a_scattered_fleet_still_marks_a_plant_that_produced_nothing() {
        // median 4, MAD 1.5: median - 2 MAD is 1.0, but 70 % of the median is 2.8.
        let yields = [1.0, 2.5, 2.5, 4.0, 5.5, 5.5, 7.0];
        let s = spread(&yields).expect("spread");
        assert_eq!(s.mad, 1.5);
        assert_eq!(outlier_bounds(s).0, 4.0 * 0.7);
        assert_eq!(outlier(0.0, s, yields.len()), Some(Outlier::Low));
        assert_eq!(outlier(2.5, s, yields.len()), Some(Outlier::Low));
        assert_eq!(outlier(3.0, s, yields.len()), None);
    }

    #[test]
    fn a_plant_far_above_is_a_high_outlier() {
        let yields = [4.0, 4.1, 3.9, 4.0, 4.0, 9.0];
        let s = spread(&yields).expect("spread");
        assert_eq!(outlier(9.0, s, yields.len()), Some(Outlier::High));
        assert_eq!(outlier(4.1, s, yields.len()), None);
    }

    #[test]
    fn small_or_idle_fleets_mark_no_outliers() {
        let s = spread(&[4.0, 0.5, 4.0]).expect("spread");
        assert_eq!(outlier(0.5, s, 3), None, "three plants");
        let night = spread(&[0.0; 8]).expect("spread");
        assert_eq!(outlier(0.0, night, 8), None, "nothing produced anywhere");
    }
}
