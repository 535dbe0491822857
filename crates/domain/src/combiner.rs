//! DC combiner boxes: the strings they gather, the keys their readings use
//! (docs/device-protocol.md, "Combiner boxes") and the weak-string rule that ingest (to open
//! the warning event) and the screens (to mark the string) both apply.

/// A combiner box has at most this many strings; keys beyond are not read as strings.
pub const MAX_STRINGS: usize = 32;

/// A string is weak when its current is below this share of the median string current...
pub const WEAK_SHARE: f64 = 0.5;
/// ...and only while the median is at least this many amperes: below it the sun is too low
/// (dawn, dusk, heavy cloud) for currents to tell a weak string from a shaded one.
pub const MIN_MEDIAN_A: f64 = 1.0;

/// `string{n}_current` (A) for n = 1..=32.
pub const CURRENT_KEYS: [&str; MAX_STRINGS] = [
    "string1_current",
    "string2_current",
    "string3_current",
    "string4_current",
    "string5_current",
    "string6_current",
    "string7_current",
    "string8_current",
    "string9_current",
    "string10_current",
    "string11_current",
    "string12_current",
    "string13_current",
    "string14_current",
    "string15_current",
    "string16_current",
    "string17_current",
    "string18_current",
    "string19_current",
    "string20_current",
    "string21_current",
    "string22_current",
    "string23_current",
    "string24_current",
    "string25_current",
    "string26_current",
    "string27_current",
    "string28_current",
    "string29_current",
    "string30_current",
    "string31_current",
    "string32_current",
];

/// `string{n}_voltage` (V) for n = 1..=32.
pub const VOLTAGE_KEYS: [&str; MAX_STRINGS] = [
    "string1_voltage",
    "string2_voltage",
    "string3_voltage",
    "string4_voltage",
    "string5_voltage",
    "string6_voltage",
    "string7_voltage",
    "string8_voltage",
    "string9_voltage",
    "string10_voltage",
    "string11_voltage",
    "string12_voltage",
    "string13_voltage",
    "string14_voltage",
    "string15_voltage",
    "string16_voltage",
    "string17_voltage",
    "string18_voltage",
    "string19_voltage",
    "string20_voltage",
    "string21_voltage",
    "string22_voltage",
    "string23_voltage",
    "string24_voltage",
    "string25_voltage",
    "string26_voltage",
    "string27_voltage",
    "string28_voltage",
    "string29_voltage",
    "string30_voltage",
    "string31_voltage",
    "string32_voltage",
];

/// Whether the string currents allow a judgement, and which strings are weak.
#[derive(Debug, Clone, PartialEq)]
pub enum StringCheck {
    /// Fewer than three strings report, or the median is below [`MIN_MEDIAN_A`].
    Undecided,
    /// The 1-based numbers of the weak strings (empty: all fine).
    Weak(Vec<usize>),
}

impl StringCheck {
    pub fn weak(&self) -> &[usize] {
        match self {
            StringCheck::Undecided => &[],
            StringCheck::Weak(w) => w,
        }
    }
}

/// Applies the weak-string rule to `(string number, current in A)` pairs. Non-finite values
/// are ignored; three strings are the fewest for a median to mean anything.
pub fn check_strings(currents: &[(usize, f64)]) -> StringCheck {
    let mut values: Vec<f64> = currents
        .iter()
        .map(|&(_, a)| a)
        .filter(|a| a.is_finite())
        .collect();
    if values.len() < 3 {
        return StringCheck::Undecided;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    let median = if values.len().is_multiple_of(2) {
        (values[mid - 1] + values[mid]) / 2.0
    } else {
        values[mid]
    };
    if median < MIN_MEDIAN_A {
        return StringCheck::Undecided;
    }
    StringCheck::Weak(
        currents
            .iter()
            .filter(|&&(_, a)| a.is_finite() && a < median * WEAK_SHARE)
            .map(|&(n, _)| n)
            .collect(),
    )
}

/// The string currents of a reading, by number, read with `value`.
pub fn currents(value: impl Fn(&str) -> Option<f64>) -> Vec<(usize, f64)> {
    CURRENT_KEYS
        .iter()
        .enumerate()
        .filter_map(|(i, k)| value(k).map(|a| (i + 1, a)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_below_half_the_median_is_weak_at_meaningful_current() {
        let c = [(1, 8.0), (2, 8.2), (3, 3.9), (4, 7.9), (5, 8.1)];
        assert_eq!(check_strings(&c), StringCheck::Weak(vec![3]));
        let healthy = [(1, 8.0), (2, 7.0), (3, 6.5)];
        assert_eq!(check_strings(&healthy), StringCheck::Weak(vec![]));
    }

    #[test]
    fn low_light_or_too_few_strings_decide_nothing() {
        let dusk = [(1, 0.6), (2, 0.7), (3, 0.1), (4, 0.6)];
        assert_eq!(check_strings(&dusk), StringCheck::Undecided);
        assert_eq!(check_strings(&[(1, 9.0), (2, 1.0)]), StringCheck::Undecided);
        assert!(check_strings(&[]).weak().is_empty());
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two_and_nan_is_ignored() {
        let c = [(1, 10.0), (2, 10.0), (3, 2.0), (4, 2.0), (5, f64::NAN)];
        // Median 6: strings at 2 A are below 3 A.
        assert_eq!(check_strings(&c), StringCheck::Weak(vec![3, 4]));
    }

    #[test]
    fn keys_name_strings_one_to_thirty_two() {
        assert_eq!(CURRENT_KEYS[0], "string1_current");
        assert_eq!(VOLTAGE_KEYS[31], "string32_voltage");
        let read = currents(|k| (k == "string7_current").then_some(4.5));
        assert_eq!(read, vec![(7, 4.5)]);
    }
}
