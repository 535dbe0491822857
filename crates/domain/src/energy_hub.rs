//! The energy hub (demand response): enrollment statuses and the actions that move them, event
//! statuses, and the rules of what participants and the utility may type. Storage and the
//! checks that need the database (is this SN a device of the plant, is it used elsewhere) live
//! in the store and the service; everything here is pure.

use crate::{Code, DomainError};

/// Where an enrollment stands. Stored and sent as the lower-case word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EnrollmentStatus {
    Pending,
    Accepted,
    Rejected,
    Unenrolled,
}

impl EnrollmentStatus {
    pub const ALL: [EnrollmentStatus; 4] = [
        EnrollmentStatus::Pending,
        EnrollmentStatus::Accepted,
        EnrollmentStatus::Rejected,
        EnrollmentStatus::Unenrolled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EnrollmentStatus::Pending => "pending",
            EnrollmentStatus::Accepted => "accepted",
            EnrollmentStatus::Rejected => "rejected",
            EnrollmentStatus::Unenrolled => "unenrolled",
        }
    }

    pub fn parse(raw: &str) -> Option<EnrollmentStatus> {
        Self::ALL.into_iter().find(|s| s.as_str() == raw.trim())
    }

    /// Pending and accepted enrollments hold their devices and utility account: no other
    /// live enrollment may use them.
    pub fn is_live(self) -> bool {
        matches!(self, EnrollmentStatus::Pending | EnrollmentStatus::Accepted)
    }

    /// Only pending and rejected enrollments may be edited (a rejected one is resubmitted).
    pub fn is_editable(self) -> bool {
        matches!(self, EnrollmentStatus::Pending | EnrollmentStatus::Rejected)
    }
}

/// What a participant or the utility may do to an enrollment (wire names in [`Action::as_str`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Participant: unenrolled → pending.
    Join,
    /// Participant: rejected → pending.
    Resubmit,
    /// Participant: pending or accepted → unenrolled.
    Quit,
    /// Participant, accepted only: stop taking part in events until opting in again.
    OptOut,
    /// Participant, accepted and opted out only.
    OptIn,
    /// Utility, built-in programmes: pending → accepted.
    Accept,
    /// Utility, built-in programmes: pending or accepted → rejected, with a reason.
    Reject,
}

impl Action {
    pub const ALL: [Action; 7] = [
        Action::Join,
        Action::Resubmit,
        Action::Quit,
        Action::OptOut,
        Action::OptIn,
        Action::Accept,
        Action::Reject,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Action::Join => "join",
            Action::Resubmit => "resubmit",
            Action::Quit => "quit",
            Action::OptOut => "optOut",
            Action::OptIn => "optIn",
            Action::Accept => "accept",
            Action::Reject => "reject",
        }
    }

    /// An unknown action is refused like a forbidden one (1007).
    pub fn parse(raw: &str) -> Result<Action, DomainError> {
        Self::ALL
            .into_iter()
            .find(|a| a.as_str() == raw.trim())
            .ok_or_else(|| Code::EnrollmentStateForbids.into())
    }

    /// Accept and reject are the utility's decisions.
    pub fn is_utility(self) -> bool {
        matches!(self, Action::Accept | Action::Reject)
    }
}

/// An enrollment's state as the state machine reads and writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnrollmentState {
    pub status: EnrollmentStatus,
    pub opted_out: bool,
}

/// Who acts, and on which kind of programme: the utility's decisions are an administrator's
/// (`sys.energyhub.edit`) on built-in programmes only; a VTN's programmes are decided by the
/// sync with the utility's server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Acting {
    pub is_utility: bool,
    pub is_vtn: bool,
}

impl EnrollmentState {
    /// The state after `action`, or 1007 when the status (or the actor) does not allow it.
    /// Leaving `accepted` clears the opt-out.
    pub fn apply(self, action: Action, who: Acting) -> Result<EnrollmentState, DomainError> {
        use EnrollmentStatus::*;
        if action.is_utility() && (!who.is_utility || who.is_vtn) {
            return Err(Code::EnrollmentStateForbids.into());
        }
        let next = |status| EnrollmentState {
            status,
            opted_out: false,
        };
        let state = match (action, self.status) {
            (Action::Join, Unenrolled) | (Action::Resubmit, Rejected) => next(Pending),
            (Action::Quit, Pending | Accepted) => next(Unenrolled),
            (Action::OptOut, Accepted) if !self.opted_out => EnrollmentState {
                status: Accepted,
                opted_out: true,
            },
            (Action::OptIn, Accepted) if self.opted_out => next(Accepted),
            (Action::Accept, Pending) => next(Accepted),
            (Action::Reject, Pending | Accepted) => next(Rejected),
            _ => return Err(Code::EnrollmentStateForbids.into()),
        };
        Ok(state)
    }

    /// The actions the screens offer for this state, in [`Action::ALL`] order.
    pub fn allowed_actions(self, who: Acting) -> Vec<Action> {
        Action::ALL
            .into_iter()
            .filter(|a| self.apply(*a, who).is_ok())
            .collect()
    }
}

/// `allowed_actions(status, opted_out, is_utility, is_vtn)` as the contract names it.
pub fn allowed_actions(
    status: EnrollmentStatus,
    opted_out: bool,
    is_utility: bool,
    is_vtn: bool,
) -> Vec<Action> {
    EnrollmentState { status, opted_out }.allowed_actions(Acting { is_utility, is_vtn })
}

/// A reject's reason: 1-200 characters (4 `reason`).
pub fn reject_reason(raw: Option<&str>) -> Result<String, DomainError> {
    let reason = raw.map(str::trim).unwrap_or_default();
    if reason.is_empty() || reason.chars().count() > 200 {
        return Err(DomainError::invalid("reason"));
    }
    Ok(reason.to_string())
}

/// Where an event stands for a caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventStatus {
    Pending,
    Active,
    Completed,
    Cancelled,
}

impl EventStatus {
    pub const ALL: [EventStatus; 4] = [
        EventStatus::Pending,
        EventStatus::Active,
        EventStatus::Completed,
        EventStatus::Cancelled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EventStatus::Pending => "pending",
            EventStatus::Active => "active",
            EventStatus::Completed => "completed",
            EventStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(raw: &str) -> Option<EventStatus> {
        Self::ALL.into_iter().find(|s| s.as_str() == raw.trim())
    }

    /// The status at `now` of an event from `start` to `end` (any one unit, e.g. unix
    /// seconds). Cancelled when `cancelled` (cancelled for everyone, or every enrollment of
    /// the caller opted out); else by the clock.
    pub fn at(start: i64, end: i64, cancelled: bool, now: i64) -> EventStatus {
        if cancelled {
            EventStatus::Cancelled
        } else if now < start {
            EventStatus::Pending
        } else if now < end {
            EventStatus::Active
        } else {
            EventStatus::Completed
        }
    }

    /// Completed and cancelled events cannot be cancelled again (1010).
    pub fn is_over(self) -> bool {
        matches!(self, EventStatus::Completed | EventStatus::Cancelled)
    }
}

/// What an event asks of each plant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// Discharge the battery at `target_kw` (per plant, bounded by its capacity).
    Discharge,
    /// Export at most `target_kw` to the grid.
    ExportLimit,
    /// Charge the battery from the grid at `target_kw` (0: hold its charge); OpenADR
    /// `DISPATCH_SETPOINT`, the consumption asked of the plant's battery.
    Charge,
}

impl EventKind {
    pub const ALL: [EventKind; 3] = [
        EventKind::Discharge,
        EventKind::ExportLimit,
        EventKind::Charge,
    ];

    /// The stored word (`dr_events.kind`).
    pub fn as_db(self) -> &'static str {
        match self {
            EventKind::Discharge => "discharge",
            EventKind::ExportLimit => "export_limit",
            EventKind::Charge => "charge",
        }
    }

    /// The wire word.
    pub fn as_wire(self) -> &'static str {
        match self {
            EventKind::Discharge => "discharge",
            EventKind::ExportLimit => "exportLimit",
            EventKind::Charge => "charge",
        }
    }

    /// Either spelling.
    pub fn parse(raw: &str) -> Option<EventKind> {
        match raw.trim() {
            "discharge" => Some(EventKind::Discharge),
            "exportLimit" | "export_limit" => Some(EventKind::ExportLimit),
            "charge" => Some(EventKind::Charge),
            _ => None,
        }
    }
}

/// Where a programme, and so its enrollments and events, comes from: `local` (built in, the
/// portal's utility runs it) or `vtn` (a utility's OpenADR server).
pub const SOURCES: [&str; 2] = ["local", "vtn"];

/// How an event went for one inverter (the dispatch job's word): `pending` (under way),
/// `applied`, `failed`, `offline` (unreachable) or `restored` (put back after the event).
pub const DISPATCH_STATES: [&str; 5] = ["pending", "applied", "failed", "offline", "restored"];

/// One interval of an event as `dr_events.intervals` keeps it (a JSON array of these): times
/// in unix seconds, `kind` the stored word ([`EventKind::as_db`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Interval {
    pub id: i64,
    pub start: i64,
    pub end: i64,
    pub kind: String,
    pub target_kw: f64,
}

/// The most devices one enrollment holds.
pub const MAX_DEVICES: usize = 10;

/// A postal address as enrollments keep it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Address {
    pub country: String,
    pub region: String,
    pub locality: String,
    pub extended_address: String,
    pub street_address: String,
    pub postal_code: String,
}

/// An address as typed: any part may be missing.
#[derive(Debug, Clone, Default)]
pub struct AddressInput {
    pub country: Option<String>,
    pub region: Option<String>,
    pub locality: Option<String>,
    pub extended_address: Option<String>,
    pub street_address: Option<String>,
    pub postal_code: Option<String>,
}

/// One device of an enrollment as typed.
#[derive(Debug, Clone, Default)]
pub struct DeviceInput {
    pub sn: Option<String>,
    pub manufacturer: Option<String>,
    pub model: Option<String>,
    pub install_date: Option<String>,
    pub charge_capacity: Option<f64>,
    pub discharge_capacity: Option<f64>,
    pub storage_capacity: Option<f64>,
}

/// One device of an enrollment, checked. Capacities in kW (charge, discharge) and kWh.
#[derive(Debug, Clone, PartialEq)]
pub struct Device {
    pub sn: String,
    pub manufacturer: String,
    pub model: String,
    /// `YYYY-MM-DD`, or empty when not given.
    pub install_date: String,
    pub charge_kw: f64,
    pub discharge_kw: f64,
    pub storage_kwh: f64,
}

/// An enrollment form as typed (the programme and plant are resolved by the caller).
#[derive(Debug, Clone, Default)]
pub struct EnrollmentInput {
    pub source_account_number: Option<String>,
    pub utility_account_number: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub service_address: Option<AddressInput>,
    pub mailing_address: Option<AddressInput>,
    pub participation_level: Option<i64>,
    pub time_zone: Option<String>,
    pub devices: Option<Vec<DeviceInput>>,
}

/// An enrollment form, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct EnrollmentForm {
    pub source_account: String,
    pub utility_account: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub service: Address,
    pub mailing: Address,
    /// 1-100 %.
    pub participation: i64,
    pub time_zone: String,
    pub devices: Vec<Device>,
}

/// The checks that need the world outside the form: today's date and the time-zone list.
pub struct Today<'a> {
    /// `YYYY-MM-DD`.
    pub date: &'a str,
    pub is_time_zone: &'a dyn Fn(&str) -> bool,
}

/// A required text of 1 to `max` characters (trimmed), 4 `field` otherwise.
fn text(raw: Option<&str>, max: usize, field: &str) -> Result<String, DomainError> {
    let t = raw.map(str::trim).unwrap_or_default();
    if t.is_empty() || t.chars().count() > max {
        return Err(DomainError::invalid(field));
    }
    Ok(t.to_string())
}

/// An optional text of at most `max` characters (trimmed; empty when absent).
fn optional_text(raw: Option<&str>, max: usize, field: &str) -> Result<String, DomainError> {
    let t = raw.map(str::trim).unwrap_or_default();
    if t.chars().count() > max {
        return Err(DomainError::invalid(field));
    }
    Ok(t.to_string())
}

/// A number in `min..=max`, 4 `field` when missing, not finite or outside.
fn number(raw: Option<f64>, min: f64, max: f64, field: &str) -> Result<f64, DomainError> {
    match raw {
        Some(v) if v.is_finite() && (min..=max).contains(&v) => Ok(v),
        _ => Err(DomainError::invalid(field)),
    }
}

/// Source account numbers: digits only, 1-16.
pub fn source_account(raw: Option<&str>) -> Result<String, DomainError> {
    let t = raw.map(str::trim).unwrap_or_default();
    if t.is_empty() || t.len() > 16 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(DomainError::invalid("sourceAccountNumber"));
    }
    Ok(t.to_string())
}

/// Utility account numbers: `^[a-z0-9_-]{1,16}$`.
pub fn utility_account(raw: Option<&str>) -> Result<String, DomainError> {
    let t = raw.map(str::trim).unwrap_or_default();
    let ok = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-';
    if t.is_empty() || t.len() > 16 || !t.bytes().all(ok) {
        return Err(DomainError::invalid("utilityAccountNumber"));
    }
    Ok(t.to_string())
}

/// Whether `raw` is a real calendar date written `YYYY-MM-DD`.
pub fn is_date(raw: &str) -> bool {
    let b = raw.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |s: &str| s.parse::<u32>().ok();
    let (Some(y), Some(m), Some(d)) = (num(&raw[0..4]), num(&raw[5..7]), num(&raw[8..10])) else {
        return false;
    };
    if !raw[0..4]
        .bytes()
        .chain(raw[5..7].bytes())
        .chain(raw[8..10].bytes())
        .all(|c| c.is_ascii_digit())
    {
        return false;
    }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    y >= 1900 && (1..=days).contains(&d)
}

impl AddressInput {
    /// A service address needs every part but the extended address; each part ≤ 64.
    fn check(&self, field: &str) -> Result<Address, DomainError> {
        let f = |part: &str| format!("{field}.{part}");
        Ok(Address {
            country: text(self.country.as_deref(), 64, &f("country"))?,
            region: text(self.region.as_deref(), 64, &f("region"))?,
            locality: text(self.locality.as_deref(), 64, &f("locality"))?,
            extended_address: optional_text(
                self.extended_address.as_deref(),
                64,
                &f("extendedAddress"),
            )?,
            street_address: text(self.street_address.as_deref(), 64, &f("streetAddress"))?,
            postal_code: text(self.postal_code.as_deref(), 64, &f("postalCode"))?,
        })
    }

    fn is_blank(&self) -> bool {
        [
            &self.country,
            &self.region,
            &self.locality,
            &self.extended_address,
            &self.street_address,
            &self.postal_code,
        ]
        .iter()
        .all(|p| p.as_deref().is_none_or(|s| s.trim().is_empty()))
    }
}

impl DeviceInput {
    pub fn check(&self, today: &str) -> Result<Device, DomainError> {
        let sn = text(self.sn.as_deref(), 64, "devices.sn")?;
        let install_date = optional_text(self.install_date.as_deref(), 10, "devices.installDate")?;
        if !install_date.is_empty() && (!is_date(&install_date) || install_date.as_str() > today) {
            return Err(DomainError::invalid("devices.installDate"));
        }
        Ok(Device {
            sn,
            manufacturer: optional_text(self.manufacturer.as_deref(), 32, "devices.manufacturer")?,
            model: optional_text(self.model.as_deref(), 32, "devices.model")?,
            install_date,
            charge_kw: number(self.charge_capacity, 0.0, 1000.0, "devices.chargeCapacity")?,
            discharge_kw: number(
                self.discharge_capacity,
                0.0,
                1000.0,
                "devices.dischargeCapacity",
            )?,
            storage_kwh: number(
                self.storage_capacity,
                0.0,
                10000.0,
                "devices.storageCapacity",
            )?,
        })
    }
}

/// Checks a list of devices to add: 1 to [`MAX_DEVICES`] (4 `devices`), each valid, no SN
/// twice (1005).
pub fn devices(raw: Option<&[DeviceInput]>, today: &str) -> Result<Vec<Device>, DomainError> {
    let raw = raw.unwrap_or_default();
    if raw.is_empty() || raw.len() > MAX_DEVICES {
        return Err(DomainError::invalid("devices"));
    }
    let list = raw
        .iter()
        .map(|d| d.check(today))
        .collect::<Result<Vec<_>, _>>()?;
    let mut seen = std::collections::HashSet::new();
    if list.iter().any(|d| !seen.insert(d.sn.as_str())) {
        return Err(Code::InverterSnSame.into());
    }
    Ok(list)
}

impl EnrollmentInput {
    /// Every field's rule, in form order; the mailing address is the service address when
    /// absent or blank.
    pub fn check(&self, today: &Today<'_>) -> Result<EnrollmentForm, DomainError> {
        let source_account = source_account(self.source_account_number.as_deref())?;
        let utility_account = utility_account(self.utility_account_number.as_deref())?;
        let first_name = text(self.first_name.as_deref(), 32, "firstName")?;
        let last_name = text(self.last_name.as_deref(), 32, "lastName")?;
        let email = crate::account::parse_email(self.email.as_deref().unwrap_or_default())?;
        let service = self
            .service_address
            .as_ref()
            .ok_or_else(|| DomainError::invalid("serviceAddress"))?
            .check("serviceAddress")?;
        let mailing = match &self.mailing_address {
            Some(m) if !m.is_blank() => m.check("mailingAddress")?,
            _ => service.clone(),
        };
        let participation = match self.participation_level {
            Some(p) if (1..=100).contains(&p) => p,
            _ => return Err(DomainError::invalid("participationLevel")),
        };
        let time_zone = self.time_zone.as_deref().map(str::trim).unwrap_or_default();
        if !(today.is_time_zone)(time_zone) {
            return Err(DomainError::invalid("timeZone"));
        }
        Ok(EnrollmentForm {
            source_account,
            utility_account,
            first_name,
            last_name,
            email,
            service,
            mailing,
            participation,
            time_zone: time_zone.to_string(),
            devices: devices(self.devices.as_deref(), today.date)?,
        })
    }
}

/// A built-in programme as the utility types it.
#[derive(Debug, Clone, Default)]
pub struct ProgramInput {
    pub name: Option<String>,
    pub long_name: Option<String>,
    pub description: Option<String>,
    pub retailer: Option<String>,
    pub auto_accept: Option<bool>,
    pub active: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramForm {
    pub name: String,
    pub long_name: String,
    pub description: String,
    pub retailer: String,
    pub auto_accept: bool,
    pub active: bool,
}

impl ProgramInput {
    pub fn check(&self) -> Result<ProgramForm, DomainError> {
        Ok(ProgramForm {
            name: text(self.name.as_deref(), 64, "name")?,
            long_name: optional_text(self.long_name.as_deref(), 128, "longName")?,
            description: optional_text(self.description.as_deref(), 500, "description")?,
            retailer: optional_text(self.retailer.as_deref(), 64, "retailer")?,
            auto_accept: self.auto_accept.unwrap_or(false),
            active: self.active.unwrap_or(true),
        })
    }
}

/// A built-in event as the utility types it; `start` already parsed to unix seconds.
#[derive(Debug, Clone, Default)]
pub struct EventInput {
    pub name: Option<String>,
    pub start: Option<i64>,
    pub duration_minutes: Option<i64>,
    pub kind: Option<String>,
    pub target_kw: Option<f64>,
    pub priority: Option<i64>,
}

/// An event, checked: times in unix seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct EventForm {
    pub name: String,
    pub start: i64,
    pub end: i64,
    pub kind: EventKind,
    pub target_kw: f64,
    pub priority: i64,
}

/// How far in the past a new event may start (seconds): a form filled in for "now".
pub const EVENT_START_SLACK_SECS: i64 = 300;

impl EventInput {
    pub fn check(&self, now_secs: i64) -> Result<EventForm, DomainError> {
        let name = text(self.name.as_deref(), 64, "name")?;
        let start = match self.start {
            Some(s) if s >= now_secs - EVENT_START_SLACK_SECS => s,
            _ => return Err(DomainError::invalid("start")),
        };
        let minutes = match self.duration_minutes {
            Some(m) if (5..=1440).contains(&m) => m,
            _ => return Err(DomainError::invalid("durationMinutes")),
        };
        let kind = self
            .kind
            .as_deref()
            .and_then(EventKind::parse)
            .ok_or_else(|| DomainError::invalid("kind"))?;
        let priority = match self.priority {
            None => 0,
            Some(p) if (0..=100).contains(&p) => p,
            Some(_) => return Err(DomainError::invalid("priority")),
        };
        Ok(EventForm {
            name,
            start,
            end: start + minutes * 60,
            kind,
            target_kw: number(self.target_kw, 0.0, 10000.0, "targetKw")?,
            priority,
        })
    }
}

#[cfg(test)]
mod tests;
