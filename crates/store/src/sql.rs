//! The query macros: each query is written once with PostgreSQL's `$1` placeholders and runs on
//! either backend (SQLite reads the same numbered parameters as `?1`).
//!
//! Every SQL text handed to these macros is built from string literals and constant column
//! lists in this crate; values are bound, never formatted in, with one exception: a list's
//! `LIMIT`/`OFFSET`, written by [`page`] from integers. That is the audit `AssertSqlSafe` asks
//! for.

use std::borrow::Cow;

/// Rewrites `$N` placeholders as SQLite's `?N`. Dollar signs only appear as placeholders in our
/// SQL (text values are always bound, never inlined).
pub(crate) fn for_sqlite(sql: &str) -> Cow<'_, str> {
    if sql.contains('$') {
        Cow::Owned(sql.replace('$', "?"))
    } else {
        Cow::Borrowed(sql)
    }
}

/// A "contains" filter on `expr` by the pattern in `param`: `expr LIKE param` when the caller
/// filters, else `param IS NULL` (the pattern is bound as NULL then), so that a list read
/// without the filter has a statement, and a plan, without it.
pub(crate) fn contains(expr: &str, param: &str, filtering: bool) -> String {
    when(&format!("{expr} LIKE {param}"), param, filtering)
}

/// A filter's `condition` on `param` when the caller filters, else `param IS NULL` (bound as
/// NULL then, so the statement keeps every parameter): the statement holds only the conditions
/// in force, which lets SQLite read along an index of them (`($4 IS NULL OR d.family = $4)`
/// cannot use one).
pub(crate) fn when(condition: &str, param: &str, filtering: bool) -> String {
    if filtering {
        condition.to_string()
    } else {
        format!("{param} IS NULL")
    }
}

/// `LIMIT n OFFSET m` with the numbers written into the SQL. SQLite reads a bound LIMIT's
/// value while planning, so a statement whose LIMIT is a parameter is prepared again on every
/// run (its binding changed); as literals the statement is prepared once per page size and
/// position. They are integers the store was given, never text.
pub(crate) fn page(limit: i64, offset: i64) -> String {
    format!("LIMIT {} OFFSET {}", limit.max(0), offset.max(0))
}

/// Appends `count` comma-separated parameters after the first `before`. SQLite gets plain `?`
/// (taken in order): sqlx looks a numbered `?N` up by name, a scan over all of the
/// statement's parameters, which made binding a 128-row statement cost as much as running it.
pub(crate) fn push_params(sql: &mut String, before: usize, count: usize, sqlite: bool) {
    for i in 0..count {
        if i > 0 {
            sql.push(',');
        }
        if sqlite {
            sql.push('?');
        } else {
            sql.push('$');
            sql.push_str(&(before + i + 1).to_string());
        }
    }
}

/// `$first, $first+1, ...` for `n` values: the placeholders of an `IN (...)` list. Only
/// placeholders are formatted into the SQL; the ids themselves are bound.
pub(crate) fn placeholders(first: usize, n: usize) -> String {
    (first..first + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A row of a list's page with the total of the whole list, which the page's statement
/// carries in a `total` column (an uncorrelated subquery, computed once): one statement per
/// page instead of a page and a count.
pub(crate) struct Counted<T> {
    pub row: T,
    pub total: i64,
}

impl<'r, R, T> sqlx::FromRow<'r, R> for Counted<T>
where
    R: sqlx::Row,
    T: sqlx::FromRow<'r, R>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    &'static str: sqlx::ColumnIndex<R>,
{
    fn from_row(row: &'r R) -> Result<Self, sqlx::Error> {
        Ok(Counted {
            row: T::from_row(row)?,
            total: row.try_get("total")?,
        })
    }
}

impl<T> Counted<T> {
    /// The page's rows and the total, or `None` for a page past the end, which has no row to
    /// carry the total (the caller counts apart).
    pub(crate) fn split(page: Vec<Counted<T>>) -> Option<(Vec<T>, i64)> {
        let total = page.first()?.total;
        Some((page.into_iter().map(|c| c.row).collect(), total))
    }
}

/// `rows!(store, fetch_one|fetch_optional|fetch_all, RowType, "SQL", args...)`
macro_rules! rows {
    ($store:expr, $fetch:ident, $T:ty, $sql:expr $(, $arg:expr)* $(,)?) => {{
        let sql: &str = $sql;
        match &$store.db {
            $crate::Db::Sqlite(pool) => {
                let sql = $crate::sql::for_sqlite(sql);
                sqlx::query_as::<_, $T>(sqlx::AssertSqlSafe(sql.into_owned()))$(.bind($arg))*.$fetch(pool).await
            }
            $crate::Db::Postgres(pool) => {
                sqlx::query_as::<_, $T>(sqlx::AssertSqlSafe(sql))$(.bind($arg))*.$fetch(pool).await
            }
        }
    }};
}

/// `matching_rows!(store, fetch_one|fetch_optional|fetch_all, RowType, "SQL", matching, args...)`:
/// [`rows!`] with a `plants::Matching` rule's values bound first (`$1` to `$9`), then `args`.
macro_rules! matching_rows {
    ($store:expr, $fetch:ident, $T:ty, $sql:expr, $m:expr $(, $arg:expr)* $(,)?) => {{
        let m: &$crate::plants::Matching = &$m;
        rows!(
            $store,
            $fetch,
            $T,
            $sql,
            m.user,
            m.company,
            m.all,
            m.name.as_deref(),
            m.status,
            m.plant_type,
            m.only_company,
            m.owner,
            m.shared
            $(, $arg)*
        )
    }};
}

/// `scalar!(store, fetch_one|fetch_optional|fetch_all, Type, "SQL", args...)`
macro_rules! scalar {
    ($store:expr, $fetch:ident, $T:ty, $sql:expr $(, $arg:expr)* $(,)?) => {{
        let sql: &str = $sql;
        match &$store.db {
            $crate::Db::Sqlite(pool) => {
                let sql = $crate::sql::for_sqlite(sql);
                sqlx::query_scalar::<_, $T>(sqlx::AssertSqlSafe(sql.into_owned()))$(.bind($arg))*.$fetch(pool).await
            }
            $crate::Db::Postgres(pool) => {
                sqlx::query_scalar::<_, $T>(sqlx::AssertSqlSafe(sql))$(.bind($arg))*.$fetch(pool).await
            }
        }
    }};
}

/// `counted_page!(store, Row, "page SQL", "total", args...)`: a list's page whose statement
/// carries the list's total, the SQL expression `total`, in a `total` column ([`Counted`]),
/// as `(rows, total)`; a page past the end has no row to carry it and counts apart. Both
/// statements take the same arguments.
macro_rules! counted_page {
    ($store:expr, $T:ty, $sql:expr, $total:expr $(, $arg:expr)* $(,)?) => {{
        let page = rows!($store, fetch_all, $crate::sql::Counted<$T>, $sql $(, $arg)*)?;
        match $crate::sql::Counted::split(page) {
            Some(listed) => listed,
            None => {
                let count = format!("SELECT {}", $total);
                (Vec::new(), rows!($store, fetch_one, (i64,), &count $(, $arg)*)?.0)
            }
        }
    }};
}

/// `exec!(store, "SQL", args...)` runs a statement and yields the number of rows it touched.
macro_rules! exec {
    ($store:expr, $sql:expr $(, $arg:expr)* $(,)?) => {{
        let sql: &str = $sql;
        match &$store.db {
            $crate::Db::Sqlite(pool) => {
                let sql = $crate::sql::for_sqlite(sql);
                sqlx::query(sqlx::AssertSqlSafe(sql.into_owned()))$(.bind($arg))*.execute(pool).await.map(|r| r.rows_affected())
            }
            $crate::Db::Postgres(pool) => {
                sqlx::query(sqlx::AssertSqlSafe(sql))$(.bind($arg))*.execute(pool).await.map(|r| r.rows_affected())
            }
        }
    }};
}

/// `with_ids!(store, RowType, sql, [args...], ids)` fetches all rows of `sql` with `args` bound
/// first, then every id of `ids`: the SQL ends in an `IN (...)` list built for this many ids
/// (`push_params`), so it is a `String` made at run time.
macro_rules! with_ids {
    ($store:expr, $T:ty, $sql:expr, [$($head:expr),*], $ids:expr) => {{
        let sql: String = $sql;
        match &$store.db {
            $crate::Db::Sqlite(pool) => {
                let sql = $crate::sql::for_sqlite(&sql).into_owned();
                let mut q = sqlx::query_as::<_, $T>(sqlx::AssertSqlSafe(sql))$(.bind($head))*;
                for id in $ids {
                    q = q.bind(*id);
                }
                q.fetch_all(pool).await
            }
            $crate::Db::Postgres(pool) => {
                let mut q = sqlx::query_as::<_, $T>(sqlx::AssertSqlSafe(sql))$(.bind($head))*;
                for id in $ids {
                    q = q.bind(*id);
                }
                q.fetch_all(pool).await
            }
        }
    }};
}

/// Runs `$body` inside one transaction on whichever backend is open, committing when it
/// ends without an error; `$sqlite` tells the body which placeholder style to use. The body is
/// expanded once per backend. A use case that writes several rows writes them with this.
///
/// On SQLite every such transaction takes the write lock at its start (`BEGIN IMMEDIATE`,
/// waiting for it like any writer): a deferred one that reads before it writes fails at its
/// first write (SQLITE_BUSY, without waiting) whenever another writer committed after its first
/// read, and such bodies are the rule here (check, then write, then audit). Writers are one at a
/// time on SQLite anyway.
macro_rules! in_tx {
    ($store:expr, |$tx:ident, $sqlite:ident| $body:block) => {{
        match &$store.db {
            $crate::Db::Sqlite(pool) => {
                let mut $tx = pool.begin_with("BEGIN IMMEDIATE").await?;
                let $sqlite = true;
                let out = $body;
                $tx.commit().await?;
                out
            }
            $crate::Db::Postgres(pool) => {
                let mut $tx = pool.begin().await?;
                let $sqlite = false;
                let out = $body;
                $tx.commit().await?;
                out
            }
        }
    }};
}

/// `tx_exec!(tx, sqlite, "SQL", args...)` runs a statement inside [`in_tx!`] and yields the
/// number of rows it touched.
macro_rules! tx_exec {
    ($tx:ident, $sqlite:ident, $sql:expr $(, $arg:expr)* $(,)?) => {{
        let sql: &str = $sql;
        let sql = if $sqlite { $crate::sql::for_sqlite(sql) } else { std::borrow::Cow::Borrowed(sql) };
        sqlx::query(sqlx::AssertSqlSafe(sql.into_owned()))$(.bind($arg))*.execute(&mut *$tx).await.map(|r| r.rows_affected())
    }};
}

/// `tx_scalar!(tx, sqlite, Type, "SQL", args...)` fetches one value inside [`in_tx!`].
macro_rules! tx_scalar {
    ($tx:ident, $sqlite:ident, $T:ty, $sql:expr $(, $arg:expr)* $(,)?) => {{
        let sql: &str = $sql;
        let sql = if $sqlite { $crate::sql::for_sqlite(sql) } else { std::borrow::Cow::Borrowed(sql) };
        sqlx::query_scalar::<_, $T>(sqlx::AssertSqlSafe(sql.into_owned()))$(.bind($arg))*.fetch_one(&mut *$tx).await
    }};
}

/// `tx_rows!(tx, sqlite, fetch_one|fetch_optional|fetch_all, RowType, "SQL", args...)` fetches
/// rows inside [`in_tx!`].
macro_rules! tx_rows {
    ($tx:ident, $sqlite:ident, $fetch:ident, $T:ty, $sql:expr $(, $arg:expr)* $(,)?) => {{
        let sql: &str = $sql;
        let sql = if $sqlite { $crate::sql::for_sqlite(sql) } else { std::borrow::Cow::Borrowed(sql) };
        sqlx::query_as::<_, $T>(sqlx::AssertSqlSafe(sql.into_owned()))$(.bind($arg))*.$fetch(&mut *$tx).await
    }};
}

/// `audit_in_tx!(tx, sqlite, &NewAudit)` adds an audit entry inside [`in_tx!`] and yields its
/// id: a use case's audit row commits or rolls back with the rows it describes.
macro_rules! audit_in_tx {
    ($tx:ident, $sqlite:ident, $a:expr) => {{
        let a: &$crate::audit::NewAudit<'_> = $a;
        tx_scalar!(
            $tx,
            $sqlite,
            domain::ids::AuditId,
            $crate::audit::INSERT_AUDIT,
            a.by.user_id,
            a.by.account,
            a.by.actor_company_id,
            a.by.plant_id,
            a.by.plant_owner_id,
            a.by.plant_company_id,
            a.action,
            a.target,
            a.detail,
            a.result,
            a.command_id,
            a.now
        )
    }};
}

/// `audit_new_in_tx!(tx, sqlite, &NewAudit, id)` adds the entry about a row the transaction
/// has just made, whose id nobody knew before: the entry's `target` names the kind (`product`)
/// and the row is `product:<id>`.
macro_rules! audit_new_in_tx {
    ($tx:ident, $sqlite:ident, $a:expr, $id:expr) => {{
        let a: &$crate::audit::NewAudit<'_> = $a;
        let target = format!("{}:{}", a.target, $id);
        let named = $crate::audit::NewAudit {
            target: &target,
            ..a.clone()
        };
        audit_in_tx!($tx, $sqlite, &named)
    }};
}

/// `exec_audited!(store, audit, "SQL", args...)` runs one statement and, when it touched a
/// row, writes `audit` (an `Option<&NewAudit>`: none for a seed or a store test) in the same
/// transaction; yields the number of rows touched.
macro_rules! exec_audited {
    ($store:expr, $audit:expr, $sql:expr $(, $arg:expr)* $(,)?) => {{
        let audit: Option<&$crate::audit::NewAudit<'_>> = $audit;
        in_tx!($store, |tx, sqlite| {
            let n = tx_exec!(tx, sqlite, $sql $(, $arg)*)?;
            if let Some(a) = audit.filter(|_| n > 0) {
                audit_in_tx!(tx, sqlite, a)?;
            }
            n
        })
    }};
}

/// `revoke_in_tx!(tx, sqlite, user_id, now)` ends every session and refresh token of a user
/// inside [`in_tx!`], and deletes the push subscriptions those sessions made.
macro_rules! revoke_in_tx {
    ($tx:ident, $sqlite:ident, $user:expr, $now:expr) => {{
        tx_exec!(
            $tx,
            $sqlite,
            "UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL",
            $user,
            $now
        )?;
        tx_exec!(
            $tx,
            $sqlite,
            "UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL",
            $user,
            $now
        )?;
        tx_exec!(
            $tx,
            $sqlite,
            "DELETE FROM push_deliveries WHERE user_id = $1",
            $user
        )?;
        tx_exec!(
            $tx,
            $sqlite,
            "DELETE FROM push_subscriptions WHERE user_id = $1",
            $user
        )?;
    }};
}

#[cfg(test)]
mod tests {
    /// The bundled SQLite is built for a server (`.cargo/config.toml`): with the query planner
    /// stability guarantee (else a list whose filters are bound on every run, a LIKE pattern
    /// among them, is prepared again on every request), without the page cache shared by every
    /// connection and without allocation statistics (each a global mutex the pool's connections
    /// fight over).
    #[tokio::test]
    async fn sqlite_is_built_for_many_connections_and_plans_each_statement_once() {
        use sqlx::Connection;
        let mut db = sqlx::SqliteConnection::connect("sqlite::memory:")
            .await
            .expect("an in-memory database");
        let options: Vec<String> = sqlx::query_scalar("PRAGMA compile_options")
            .fetch_all(&mut db)
            .await
            .expect("the compile options");
        let has = |o: &str| options.iter().any(|have| have == o);
        assert!(has("ENABLE_QPSG"), "{options:?}");
        assert!(has("DEFAULT_MEMSTATUS=0"), "{options:?}");
        assert!(!has("ENABLE_MEMORY_MANAGEMENT"), "{options:?}");
    }

    #[test]
    fn placeholders_continue_after_the_fixed_parameters() {
        assert_eq!(super::placeholders(3, 3), "$3, $4, $5");
        assert_eq!(super::placeholders(1, 1), "$1");
    }

    #[test]
    fn numbered_placeholders_become_sqlite_numbered_parameters() {
        assert_eq!(
            super::for_sqlite("a = $1 AND b = $12"),
            "a = ?1 AND b = ?12"
        );
    }
}
