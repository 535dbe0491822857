//! Event occurrences as the screens list them: the events that share an `occurrence_id` (one
//! code on one plant at one time, see `events`) are one row, with how many devices it affects
//! and how many of them are still in it. Filters that name a device (SN, device, type) pick the
//! occurrences that include such a device; the row still tells the whole occurrence. The
//! visibility rule is the plants' own (`plants::VISIBLE`), as for single events.
//!
//! A listing pages through the occurrences' *leaders* (each occurrence's first event, whose id
//! is the occurrence id) with the indexes single events use, and only then aggregates the
//! events of the page's occurrences: grouping every visible event before paging cost eight
//! times a plain event page on 300,000 events.

use domain::ids::{EventId, PlantId};
use domain::{ids::UserId, policy::PlantVisibility};

use crate::{
    Db, Result, Store,
    messages::{EventFacts, EventListRow, PLACE_COLUMNS, VisibleEventFilter},
};

/// One occurrence: its first event's device stands for it; `closed_at` is set only once every
/// device recovered (the last recovery), `opened_at` is when the first device reported it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct OccurrenceRow {
    /// The occurrence id: the id of its first event.
    pub id: EventId,
    /// Devices it affects.
    pub devices: i64,
    /// Devices still in it.
    pub open_devices: i64,
    #[sqlx(flatten)]
    pub facts: EventFacts,
}

/// Open occurrences per severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EventCounts {
    pub info: i64,
    pub warning: i64,
    pub fault: i64,
}

/// `$1`-`$3` as in `plants::VISIBLE`.
pub(crate) const FROM: &str = "FROM events e LEFT JOIN devices d ON d.id = e.device_id \
    LEFT JOIN plants p ON p.id = e.plant_id \
    LEFT JOIN plant_shares s ON s.plant_id = p.id AND s.user_id = $1";

/// `e` is an occurrence's first event (every event has its occurrence id once its opening
/// committed).
pub(crate) const LEADER: &str = "e.occurrence_id = e.id";

/// Whether occurrence `e.id` has an event still open. Uncorrelated subqueries (here and in
/// the device filters) are evaluated once per statement, not once per occurrence.
pub(crate) const HAS_OPEN: &str =
    "e.id IN (SELECT o.occurrence_id FROM events o WHERE o.closed_at IS NULL)";

/// `$4`-`$12` of a listing, as in `messages::FILTER`: plant, family and severity are the same
/// for every event of an occurrence (the leader's); the device filters pick occurrences with
/// such a device; the state reads the whole occurrence, the days its first opening.
const FILTER: &str = "($4 IS NULL OR e.plant_id = $4) AND ($7 IS NULL OR d.family = $7) \
    AND ($9 IS NULL OR e.severity = $9) \
    AND ($5 IS NULL OR e.id IN (SELECT m.occurrence_id FROM events m WHERE m.device_id IN \
        (SELECT md.id FROM devices md WHERE UPPER(md.sn) LIKE $5))) \
    AND ($6 IS NULL OR e.id IN (SELECT m.occurrence_id FROM events m WHERE m.device_id = $6)) \
    AND ($8 IS NULL OR e.id IN (SELECT m.occurrence_id FROM events m WHERE m.device_id IN \
        (SELECT md.id FROM devices md WHERE md.type_code = $8))) \
    AND ($10 IS NULL OR (e.id IN (SELECT o.occurrence_id FROM events o \
        WHERE o.closed_at IS NULL)) = $10) \
    AND ($11 IS NULL OR e.opened_at >= $11) AND ($12 IS NULL OR e.opened_at < $12)";

/// The occurrences' aggregates, their first event's device and their plant, for `g.id IN (…)`:
/// `SELECT`, the columns and [`PLACE_COLUMNS`], then this.
const AGGREGATE_COLUMNS: &str =
    "g.id, g.plant_id, g.code, g.severity, g.opened_at, g.closed_at, g.devices, g.open_devices";
const AGGREGATE: &str = "FROM (SELECT e.occurrence_id AS id, MIN(e.plant_id) AS plant_id, MIN(e.code) AS code, \
        MIN(e.severity) AS severity, MIN(e.opened_at) AS opened_at, \
        CASE WHEN SUM(CASE WHEN e.closed_at IS NULL THEN 1 ELSE 0 END) > 0 THEN NULL \
            ELSE MAX(e.closed_at) END AS closed_at, \
        CAST(COUNT(*) AS BIGINT) AS devices, \
        CAST(SUM(CASE WHEN e.closed_at IS NULL THEN 1 ELSE 0 END) AS BIGINT) AS open_devices \
        FROM events e WHERE e.occurrence_id IN (";
const AGGREGATE_END: &str = ") GROUP BY e.occurrence_id) g \
    LEFT JOIN events f ON f.id = g.id \
    LEFT JOIN devices d ON d.id = f.device_id LEFT JOIN plants p ON p.id = g.plant_id";

impl Store {
    /// A page of the occurrences `visibility` allows, newest first, with the total before
    /// paging.
    pub async fn occurrences_visible(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        f: &VisibleEventFilter,
    ) -> Result<(Vec<OccurrenceRow>, i64)> {
        let condition = format!("{LEADER} AND {FILTER}");
        let (ids, total): (Vec<(EventId,)>, i64) = self
            .visible_event_page(visibility, reader, "e.id", &condition, f)
            .await?;
        let ids: Vec<EventId> = ids.into_iter().map(|(id,)| id).collect();
        Ok((self.occurrences(&ids).await?, total))
    }

    /// The occurrences with these ids, in this order (the caller read the ids through a
    /// visible listing).
    pub(crate) async fn occurrences(&self, ids: &[EventId]) -> Result<Vec<OccurrenceRow>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let sqlite = matches!(self.db, Db::Sqlite(_));
        let mut sql = format!("SELECT {AGGREGATE_COLUMNS}, {PLACE_COLUMNS} {AGGREGATE}");
        crate::sql::push_params(&mut sql, 0, ids.len(), sqlite);
        sql.push_str(AGGREGATE_END);
        let mut rows: Vec<OccurrenceRow> = with_ids!(self, OccurrenceRow, sql, [], ids)?;
        rows.sort_by_key(|o| ids.iter().position(|id| *id == o.id));
        Ok(rows)
    }

    /// The occurrence event `id` belongs to (`id` may be the occurrence's own id or any of its
    /// events'), if `visibility` allows it; another tenant's reads as missing.
    pub async fn occurrence_visible(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        id: EventId,
    ) -> Result<Option<OccurrenceRow>> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let sql = format!(
            "SELECT e.occurrence_id {FROM} WHERE {} AND e.id = $4",
            crate::plants::VISIBLE
        );
        let found = scalar!(
            self,
            fetch_optional,
            Option<EventId>,
            &sql,
            user,
            company,
            all,
            id
        )?
        .flatten();
        Ok(match found {
            Some(occurrence) => self.occurrences(&[occurrence]).await?.pop(),
            None => None,
        })
    }

    /// The events of the given occurrences (the caller read the occurrences through a visible
    /// listing), ordered by occurrence, then device SN.
    pub async fn occurrence_events(&self, occurrences: &[EventId]) -> Result<Vec<EventListRow>> {
        if occurrences.is_empty() {
            return Ok(Vec::new());
        }
        let sqlite = matches!(self.db, Db::Sqlite(_));
        let mut sql = format!(
            "SELECT {} FROM events e LEFT JOIN devices d ON d.id = e.device_id \
             LEFT JOIN plants p ON p.id = e.plant_id WHERE e.occurrence_id IN (",
            crate::messages::columns()
        );
        crate::sql::push_params(&mut sql, 0, occurrences.len(), sqlite);
        sql.push_str(") ORDER BY e.occurrence_id, d.sn, e.id");
        Ok(with_ids!(self, EventListRow, sql, [], occurrences)?)
    }

    /// Open occurrences per severity, of one plant or all the reader sees. An occurrence is
    /// open while one of its events is, and all its events share the severity, so this counts
    /// distinct occurrences among the open events only.
    pub async fn event_counts_visible(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        plant: Option<PlantId>,
    ) -> Result<EventCounts> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let sql = format!(
            "SELECT e.severity, CAST(COUNT(DISTINCT e.occurrence_id) AS BIGINT) \
             {FROM} WHERE {} AND ($4 IS NULL OR e.plant_id = $4) AND e.closed_at IS NULL \
             GROUP BY e.severity",
            crate::plants::VISIBLE
        );
        let per = rows!(
            self,
            fetch_all,
            (String, i64),
            &sql,
            user,
            company,
            all,
            plant
        )?;
        let mut c = EventCounts::default();
        for (severity, n) in per {
            match severity.as_str() {
                "fault" => c.fault += n,
                "info" => c.info += n,
                _ => c.warning += n,
            }
        }
        Ok(c)
    }
}
