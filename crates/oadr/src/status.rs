//! The portal's event status, derived (OpenADR 3 has no event status field).

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EventStatus {
    Pending,
    Active,
    Completed,
    Cancelled,
}

impl EventStatus {
    /// `cancelled`: cancelled_at is set (deleted on the VTN, rewritten to `PT0S`, cancelled by an
    /// administrator) or the caller opted out; otherwise by time: [start, end) is active.
    pub fn derive(start: i64, end: i64, cancelled: bool, now: i64) -> Self {
        if cancelled {
            Self::Cancelled
        } else if now < start {
            Self::Pending
        } else if now < end {
            Self::Active
        } else {
            Self::Completed
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Active => "active",
            Self::Completed => "completed",
            Self::Cancelled => "cancelled",
        }
    }
}
