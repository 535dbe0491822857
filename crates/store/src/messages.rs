//! Events as a viewer reads them, and messages. The event screens, the plant overview's event
//! list and counts, and the caller's messages all read events through here or through
//! `occurrences`, so the visibility rule (the plant's own rule, see `plants::VISIBLE`) lives in
//! one place. Messages are not stored: they are the warning and fault occurrences of the plants
//! a user can see that began recently (the caller says since when) or are still open; only what
//! the user has read is kept (`message_reads` per occurrence, `message_marks` for "everything
//! up to this event id"). A message is unread while its occurrence is open and the user has not
//! read it: a recovery resolves it, and notices are never messages.

use domain::ids::{DeviceId, EventId, PlantId};
use domain::{DeviceFamily, ids::UserId, policy::PlantVisibility};

use crate::{
    Result, Store,
    occurrences::{FROM, HAS_OPEN, LEADER, OccurrenceRow},
};

/// What an event and an occurrence both tell: the code, its severity and times, the device
/// (an occurrence's first) and the plant. The device may have been deleted since (history
/// outlives devices): its columns are then `None`.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct EventFacts {
    pub plant_id: Option<PlantId>,
    pub code: String,
    /// `info`, `warning` or `fault`.
    pub severity: String,
    pub opened_at: i64,
    /// `None` while open (for an occurrence: while any device is still in it).
    pub closed_at: Option<i64>,
    pub device_sn: Option<String>,
    #[sqlx(try_from = "crate::family::NullableFamily")]
    pub family: Option<DeviceFamily>,
    pub type_code: Option<i64>,
    pub device_alias: Option<String>,
    pub plant_name: Option<String>,
    pub plant_timezone: Option<String>,
}

/// The device and plant columns of [`EventFacts`], read through `d` and `p`.
pub(crate) const PLACE_COLUMNS: &str = "d.sn AS device_sn, d.family, d.type_code, \
    d.alias AS device_alias, p.name AS plant_name, p.timezone AS plant_timezone";

/// An event with its device and plant, as lists and messages show it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct EventListRow {
    pub id: EventId,
    /// The occurrence the event is part of (`occurrences`).
    pub occurrence_id: EventId,
    pub device_id: DeviceId,
    #[sqlx(flatten)]
    pub facts: EventFacts,
}

/// What an event list may be narrowed by; `None` means "any".
#[derive(Debug, Clone, Default)]
pub struct VisibleEventFilter {
    pub plant: Option<PlantId>,
    /// Part of the device SN, any case.
    pub sn: Option<String>,
    /// Exactly this device.
    pub device: Option<DeviceId>,
    pub family: Option<DeviceFamily>,
    pub type_code: Option<i64>,
    /// `info`, `warning` or `fault`.
    pub severity: Option<String>,
    /// `Some(true)` open only, `Some(false)` closed only.
    pub open: Option<bool>,
    /// Opened at or after.
    pub from: Option<i64>,
    /// Opened before.
    pub to: Option<i64>,
    pub limit: i64,
    pub offset: i64,
}

/// A message: an occurrence and whether the user has read it.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageRow {
    pub occurrence: OccurrenceRow,
    /// The user opened it (or marked everything read since).
    pub read: bool,
}

impl MessageRow {
    /// Needs the user's attention: still open and not read.
    pub fn unread(&self) -> bool {
        self.occurrence.facts.closed_at.is_none() && !self.read
    }
}

/// What a page of messages is narrowed by.
#[derive(Debug, Clone, Default)]
pub struct MessageFilter<'a> {
    /// Occurrences that began at or after this (open ones always count).
    pub since: i64,
    /// `Some(true)` unread only, `Some(false)` read or resolved only.
    pub unread: Option<bool>,
    /// `warning` or `fault`.
    pub severity: Option<&'a str>,
    pub limit: i64,
    pub offset: i64,
}

/// The columns of an [`EventListRow`], after `SELECT`.
pub(crate) fn columns() -> String {
    format!(
        "e.id, COALESCE(e.occurrence_id, e.id) AS occurrence_id, e.device_id, e.plant_id, \
         e.code, e.severity, e.opened_at, e.closed_at, {PLACE_COLUMNS}"
    )
}

/// `$4`-`$12` of an event listing.
const FILTER: &str = "($4 IS NULL OR e.plant_id = $4) AND ($5 IS NULL OR UPPER(d.sn) LIKE $5) \
    AND ($6 IS NULL OR e.device_id = $6) AND ($7 IS NULL OR d.family = $7) \
    AND ($8 IS NULL OR d.type_code = $8) AND ($9 IS NULL OR e.severity = $9) \
    AND ($10 IS NULL OR (e.closed_at IS NULL) = $10) AND ($11 IS NULL OR e.opened_at >= $11) \
    AND ($12 IS NULL OR e.opened_at < $12)";

/// Whether user `$1` has read the occurrence whose id is `id`.
fn read_of(id: &str) -> String {
    format!(
        "(EXISTS (SELECT 1 FROM message_reads r WHERE r.user_id = $1 AND r.event_id = {id}) \
         OR {id} <= COALESCE((SELECT m.read_through FROM message_marks m WHERE m.user_id = $1), 0))"
    )
}

/// The severities that are messages (notices are not).
const MESSAGE_SEVERITIES: &str = "e.severity IN ('warning', 'fault')";

impl Store {
    /// A page of the events `visibility` allows, newest first, with the total before paging.
    pub async fn events_visible(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        f: &VisibleEventFilter,
    ) -> Result<(Vec<EventListRow>, i64)> {
        self.visible_event_page(visibility, reader, &columns(), FILTER, f)
            .await
    }

    /// A page of `select` over the events `visibility` allows that meet `condition` (which
    /// reads the filter as `$4`-`$12`, see `FILTER`), newest first, with the total before
    /// paging. Event and occurrence listings both page through here, so the filter is bound
    /// in one place.
    pub(crate) async fn visible_event_page<T>(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        select: &str,
        condition: &str,
        f: &VisibleEventFilter,
    ) -> Result<(Vec<T>, i64)>
    where
        T: Send
            + Unpin
            + for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>
            + for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>,
    {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let sn = f.sn.as_ref().map(|s| format!("%{}%", s.to_uppercase()));
        let condition = format!("{} AND {condition}", crate::plants::VISIBLE);
        let bounds = crate::sql::page(f.limit, f.offset);
        let total = format!("(SELECT CAST(COUNT(*) AS BIGINT) {FROM} WHERE {condition})");
        let sql = format!(
            "SELECT {select}, {total} AS total {FROM} WHERE {condition} \
             ORDER BY e.opened_at DESC, e.id DESC {bounds}"
        );
        Ok(counted_page!(
            self,
            T,
            &sql,
            total,
            user,
            company,
            all,
            f.plant,
            sn.as_deref(),
            f.device,
            f.family.map(DeviceFamily::as_str),
            f.type_code,
            f.severity.as_deref(),
            f.open,
            f.from,
            f.to
        ))
    }

    /// A page of the reader's messages: the warning and fault occurrences that began at or
    /// after `since` or are still open (`unread`: `Some(true)` the unread ones only,
    /// `Some(false)` the others), newest first, with the total before paging.
    pub async fn messages(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        since: i64,
        unread: Option<bool>,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<MessageRow>, i64)> {
        let f = MessageFilter {
            since,
            unread,
            severity: None,
            limit,
            offset,
        };
        self.messages_filtered(visibility, reader, &f).await
    }

    /// [`Store::messages`] narrowed by `f` (also by severity).
    pub async fn messages_filtered(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        f: &MessageFilter<'_>,
    ) -> Result<(Vec<MessageRow>, i64)> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let read = read_of("e.id");
        let condition = format!(
            "{} AND {LEADER} AND {MESSAGE_SEVERITIES} AND (e.opened_at >= $4 OR {HAS_OPEN}) \
             AND ($5 IS NULL OR ({HAS_OPEN} AND NOT {read}) = $5) \
             AND ($6 IS NULL OR e.severity = $6)",
            crate::plants::VISIBLE
        );
        let bounds = crate::sql::page(f.limit, f.offset);
        let sql = format!(
            "SELECT e.id, {read} AS is_read {FROM} WHERE {condition} \
             ORDER BY e.opened_at DESC, e.id DESC {bounds}"
        );
        let page = rows!(
            self,
            fetch_all,
            (EventId, bool),
            &sql,
            user,
            company,
            all,
            f.since,
            f.unread,
            f.severity
        )?;
        let count_sql = format!("SELECT CAST(COUNT(*) AS BIGINT) {FROM} WHERE {condition}");
        let total = scalar!(
            self, fetch_one, i64, &count_sql, user, company, all, f.since, f.unread, f.severity
        )?;
        let ids: Vec<EventId> = page.iter().map(|(id, _)| *id).collect();
        let rows = self
            .occurrences(&ids)
            .await?
            .into_iter()
            .map(|occurrence| {
                let read = page.iter().any(|(id, r)| *id == occurrence.id && *r);
                MessageRow { occurrence, read }
            })
            .collect();
        Ok((rows, total))
    }

    /// How many messages need the reader's attention: open warning and fault occurrences
    /// they have not read.
    pub async fn unread_messages(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
    ) -> Result<i64> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let sql = format!(
            "SELECT CAST(COUNT(DISTINCT COALESCE(e.occurrence_id, e.id)) AS BIGINT) {FROM} \
             WHERE {} AND {MESSAGE_SEVERITIES} AND e.closed_at IS NULL AND NOT {}",
            crate::plants::VISIBLE,
            read_of("COALESCE(e.occurrence_id, e.id)")
        );
        Ok(scalar!(self, fetch_one, i64, &sql, user, company, all)?)
    }

    /// Marks one message (an occurrence, by its id) as read by `user` (the caller checked it
    /// is visible).
    pub async fn mark_message_read(
        &self,
        user: UserId,
        occurrence: EventId,
        now: i64,
    ) -> Result<()> {
        exec!(
            self,
            "INSERT INTO message_reads (user_id, event_id, read_at) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id, event_id) DO NOTHING",
            user,
            occurrence,
            now
        )?;
        Ok(())
    }

    /// Marks everything in `user`'s inbox read, in one transaction: every message that exists
    /// now (the mark moves to the newest event id, and single marks below it are no longer
    /// needed) and every notice.
    pub async fn mark_inbox_read(&self, user: UserId, now: i64) -> Result<()> {
        in_tx!(self, |tx, sqlite| {
            let newest = tx_scalar!(
                tx,
                sqlite,
                i64,
                "SELECT CAST(COALESCE(MAX(id), 0) AS BIGINT) FROM events"
            )?;
            tx_exec!(
                tx,
                sqlite,
                "INSERT INTO message_marks (user_id, read_through, marked_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (user_id) DO UPDATE SET read_through = $2, marked_at = $3",
                user,
                newest,
                now
            )?;
            tx_exec!(
                tx,
                sqlite,
                "DELETE FROM message_reads WHERE user_id = $1 AND event_id <= $2",
                user,
                newest
            )?;
            tx_exec!(
                tx,
                sqlite,
                "UPDATE notices SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL",
                user,
                now
            )?;
        });
        Ok(())
    }
}
