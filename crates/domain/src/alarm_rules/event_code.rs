//! `event_code`: inverter warnings and faults by event code. An open event whose code is in
//! the rule's list (or any fault, when the rule takes all faults) opens a case; the event's end
//! closes it.

/// Whether an open event of `code` at `severity` (`info`, `warning`, `fault`) is the rule's.
pub fn matches(code: &str, severity: &str, codes: &[String], all_faults: bool) -> bool {
    (all_faults && severity == "fault") || codes.iter().any(|c| c.eq_ignore_ascii_case(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_codes_and_all_faults() {
        let codes = vec!["W02".to_string()];
        assert!(matches("w02", "warning", &codes, false));
        assert!(!matches("F13", "fault", &codes, false));
        assert!(matches("F13", "fault", &codes, true));
        assert!(!matches("W05", "warning", &[], true));
    }
}
