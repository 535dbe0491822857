//! Typed ids so that a user id can never be passed where a company id is expected.
//!
//! Behind the `sqlx` feature (enabled by `store` only) every id is also a database type with
//! the representation of its `i64`: rows decode straight into them and they bind as
//! parameters on SQLite and PostgreSQL alike.

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($($name:ident),*) => {$(
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(transparent))]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl From<i64> for $name {
            fn from(id: i64) -> Self {
                $name(id)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    )*};
}

id_type!(UserId, CompanyId, RoleId, PlantId, GatewayId, DeviceId);

id_type!(AgentId);
// The business side: a company's customers (rows of `customers`, not user ids) and its
// customer types, and the offers waiting on an answer (`customer_offers`, `agent_offers`).
id_type!(CustomerId, CustomerTypeId, CustomerOfferId, AgentOfferId);
// The catalogue: products, their hardware versions, the inverter-type tree (`inverter_types`:
// titles and the secondary labels products and firmware name) and product manuals.
id_type!(ProductId, HardwareId, InverterTypeId, ManualId);
// Remote actions: commands sent to gateways and devices, firmware files, upgrades, and the
// release notes of the portal's own versions (`versions`).
id_type!(CommandId, FirmwareId, UpgradeId, VersionId);
// What devices report: events (an occurrence, the events grouped under its first one, goes by
// that event's id), alarm mails, and the communication log of a gateway's messages.
id_type!(EventId, AlarmId, CommEntryId);
// The alarm engine: a company's rules and the cases they open.
id_type!(AlarmRuleId, AlarmCaseId);
// What users are told and keep: messages, notices, settings profiles, verification codes,
// queued mails, audit and debug-log entries.
id_type!(
    MessageId,
    NoticeId,
    ProfileId,
    CodeId,
    MailId,
    AuditId,
    DebugEntryId
);
// The energy hub: programmes, enrollments of plants in them, demand-response events and the
// utilities' VTN connections.
id_type!(ProgramId, EnrollmentId, HubEventId, VtnId);
// Alarm delivery by webhooks: a user's endpoints and the deliveries queued for them.
id_type!(WebhookId, DeliveryId);
// Alarm delivery by Web Push: a browser's subscription and the messages queued for it.
id_type!(PushSubscriptionId, PushDeliveryId);
