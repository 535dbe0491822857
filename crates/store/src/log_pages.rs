//! The listing the audit log and the debug log share: a page of a log table's rows the reader
//! may see, newest first, with the total before paging. Both tables carry the same actor and
//! plant columns, so the visibility rule, the plant and time window and the paging are written
//! once here; each log brings its columns, joins and three filters of its own.

use domain::ids::{CompanyId, PlantId};
use domain::{ids::UserId, policy::PlantVisibility};
use sqlx::{FromRow, postgres::PgRow, sqlite::SqliteRow};

use crate::{Result, Store};

/// Who wrote a log entry and about which plant: the columns every log table carries and the
/// visibility rule reads.
#[derive(Debug, Clone, Copy)]
pub struct Author<'a> {
    pub user_id: Option<UserId>,
    pub account: &'a str,
    /// The actor's company when they are company staff.
    pub actor_company_id: Option<CompanyId>,
    pub plant_id: Option<PlantId>,
    pub plant_owner_id: Option<UserId>,
    pub plant_company_id: Option<CompanyId>,
}

/// One log table as a listing reads it.
pub(crate) struct LogTable {
    /// The alias `from` gives the log table (its columns are named through it).
    pub alias: &'static str,
    pub columns: &'static str,
    /// `FROM <table> <alias>` with its joins.
    pub from: &'static str,
    /// The log's own conditions on `$4`, `$5` and `$6` (each `NULL` for "any").
    pub filters: &'static str,
}

/// What every log listing is narrowed by besides its own filters; `None` means "any".
pub(crate) struct Window {
    pub plant: Option<PlantId>,
    /// Milliseconds, inclusive.
    pub from: Option<i64>,
    /// Milliseconds, exclusive.
    pub to: Option<i64>,
    pub limit: i64,
    pub offset: i64,
}

/// A "contains, any case" filter value as the conditions compare it (`UPPER(x) LIKE $n`).
pub(crate) fn contains(s: &Option<String>) -> Option<String> {
    s.as_ref().map(|s| format!("%{}%", s.to_uppercase()))
}

impl Store {
    /// `$1` reader, `$2` reader's company (company staff only), `$3` 1 when the reader sees all.
    /// Company staff read the plants their company serves and their colleagues' entries;
    /// anyone else reads their own entries and those about plants they own.
    pub(crate) async fn visible_log_page<T>(
        &self,
        table: &LogTable,
        visibility: PlantVisibility,
        reader: UserId,
        filters: [Option<&str>; 3],
        w: &Window,
    ) -> Result<(Vec<T>, i64)>
    where
        T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin,
    {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let a = table.alias;
        // Company staff read the entries about the plants their company serves, the plants'
        // own rule (`plants::company_serves`), and their colleagues' entries.
        let serves = crate::plants::company_serves(
            "$2",
            &format!("{a}.plant_owner_id"),
            &format!("{a}.plant_company_id"),
        );
        let condition = format!(
            "{from} WHERE ($3 = 1 OR {a}.user_id = $1 OR {a}.plant_owner_id = $1 \
             OR ($2 IS NOT NULL AND ({serves} OR {a}.actor_company_id = $2))) \
             AND {filters} AND ($7 IS NULL OR {a}.plant_id = $7) \
             AND ($8 IS NULL OR {a}.created_at >= $8) AND ($9 IS NULL OR {a}.created_at < $9)",
            from = table.from,
            filters = table.filters,
        );
        let bounds = crate::sql::page(w.limit, w.offset);
        let sql = format!(
            "SELECT {} {condition} ORDER BY {a}.created_at DESC, {a}.id DESC {bounds}",
            table.columns
        );
        let [f4, f5, f6] = filters;
        let page = rows!(
            self, fetch_all, T, &sql, user, company, all, f4, f5, f6, w.plant, w.from, w.to
        )?;
        let count_sql = format!("SELECT COUNT(*) {condition}");
        let total = scalar!(
            self, fetch_one, i64, &count_sql, user, company, all, f4, f5, f6, w.plant, w.from, w.to
        )?;
        Ok((page, total))
    }
}
