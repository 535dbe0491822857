//! Plant rules: the values a plant may hold and its tariffs (docs/overview.md, "Entities" and
//! "Limits").

use serde::{Deserialize, Serialize};

use crate::{Code, DomainError, Lang};

pub const NAME_MIN: usize = 5;
pub const NAME_MAX: usize = 32;
pub const CAPACITY_MAX: f64 = 50_000.0;
pub const PRICE_MAX: f64 = 9_999.0;
pub const MAX_SEGMENTS: usize = 6;
/// Contact, phone, owner and installer texts (docs/overview.md, "Limits").
pub const CONTACT_MAX: usize = 30;
pub const ADDRESS_MAX: usize = 120;
pub const INVEST_MAX: f64 = 999_999_999.0;
pub const PICTURE_MAX_BYTES: usize = 10 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlantType {
    GridTied = 1,
    StorageAc = 2,
    StorageDc = 3,
}

impl PlantType {
    pub const ALL: [PlantType; 3] = [
        PlantType::GridTied,
        PlantType::StorageAc,
        PlantType::StorageDc,
    ];

    pub fn from_wire(n: i64) -> Result<PlantType, DomainError> {
        PlantType::ALL
            .into_iter()
            .find(|t| *t as i64 == n)
            .ok_or_else(|| DomainError::invalid("type"))
    }

    pub fn name(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (PlantType::GridTied, Lang::En) => "Grid-tied",
            (PlantType::GridTied, Lang::Zh) => "并网",
            (PlantType::GridTied, Lang::Es) => "Conectada a la red",
            (PlantType::StorageAc, Lang::En) => "Energy storage (AC coupled)",
            (PlantType::StorageAc, Lang::Zh) => "储能（交流耦合）",
            (PlantType::StorageAc, Lang::Es) => "Almacenamiento (acoplamiento CA)",
            (PlantType::StorageDc, Lang::En) => "Energy storage (DC coupled)",
            (PlantType::StorageDc, Lang::Zh) => "储能（直流耦合）",
            (PlantType::StorageDc, Lang::Es) => "Almacenamiento (acoplamiento CC)",
        }
    }
}

/// Plant and device status as sent on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    Offline = 0,
    Normal = 1,
    Warning = 2,
    Fault = 3,
    Upgrading = 4,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Status::Normal,
        Status::Offline,
        Status::Warning,
        Status::Fault,
        Status::Upgrading,
    ];

    pub fn from_wire(n: i64) -> Option<Status> {
        Status::ALL.into_iter().find(|s| *s as i64 == n)
    }

    pub fn key(self) -> &'static str {
        match self {
            Status::Offline => "offline",
            Status::Normal => "normal",
            Status::Warning => "warning",
            Status::Fault => "fault",
            Status::Upgrading => "upgrading",
        }
    }
}

pub fn check_name(raw: &str) -> Result<String, DomainError> {
    let name = raw.trim();
    let len = name.chars().count();
    if !(NAME_MIN..=NAME_MAX).contains(&len) || name.chars().any(char::is_control) {
        return Err(DomainError::invalid("name"));
    }
    Ok(name.to_string())
}

pub fn check_capacity(kwp: f64) -> Result<f64, DomainError> {
    if kwp.is_finite() && (0.0..=CAPACITY_MAX).contains(&kwp) {
        Ok(kwp)
    } else {
        Err(DomainError::invalid("totalPower"))
    }
}

/// Longitude -180..180 and latitude -90..90 (code 10 otherwise).
pub fn check_location(lon: f64, lat: f64) -> Result<(f64, f64), DomainError> {
    let ok = lon.is_finite()
        && lat.is_finite()
        && (-180.0..=180.0).contains(&lon)
        && (-90.0..=90.0).contains(&lat);
    if ok {
        Ok((lon, lat))
    } else {
        Err(Code::BadLonLat.into())
    }
}

/// Steepest module tilt a plant may give, degrees (vertical modules).
pub const TILT_MAX: f64 = 90.0;
/// Largest azimuth, degrees clockwise from north.
pub const AZIMUTH_MAX: f64 = 360.0;

/// A module tilt (degrees from the horizontal, 0-90) or none; 4 `tilt` otherwise.
pub fn check_tilt(tilt: Option<f64>) -> Result<Option<f64>, DomainError> {
    match tilt {
        Some(t) if !(t.is_finite() && (0.0..=TILT_MAX).contains(&t)) => {
            Err(DomainError::invalid("tilt"))
        }
        other => Ok(other),
    }
}

/// A module azimuth (degrees clockwise from north, 0-360, 180 = south) or none; 4 `azimuth`
/// otherwise.
pub fn check_azimuth(azimuth: Option<f64>) -> Result<Option<f64>, DomainError> {
    match azimuth {
        Some(a) if !(a.is_finite() && (0.0..=AZIMUTH_MAX).contains(&a)) => {
            Err(DomainError::invalid("azimuth"))
        }
        other => Ok(other),
    }
}

/// A money amount: finite, within `0..=max`, at most two decimals.
pub fn check_money(field: &str, value: f64, max: f64) -> Result<f64, DomainError> {
    let cents = (value * 100.0).round();
    if !value.is_finite() || !(0.0..=max).contains(&value) || (cents - value * 100.0).abs() > 1e-6 {
        return Err(DomainError::invalid(field));
    }
    Ok(cents / 100.0)
}

/// A calendar date `YYYY-MM-DD` (commissioning / grid connection).
pub fn check_date(field: &str, raw: &str) -> Result<String, DomainError> {
    let raw = raw.trim();
    let parts: Vec<&str> = raw.split('-').collect();
    let valid = parts.len() == 3
        && parts[0].len() == 4
        && parts[1].len() == 2
        && parts[2].len() == 2
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
        && matches!(parts[1].parse::<u32>(), Ok(1..=12))
        && matches!(parts[2].parse::<u32>(), Ok(1..=31))
        && matches!(parts[0].parse::<u32>(), Ok(1970..=2100));
    if valid {
        Ok(raw.to_string())
    } else {
        Err(DomainError::invalid(field))
    }
}

/// How a plant's energy is valued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Valuation {
    /// One price all day.
    Constant = 1,
    /// Up to six time-of-day segments covering the whole day.
    TimeOfUse = 2,
    /// Up to six tiers by monthly energy volume (kWh), the last one open-ended.
    Volume = 3,
}

impl Valuation {
    pub fn from_wire(n: i64) -> Result<Valuation, DomainError> {
        match n {
            1 => Ok(Valuation::Constant),
            2 => Ok(Valuation::TimeOfUse),
            3 => Ok(Valuation::Volume),
            _ => Err(DomainError::invalid("charges.type")),
        }
    }
}

/// One priced segment as clients send it.
#[derive(Debug, Clone, PartialEq)]
pub struct TariffSegment {
    pub kind: Valuation,
    pub start: String,
    pub end: String,
    pub price: f64,
    /// `import`, `export` or none (applies to both).
    pub direction: Option<String>,
}

/// Minutes since midnight of `HH:MM`; `24:00` is the end of the day and `23:59` as an end
/// means the same (clients send either).
fn minutes(raw: &str, is_end: bool) -> Option<u32> {
    let (h, m) = raw.trim().split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    match (h, m) {
        (24, 0) if is_end => Some(1440),
        (23, 59) if is_end => Some(1440),
        (0..=23, 0..=59) => Some(h * 60 + m),
        _ => None,
    }
}

fn format_minutes(m: u32) -> String {
    format!("{:02}:{:02}", m / 60, m % 60)
}

/// Checks a whole tariff and returns it normalised (times as `HH:MM`, the day's end as
/// `24:00`, prices rounded to cents). All segments must share one valuation method.
pub fn check_tariff(tariff: &[TariffSegment]) -> Result<Vec<TariffSegment>, DomainError> {
    let Some(first) = tariff.first() else {
        return Ok(Vec::new());
    };
    if tariff.len() > MAX_SEGMENTS || tariff.iter().any(|c| c.kind != first.kind) {
        return Err(DomainError::invalid("charges"));
    }
    for c in tariff {
        check_money("charges.price", c.price, PRICE_MAX)?;
        if let Some(d) = &c.direction
            && d != "import"
            && d != "export"
        {
            return Err(DomainError::invalid("charges.status"));
        }
    }
    match first.kind {
        Valuation::Constant => {
            if tariff.len() != 1 {
                return Err(DomainError::invalid("charges"));
            }
            Ok(vec![TariffSegment {
                start: "00:00".into(),
                end: "24:00".into(),
                price: check_money("charges.price", first.price, PRICE_MAX)?,
                ..first.clone()
            }])
        }
        Valuation::TimeOfUse => check_time_of_use(tariff),
        Valuation::Volume => check_volume(tariff),
    }
}

fn check_time_of_use(tariff: &[TariffSegment]) -> Result<Vec<TariffSegment>, DomainError> {
    let invalid = || DomainError::invalid("charges.range");
    let mut sorted: Vec<(u32, u32, &TariffSegment)> = tariff
        .iter()
        .map(|c| {
            Ok((
                minutes(&c.start, false).ok_or_else(invalid)?,
                minutes(&c.end, true).ok_or_else(invalid)?,
                c,
            ))
        })
        .collect::<Result<_, DomainError>>()?;
    sorted.sort_by_key(|(start, _, _)| *start);
    let mut expected_start = 0;
    for (start, end, _) in &sorted {
        if *start != expected_start || end <= start {
            return Err(invalid());
        }
        expected_start = *end;
    }
    if expected_start != 1440 {
        return Err(invalid());
    }
    sorted
        .into_iter()
        .map(|(start, end, c)| {
            Ok(TariffSegment {
                start: format_minutes(start),
                end: if end == 1440 {
                    "24:00".into()
                } else {
                    format_minutes(end)
                },
                price: check_money("charges.price", c.price, PRICE_MAX)?,
                ..c.clone()
            })
        })
        .collect()
}

fn check_volume(tariff: &[TariffSegment]) -> Result<Vec<TariffSegment>, DomainError> {
    let invalid = || DomainError::invalid("charges.range");
    let kwh = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
    };
    let mut expected_start = 0.0;
    let mut out = Vec::with_capacity(tariff.len());
    for (i, c) in tariff.iter().enumerate() {
        let last = i + 1 == tariff.len();
        let start = kwh(&c.start).ok_or_else(invalid)?;
        let end = if last && c.end.trim().is_empty() {
            None
        } else {
            Some(kwh(&c.end).ok_or_else(invalid)?)
        };
        if (start - expected_start).abs() > 1e-9
            || end.is_some_and(|e| e <= start)
            || (!last && end.is_none())
        {
            return Err(invalid());
        }
        if last && end.is_some() {
            return Err(invalid());
        }
        expected_start = end.unwrap_or(start);
        out.push(TariffSegment {
            start: trim_number(start),
            end: end.map(trim_number).unwrap_or_default(),
            price: check_money("charges.price", c.price, PRICE_MAX)?,
            ..c.clone()
        });
    }
    Ok(out)
}

fn trim_number(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tou(ranges: &[(&str, &str, f64)]) -> Vec<TariffSegment> {
        ranges
            .iter()
            .map(|(s, e, p)| TariffSegment {
                kind: Valuation::TimeOfUse,
                start: s.to_string(),
                end: e.to_string(),
                price: *p,
                direction: None,
            })
            .collect()
    }

    #[test]
    fn time_of_use_segments_must_cover_the_day_without_gaps_or_overlaps() {
        let ok = check_tariff(&tou(&[("08:00", "24:00", 0.3), ("00:00", "08:00", 0.1)])).unwrap();
        assert_eq!(ok[0].start, "00:00");
        assert_eq!(ok[1].end, "24:00");
        assert!(
            check_tariff(&tou(&[("00:00", "08:00", 0.1), ("09:00", "24:00", 0.3)])).is_err(),
            "gap"
        );
        assert!(
            check_tariff(&tou(&[("00:00", "10:00", 0.1), ("09:00", "24:00", 0.3)])).is_err(),
            "overlap"
        );
        assert!(
            check_tariff(&tou(&[("00:00", "20:00", 0.1)])).is_err(),
            "ends early"
        );
        assert!(
            check_tariff(&tou(&[("01:00", "24:00", 0.1)])).is_err(),
            "starts late"
        );
        assert!(
            check_tariff(&tou(&[("00:00", "25:00", 0.1)])).is_err(),
            "bad time"
        );
        assert!(
            check_tariff(&tou(&[("00:00", "00:00", 0.1)])).is_err(),
            "empty"
        );
    }

    #[test]
    fn twenty_three_fifty_nine_ends_the_day_like_midnight() {
        let ok = check_tariff(&tou(&[("00:00", "12:00", 0.1), ("12:00", "23:59", 0.2)])).unwrap();
        assert_eq!(ok[1].end, "24:00");
    }

    #[test]
    fn at_most_six_segments() {
        let six = [
            ("00:00", "04:00"),
            ("04:00", "08:00"),
            ("08:00", "12:00"),
            ("12:00", "16:00"),
            ("16:00", "20:00"),
            ("20:00", "24:00"),
        ];
        let mut tariff = tou(&six.map(|(s, e)| (s, e, 0.1)));
        assert!(check_tariff(&tariff).is_ok());
        tariff[5].end = "22:00".into();
        tariff.push(TariffSegment {
            start: "22:00".into(),
            end: "24:00".into(),
            ..tariff[0].clone()
        });
        assert!(check_tariff(&tariff).is_err());
    }

    #[test]
    fn prices_are_zero_to_9999_with_two_decimals() {
        assert!(check_money("p", 9999.0, PRICE_MAX).is_ok());
        assert!(check_money("p", 0.15, PRICE_MAX).is_ok());
        assert!(check_money("p", 0.155, PRICE_MAX).is_err());
        assert!(check_money("p", -1.0, PRICE_MAX).is_err());
        assert!(check_money("p", 10000.0, PRICE_MAX).is_err());
        assert!(check_money("p", f64::NAN, PRICE_MAX).is_err());
    }

    #[test]
    fn volume_tiers_start_at_zero_and_the_last_is_open() {
        let tier = |s: &str, e: &str| TariffSegment {
            kind: Valuation::Volume,
            start: s.into(),
            end: e.into(),
            price: 0.2,
            direction: None,
        };
        assert!(check_tariff(&[tier("0", "100"), tier("100", "")]).is_ok());
        assert!(check_tariff(&[tier("0", "100"), tier("150", "")]).is_err());
        assert!(check_tariff(&[tier("0", "100"), tier("100", "200")]).is_err());
    }

    #[test]
    fn a_constant_price_is_one_segment_for_the_whole_day() {
        let c = TariffSegment {
            kind: Valuation::Constant,
            start: String::new(),
            end: String::new(),
            price: 0.2,
            direction: None,
        };
        let ok = check_tariff(std::slice::from_ref(&c)).unwrap();
        assert_eq!(
            (ok[0].start.as_str(), ok[0].end.as_str()),
            ("00:00", "24:00")
        );
        assert!(check_tariff(&[c.clone(), c]).is_err());
    }

    #[test]
    fn names_capacity_and_locations_have_limits() {
        assert!(check_name("Home").is_err());
        assert!(check_name("Home roof").is_ok());
        assert!(check_name(&"x".repeat(33)).is_err());
        assert!(check_capacity(50_000.0).is_ok());
        assert!(check_capacity(50_000.1).is_err());
        assert_eq!(
            check_location(181.0, 0.0).unwrap_err().code,
            Code::BadLonLat
        );
        assert!(check_location(-0.72, 51.32).is_ok());
        assert!(check_date("joinDate", "2024-02-30").is_ok());
        assert!(check_date("joinDate", "2024-13-01").is_err());
        assert!(check_date("joinDate", "24-01-01").is_err());
    }

    #[test]
    fn tilt_and_azimuth_are_optional_within_their_ranges() {
        assert_eq!(check_tilt(None), Ok(None));
        assert_eq!(check_tilt(Some(0.0)), Ok(Some(0.0)));
        assert_eq!(check_tilt(Some(90.0)), Ok(Some(90.0)));
        assert_eq!(
            check_tilt(Some(90.5)).unwrap_err().detail.as_deref(),
            Some("tilt")
        );
        assert!(check_tilt(Some(-1.0)).is_err());
        assert_eq!(check_azimuth(Some(180.0)), Ok(Some(180.0)));
        assert_eq!(check_azimuth(Some(360.0)), Ok(Some(360.0)));
        assert_eq!(
            check_azimuth(Some(361.0)).unwrap_err().detail.as_deref(),
            Some("azimuth")
        );
        assert!(check_azimuth(Some(f64::NAN)).is_err());
    }
}
