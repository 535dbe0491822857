//! The alarm engine's rules (docs/alarms.md): what each rule kind watches, its parameters and
//! their ranges, and the pure verdict of each kind over hand-made inputs. The engine
//! (`jobs::alarm_engine`) reads the inputs, asks these modules, and turns their verdicts into
//! cases: one open case per (rule, plant, subject), escalated, acknowledged, closed.

pub mod cell_spread;
pub mod device_silent;
pub mod event_code;
pub mod low_yield;
pub mod no_production;
mod params;
pub mod soh_falling;
pub mod string_low;

pub use params::{Params, ParamsDraft};

use crate::DomainError;

/// A rule's kind (the wire strings are shared with the e-mail and webhook deliveries).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    DeviceSilent,
    NoProduction,
    LowYield,
    StringLow,
    CellSpread,
    SohFalling,
    EventCode,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::DeviceSilent,
        Kind::NoProduction,
        Kind::LowYield,
        Kind::StringLow,
        Kind::CellSpread,
        Kind::SohFalling,
        Kind::EventCode,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::DeviceSilent => "device_silent",
            Kind::NoProduction => "no_production",
            Kind::LowYield => "low_yield",
            Kind::StringLow => "string_low",
            Kind::CellSpread => "cell_spread",
            Kind::SohFalling => "soh_falling",
            Kind::EventCode => "event_code",
        }
    }

    pub fn parse(raw: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == raw.trim())
    }

    /// The kind in a few words, in `lang`: an alarm e-mail's line, a webhook's title.
    pub fn title(self, lang: crate::Lang) -> &'static str {
        let [en, zh, es] = match self {
            Kind::DeviceSilent => [
                "Device not reporting",
                "设备无数据",
                "Dispositivo sin datos",
            ],
            Kind::NoProduction => [
                "No production in daylight",
                "白天无发电",
                "Sin producción de día",
            ],
            Kind::LowYield => ["Yield below expected", "发电量低于预期", "Rendimiento bajo"],
            Kind::StringLow => [
                "String below its siblings",
                "组串低于同组",
                "String por debajo",
            ],
            Kind::CellSpread => [
                "Battery cell spread",
                "电芯压差过大",
                "Dispersión de celdas",
            ],
            Kind::SohFalling => [
                "Battery health falling",
                "电池健康度下降",
                "Salud de batería en descenso",
            ],
            Kind::EventCode => ["Device event", "设备事件", "Evento del dispositivo"],
        };
        match lang {
            crate::Lang::En => en,
            crate::Lang::Zh => zh,
            crate::Lang::Es => es,
        }
    }
}

/// How urgent a case is; `Alarm` outranks `Warning`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Alarm,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Alarm => "alarm",
        }
    }

    pub fn parse(raw: &str) -> Option<Severity> {
        match raw.trim() {
            "warning" => Some(Severity::Warning),
            "alarm" => Some(Severity::Alarm),
            _ => None,
        }
    }
}

/// Where a case stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaseState {
    Open,
    Acknowledged,
    Closed,
}

impl CaseState {
    pub fn as_str(self) -> &'static str {
        match self {
            CaseState::Open => "open",
            CaseState::Acknowledged => "acknowledged",
            CaseState::Closed => "closed",
        }
    }

    pub fn parse(raw: &str) -> Option<CaseState> {
        match raw.trim() {
            "open" => Some(CaseState::Open),
            "acknowledged" => Some(CaseState::Acknowledged),
            "closed" => Some(CaseState::Closed),
            _ => None,
        }
    }
}

/// Which plants of the company a rule watches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every plant the company serves (its own, its customers', its agents').
    All,
    /// The plants of one of the company's customers (a `customers` row).
    Customer(i64),
    Plant(i64),
}

impl Scope {
    pub fn kind(self) -> &'static str {
        match self {
            Scope::All => "all",
            Scope::Customer(_) => "customer",
            Scope::Plant(_) => "plant",
        }
    }

    pub fn id(self) -> Option<i64> {
        match self {
            Scope::All => None,
            Scope::Customer(id) | Scope::Plant(id) => Some(id),
        }
    }

    /// `all` takes no id; `customer` and `plant` need a positive one (4 `scopeId`).
    pub fn parse(kind: &str, id: Option<i64>) -> Result<Scope, DomainError> {
        match (kind.trim(), id.filter(|i| *i > 0)) {
            ("all", _) => Ok(Scope::All),
            ("customer", Some(id)) => Ok(Scope::Customer(id)),
            ("plant", Some(id)) => Ok(Scope::Plant(id)),
            ("customer" | "plant", None) => Err(DomainError::invalid("scopeId")),
            _ => Err(DomainError::invalid("scope")),
        }
    }
}

/// What a rule concludes about one subject (a device, a string, a plant) at one moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    /// The condition holds: a case should be open at this severity, `value` is what was seen
    /// (the unit is the kind's: cycles, W, %, mV, SOH points).
    Firing { severity: Severity, value: f64 },
    /// The condition does not hold: an open case closes (recovery).
    Clear,
    /// Nothing can be said (night, no data, the gateway away): an open case stays as it is.
    Unknown,
}

/// The median of `values` (NaNs dropped); `None` when empty.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    Some(if v.len().is_multiple_of(2) {
        (v[mid - 1] + v[mid]) / 2.0
    } else {
        v[mid]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_scopes_read_back_their_wire_names() {
        for k in Kind::ALL {
            assert_eq!(Kind::parse(k.as_str()), Some(k));
        }
        assert_eq!(Kind::parse("offline"), None);
        assert_eq!(Scope::parse("all", Some(3)), Ok(Scope::All));
        assert_eq!(Scope::parse("plant", Some(3)), Ok(Scope::Plant(3)));
        assert_eq!(
            Scope::parse("customer", None),
            Err(DomainError::invalid("scopeId"))
        );
        assert_eq!(
            Scope::parse("x", Some(1)),
            Err(DomainError::invalid("scope"))
        );
        assert!(Severity::Alarm > Severity::Warning);
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[]), None);
    }
}
