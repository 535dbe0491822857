//! The rules of acting on gateways in batches: at most [`MAX_BATCH`] SNs, each once; what a
//! batch checks for; and when a gateway is ready for the action (online, no upgrade running).

use crate::{Code, DomainError};

/// At most this many gateways in one batch.
pub const MAX_BATCH: usize = 100;

/// The SNs of a batch, trimmed, without blanks or repeats, in order; 4 `sns` when none are
/// left or more than [`MAX_BATCH`].
pub fn batch<'a>(parts: impl IntoIterator<Item = &'a str>) -> Result<Vec<String>, DomainError> {
    let mut out: Vec<String> = Vec::new();
    for part in parts.into_iter().flat_map(|s| s.split(',')).map(str::trim) {
        if !part.is_empty() && !out.iter().any(|o| o == part) {
            out.push(part.to_string());
        }
    }
    if out.is_empty() || out.len() > MAX_BATCH {
        return Err(DomainError::invalid("sns"));
    }
    Ok(out)
}

/// What a batch check is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchAction {
    Restart,
    Upgrade,
}

impl BatchAction {
    /// `restart` (the default) or `upgrade`; 4 `action` otherwise.
    pub fn parse(raw: Option<&str>) -> Result<BatchAction, DomainError> {
        match raw.map(str::trim) {
            None | Some("") | Some("restart") => Ok(BatchAction::Restart),
            Some("upgrade") => Ok(BatchAction::Upgrade),
            Some(_) => Err(DomainError::invalid("action")),
        }
    }

    /// The permission the action needs on the gateway's plant.
    pub fn key(self) -> &'static str {
        match self {
            BatchAction::Restart => "gateway.restart",
            BatchAction::Upgrade => "gateway.upgrade",
        }
    }
}

/// Whether a gateway is ready for a batch action: online (602) and not upgrading (603).
pub fn ready(online: bool, upgrading: bool) -> Result<(), DomainError> {
    if !online {
        Err(Code::DeviceOffline.into())
    } else if upgrading {
        Err(Code::DeviceUpgrading.into())
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_takes_comma_lists_without_blanks_or_repeats() {
        assert_eq!(
            batch(["GW0001, GW0002,,GW0001", "GW0003"]).unwrap(),
            ["GW0001", "GW0002", "GW0003"]
        );
        assert!(batch([" , "]).is_err());
        let many: Vec<String> = (0..=MAX_BATCH).map(|i| format!("GW{i:04}")).collect();
        assert!(batch(many.iter().map(String::as_str)).is_err());
    }

    #[test]
    fn a_gateway_is_ready_when_online_and_not_upgrading() {
        assert!(ready(true, false).is_ok());
        assert_eq!(ready(false, true).unwrap_err().code, Code::DeviceOffline);
        assert_eq!(ready(true, true).unwrap_err().code, Code::DeviceUpgrading);
        assert_eq!(BatchAction::parse(None), Ok(BatchAction::Restart));
        assert_eq!(
            BatchAction::parse(Some("upgrade")).map(BatchAction::key),
            Ok("gateway.upgrade")
        );
        assert!(BatchAction::parse(Some("reboot")).is_err());
    }
}
