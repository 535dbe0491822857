//! Products (what a manufacturer sells under a part number) and their hardware versions: the
//! rules a product must meet before it is stored. Every refusal is code 4 naming the field.

use crate::{DomainError, account::check_text, ids::InverterTypeId};

pub const NAME_MAX: usize = 64;
pub const PART_NUMBER_MAX: usize = 40;
pub const MANUFACTURER_MAX: usize = 64;
pub const REMARK_MAX: usize = 200;
pub const HARDWARE_VERSION_MAX: usize = 32;
/// More hardware revisions than any product line has; a bound keeps one request small.
pub const HARDWARE_MAX: usize = 50;
/// The largest rated power accepted (W): 10 MW, beyond any string or central inverter.
pub const RATED_POWER_MAX: f64 = 10_000_000.0;

/// What kind of device a product is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    Inverter,
    Gateway,
    Battery,
    Meter,
}

impl Category {
    pub const ALL: [Category; 4] = [
        Category::Inverter,
        Category::Gateway,
        Category::Battery,
        Category::Meter,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Category::Inverter => "inverter",
            Category::Gateway => "gateway",
            Category::Battery => "battery",
            Category::Meter => "meter",
        }
    }

    pub fn parse(raw: &str) -> Option<Category> {
        Category::ALL
            .into_iter()
            .find(|c| c.as_str().eq_ignore_ascii_case(raw.trim()))
    }
}

/// A product as a client sends it, before the rules.
#[derive(Debug, Clone, Default)]
pub struct ProductInput {
    pub name: Option<String>,
    pub part_number: Option<String>,
    pub category: Option<String>,
    pub manufacturer: Option<String>,
    pub type_id: Option<i64>,
    pub rated_power: Option<f64>,
    pub remark: Option<String>,
    pub hardware: Vec<String>,
}

/// A product that meets the rules. `type_id` and `rated_power` are kept for inverters only.
#[derive(Debug, Clone, PartialEq)]
pub struct Product {
    pub name: String,
    pub part_number: String,
    pub category: Category,
    pub manufacturer: String,
    pub type_id: Option<InverterTypeId>,
    pub rated_power: Option<f64>,
    pub remark: String,
    /// Distinct, trimmed, in the order given.
    pub hardware: Vec<String>,
}

/// A part number: 1-40 letters, digits and `-_./`, no spaces (it is printed on labels and
/// typed into searches).
pub fn check_part_number(raw: &str) -> Result<String, DomainError> {
    let p = raw.trim();
    let ok = (1..=PART_NUMBER_MAX).contains(&p.len())
        && p.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b));
    if ok {
        Ok(p.to_string())
    } else {
        Err(DomainError::invalid("partNumber"))
    }
}

fn required(field: &str, raw: Option<&str>, max: usize) -> Result<String, DomainError> {
    let v = check_text(field, raw.unwrap_or_default(), max)?;
    if v.is_empty() {
        Err(DomainError::invalid(field))
    } else {
        Ok(v)
    }
}

/// The hardware list: each version 1-32 visible characters, at most [`HARDWARE_MAX`]; a version
/// given twice counts once.
pub fn check_hardware(list: &[String]) -> Result<Vec<String>, DomainError> {
    let mut out: Vec<String> = Vec::with_capacity(list.len());
    for raw in list {
        let v = raw.trim();
        let ok = (1..=HARDWARE_VERSION_MAX).contains(&v.chars().count())
            && !v.chars().any(char::is_control);
        if !ok {
            return Err(DomainError::invalid("hardware"));
        }
        if !out.iter().any(|o| o == v) {
            out.push(v.to_string());
        }
    }
    if out.len() > HARDWARE_MAX {
        return Err(DomainError::invalid("hardware"));
    }
    Ok(out)
}

impl ProductInput {
    /// Applies every rule; the first failing field is named.
    pub fn check(&self) -> Result<Product, DomainError> {
        let name = required("name", self.name.as_deref(), NAME_MAX)?;
        let part_number = check_part_number(self.part_number.as_deref().unwrap_or_default())?;
        let category = self
            .category
            .as_deref()
            .and_then(Category::parse)
            .ok_or_else(|| DomainError::invalid("category"))?;
        let manufacturer = check_text(
            "manufacturer",
            self.manufacturer.as_deref().unwrap_or_default(),
            MANUFACTURER_MAX,
        )?;
        let remark = check_text(
            "remark",
            self.remark.as_deref().unwrap_or_default(),
            REMARK_MAX,
        )?;
        let inverter = category == Category::Inverter;
        let rated_power = match self.rated_power.filter(|_| inverter) {
            Some(w) if !(w.is_finite() && w > 0.0 && w <= RATED_POWER_MAX) => {
                return Err(DomainError::invalid("ratedPower"));
            }
            other => other,
        };
        let type_id = match self.type_id.filter(|_| inverter) {
            Some(id) if id <= 0 => return Err(DomainError::invalid("typeId")),
            other => other.map(InverterTypeId),
        };
        Ok(Product {
            name,
            part_number,
            category,
            manufacturer,
            type_id,
            rated_power,
            remark,
            hardware: check_hardware(&self.hardware)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> ProductInput {
        ProductInput {
            name: Some(" Hybrid 6K ".into()),
            part_number: Some("SIM-2-6K".into()),
            category: Some("inverter".into()),
            manufacturer: Some("Sim Power".into()),
            type_id: Some(3),
            rated_power: Some(6000.0),
            remark: None,
            hardware: vec!["H1".into(), " H2 ".into(), "H1".into()],
        }
    }

    fn field(i: &ProductInput) -> Option<String> {
        i.check().err().and_then(|e| e.detail)
    }

    #[test]
    fn a_valid_product_is_trimmed_and_its_hardware_deduplicated() {
        let p = input().check().expect("valid");
        assert_eq!(p.name, "Hybrid 6K");
        assert_eq!(p.category, Category::Inverter);
        assert_eq!(p.hardware, vec!["H1", "H2"]);
        assert_eq!(p.rated_power, Some(6000.0));
    }

    #[test]
    fn each_rule_names_its_field() {
        let mut i = input();
        i.name = Some("  ".into());
        assert_eq!(field(&i).as_deref(), Some("name"));
        let mut i = input();
        i.part_number = Some("has space".into());
        assert_eq!(field(&i).as_deref(), Some("partNumber"));
        let mut i = input();
        i.part_number = Some("P".repeat(41));
        assert_eq!(field(&i).as_deref(), Some("partNumber"));
        let mut i = input();
        i.category = Some("toaster".into());
        assert_eq!(field(&i).as_deref(), Some("category"));
        let mut i = input();
        i.remark = Some("r".repeat(201));
        assert_eq!(field(&i).as_deref(), Some("remark"));
        let mut i = input();
        i.rated_power = Some(-1.0);
        assert_eq!(field(&i).as_deref(), Some("ratedPower"));
        let mut i = input();
        i.hardware = vec!["x".repeat(33)];
        assert_eq!(field(&i).as_deref(), Some("hardware"));
    }

    #[test]
    fn only_inverters_keep_a_label_and_a_rated_power() {
        let mut i = input();
        i.category = Some("Battery".into());
        let p = i.check().expect("valid");
        assert_eq!((p.type_id, p.rated_power), (None, None));
    }
}
