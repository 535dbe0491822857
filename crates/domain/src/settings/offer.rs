//! The settings one inverter offers: the fields of its family that its register map can write.
//! The map (a protocol config's `settings` list) is the only authority on what reaches a
//! device: a brand whose map writes nothing has no settings (601), and a family field the map
//! does not hold is not offered (nor written) at all.

use super::{Family, Field, Group, Kind};
use crate::{Code, DomainError};

/// A setting a device's register map can write: the settings key, and the limits the device
/// itself takes (in the field's units), when the map says.
#[derive(Debug, Clone, PartialEq)]
pub struct Writable {
    pub param: String,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

impl Writable {
    pub fn new(param: impl Into<String>) -> Writable {
        Writable {
            param: param.into(),
            min: None,
            max: None,
        }
    }
}

/// The settings of one inverter, in its family's screen order.
#[derive(Debug, Clone, PartialEq)]
pub struct Offer {
    family: Family,
    fields: Vec<Field>,
}

impl Offer {
    /// What an inverter of type `type_code` whose map writes `writable` offers: 601 when the map
    /// writes nothing (a brand or model the portal cannot write), 605 when it writes none of
    /// the family's fields.
    pub fn new(type_code: i64, writable: &[Writable]) -> Result<Offer, DomainError> {
        if writable.is_empty() {
            return Err(Code::BrandNotSupported.into());
        }
        let family = Family::of_kind(type_code);
        let fields: Vec<Field> = family
            .fields()
            .iter()
            .filter_map(|f| {
                let w = writable.iter().find(|w| w.param == f.key)?;
                Some(f.within(w.min, w.max))
            })
            .collect();
        if fields.is_empty() {
            return Err(Code::NoSettings.into());
        }
        Ok(Offer { family, fields })
    }

    pub fn family(&self) -> Family {
        self.family
    }

    /// The offered fields, in screen order.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    pub fn field(&self, key: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.key == key)
    }

    /// The offered fields of `group`.
    pub fn group(&self, group: Group) -> impl Iterator<Item = &Field> {
        self.fields.iter().filter(move |f| f.group == group)
    }

    /// The offered fields custom profiles may hold.
    pub fn selectable(&self) -> impl Iterator<Item = &Field> {
        self.fields.iter().filter(|f| f.selectable)
    }
}

impl Field {
    /// The field as a device whose map limits it to `min..=max` takes it: a number's range
    /// narrowed (never widened: the family's range is what the screens and the validation
    /// promise), and its default brought into the range so that a read written back as a
    /// whole stays valid. Limits that leave nothing (min above max) are ignored.
    pub fn within(&self, min: Option<f64>, max: Option<f64>) -> Field {
        let Kind::Number {
            min: lo,
            max: hi,
            decimals,
        } = self.kind
        else {
            return self.clone();
        };
        let lo2 = min.filter(|m| m.is_finite()).map_or(lo, |m| m.max(lo));
        let hi2 = max.filter(|m| m.is_finite()).map_or(hi, |m| m.min(hi));
        if lo2 > hi2 {
            return self.clone();
        }
        let mut f = self.clone();
        f.kind = Kind::Number {
            min: lo2,
            max: hi2,
            decimals,
        };
        if let Ok(d) = f.default.parse::<f64>()
            && !(lo2..=hi2).contains(&d)
        {
            let clamped = d.clamp(lo2, hi2);
            f.default = format!("{clamped:.prec$}", prec = usize::from(decimals));
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Raw;

    fn w(params: &[&str]) -> Vec<Writable> {
        params.iter().map(|p| Writable::new(*p)).collect()
    }

    #[test]
    fn a_map_without_settings_is_601_and_one_without_the_familys_is_605() {
        assert_eq!(
            Offer::new(2, &[]).unwrap_err().code,
            Code::BrandNotSupported
        );
        assert_eq!(
            Offer::new(3, &w(&["sellTime1", "batteryCap"]))
                .unwrap_err()
                .code,
            Code::NoSettings
        );
    }

    #[test]
    fn the_offer_is_the_familys_fields_the_map_writes_in_screen_order() {
        let micro = Offer::new(3, &w(&["powerOn", "sellTime1", "pvMaxLimit"])).expect("micro");
        assert_eq!(micro.family(), Family::Micro);
        let keys: Vec<&str> = micro.fields().iter().map(|f| f.key.as_str()).collect();
        assert_eq!(
            keys,
            ["pvMaxLimit", "powerOn"],
            "sellTime1 is no micro field"
        );
        assert!(micro.field("zeroExportPower").is_none());
        let string = Offer::new(1, &w(&["zeroExportPower", "powerOn"])).expect("string");
        assert_eq!(string.family(), Family::GridTied);
        assert_eq!(string.group(Group::Power).count(), 1);
        let hybrid = Offer::new(2, &w(&["sysWorkMode", "floatVolt"])).expect("hybrid");
        assert_eq!(hybrid.family(), Family::HybridLv);
        assert_eq!(hybrid.selectable().count(), 2);
    }

    #[test]
    fn the_maps_limits_narrow_the_range_and_the_default() {
        let limit = Writable {
            param: "pvMaxLimit".into(),
            min: Some(100.0),
            max: Some(800.0),
        };
        let micro = Offer::new(3, &[limit]).expect("micro");
        let f = micro.field("pvMaxLimit").expect("field");
        assert!(f.check(&Raw::from("800")).is_ok());
        assert!(f.check(&Raw::from("801")).is_err());
        assert!(f.check(&Raw::from("99")).is_err());
        assert_eq!(f.default, "800", "the family's 5000 W default is clamped");
        let wider = Writable {
            param: "pvMaxLimit".into(),
            min: Some(-5.0),
            max: Some(1.0e9),
        };
        let f = Offer::new(3, &[wider]).expect("micro");
        assert_eq!(
            f.field("pvMaxLimit").map(|f| f.kind.clone()),
            Family::Micro.field("pvMaxLimit").map(|f| f.kind.clone()),
            "never widened"
        );
        let upside_down = Writable {
            param: "pvMaxLimit".into(),
            min: Some(900.0),
            max: Some(100.0),
        };
        let f = Offer::new(3, &[upside_down]).expect("micro");
        assert_eq!(
            f.field("pvMaxLimit"),
            Family::Micro.field("pvMaxLimit"),
            "ignored"
        );
    }
}
