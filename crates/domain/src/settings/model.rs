//! The limits that depend on the inverter's model rather than its family: battery currents.

use std::borrow::Cow;

use super::{Field, Kind};
use crate::device::InverterKind;

/// The fields that are a battery current (A): their maximum is the model's.
const BATTERY_CURRENT_KEYS: [&str; 3] = [
    "batteryMaxCurrentCharge",
    "batteryMaxCurrentDischarge",
    "genChargeCurrent",
];

/// The largest battery current (A) an inverter takes, from its kind and rated power: a
/// high-voltage stack 50 A; a 48 V hybrid as the Deye/Sunsynk LV ranges rate them, 90 A at
/// 3.6 kW up to 240 A at 12 kW and above. An unknown rating gets its family's largest (the
/// device still refuses what it cannot take).
pub fn battery_amps_max(kind: InverterKind, rated_w: Option<f64>) -> f64 {
    if matches!(
        kind,
        InverterKind::ThreePhaseHvHybrid | InverterKind::SinglePhaseHvHybrid
    ) {
        return HV_AMPS;
    }
    const LV: [(f64, f64); 5] = [
        (3_600.0, 90.0),
        (5_000.0, 120.0),
        (6_000.0, 135.0),
        (8_000.0, 190.0),
        (10_000.0, 210.0),
    ];
    match rated_w.filter(|w| w.is_finite() && *w > 0.0) {
        Some(w) => LV
            .iter()
            .find(|(up_to, _)| w <= *up_to + 0.5)
            .map_or(LV_AMPS, |(_, amps)| *amps),
        None => LV_AMPS,
    }
}

/// The largest battery current of any 48 V hybrid / high-voltage stack (A).
pub(super) const LV_AMPS: f64 = 240.0;
pub(super) const HV_AMPS: f64 = 50.0;

impl Field {
    /// The field as a model whose battery takes at most `amps_max` has it: a battery current's
    /// maximum lowered to the model's, any other field unchanged.
    pub fn for_model(&self, amps_max: f64) -> Cow<'_, Field> {
        match &self.kind {
            Kind::Number { min, max, decimals }
                if BATTERY_CURRENT_KEYS.contains(&self.key.as_str()) && amps_max < *max =>
            {
                Cow::Owned(Field {
                    kind: Kind::Number {
                        min: *min,
                        max: amps_max,
                        decimals: *decimals,
                    },
                    ..self.clone()
                })
            }
            _ => Cow::Borrowed(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Family, Raw};

    #[test]
    fn battery_currents_follow_the_model() {
        use InverterKind::*;
        assert_eq!(battery_amps_max(SinglePhaseLvHybrid, Some(5_000.0)), 120.0);
        assert_eq!(battery_amps_max(SinglePhaseLvHybrid, Some(3_600.0)), 90.0);
        assert_eq!(battery_amps_max(ThreePhaseLvHybrid, Some(8_000.0)), 190.0);
        assert_eq!(battery_amps_max(ThreePhaseLvHybrid, Some(12_000.0)), 240.0);
        assert_eq!(battery_amps_max(ThreePhaseLvHybrid, None), 240.0);
        assert_eq!(battery_amps_max(ThreePhaseHvHybrid, Some(12_000.0)), 50.0);
        let amps = Family::HybridLv
            .field("batteryMaxCurrentCharge")
            .expect("amps");
        let small = amps.for_model(120.0);
        assert!(small.check(&Raw::from("115")).is_ok());
        assert!(small.check(&Raw::from("121")).is_err());
        assert!(amps.for_model(240.0).check(&Raw::from("240")).is_ok());
        let volts = Family::HybridLv.field("floatVolt").expect("volts");
        assert_eq!(*volts.for_model(10.0), *volts);
    }
}
