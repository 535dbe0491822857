//! Sending a command to a device: the state rule first (`domain::command`), then the device
//! link's dispatcher, whose refusals become the catalogue's codes. Permissions and the audit
//! entry are the caller's: they differ per screen.

use std::time::Duration;

use devices::link::{DispatchError, Dispatcher};
use domain::{Code, DomainError, command::CommandKind, plant::Status};
use serde_json::Value;

use crate::{Result, ServiceError};

/// Where a command goes: a device behind a gateway (the gateway's own SN twice for the
/// gateway's own commands).
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub gateway_sn: &'a str,
    pub device_sn: &'a str,
}

/// Whether a device reporting `status` (its wire number) may take `kind` now. A number this
/// build does not know restricts nothing: the device link refuses what it must.
pub fn admit(kind: CommandKind, status: i64) -> std::result::Result<(), DomainError> {
    match Status::from_wire(status) {
        Some(status) => kind.admitted_in(status),
        None => Ok(()),
    }
}

/// The catalogue's answer to a dispatcher refusal.
pub fn refusal(e: DispatchError) -> ServiceError {
    match e {
        DispatchError::Offline(_) | DispatchError::UnknownGateway(_) => Code::DeviceOffline.into(),
        DispatchError::Upgrading(_) => Code::DeviceUpgrading.into(),
        DispatchError::BadTimeout => DomainError::invalid("timeout").into(),
        DispatchError::Publish(cause) => {
            tracing::warn!(%cause, "command not published");
            Code::CommandFailed.into()
        }
        DispatchError::Store(e) => e.into(),
    }
}

/// Sends `kind` with `params` to `to` and answers the command's id. Without a device link
/// (`None`) nothing can be sent (606).
pub async fn send(
    dispatcher: Option<&Dispatcher>,
    to: Target<'_>,
    kind: CommandKind,
    params: Value,
    timeout: Duration,
) -> Result<i64> {
    let Some(dispatcher) = dispatcher else {
        return Err(Code::ConnectionFailed.into());
    };
    dispatcher
        .send(to.gateway_sn, to.device_sn, kind.as_str(), params, timeout)
        .await
        .map_err(refusal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_statuses_restrict_nothing_and_known_ones_follow_the_rule() {
        assert!(admit(CommandKind::PowerOn, 99).is_ok());
        let refused = admit(CommandKind::PowerOn, Status::Offline as i64).unwrap_err();
        assert_eq!(refused.code, Code::DeviceOffline);
    }

    #[test]
    fn dispatcher_refusals_become_the_catalogues_codes() {
        let code = |e| match refusal(e) {
            ServiceError::Refused(d) => Some(d.code),
            ServiceError::Store(_) => None,
        };
        assert_eq!(
            code(DispatchError::Offline("G".into())),
            Some(Code::DeviceOffline)
        );
        assert_eq!(
            code(DispatchError::Upgrading("G".into())),
            Some(Code::DeviceUpgrading)
        );
        assert_eq!(
            code(DispatchError::Publish("x".into())),
            Some(Code::CommandFailed)
        );
    }
}
