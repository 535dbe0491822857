//! The closed sets of words the API sends (and filters take) in text fields, each a named
//! schema of the document: a field kept as text in Rust names its set with
//! `#[schema(value_type = text_enums::X)]`, so clients get the words as a type while the wire
//! stays a string. Each set is read from where the server defines it.

use utoipa::{
    PartialSchema, ToSchema,
    openapi::{RefOr, schema::Schema},
};

/// Declares a schema named `$name`: a text holding one of `$values` and nothing else.
macro_rules! text_enum {
    ($(#[doc = $doc:literal])+ $name:ident => $values:expr) => {
        $(#[doc = $doc])+
        pub struct $name;

        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                let doc: &[&str] = &[$($doc),+];
                let text = doc.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
                Schema::Object(crate::openapi::one_of_text(&text, $values)).into()
            }
        }

        impl ToSchema for $name {}
    };
}

text_enum! {
    /// An action of the audit log (the audit catalogue, `domain::audit_action`).
    AuditAction => domain::audit_action::ALL.iter().copied()
}

text_enum! {
    /// How an audit entry ended: `succeeded` (the change was made), `sent` (a command went to
    /// the device; its outcome is the command's status), `queued` (an upgrade waits for its
    /// gateway; a later entry says when it was sent), `failed`, or `refused` by the portal.
    AuditResult => [
        service::audit::SUCCEEDED,
        service::audit::SENT,
        service::audit::QUEUED,
        service::audit::FAILED,
        service::audit::REFUSED,
    ]
}

text_enum! {
    /// Where an enrollment stands.
    EnrollmentStatus => domain::energy_hub::EnrollmentStatus::ALL.map(|s| s.as_str())
}

text_enum! {
    /// What a participant (join, resubmit, quit, optOut, optIn) or the utility (accept, reject)
    /// may do to an enrollment.
    EnrollmentAction => domain::energy_hub::Action::ALL.map(|a| a.as_str())
}

text_enum! {
    /// Where an event stands for the caller.
    EventStatus => domain::energy_hub::EventStatus::ALL.map(|s| s.as_str())
}

text_enum! {
    /// What an event asks of each plant: `discharge`, `exportLimit`, or `charge` (only from a
    /// utility's server).
    EventKind => domain::energy_hub::EventKind::ALL.map(|k| k.as_wire())
}

text_enum! {
    /// Where a programme, its enrollments and events come from: `local` (built in) or `vtn`.
    ProgramSource => domain::energy_hub::SOURCES
}

text_enum! {
    /// How an event went for one inverter: `pending` (under way), `applied`, `failed`,
    /// `offline` (unreachable) or `restored` (put back after the event).
    DispatchState => domain::energy_hub::DISPATCH_STATES
}

text_enum! {
    /// How a VTN connection learns of changes: `webhook` (the VTN calls the portal; it still
    /// polls) or `polling` only.
    VtnNotifications => ["webhook", "polling"]
}

text_enum! {
    /// Why a VTN connection polls only: `noPublicUrl`, `notOffered` (the VTN has no webhooks),
    /// `failed` (see the note); empty with webhooks.
    VtnPollingReason => ["", "noPublicUrl", "notOffered", "failed"]
}

text_enum! {
    /// What a firmware file is for.
    FirmwareTarget => [store::firmware::FirmwareTarget::Inverter, store::firmware::FirmwareTarget::Gateway]
        .map(|t| t.as_str())
}

text_enum! {
    /// How a firmware file is flashed: `iap` (in-application programming) or `isp`
    /// (in-system programming).
    UpgradeMode => domain::firmware::UPGRADE_MODES
}

text_enum! {
    /// An alarm kind a webhook endpoint filters on and a delivery names: the e-mailed `offline`
    /// and `fault`, and the alarm engine's rule kinds (`domain::webhook::ALARM_KINDS`).
    AlarmKind => domain::webhook::ALARM_KINDS.iter().copied()
}

text_enum! {
    /// A rule kind of the alarm engine (docs/alarms.md).
    AlarmRuleKind => domain::alarm_rules::Kind::ALL.map(|k| k.as_str())
}

text_enum! {
    /// How grave an alarm is: `warning` or `alarm`.
    AlarmSeverity => ["warning", "alarm"]
}

text_enum! {
    /// What a webhook delivery tells: an alarm `opened`, `updated`, `acknowledged` or
    /// `closed`, or a `test`.
    WebhookEvent => ["opened", "updated", "acknowledged", "closed", "test"]
}

text_enum! {
    /// Where a webhook delivery stands: `pending` (tried again later), `delivered` or `failed`
    /// (out of tries).
    DeliveryState => ["pending", "delivered", "failed"]
}

text_enum! {
    /// Where an alarm case stands: `open`, `acknowledged` (someone is on it) or `closed`
    /// (recovered).
    AlarmCaseState => ["open", "acknowledged", "closed"]
}

text_enum! {
    /// Which plants an alarm rule watches: `all` the company serves, a `customer`'s, one `plant`.
    AlarmScope => ["all", "customer", "plant"]
}

text_enum! {
    /// What happened to an alarm case.
    AlarmCaseAction => ["opened", "escalated", "acknowledged", "closed"]
}
