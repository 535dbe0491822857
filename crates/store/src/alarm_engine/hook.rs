//! The delivery hook: every case change (opened, escalated, acknowledged, closed) calls
//! [`on_case_change`] inside the transaction that makes the change, with the case as it is
//! after it. Deliveries (webhooks, e-mail) attach here: whatever they write (an outbox row)
//! commits or rolls back with the change itself, so a change is never delivered without being
//! made, nor made without its delivery queued. Today it writes nothing.

use super::cases::CaseRow;

/// What happened to the case (the webhook payload's `event`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeEvent {
    Opened,
    /// Its severity rose (warning to alarm).
    Updated,
    Acknowledged,
    Closed,
}

impl ChangeEvent {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeEvent::Opened => "opened",
            ChangeEvent::Updated => "updated",
            ChangeEvent::Acknowledged => "acknowledged",
            ChangeEvent::Closed => "closed",
        }
    }
}

/// The open transaction of the change, on whichever backend runs.
pub enum CaseTx<'a> {
    Sqlite(&'a mut sqlx::SqliteConnection),
    Postgres(&'a mut sqlx::PgConnection),
}

impl<'a, 't> From<&'a mut sqlx::Transaction<'t, sqlx::Sqlite>> for CaseTx<'a> {
    fn from(tx: &'a mut sqlx::Transaction<'t, sqlx::Sqlite>) -> Self {
        CaseTx::Sqlite(tx)
    }
}

impl<'a, 't> From<&'a mut sqlx::Transaction<'t, sqlx::Postgres>> for CaseTx<'a> {
    fn from(tx: &'a mut sqlx::Transaction<'t, sqlx::Postgres>) -> Self {
        CaseTx::Postgres(tx)
    }
}

/// Called once per case change, in the change's transaction; an error rolls the change back
/// (the engine tries again next tick). Does nothing yet: deliveries attach here.
pub async fn on_case_change(
    tx: CaseTx<'_>,
    event: ChangeEvent,
    case: &CaseRow,
) -> Result<(), sqlx::Error> {
    let _ = (tx, event, case);
    Ok(())
}
