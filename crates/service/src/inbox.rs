//! The caller's inbox: the messages (event occurrences on the plants they see) and the notices
//! addressed to them, marked read one by one or all at once.

use domain::ids::{EventId, NoticeId};
use domain::{DomainError, policy::Actor};
use store::Store;

use crate::Result;

/// Marks one message read: `id` is the occurrence's, or any of its events' (4 `id` when the
/// caller cannot see it).
pub async fn read_message(store: &Store, actor: &Actor, id: EventId, now: i64) -> Result<()> {
    let occurrence = store
        .occurrence_visible(actor.plant_visibility(), actor.id, id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    store
        .mark_message_read(actor.id, occurrence.id, now)
        .await?;
    Ok(())
}

/// Marks one of the caller's notices read (4 `id` when they have no such notice).
pub async fn read_notice(store: &Store, actor: &Actor, id: NoticeId, now: i64) -> Result<()> {
    if !store.mark_notice_read(actor.id, id, now).await? {
        return Err(DomainError::invalid("id").into());
    }
    Ok(())
}

/// Marks every message the caller has now, and every notice, read, in one transaction.
pub async fn read_all(store: &Store, actor: &Actor, now: i64) -> Result<()> {
    store.mark_inbox_read(actor.id, now).await?;
    Ok(())
}
