//! The original API's settings routes per family (`dy/store`, `dy/store/.../threePhase`,
//! `dy/grid`, `mt/setting`, `gy/setting`, `asw`, `setting/uneet`): which inverters each serves,
//! and the parts (groups) a call reads or sets. Our reading of each prefix is in docs/api.md
//! ("Settings by family"); every route is the same settings use case as
//! `/api/v1/common/setting/{sn}/set`, narrowed to its inverters and to one group.

use super::{DAYS, Family, Group, SLOTS};
use crate::{Code, DomainError, device::InverterKind};

/// A family route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// `dy/store/{sn}/...`: Deye (德业, "dy") storage inverters, i.e. hybrids, single-phase.
    DeyeStore,
    /// `dy/store/{sn}/threePhase/...`: Deye three-phase hybrids (LV and HV).
    DeyeStoreThreePhase,
    /// `dy/grid/{sn}/...`: Deye grid-tied (string) inverters.
    DeyeGrid,
    /// `mt/setting/{sn}/...`: micro inverters of any brand.
    Micro,
    /// `gy/setting/{sn}/...`: high-voltage (高压, "gy") battery hybrids of any brand.
    HighVoltage,
    /// `asw/{sn}/...`: AISWEI (Solplanet ASW series) inverters.
    Aiswei,
    /// `setting/uneet/{sn}/...`: Uneet inverters.
    Uneet,
}

/// Protocol config codes of Deye devices.
const DEYE: &[&str] = &["deye-"];
const AISWEI: &[&str] = &["aiswei-", "solplanet-", "asw-"];
const UNEET: &[&str] = &["uneet-"];

fn brand(protocol: &str, prefixes: &[&str]) -> Result<(), DomainError> {
    if prefixes.iter().any(|p| protocol.starts_with(p)) {
        Ok(())
    } else {
        Err(Code::BrandNotSupported.into())
    }
}

impl Route {
    /// Whether the route serves an inverter of type `type_code` read with `protocol`: 601 for
    /// another brand on a brand's route, the grid type error (610) for a hybrid on the other
    /// phase count's Deye route, 605 for an inverter of another family.
    pub fn admits(self, type_code: i64, protocol: &str) -> Result<(), DomainError> {
        let kind = InverterKind::from_code(type_code);
        let family = Family::of_kind(type_code);
        let hybrid_on = |three_phase: bool| -> Result<(), DomainError> {
            match (kind.is_hybrid(), kind.is_three_phase() == three_phase) {
                (true, true) => Ok(()),
                (true, false) => Err(Code::GridTypeError.into()),
                (false, _) => Err(Code::NoSettings.into()),
            }
        };
        let family_is = |wanted: Family| -> Result<(), DomainError> {
            if family == wanted {
                Ok(())
            } else {
                Err(Code::NoSettings.into())
            }
        };
        match self {
            Route::DeyeStore => brand(protocol, DEYE).and_then(|()| hybrid_on(false)),
            Route::DeyeStoreThreePhase => brand(protocol, DEYE).and_then(|()| hybrid_on(true)),
            Route::DeyeGrid => brand(protocol, DEYE).and_then(|()| family_is(Family::GridTied)),
            Route::Micro => family_is(Family::Micro),
            Route::HighVoltage => family_is(Family::HybridHv),
            Route::Aiswei => brand(protocol, AISWEI),
            Route::Uneet => brand(protocol, UNEET),
        }
    }
}

/// What a family route's last path segment names: everything (`read`) or one group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    All,
    Group(Group),
}

impl Part {
    /// `read`, `workMode`, `battery`, `tou`, `generator`, `grid`, `limits` or `power`; code 4
    /// `part` otherwise.
    pub fn parse(raw: &str) -> Result<Part, DomainError> {
        Ok(match raw.trim() {
            "read" => Part::All,
            "workMode" => Part::Group(Group::WorkMode),
            "battery" => Part::Group(Group::Battery),
            "tou" => Part::Group(Group::TimeOfUse),
            "generator" => Part::Group(Group::Generator),
            "grid" => Part::Group(Group::Grid),
            "limits" => Part::Group(Group::Limits),
            "power" => Part::Group(Group::Power),
            _ => return Err(DomainError::invalid("part")),
        })
    }

    pub fn covers(self, group: Group) -> bool {
        match self {
            Part::All => true,
            Part::Group(g) => g == group,
        }
    }
}

/// The time-of-use slot (1 to 6) a key belongs to, if it is a slot's key (`sellTime3`,
/// `sellTime3Pac`, `sellTime3Volt`, `sellTime3En`, `cap3`, `time3on`, `genTime3on`).
pub fn slot_of(key: &str) -> Option<usize> {
    (1..=SLOTS).find(|n| {
        [
            format!("sellTime{n}"),
            format!("sellTime{n}Pac"),
            format!("sellTime{n}Volt"),
            format!("sellTime{n}En"),
            format!("cap{n}"),
            format!("time{n}on"),
            format!("genTime{n}on"),
        ]
        .iter()
        .any(|k| k == key)
    })
}

/// Whether `key` may be set in a `tou` call for slot `time`: the slot's own keys and the day
/// flags (which every slot shares).
pub fn in_slot(key: &str, time: usize) -> bool {
    slot_of(key) == Some(time) || DAYS.contains(&key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(r: Result<(), DomainError>) -> Option<Code> {
        r.err().map(|e| e.code)
    }

    #[test]
    fn each_route_serves_its_inverters_and_names_why_not() {
        use Route::*;
        let lp1 = (2, "deye-hybrid-1ph");
        let lp3 = (93, "deye-hybrid-3ph-lv");
        let hp3 = (94, "deye-hybrid-3ph-hv");
        let string = (1, "deye-string-3ph");
        let micro = (3, "deye-micro");
        let growatt = (1, "growatt-min");
        let table = [
            (DeyeStore, lp1, None),
            (DeyeStore, lp3, Some(Code::GridTypeError)),
            (DeyeStore, string, Some(Code::NoSettings)),
            (DeyeStore, growatt, Some(Code::BrandNotSupported)),
            (DeyeStoreThreePhase, lp3, None),
            (DeyeStoreThreePhase, hp3, None),
            (DeyeStoreThreePhase, lp1, Some(Code::GridTypeError)),
            (DeyeGrid, string, None),
            (DeyeGrid, (0, "deye-string-3ph"), None),
            (DeyeGrid, lp1, Some(Code::NoSettings)),
            (DeyeGrid, growatt, Some(Code::BrandNotSupported)),
            (Micro, micro, None),
            (Micro, (3, "growatt-micro"), None),
            (Micro, string, Some(Code::NoSettings)),
            (HighVoltage, hp3, None),
            (HighVoltage, (21, "acme-hv"), None),
            (HighVoltage, lp3, Some(Code::NoSettings)),
            (Aiswei, (1, "aiswei-asw-lt"), None),
            (Aiswei, lp1, Some(Code::BrandNotSupported)),
            (Uneet, (2, "uneet-x"), None),
            (Uneet, lp1, Some(Code::BrandNotSupported)),
        ];
        for (route, (type_code, protocol), want) in table {
            assert_eq!(
                code(route.admits(type_code, protocol)),
                want,
                "{route:?} {type_code} {protocol}"
            );
        }
    }

    #[test]
    fn parts_and_slots() {
        assert_eq!(Part::parse("read"), Ok(Part::All));
        assert_eq!(Part::parse("tou"), Ok(Part::Group(Group::TimeOfUse)));
        assert_eq!(Part::parse("power"), Ok(Part::Group(Group::Power)));
        assert_eq!(Part::parse("x"), Err(DomainError::invalid("part")));
        assert!(Part::All.covers(Group::Battery));
        assert!(!Part::Group(Group::Grid).covers(Group::Battery));
        assert_eq!(slot_of("sellTime3Pac"), Some(3));
        assert_eq!(slot_of("genTime6on"), Some(6));
        assert_eq!(slot_of("batteryCap"), None);
        assert!(in_slot("cap2", 2) && in_slot("mondayOn", 5));
        assert!(!in_slot("cap2", 3));
    }
}
