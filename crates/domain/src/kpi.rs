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

// ---------------------------------------------------------------------------------------------
// The figures of one plant over a period (docs/figures.md): reference yield and performance
// ratio (IEC 61724-1:2021), availability, self-consumption and self-sufficiency with the
// battery's grid charge taken out, and the CO2 a plant's generation avoided. Each answers
// `None` when what it needs is missing (the screens show "--", never 0); shares are fractions
// (0.81), the callers show them as %.
// ---------------------------------------------------------------------------------------------

/// The reference irradiance of IEC 61724-1, G_ref = 1 kW/m².
pub const G_REF_KW_M2: f64 = 1.0;

/// Kilograms of CO2 a kWh from the grid emits where the operator did not say: 0.4 kg/kWh, about
/// the world average of grid electricity (IEA, 2023: 0.46; the EU 0.25, the US 0.37, China
/// 0.55). Operators set their grid's factor (`PORTAL_CO2_KG_PER_KWH`).
pub const DEFAULT_CO2_KG_PER_KWH: f64 = 0.4;

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// The reference yield Y_r = H_i / G_ref of IEC 61724-1 (hours, or kWh/kWp): the in-plane
/// irradiation `h_poa_kwh_m2` (kWh/m²) over the reference irradiance. `None` for a value that
/// is no irradiation (negative, not a number).
pub fn reference_yield(h_poa_kwh_m2: f64) -> Option<f64> {
    finite(h_poa_kwh_m2)
        .filter(|h| *h >= 0.0)
        .map(|h| h / G_REF_KW_M2)
}

/// The performance ratio PR = Y_f / Y_r of IEC 61724-1: the final yield (kWh/kWp,
/// [`specific_yield`]) over the reference yield (h). `None` without sunlight (a reference
/// yield of 0: night, or no irradiation recorded). Not capped at 1: a ratio above 1 tells a
/// capacity entered too small or an irradiance sensor that reads low.
pub fn performance_ratio(final_yield: f64, reference_yield: f64) -> Option<f64> {
    if !(final_yield.is_finite() && reference_yield.is_finite()) || reference_yield <= 0.0 {
        return None;
    }
    Some(final_yield.max(0.0) / reference_yield)
}

/// Availability: the share of the daylight time of a plant's inverters (inverter-hours with
/// the sun up) they reported in and were not in a fault, 0-1. `None` without daylight.
pub fn availability(available_h: f64, daylight_h: f64) -> Option<f64> {
    if !(available_h.is_finite() && daylight_h.is_finite()) || daylight_h <= 0.0 {
        return None;
    }
    Some((available_h / daylight_h).clamp(0.0, 1.0))
}

/// The power (W) with which a battery charges from the grid at one moment: what it takes in
/// beyond the PV surplus, `max(0, charge - max(0, pv - load))`, with `battery_w` positive when
/// it discharges (the convention of the device protocol). Ingest integrates it over each report
/// interval into the day metric `grid_charge`.
pub fn grid_charge_w(pv_w: f64, load_w: f64, battery_w: f64) -> f64 {
    let charge = (-battery_w).max(0.0);
    let surplus = (pv_w - load_w).max(0.0);
    let w = (charge - surplus).max(0.0);
    if w.is_finite() { w } else { 0.0 }
}

/// A plant's energy over a period, kWh, each `None` when no device measured it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Flows {
    pub pv: Option<f64>,
    pub load: Option<f64>,
    pub import: Option<f64>,
    pub export: Option<f64>,
    pub charge: Option<f64>,
    pub discharge: Option<f64>,
    /// What the battery took from the grid (the `grid_charge` metric).
    pub grid_charge: Option<f64>,
}

/// The battery's part of the flows: what it took, what it gave, and the share of what it gave
/// that had come from the grid (`None` when the battery charged and its grid charge is not
/// known).
struct Battery {
    discharge: f64,
    /// G, capped by the charge and the import it is part of.
    grid_charge: f64,
    /// g = G / C: the grid's share of the battery's energy, the same in what it gives as in
    /// what it took (its content mixes).
    grid_share: f64,
}

fn battery(f: &Flows) -> Option<Battery> {
    let charge = f.charge.map_or(0.0, |v| v.max(0.0));
    let discharge = f.discharge.map_or(0.0, |v| v.max(0.0));
    if charge <= 0.0 {
        return Some(Battery {
            discharge,
            grid_charge: 0.0,
            grid_share: 0.0,
        });
    }
    let g = f.grid_charge?.max(0.0).min(charge);
    let g = f.import.map_or(g, |i| g.min(i.max(0.0)));
    Some(Battery {
        discharge,
        grid_charge: g,
        grid_share: g / charge,
    })
}

/// Self-consumption: the share of the PV energy used on site (directly or through the
/// battery) rather than exported, 0-1. PV exported is the export less what the battery
/// exported of energy it had taken from the grid: `(P - E + g·E_D) / P`, where `E_D =
/// max(0, D - (L - (I - G)))` is the least the battery must have exported (what it gave beyond
/// what the load took from other sources than the grid) and `g = G / C`. Without grid charge it
/// is `(P - E) / P`. `None` without PV, without the export, or when the battery's grid charge
/// is needed and not known. The derivation is in docs/figures.md.
pub fn self_consumption(f: &Flows) -> Option<f64> {
    let pv = f.pv.filter(|p| p.is_finite() && *p > 0.0)?;
    let export = f.export?.max(0.0);
    let b = battery(f)?;
    let battery_export = if b.grid_share > 0.0 && b.discharge > 0.0 {
        let (load, import) = (f.load?.max(0.0), f.import?.max(0.0));
        let not_from_grid = (load - (import - b.grid_charge)).max(0.0);
        (b.discharge - not_from_grid).max(0.0)
    } else {
        0.0
    };
    let used = pv - export + b.grid_share * battery_export;
    finite(used / pv).map(|s| s.clamp(0.0, 1.0))
}

/// Self-sufficiency: the share of the consumption that solar energy covered (directly or
/// through the battery), 0-1. The load took `I - G` straight from the grid and, of the battery's
/// `D_L = min(D, L - (I - G))`, the share `g = G / C` was grid energy too:
/// `(L - (I - G) - g·D_L) / L`. Without grid charge it is `(L - I) / L`. `None` without
/// consumption, without the import, or when the battery's grid charge is needed and not known.
pub fn self_sufficiency(f: &Flows) -> Option<f64> {
    let load = f.load.filter(|l| l.is_finite() && *l > 0.0)?;
    let import = f.import?.max(0.0);
    let b = battery(f)?;
    let straight = (import - b.grid_charge).max(0.0);
    let battery_to_load = b.discharge.min((load - straight).max(0.0));
    let solar = load - straight - b.grid_share * battery_to_load;
    finite(solar / load).map(|s| s.clamp(0.0, 1.0))
}

/// The CO2 a plant's generation avoided, kg: its PV energy (kWh) times the grid's emission
/// factor (kg/kWh). `None` without PV energy or with a factor that is none.
pub fn co2_avoided_kg(pv_kwh: Option<f64>, kg_per_kwh: f64) -> Option<f64> {
    if !kg_per_kwh.is_finite() || kg_per_kwh < 0.0 {
        return None;
    }
    finite(pv_kwh?.max(0.0) * kg_per_kwh)
}

#[cfg(test)]
mod figure_tests {
    use super::*;

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-4)
    }

    #[test]
    fn the_reference_yield_is_the_irradiation_over_one_kilowatt_per_square_metre() {
        // 5.2 kWh/m² in the plane of the array: 5.2 peak-sun hours.
        assert_eq!(reference_yield(5.2), Some(5.2));
        assert_eq!(reference_yield(0.0), Some(0.0));
        assert_eq!(reference_yield(-1.0), None);
        assert_eq!(reference_yield(f64::NAN), None);
    }

    #[test]
    fn the_performance_ratio_is_the_final_over_the_reference_yield() {
        // 4.5 kWp made 18.9 kWh under 5.25 kWh/m²: Y_f = 4.2 h, Y_r = 5.25 h, PR = 0.8.
        let yf = specific_yield(18.9, 4.5).expect("yield");
        let yr = reference_yield(5.25).expect("reference");
        assert!(close(performance_ratio(yf, yr), 0.8));
        assert_eq!(performance_ratio(1.0, 0.0), None, "no sunlight: no ratio");
        assert_eq!(performance_ratio(f64::NAN, 3.0), None);
        // Not capped: 1.1 says the capacity or the sensor is off.
        assert!(close(performance_ratio(5.5, 5.0), 1.1));
    }

    #[test]
    fn availability_is_the_share_of_daylight_with_data_and_no_fault() {
        // Two inverters, 12 h of daylight each: 24 h; one was silent 2 h and tripped 1 h.
        assert!(close(availability(21.0, 24.0), 0.875));
        assert_eq!(availability(0.0, 0.0), None, "no daylight (polar night)");
        assert_eq!(availability(25.0, 24.0), Some(1.0));
    }

    #[test]
    fn grid_charge_is_the_charge_the_pv_surplus_does_not_cover() {
        // At night: 2 kW into the battery, all from the grid.
        assert_eq!(grid_charge_w(0.0, 500.0, -2000.0), 2000.0);
        // At noon: 3 kW of PV, 1 kW of load, 2.5 kW charging: 0.5 kW from the grid.
        assert_eq!(grid_charge_w(3000.0, 1000.0, -2500.0), 500.0);
        // Charging from surplus only, or discharging: none.
        assert_eq!(grid_charge_w(3000.0, 1000.0, -1500.0), 0.0);
        assert_eq!(grid_charge_w(0.0, 800.0, 800.0), 0.0);
        assert_eq!(grid_charge_w(0.0, 0.0, f64::NAN), 0.0);
    }

    /// The worked example of docs/figures.md: a day of 20 kWh PV, 18 kWh load, the battery
    /// charged 6 kWh from the grid at night and 5 kWh from PV at noon, giving back 10 kWh.
    /// Balance: 20 + 10 + 9 = 18 + 11 + 10.
    fn example() -> Flows {
        Flows {
            pv: Some(20.0),
            load: Some(18.0),
            import: Some(9.0),
            export: Some(10.0),
            charge: Some(11.0),
            discharge: Some(10.0),
            grid_charge: Some(6.0),
        }
    }

    #[test]
    fn self_sufficiency_takes_the_grid_energy_out_of_the_battery() {
        // Straight from the grid 9 - 6 = 3; the battery gave the load min(10, 18 - 3) = 10,
        // of which 6/11 was grid energy (5.4545); solar covered 18 - 3 - 5.4545 = 9.5455 of 18.
        assert!(close(self_sufficiency(&example()), 9.545_454_5 / 18.0));
        // The naive (L - I) / L = 0.5 counts the 6 kWh bought for the battery as consumption
        // covered by the grid, though the load got only the 5.45 kWh the battery gave back.
        let naive = (18.0 - 9.0) / 18.0;
        assert!(self_sufficiency(&example()).is_some_and(|s| s > naive));
    }

    #[test]
    fn self_consumption_is_unchanged_when_the_battery_exports_nothing() {
        // E_D = max(0, 10 - (18 - 3)) = 0: PV used on site 20 - 10 = 10 of 20.
        assert!(close(self_consumption(&example()), 0.5));
    }

    #[test]
    fn a_battery_exporting_grid_energy_does_not_count_against_the_pv() {
        // A night charge of 8 kWh sold in the evening peak: P 10, L 6, I 10 (8 for the battery),
        // C 8, D 7.36 (92 %), E 10 + 7.36 + 10 - 6 - 8 = 13.36. E_D = 7.36 - (6 - 2) = 3.36,
        // all grid energy (g = 1): PV exported 13.36 - 3.36 = 10, of 10.
        let f = Flows {
            pv: Some(10.0),
            load: Some(6.0),
            import: Some(10.0),
            export: Some(13.36),
            charge: Some(8.0),
            discharge: Some(7.36),
            grid_charge: Some(8.0),
        };
        assert!(close(self_consumption(&f), 0.0));
        // Self-sufficiency: straight 2, battery to load min(7.36, 4) = 4, all grid: 0.
        assert!(close(self_sufficiency(&f), 0.0));
    }

    #[test]
    fn without_grid_charge_the_figures_are_the_usual_ones() {
        let f = Flows {
            grid_charge: Some(0.0),
            ..example()
        };
        assert!(close(self_consumption(&f), 0.5));
        assert!(close(self_sufficiency(&f), 0.5));
        // A plant without a battery needs no grid charge.
        let pv_only = Flows {
            pv: Some(10.0),
            load: Some(8.0),
            import: Some(2.0),
            export: Some(4.0),
            ..Flows::default()
        };
        assert!(close(self_consumption(&pv_only), 0.6));
        assert!(close(self_sufficiency(&pv_only), 0.75));
    }

    #[test]
    fn missing_inputs_give_no_figure_rather_than_zero() {
        assert_eq!(self_consumption(&Flows::default()), None);
        assert_eq!(self_sufficiency(&Flows::default()), None);
        let no_export = Flows {
            export: None,
            ..example()
        };
        assert_eq!(self_consumption(&no_export), None);
        // A battery that charged while its grid charge was not measured.
        let unknown = Flows {
            grid_charge: None,
            ..example()
        };
        assert_eq!(self_sufficiency(&unknown), None);
        assert_eq!(self_consumption(&unknown), None);
        let no_load = Flows {
            load: Some(0.0),
            ..example()
        };
        assert_eq!(self_sufficiency(&no_load), None);
    }

    #[test]
    fn co2_avoided_is_the_pv_energy_times_the_factor() {
        assert!(close(co2_avoided_kg(Some(250.0), 0.4), 100.0));
        assert_eq!(co2_avoided_kg(Some(0.0), 0.4), Some(0.0));
        assert_eq!(co2_avoided_kg(None, 0.4), None);
        assert_eq!(co2_avoided_kg(Some(10.0), -1.0), None);
        assert_eq!(co2_avoided_kg(Some(10.0), f64::NAN), None);
    }
}
