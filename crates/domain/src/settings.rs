//! Inverter parameter settings: which settings each inverter family has, grouped as the screens
//! show them, with each field's kind, unit and limits, and the one validation rule every write
//! goes through (docs/overview.md, "Limits": at most 9999999.00; integer or 1-3 decimals as the
//! field says; times HH:MM; booleans; six time-of-use slots with Monday-Sunday flags).

use std::sync::OnceLock;

use serde::Serialize;

use crate::{Code, DomainError, device::InverterKind};

pub mod levels;
mod model;
mod offer;
pub mod original;
pub mod route;

pub use model::battery_amps_max;
use model::{HV_AMPS, LV_AMPS};
pub use offer::{Offer, Writable};

/// The largest magnitude any numeric setting may take.
pub const MAX_VALUE: f64 = 9_999_999.00;
/// Time-of-use slots.
pub const SLOTS: usize = 6;
/// Parameters in one custom profile.
pub const PROFILE_PARAMS: usize = 6;
/// Custom profiles per user.
pub const PROFILES: usize = 6;
/// Parameters a profile may choose from.
pub const SELECTABLE: usize = 30;
/// The longest custom profile name, in characters.
pub const PROFILE_NAME_MAX: usize = 32;

pub const DAYS: [&str; 7] = [
    "mondayOn",
    "tuesdayOn",
    "wednesdayOn",
    "thursdayOn",
    "fridayOn",
    "saturdayOn",
    "sundayOn",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Group {
    WorkMode,
    Battery,
    Grid,
    TimeOfUse,
    Generator,
    Limits,
    /// Switching the inverter on and off (`powerOn`).
    Power,
}

impl Group {
    pub const ALL: [Group; 7] = [
        Group::WorkMode,
        Group::Battery,
        Group::Grid,
        Group::TimeOfUse,
        Group::Generator,
        Group::Limits,
        Group::Power,
    ];
}

/// What values a field takes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Kind {
    /// A number within `min..=max` with at most `decimals` decimals (0 = integer).
    Number {
        min: f64,
        max: f64,
        decimals: u8,
    },
    /// One of the listed values (the screen translates `settings.choice.<key>.<value>`).
    Choice {
        choices: Vec<&'static str>,
    },
    /// `HH:MM`, 00:00 to 23:59.
    Time,
    Bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Field {
    pub key: String,
    pub group: Group,
    #[serde(flatten)]
    pub kind: Kind,
    pub unit: &'static str,
    /// The value a device has before anyone set it (what a read shows until then).
    pub default: String,
    /// Whether custom profiles may hold this field.
    pub selectable: bool,
    /// How a flag is written (numbers, choices and times ignore it).
    #[serde(skip)]
    pub flag: FlagStyle,
}

/// How the original API writes a flag: most as `"0"`/`"1"`, the time-of-use switches and the
/// day flags as `"true"`/`"false"` (typed clients parse the one as an int, the other as a
/// boolean; docs/clients.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FlagStyle {
    #[default]
    Digit,
    Word,
}

impl FlagStyle {
    pub fn text(self, on: bool) -> &'static str {
        match (self, on) {
            (FlagStyle::Digit, true) => "1",
            (FlagStyle::Digit, false) => "0",
            (FlagStyle::Word, true) => "true",
            (FlagStyle::Word, false) => "false",
        }
    }
}

/// The settings families: which catalogue an inverter has. Which of the family's fields one
/// inverter offers is its register map's business ([`Offer`]). Not a device family
/// ([`crate::DeviceFamily`]): every settings family is one of inverters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Hybrids with a low-voltage (48 V) battery.
    HybridLv,
    /// Hybrids with a high-voltage battery stack.
    HybridHv,
    /// Grid-tied (string) inverters: grid, export and power limits, on/off.
    GridTied,
    /// Micro inverters: export and power limits, on/off.
    Micro,
}

impl Family {
    /// The family of an inverter's kind (its type code). Every kind has one; a string
    /// inverter without a hybrid type (code 0) is grid-tied.
    pub fn of_kind(type_code: i64) -> Family {
        match InverterKind::from_code(type_code) {
            InverterKind::Micro => Family::Micro,
            InverterKind::String | InverterKind::GridTied => Family::GridTied,
            InverterKind::ThreePhaseHvHybrid | InverterKind::SinglePhaseHvHybrid => {
                Family::HybridHv
            }
            _ => Family::HybridLv,
        }
    }

    pub const ALL: [Family; 4] = [
        Family::HybridLv,
        Family::HybridHv,
        Family::GridTied,
        Family::Micro,
    ];

    /// Every field of the family, in screen order.
    pub fn fields(self) -> &'static [Field] {
        static LV: OnceLock<Vec<Field>> = OnceLock::new();
        static HV: OnceLock<Vec<Field>> = OnceLock::new();
        static GRID: OnceLock<Vec<Field>> = OnceLock::new();
        static MICRO: OnceLock<Vec<Field>> = OnceLock::new();
        match self {
            Family::HybridLv => LV.get_or_init(|| hybrid(false)),
            Family::HybridHv => HV.get_or_init(|| hybrid(true)),
            Family::GridTied => GRID.get_or_init(grid_tied),
            Family::Micro => MICRO.get_or_init(micro),
        }
    }

    pub fn field(self, key: &str) -> Option<&'static Field> {
        self.fields().iter().find(|f| f.key == key)
    }

    /// The fields custom profiles may choose from (at most [`SELECTABLE`]).
    pub fn selectable(self) -> impl Iterator<Item = &'static Field> {
        self.fields().iter().filter(|f| f.selectable)
    }
}

fn num(
    key: &str,
    group: Group,
    unit: &'static str,
    range: (f64, f64),
    decimals: u8,
    default: &str,
) -> Field {
    Field {
        key: key.into(),
        group,
        kind: Kind::Number {
            min: range.0,
            max: range.1,
            decimals,
        },
        unit,
        default: default.into(),
        selectable: group != Group::TimeOfUse,
        flag: FlagStyle::Digit,
    }
}

fn choice(key: &str, group: Group, choices: &[&'static str], default: &str) -> Field {
    Field {
        key: key.into(),
        group,
        kind: Kind::Choice {
            choices: choices.to_vec(),
        },
        unit: "",
        default: default.into(),
        selectable: group != Group::TimeOfUse,
        flag: FlagStyle::Digit,
    }
}

/// A `"0"`/`"1"` flag.
fn flag(key: &str, group: Group, default: bool) -> Field {
    Field {
        key: key.into(),
        group,
        kind: Kind::Bool,
        unit: "",
        default: FlagStyle::Digit.text(default).into(),
        selectable: group != Group::TimeOfUse,
        flag: FlagStyle::Digit,
    }
}

/// A `"true"`/`"false"` flag (slot switches and day flags).
fn word_flag(key: &str, group: Group, default: bool) -> Field {
    Field {
        flag: FlagStyle::Word,
        default: FlagStyle::Word.text(default).into(),
        ..flag(key, group, default)
    }
}

fn time(key: &str, default: &str) -> Field {
    Field {
        key: key.into(),
        group: Group::TimeOfUse,
        kind: Kind::Time,
        unit: "",
        default: default.into(),
        selectable: false,
        flag: FlagStyle::Digit,
    }
}

/// Grid codes (the safety standard the inverter follows).
const SAFETY_TYPES: [&str; 8] = ["0", "1", "2", "3", "4", "5", "6", "7"];

fn grid_fields() -> Vec<Field> {
    use Group::Grid;
    vec![
        choice("safetyType", Grid, &SAFETY_TYPES, "0"),
        choice("gridFreq", Grid, &["0", "1"], "0"),
        num("pf", Grid, "", (-1.0, 1.0), 2, "1.00"),
    ]
}

fn hybrid(hv: bool) -> Vec<Field> {
    use Group::*;
    // Battery limits differ between a 48 V stack and a high-voltage one.
    let (volts, amps, volt_default, amps_default) = if hv {
        ((100.0, 800.0), (0.0, HV_AMPS), "400.0", "25")
    } else {
        ((38.0, 61.0), (0.0, LV_AMPS), "53.6", "100")
    };
    let mut f = vec![
        choice("sysWorkMode", WorkMode, &["0", "1", "2"], "2"),
        choice("energyMode", WorkMode, &["0", "1"], "1"),
        flag("solarSell", WorkMode, false),
        // "Use timer": whether the time-of-use slots below are followed at all.
        flag("peakAndVallery", WorkMode, false),
        choice("battMode", Battery, &["-1", "0", "1"], "1"),
        num("batteryCap", Battery, "Ah", (0.0, 2000.0), 0, "100"),
        num(
            "batteryMaxCurrentCharge",
            Battery,
            "A",
            amps,
            0,
            amps_default,
        ),
        num(
            "batteryMaxCurrentDischarge",
            Battery,
            "A",
            amps,
            0,
            amps_default,
        ),
        num("batteryLowCap", Battery, "%", (0.0, 100.0), 0, "20"),
        num("batteryRestartCap", Battery, "%", (0.0, 100.0), 0, "40"),
        num("batteryShutdownCap", Battery, "%", (0.0, 100.0), 0, "10"),
        num("floatVolt", Battery, "V", volts, 1, volt_default),
    ];
    f.extend(grid_fields());
    for i in 1..=SLOTS {
        let start = format!("{:02}:00", (i - 1) * 4);
        f.push(time(&format!("sellTime{i}"), &start));
        f.push(num(
            &format!("sellTime{i}Pac"),
            TimeOfUse,
            "W",
            (0.0, 99_999.0),
            0,
            "5000",
        ));
        f.push(num(
            &format!("sellTime{i}Volt"),
            TimeOfUse,
            "V",
            volts,
            1,
            volt_default,
        ));
        f.push(num(
            &format!("cap{i}"),
            TimeOfUse,
            "%",
            (0.0, 100.0),
            0,
            "100",
        ));
        f.push(flag(&format!("sellTime{i}En"), TimeOfUse, false));
        f.push(word_flag(&format!("time{i}on"), TimeOfUse, false));
        f.push(word_flag(&format!("genTime{i}on"), TimeOfUse, false));
    }
    for day in DAYS {
        f.push(word_flag(day, TimeOfUse, true));
    }
    f.extend([
        flag("genChargeOn", Generator, false),
        num("generatorStartCap", Generator, "%", (0.0, 100.0), 0, "30"),
        num("genChargeCurrent", Generator, "A", amps, 0, "40"),
        num("genMaxRunTime", Generator, "h", (0.0, 23.9), 1, "23.9"),
        num("genCoolingTime", Generator, "h", (0.0, 23.9), 1, "0.5"),
        num("genPeakPower", Generator, "W", (0.0, 99_999.0), 0, "8000"),
        num("zeroExportPower", Limits, "W", (0.0, 99_999.0), 0, "20"),
        num("pvMaxLimit", Limits, "W", (0.0, 99_999.0), 0, "5000"),
        num("solarMaxSellPower", Limits, "W", (0.0, 99_999.0), 0, "5000"),
        flag("gridPeakShaving", Limits, false),
        power_on(),
    ]);
    f
}

/// The export and PV power limits every family has.
fn power_limits() -> [Field; 2] {
    [
        num(
            "zeroExportPower",
            Group::Limits,
            "W",
            (0.0, 99_999.0),
            0,
            "20",
        ),
        num("pvMaxLimit", Group::Limits, "W", (0.0, 99_999.0), 0, "5000"),
    ]
}

/// On (`"1"`) or off (`"0"`): what the power on/off commands write too (the map's
/// `power_on` point). Never in a custom profile.
fn power_on() -> Field {
    Field {
        selectable: false,
        ..flag("powerOn", Group::Power, true)
    }
}

/// The output limit of inverters without a battery, in % of the rated power (Deye string and
/// micro inverters take up to 100-120 %, as their maps say).
fn active_power_limit() -> Field {
    num(
        "activePowerLimit",
        Group::Limits,
        "%",
        (0.0, 120.0),
        0,
        "100",
    )
}

fn grid_tied() -> Vec<Field> {
    let mut f = grid_fields();
    f.extend(power_limits());
    f.push(active_power_limit());
    // Export limiting as Growatt's grid-tied inverters hold it: how the export is measured
    // (0 off, 1 meter on RS485, 2 meter on RS232, 3 CT) and the limit in % of rated power
    // (negative: import).
    f.push(choice(
        "exportLimitMode",
        Group::Limits,
        &["0", "1", "2", "3"],
        "0",
    ));
    f.push(num(
        "exportLimitRate",
        Group::Limits,
        "%",
        (-100.0, 100.0),
        1,
        "0",
    ));
    f.push(power_on());
    f
}

fn micro() -> Vec<Field> {
    let mut f = power_limits().to_vec();
    f.push(active_power_limit());
    f.push(power_on());
    f
}

/// A value as a client sent it: text (numbers arrive as their text) or a boolean; anything
/// else (null, arrays, objects) is `Other` and always invalid.
#[derive(Debug, Clone, PartialEq)]
pub enum Raw {
    Text(String),
    Bool(bool),
    Other,
}

impl From<&str> for Raw {
    fn from(s: &str) -> Raw {
        Raw::Text(s.to_string())
    }
}

impl Field {
    /// Checks a value sent for this field and answers it as stored and sent to the device (a
    /// string). Numbers may arrive as numbers or strings; booleans as booleans,
    /// `"true"`/`"false"` or `1`/`0`, answered in the field's [`FlagStyle`]. Any error is
    /// code 4 naming the field.
    pub fn check(&self, raw: &Raw) -> Result<String, DomainError> {
        let bad = || DomainError::invalid(self.key.clone());
        let text = match raw {
            Raw::Text(s) => s.trim().to_string(),
            Raw::Bool(b) => b.to_string(),
            Raw::Other => return Err(bad()),
        };
        match &self.kind {
            Kind::Number { min, max, decimals } => {
                check_number(&text, *min, *max, *decimals).ok_or_else(bad)
            }
            Kind::Choice { choices } => choices
                .iter()
                .find(|c| **c == text)
                .map(|c| c.to_string())
                .ok_or_else(bad),
            Kind::Time => check_time(&text).ok_or_else(bad),
            Kind::Bool => match text.as_str() {
                "true" | "1" => Ok(self.flag.text(true).into()),
                "false" | "0" => Ok(self.flag.text(false).into()),
                _ => Err(bad()),
            },
        }
    }
}

/// A decimal with at most `decimals` decimals within `min..=max` (and never beyond
/// [`MAX_VALUE`]); answered as written, without a leading `+`.
fn check_number(text: &str, min: f64, max: f64, decimals: u8) -> Option<String> {
    let body = text.strip_prefix('-').unwrap_or(text);
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if let Some(f) = frac
        && (f.is_empty()
            || f.len() > usize::from(decimals)
            || !f.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let value: f64 = text.parse().ok()?;
    (value.abs() <= MAX_VALUE && value >= min && value <= max).then(|| text.to_string())
}

/// `HH:MM` from 00:00 to 23:59 (a single-digit hour is accepted and padded).
fn check_time(text: &str) -> Option<String> {
    let (h, m) = text.split_once(':')?;
    if h.is_empty() || h.len() > 2 || m.len() != 2 {
        return None;
    }
    if !h.bytes().chain(m.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then(|| format!("{h:02}:{m:02}"))
}

/// The keys every settings read carries for hybrids, besides `sn`: a client that changes one
/// setting reads them all and writes them all back (pysunsynkweb fails without any of them;
/// docs/clients.md).
pub fn required_keys() -> Vec<String> {
    let mut keys: Vec<String> = [
        "safetyType",
        "battMode",
        "solarSell",
        "pvMaxLimit",
        "energyMode",
        "peakAndVallery",
        "sysWorkMode",
    ]
    .map(String::from)
    .to_vec();
    for i in 1..=SLOTS {
        keys.extend([
            format!("sellTime{i}"),
            format!("sellTime{i}Pac"),
            format!("sellTime{i}Volt"),
            format!("sellTime{i}En"),
            format!("cap{i}"),
            format!("time{i}on"),
            format!("genTime{i}on"),
        ]);
    }
    keys.extend(DAYS.map(String::from));
    keys.extend(
        [
            "zeroExportPower",
            "solarMaxSellPower",
            "gridPeakShaving",
            "generatorStartCap",
            "batteryLowCap",
            "batteryMaxCurrentCharge",
            "batteryMaxCurrentDischarge",
        ]
        .map(String::from),
    );
    keys
}

/// A custom profile's parameters: 1 to [`PROFILE_PARAMS`] selectable fields, each value valid
/// for at least one family that has it. Answers the values as stored.
pub fn check_profile(params: &[(String, Raw)]) -> Result<Vec<(String, String)>, DomainError> {
    if params.is_empty() || params.len() > PROFILE_PARAMS {
        return Err(DomainError::with_detail(
            Code::InvalidParameter,
            format!("params: 1 to {PROFILE_PARAMS} parameters"),
        ));
    }
    let families = Family::ALL;
    let mut out = Vec::new();
    for (key, raw) in params {
        let fields: Vec<&Field> = families
            .iter()
            .filter_map(|f| f.field(key))
            .filter(|f| f.selectable)
            .collect();
        if fields.is_empty() {
            return Err(DomainError::invalid(key.clone()));
        }
        let value = fields
            .iter()
            .find_map(|f| f.check(raw).ok())
            .ok_or_else(|| DomainError::invalid(key.clone()))?;
        out.push((key.clone(), value));
    }
    Ok(out)
}

/// A custom profile's name: 1 to [`PROFILE_NAME_MAX`] characters once trimmed; 4 `name`
/// otherwise.
pub fn check_profile_name(raw: &str) -> Result<String, DomainError> {
    let name = raw.trim();
    if name.is_empty() || name.chars().count() > PROFILE_NAME_MAX {
        return Err(DomainError::invalid("name"));
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lv(key: &str) -> &'static Field {
        Family::HybridLv.field(key).expect(key)
    }

    #[test]
    fn families_follow_the_kind() {
        assert_eq!(Family::of_kind(2), Family::HybridLv);
        assert_eq!(Family::of_kind(93), Family::HybridLv);
        assert_eq!(Family::of_kind(94), Family::HybridHv);
        assert_eq!(Family::of_kind(21), Family::HybridHv);
        assert_eq!(Family::of_kind(1), Family::GridTied);
        assert_eq!(Family::of_kind(0), Family::GridTied);
        assert_eq!(Family::of_kind(3), Family::Micro);
        for family in Family::ALL {
            assert_eq!(
                family.field("powerOn").map(|f| f.group),
                Some(Group::Power),
                "{family:?}"
            );
        }
    }

    #[test]
    fn hybrids_carry_every_key_clients_echo_and_all_limits_hold() {
        for family in [Family::HybridLv, Family::HybridHv] {
            for key in required_keys() {
                assert!(family.field(&key).is_some(), "{key} missing");
            }
            assert!(family.selectable().count() <= SELECTABLE);
        }
        for family in Family::ALL {
            let mut seen = std::collections::HashSet::new();
            for f in family.fields() {
                assert!(seen.insert(&f.key), "duplicate {}", f.key);
                assert_eq!(
                    f.check(&Raw::from(f.default.as_str())).as_deref(),
                    Ok(f.default.as_str()),
                    "{}",
                    f.key
                );
                if let Kind::Number { min, max, decimals } = f.kind {
                    assert!(max <= MAX_VALUE && min >= -MAX_VALUE && decimals <= 3);
                }
            }
        }
    }

    #[test]
    fn numbers_respect_range_and_decimals() {
        let amps = lv("batteryMaxCurrentCharge");
        assert_eq!(amps.check(&Raw::from("120")).as_deref(), Ok("120"));
        assert_eq!(amps.check(&Raw::from("120")).as_deref(), Ok("120"));
        assert!(amps.check(&Raw::from("120.5")).is_err(), "integer field");
        assert!(amps.check(&Raw::from("241")).is_err());
        assert!(amps.check(&Raw::from("-1")).is_err());
        assert!(amps.check(&Raw::from("")).is_err());
        assert!(amps.check(&Raw::from("1e2")).is_err());
        assert_eq!(
            amps.check(&Raw::from("abc")).unwrap_err(),
            DomainError::invalid("batteryMaxCurrentCharge")
        );
        let volts = lv("floatVolt");
        assert_eq!(volts.check(&Raw::from("53.6")).as_deref(), Ok("53.6"));
        assert!(volts.check(&Raw::from("53.65")).is_err(), "one decimal");
        assert!(volts.check(&Raw::from("53.")).is_err());
        let pf = lv("pf");
        assert_eq!(pf.check(&Raw::from("-0.95")).as_deref(), Ok("-0.95"));
        assert!(pf.check(&Raw::from("-1.01")).is_err());
        assert!(pf.check(&Raw::from("0.955")).is_err());
    }

    #[test]
    fn nothing_exceeds_the_global_maximum() {
        assert_eq!(
            check_number("9999999.00", 0.0, 1.0e9, 2).as_deref(),
            Some("9999999.00")
        );
        assert!(check_number("9999999.01", 0.0, 1.0e9, 2).is_none());
        assert!(check_number("10000000", 0.0, 1.0e9, 0).is_none());
        assert_eq!(check_number("0.125", 0.0, 1.0, 3).as_deref(), Some("0.125"));
        assert!(check_number("0.1255", 0.0, 1.0, 3).is_none());
    }

    #[test]
    fn times_booleans_and_choices() {
        let t = lv("sellTime3");
        assert_eq!(t.check(&Raw::from("08:30")).as_deref(), Ok("08:30"));
        assert_eq!(t.check(&Raw::from("8:30")).as_deref(), Ok("08:30"));
        assert!(t.check(&Raw::from("24:00")).is_err());
        assert!(t.check(&Raw::from("12:60")).is_err());
        assert!(t.check(&Raw::from("1230")).is_err());
        let on = lv("time2on");
        assert_eq!(on.check(&Raw::Bool(true)).as_deref(), Ok("true"));
        assert_eq!(on.check(&Raw::from("false")).as_deref(), Ok("false"));
        assert_eq!(on.check(&Raw::from("1")).as_deref(), Ok("true"));
        assert!(on.check(&Raw::from("yes")).is_err());
        assert_eq!(
            lv("mondayOn").check(&Raw::Bool(false)).as_deref(),
            Ok("false")
        );
        let mode = lv("battMode");
        assert_eq!(mode.check(&Raw::from("-1")).as_deref(), Ok("-1"));
        assert!(mode.check(&Raw::from("2")).is_err());
        assert!(mode.check(&Raw::Other).is_err());
    }

    #[test]
    fn flags_answer_in_the_originals_format() {
        let timer = lv("peakAndVallery");
        assert_eq!(timer.check(&Raw::Bool(true)).as_deref(), Ok("1"));
        assert_eq!(timer.check(&Raw::from("false")).as_deref(), Ok("0"));
        assert_eq!(timer.check(&Raw::from("1")).as_deref(), Ok("1"));
        assert_eq!(timer.default, "0");
        assert_eq!(
            lv("sellTime2En").check(&Raw::from("true")).as_deref(),
            Ok("1")
        );
        assert_eq!(
            lv("genTime2on").check(&Raw::from("1")).as_deref(),
            Ok("true")
        );
        assert_eq!(lv("sundayOn").default, "true");
    }

    #[test]
    fn hv_batteries_have_their_own_limits() {
        let hv = Family::HybridHv.field("floatVolt").expect("hv volts");
        assert!(hv.check(&Raw::from("400.0")).is_ok());
        assert!(lv("floatVolt").check(&Raw::from("400.0")).is_err());
    }

    #[test]
    fn profiles_hold_one_to_six_selectable_parameters() {
        let p = |pairs: &[(&str, Raw)]| -> Vec<(String, Raw)> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect()
        };
        let ok = p(&[
            ("battMode", Raw::from("1")),
            ("zeroExportPower", Raw::from("50")),
            ("solarSell", Raw::Bool(true)),
        ]);
        let values = check_profile(&ok).expect("valid");
        assert!(values.contains(&("solarSell".into(), "1".into())));
        let seven: Vec<(String, Raw)> = [
            "battMode",
            "zeroExportPower",
            "solarSell",
            "sysWorkMode",
            "energyMode",
            "batteryCap",
            "pf",
        ]
        .iter()
        .map(|k| (k.to_string(), Raw::from(lv(k).default.as_str())))
        .collect();
        assert_eq!(
            check_profile(&seven).unwrap_err().code,
            Code::InvalidParameter
        );
        assert!(check_profile(&seven[..6]).is_ok());
        assert!(check_profile(&[]).is_err());
        assert_eq!(
            check_profile(&p(&[("sellTime1", Raw::from("01:00"))])).unwrap_err(),
            DomainError::invalid("sellTime1")
        );
        assert!(check_profile(&p(&[("batteryLowCap", Raw::from("101"))])).is_err());
        assert!(check_profile(&p(&[("nope", Raw::from("1"))])).is_err());
    }

    #[test]
    fn profile_names_are_1_to_32_characters_trimmed() {
        assert_eq!(check_profile_name("  Summer ").as_deref(), Ok("Summer"));
        assert_eq!(
            check_profile_name(&"é".repeat(32)).map(|n| n.chars().count()),
            Ok(32)
        );
        for bad in ["", "   ", &"x".repeat(33)] {
            assert_eq!(check_profile_name(bad), Err(DomainError::invalid("name")));
        }
    }
}
