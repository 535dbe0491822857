//! Commands to devices: what may be sent (the kinds, with their wire names in the `commands`
//! table and on the gateway's topic), where a sent command stands, and which device states
//! refuse which kinds.

use crate::{Code, DomainError, plant::Status};

/// What a command asks a device (or a gateway, for its own commands) to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandKind {
    Upgrade,
    /// Stops an upgrade under way.
    UpgradeCancel,
    PowerOn,
    PowerOff,
    Restart,
    /// A raw Modbus RTU frame, for debugging.
    ModbusRaw,
    SetParams,
    ReadParams,
}

impl CommandKind {
    pub const ALL: [CommandKind; 8] = [
        CommandKind::Upgrade,
        CommandKind::UpgradeCancel,
        CommandKind::PowerOn,
        CommandKind::PowerOff,
        CommandKind::Restart,
        CommandKind::ModbusRaw,
        CommandKind::SetParams,
        CommandKind::ReadParams,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            CommandKind::Upgrade => "upgrade",
            CommandKind::UpgradeCancel => "upgrade_cancel",
            CommandKind::PowerOn => "power_on",
            CommandKind::PowerOff => "power_off",
            CommandKind::Restart => "restart",
            CommandKind::ModbusRaw => "modbus_raw",
            CommandKind::SetParams => "set_params",
            CommandKind::ReadParams => "read_params",
        }
    }

    pub fn parse(raw: &str) -> Option<CommandKind> {
        CommandKind::ALL.into_iter().find(|k| k.as_str() == raw)
    }

    /// Kinds that would disturb a running upgrade: reading settings and cancelling may go on.
    fn disturbs_upgrade(self) -> bool {
        !matches!(self, CommandKind::ReadParams | CommandKind::UpgradeCancel)
    }

    /// Whether a device in `status` may take this command. Offline devices take nothing; an
    /// upgrading one nothing that would disturb the upgrade; a device in Fault may not be
    /// upgraded or switched on (the "current state forbids" refusal): switching it off or
    /// reading and debugging it stays possible, as that is how a fault is investigated.
    pub fn admitted_in(self, status: Status) -> Result<(), DomainError> {
        match status {
            Status::Offline => Err(Code::DeviceOffline.into()),
            Status::Upgrading if self.disturbs_upgrade() => Err(Code::DeviceUpgrading.into()),
            Status::Fault if matches!(self, CommandKind::Upgrade | CommandKind::PowerOn) => {
                Err(Code::StateForbids.into())
            }
            _ => Ok(()),
        }
    }
}

/// Where a command stands. `Sent` and `Acknowledged` are open; the others are final.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandStatus {
    /// Published to the gateway's command topic.
    Sent,
    /// The gateway said it has the command and is working on it (an interim reply).
    Acknowledged,
    Succeeded,
    Failed,
    /// No final reply before the deadline.
    TimedOut,
}

impl CommandStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            CommandStatus::Sent => "sent",
            CommandStatus::Acknowledged => "acknowledged",
            CommandStatus::Succeeded => "succeeded",
            CommandStatus::Failed => "failed",
            CommandStatus::TimedOut => "timed_out",
        }
    }

    pub fn parse(s: &str) -> Option<CommandStatus> {
        Some(match s {
            "sent" => CommandStatus::Sent,
            "acknowledged" => CommandStatus::Acknowledged,
            "succeeded" => CommandStatus::Succeeded,
            "failed" => CommandStatus::Failed,
            "timed_out" => CommandStatus::TimedOut,
            _ => return None,
        })
    }

    pub fn is_final(self) -> bool {
        !matches!(self, CommandStatus::Sent | CommandStatus::Acknowledged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_keep_their_wire_names() {
        for kind in CommandKind::ALL {
            assert_eq!(CommandKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(CommandKind::PowerOn.as_str(), "power_on");
        assert_eq!(CommandKind::parse("reboot"), None);
    }

    #[test]
    fn offline_devices_take_nothing_and_upgrading_ones_nothing_disruptive() {
        use CommandKind::*;
        for kind in [SetParams, ReadParams, PowerOff, ModbusRaw] {
            let refused = kind.admitted_in(Status::Offline).unwrap_err();
            assert_eq!(refused.code, Code::DeviceOffline);
        }
        let refused = PowerOn.admitted_in(Status::Upgrading).unwrap_err();
        assert_eq!(refused.code, Code::DeviceUpgrading);
        assert!(ReadParams.admitted_in(Status::Upgrading).is_ok());
        assert!(UpgradeCancel.admitted_in(Status::Upgrading).is_ok());
        let refused = PowerOn.admitted_in(Status::Fault).unwrap_err();
        assert_eq!(refused.code, Code::StateForbids);
        assert!(PowerOff.admitted_in(Status::Fault).is_ok());
        assert!(PowerOn.admitted_in(Status::Warning).is_ok());
        assert!(SetParams.admitted_in(Status::Normal).is_ok());
    }

    #[test]
    fn statuses_keep_their_wire_names_and_only_open_ones_are_not_final() {
        for s in ["sent", "acknowledged", "succeeded", "failed", "timed_out"] {
            let status = CommandStatus::parse(s).expect("known");
            assert_eq!(status.as_str(), s);
            assert_eq!(status.is_final(), !matches!(s, "sent" | "acknowledged"));
        }
        assert_eq!(CommandStatus::parse("queued"), None);
    }
}
