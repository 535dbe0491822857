//! Inverter device types: the type codes of docs/overview.md and the label each one shows.
//! The web app mirrors this rule in `web/src/features/inverters/typeLabel.ts`; a test on each
//! side pins the same table.

use serde::Serialize;

/// What an inverter is, from its type code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InverterKind {
    /// Codes 1, 10, 11: selling-first grid-tied inverters.
    GridTied,
    /// Code 2.
    SinglePhaseLvHybrid,
    /// Code 3.
    Micro,
    /// Code 94.
    ThreePhaseHvHybrid,
    /// Code 21.
    SinglePhaseHvHybrid,
    /// Code 93.
    ThreePhaseLvHybrid,
    /// Code 22.
    SinglePhaseHybrid,
    /// Any other non-zero code.
    ThreePhaseHybrid,
    /// Code 0 (not truthy): a string inverter without a hybrid type.
    String,
}

impl InverterKind {
    /// The spec's rule: listed codes first, then any other truthy code is a three-phase hybrid.
    pub fn from_code(code: i64) -> InverterKind {
        match code {
            1 | 10 | 11 => InverterKind::GridTied,
            2 => InverterKind::SinglePhaseLvHybrid,
            3 => InverterKind::Micro,
            94 => InverterKind::ThreePhaseHvHybrid,
            21 => InverterKind::SinglePhaseHvHybrid,
            93 => InverterKind::ThreePhaseLvHybrid,
            22 => InverterKind::SinglePhaseHybrid,
            0 => InverterKind::String,
            _ => InverterKind::ThreePhaseHybrid,
        }
    }

    /// A stable key (the web app translates it).
    pub fn key(self) -> &'static str {
        match self {
            InverterKind::GridTied => "grid_tied",
            InverterKind::SinglePhaseLvHybrid => "single_phase_lv_hybrid",
            InverterKind::Micro => "micro",
            InverterKind::ThreePhaseHvHybrid => "three_phase_hv_hybrid",
            InverterKind::SinglePhaseHvHybrid => "single_phase_hv_hybrid",
            InverterKind::ThreePhaseLvHybrid => "three_phase_lv_hybrid",
            InverterKind::SinglePhaseHybrid => "single_phase_hybrid",
            InverterKind::ThreePhaseHybrid => "three_phase_hybrid",
            InverterKind::String => "string",
        }
    }

    /// English label, for exports and logs.
    pub fn label(self) -> &'static str {
        match self {
            InverterKind::GridTied => "Grid-tied (selling first)",
            InverterKind::SinglePhaseLvHybrid => "Single-phase LV hybrid",
            InverterKind::Micro => "Micro inverter",
            InverterKind::ThreePhaseHvHybrid => "Three-phase HV hybrid",
            InverterKind::SinglePhaseHvHybrid => "Single-phase HV hybrid",
            InverterKind::ThreePhaseLvHybrid => "Three-phase LV hybrid",
            InverterKind::SinglePhaseHybrid => "Single-phase hybrid",
            InverterKind::ThreePhaseHybrid => "Three-phase hybrid",
            InverterKind::String => "String inverter",
        }
    }

    /// Hybrids have a battery port; grid-tied, micro and string inverters do not.
    pub fn is_hybrid(self) -> bool {
        !matches!(
            self,
            InverterKind::GridTied | InverterKind::Micro | InverterKind::String
        )
    }

    /// Three-phase types report per-phase values.
    pub fn is_three_phase(self) -> bool {
        matches!(
            self,
            InverterKind::ThreePhaseHvHybrid
                | InverterKind::ThreePhaseLvHybrid
                | InverterKind::ThreePhaseHybrid
        )
    }
}

/// Device names: at most 32 bytes (docs/overview.md, "Limits").
pub const ALIAS_MAX: usize = 32;

/// A device name: trimmed, at most 32 bytes, no control characters (4 `alias`); empty clears
/// it (the SN shows instead).
pub fn alias(raw: &str) -> Result<String, crate::DomainError> {
    let alias = raw.trim();
    if alias.len() > ALIAS_MAX || alias.chars().any(char::is_control) {
        return Err(crate::DomainError::invalid("alias"));
    }
    Ok(alias.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_alias_is_at_most_32_bytes_after_trimming() {
        assert_eq!(alias("  Roof east  ").as_deref(), Ok("Roof east"));
        assert_eq!(alias("").as_deref(), Ok(""));
        assert!(alias(&"a".repeat(32)).is_ok());
        assert!(alias(&"a".repeat(33)).is_err());
        // 11 three-byte characters are 33 bytes, though only 11 characters.
        assert!(alias(&"逆".repeat(11)).is_err());
        assert!(alias(&"逆".repeat(10)).is_ok());
        assert_eq!(alias("a\nb").unwrap_err().detail.as_deref(), Some("alias"));
    }

    #[test]
    fn every_spec_type_code_has_its_label() {
        let table = [
            (1, "grid_tied"),
            (10, "grid_tied"),
            (11, "grid_tied"),
            (2, "single_phase_lv_hybrid"),
            (3, "micro"),
            (94, "three_phase_hv_hybrid"),
            (21, "single_phase_hv_hybrid"),
            (93, "three_phase_lv_hybrid"),
            (22, "single_phase_hybrid"),
            (5, "three_phase_hybrid"),
            (-7, "three_phase_hybrid"),
            (0, "string"),
        ];
        for (code, key) in table {
            assert_eq!(InverterKind::from_code(code).key(), key, "code {code}");
        }
    }

    #[test]
    fn only_hybrids_have_a_battery_and_three_phase_types_have_phases() {
        assert!(InverterKind::from_code(2).is_hybrid());
        assert!(!InverterKind::from_code(1).is_hybrid());
        assert!(!InverterKind::from_code(3).is_hybrid());
        assert!(InverterKind::from_code(93).is_three_phase());
        assert!(!InverterKind::from_code(21).is_three_phase());
    }
}
