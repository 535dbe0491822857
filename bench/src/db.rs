//! Fresh databases for one run: a new SQLite file, or a new PostgreSQL schema, migrated by the
//! portal's own store; plus a plain sqlx pool on the same database for the baseline and for
//! counting what was committed.

use std::{
    path::PathBuf,
    str::FromStr,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use anyhow::Context;
use sqlx::{
    Connection,
    postgres::{PgConnectOptions, PgPool, PgPoolOptions},
    sqlite::{
        SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
    },
};
use store::Store;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DbKind {
    Sqlite,
    Postgres,
}

impl std::fmt::Display for DbKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DbKind::Sqlite => "SQLite",
            DbKind::Postgres => "PostgreSQL",
        })
    }
}

/// A pool outside the store, on the same database and with the same connection settings.
#[derive(Clone, Debug)]
pub enum Raw {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// A migrated, empty database that is removed again by [`FreshDb::remove`].
pub struct FreshDb {
    pub store: Store,
    pub raw: Raw,
    /// Where it lives, for the report.
    pub place: String,
    cleanup: Cleanup,
}

enum Cleanup {
    Files(PathBuf),
    Schema {
        options: Box<PgConnectOptions>,
        schema: String,
    },
}

fn unique_name(prefix: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!(
        "{prefix}_{}_{}",
        std::process::id(),
        nanos % 1_000_000_000_000
    )
}

impl FreshDb {
    pub async fn create(kind: DbKind, postgres_url: &str, label: &str) -> anyhow::Result<FreshDb> {
        match kind {
            DbKind::Sqlite => {
                let dir = std::env::temp_dir().join("portal-bench");
                std::fs::create_dir_all(&dir).context("creating the temp dir")?;
                let path = dir.join(format!("{}.db", unique_name(label)));
                // The same URL form and settings `portal serve` uses for its data dir.
                let url = format!("sqlite://{}", path.display());
                let store = Store::connect(&url).await.context("opening SQLite")?;
                store.migrate().await.context("migrating SQLite")?;
                let options = SqliteConnectOptions::from_str(&url)?
                    .journal_mode(SqliteJournalMode::Wal)
                    .synchronous(SqliteSynchronous::Normal)
                    .busy_timeout(Duration::from_secs(10))
                    .foreign_keys(true);
                let raw = SqlitePoolOptions::new()
                    .max_connections(2)
                    .connect_with(options)
                    .await?;
                Ok(FreshDb {
                    store,
                    raw: Raw::Sqlite(raw),
                    place: path.display().to_string(),
                    cleanup: Cleanup::Files(path),
                })
            }
            DbKind::Postgres => {
                let options = PgConnectOptions::from_str(postgres_url)
                    .with_context(|| format!("PostgreSQL URL {postgres_url}"))?;
                let schema = unique_name(&format!("bench_{label}"));
                let mut conn = sqlx::PgConnection::connect_with(&options)
                    .await
                    .with_context(|| format!("connecting to {postgres_url}"))?;
                sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
                    .execute(&mut conn)
                    .await?;
                conn.close().await?;
                // The schema's name is the connections' application name too: the bench finds the
                // backends serving them in `pg_stat_activity` (their CPU is the database's).
                let pinned = options
                    .clone()
                    .options([("search_path", schema.as_str())])
                    .application_name(&schema);
                let store = Store::postgres(pinned.clone()).await?;
                store.migrate().await.context("migrating PostgreSQL")?;
                let raw = PgPoolOptions::new()
                    .max_connections(2)
                    .connect_with(pinned)
                    .await?;
                Ok(FreshDb {
                    store,
                    raw: Raw::Postgres(raw),
                    place: format!("schema {schema}"),
                    cleanup: Cleanup::Schema {
                        options: Box::new(options),
                        schema,
                    },
                })
            }
        }
    }

    /// The process ids of the PostgreSQL backends serving this database's connections (none on
    /// SQLite).
    pub async fn backend_pids(&self) -> anyhow::Result<Vec<u32>> {
        let (Raw::Postgres(p), Cleanup::Schema { schema, .. }) = (&self.raw, &self.cleanup) else {
            return Ok(Vec::new());
        };
        let pids: Vec<i32> =
            sqlx::query_scalar("SELECT pid FROM pg_stat_activity WHERE application_name = $1")
                .bind(schema)
                .fetch_all(p)
                .await?;
        Ok(pids
            .into_iter()
            .filter_map(|p| u32::try_from(p).ok())
            .collect())
    }

    /// Rows in `samples`: what is committed and queryable.
    pub async fn count_samples(&self) -> anyhow::Result<i64> {
        self.count("samples").await
    }

    /// Rows of one of the benchmark's own tables (a fixed name, never input).
    pub async fn count(&self, table: &'static str) -> anyhow::Result<i64> {
        let sql = format!("SELECT COUNT(*) FROM {table}");
        let sql = sqlx::AssertSqlSafe(sql);
        Ok(match &self.raw {
            Raw::Sqlite(p) => sqlx::query_scalar(sql).fetch_one(p).await?,
            Raw::Postgres(p) => sqlx::query_scalar(sql).fetch_one(p).await?,
        })
    }

    /// One stored payload, to check that a row holds the values that were sent.
    pub async fn any_payload(&self) -> anyhow::Result<Option<String>> {
        let sql = "SELECT payload FROM samples LIMIT 1";
        Ok(match &self.raw {
            Raw::Sqlite(p) => sqlx::query_scalar(sql).fetch_optional(p).await?,
            Raw::Postgres(p) => sqlx::query_scalar(sql).fetch_optional(p).await?,
        })
    }

    /// Bytes the communication log takes on disk (its table and indexes), when the database
    /// can tell.
    pub async fn comm_log_bytes(&self) -> anyhow::Result<Option<i64>> {
        self.table_bytes("comm_log").await
    }

    /// Bytes a table takes on disk with its indexes (and PostgreSQL's TOAST), when the database
    /// can tell: PostgreSQL's relation sizes (of every partition), SQLite's `dbstat` table. `table` is one of the
    /// benchmark's fixed names, never input.
    pub async fn table_bytes(&self, table: &'static str) -> anyhow::Result<Option<i64>> {
        Ok(match &self.raw {
            Raw::Sqlite(p) => sqlx::query_scalar(
                "SELECT CAST(SUM(pgsize) AS INTEGER) FROM dbstat WHERE name = ?1 \
                 OR name IN (SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1)",
            )
            .bind(table)
            .fetch_one(p)
            .await
            .ok()
            .flatten(),
            // A partitioned table (`samples`) has no storage of its own: its partitions'
            // sizes are summed. A plain table has no partition tree (no rows), so its own size.
            Raw::Postgres(p) => sqlx::query_scalar(
                "SELECT COALESCE(\
                   (SELECT SUM(pg_total_relation_size(relid)) FROM pg_partition_tree($1)), \
                   pg_total_relation_size($1))::BIGINT",
            )
            .bind(table)
            .fetch_optional(p)
            .await?
            .flatten(),
        })
    }

    /// The stored sample texts' bytes.
    pub async fn payload_bytes(&self) -> anyhow::Result<i64> {
        let sql = "SELECT CAST(COALESCE(SUM(LENGTH(payload)), 0) AS BIGINT) FROM samples";
        Ok(match &self.raw {
            Raw::Sqlite(p) => sqlx::query_scalar(sql).fetch_one(p).await?,
            Raw::Postgres(p) => sqlx::query_scalar(sql).fetch_one(p).await?,
        })
    }

    /// Gives the space of deleted rows back, so that sizes on disk count live data only
    /// (SQLite's `dbstat` counts free pages of a table as its own until then).
    pub async fn reclaim(&self) -> anyhow::Result<()> {
        match &self.raw {
            Raw::Sqlite(p) => {
                sqlx::query("VACUUM").execute(p).await?;
            }
            Raw::Postgres(p) => {
                sqlx::query("VACUUM FULL samples").execute(p).await?;
                sqlx::query("VACUUM FULL sample_blocks").execute(p).await?;
            }
        }
        Ok(())
    }

    /// Brings PostgreSQL's planner statistics and visibility map up to date after a bulk
    /// load, as autovacuum does on a live database within a minute of one: without them the
    /// planner takes thousands of new rows for a few dozen and picks plans no live portal
    /// runs. SQLite is left as `portal serve` leaves it (no statistics).
    pub async fn settle(&self) -> anyhow::Result<()> {
        if let Raw::Postgres(p) = &self.raw {
            let tables: Vec<String> = sqlx::query_scalar(
                "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = current_schema()",
            )
            .fetch_all(p)
            .await?;
            let sql = format!("VACUUM ANALYZE {}", tables.join(", "));
            sqlx::query(sqlx::AssertSqlSafe(sql)).execute(p).await?;
        }
        Ok(())
    }

    /// Closes the pools and deletes the database (file or schema).
    pub async fn remove(self) -> anyhow::Result<()> {
        self.store.close().await;
        match &self.raw {
            Raw::Sqlite(p) => p.close().await,
            Raw::Postgres(p) => p.close().await,
        }
        match self.cleanup {
            Cleanup::Files(path) => {
                for suffix in ["", "-wal", "-shm"] {
                    let mut p = path.clone().into_os_string();
                    p.push(suffix);
                    let _ = std::fs::remove_file(p);
                }
            }
            Cleanup::Schema { options, schema } => {
                let mut conn = sqlx::PgConnection::connect_with(&options).await?;
                sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
                    .execute(&mut conn)
                    .await?;
                conn.close().await?;
            }
        }
        Ok(())
    }
}
