//! What the upgrade routes answer.

use serde::Serialize;
use utoipa::ToSchema;

/// Where an upgrade stands: the spec's remote upgrade states, and `queued` (added by the
/// portal: waiting for the upgrade running on its gateway; not ended, like `sending`).
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum UpgradeState {
    Queued,
    Sending,
    Upgrading,
    Successful,
    Failed,
    Cancelled,
}

impl From<store::upgrades::UpgradeState> for UpgradeState {
    fn from(s: store::upgrades::UpgradeState) -> Self {
        use store::upgrades::UpgradeState as S;
        match s {
            S::Queued => UpgradeState::Queued,
            S::Sending => UpgradeState::Sending,
            S::Upgrading => UpgradeState::Upgrading,
            S::Successful => UpgradeState::Successful,
            S::Failed => UpgradeState::Failed,
            S::Cancelled => UpgradeState::Cancelled,
        }
    }
}

/// Why the portal itself ended an upgrade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum UpgradeReason {
    /// Its gateway went offline.
    GatewayOffline,
    /// The device stopped reporting progress.
    NoProgress,
    /// It did not finish in time.
    TimedOut,
    /// Queued, the inverter was deleted or left its gateway before its turn.
    DeviceGone,
    /// Queued, its gateway was deleted before its turn.
    GatewayDeleted,
    /// Queued, the device or its gateway was offline when its turn came.
    Offline,
    /// Queued, the upgrade was no longer admitted when its turn came (firmware disabled, the
    /// device's state).
    NotAdmitted,
}

/// One device's upgrade as screens read it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Upgrade {
    pub id: i64,
    /// The batch it was started in (a single start is a batch of one).
    pub batch_id: String,
    pub sn: String,
    /// `inverter` or `gateway`.
    pub target: String,
    pub firm_id: Option<i64>,
    /// The firmware version it goes to.
    pub version: String,
    /// The version the device ran before.
    pub from_version: String,
    /// Null while queued.
    pub command_id: Option<i64>,
    pub state: UpgradeState,
    /// While `queued`, its place among the upgrades waiting on its gateway (1: next); null
    /// otherwise.
    pub queue_position: Option<i64>,
    /// Percent, 0-100.
    pub progress: i64,
    /// The device's own word on it (why it failed, ...).
    pub message: String,
    /// Why the portal itself ended it; null when the device said why (in `message`) or when it
    /// has not ended.
    pub reason: Option<UpgradeReason>,
    /// Whether it may be cancelled now (a queued inverter upgrade always may).
    pub cancellable: bool,
    /// When it was asked for; once a queued upgrade is sent, when it was sent.
    pub start_time: String,
    /// Null while it runs.
    pub finish_time: Option<String>,
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub update_at: String,
}

/// Totals over a batch's upgrades: how many in each state and the mean progress.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeTotals {
    pub total: usize,
    /// Waiting for their gateway.
    pub queued: usize,
    pub sending: usize,
    pub upgrading: usize,
    pub successful: usize,
    pub failed: usize,
    pub cancelled: usize,
    /// Not ended yet (queued ones included); 0 means the batch is over.
    pub running: usize,
    /// Mean progress, percent.
    pub progress: i64,
}

/// One device's answer when a batch starts: its upgrade, or why it was refused.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeOutcome {
    pub sn: String,
    pub success: bool,
    /// 0, or the refusal's code.
    pub code: i64,
    /// Empty, or the refusal's message.
    pub msg: String,
    /// Null when refused.
    pub upgrade: Option<Upgrade>,
}

/// What a batch start answers: totals (upgrades sent, devices refused) and each device's
/// outcome.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeBatch {
    /// Follow it with `GET /api/v1/upgrade/batch/{batchId}`.
    pub batch_id: String,
    pub total: usize,
    pub sent: usize,
    pub refused: usize,
    pub results: Vec<UpgradeOutcome>,
}

/// A batch's upgrades the caller may see, with totals.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeBatchProgress {
    pub batch_id: String,
    pub totals: UpgradeTotals,
    pub infos: Vec<Upgrade>,
}

/// A cancel request sent.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeCancel {
    /// The upgrade as it stood when the request went out.
    pub upgrade: Upgrade,
    /// Always true.
    pub cancel_requested: bool,
}
