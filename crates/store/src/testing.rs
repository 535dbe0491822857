//! Fresh, isolated databases for tests: a new SQLite file per call, and a new PostgreSQL
//! database per call when `PORTAL_TEST_DATABASE_URL` is set, each a copy of one migrated per
//! test process.

use std::{
    path::{Path, PathBuf},
    str::FromStr,
    sync::atomic::{AtomicU64, Ordering},
    time::{SystemTime, UNIX_EPOCH},
};

use sqlx::{Connection, postgres::PgConnectOptions};

use crate::{Store, StoreError};

pub const POSTGRES_URL_VAR: &str = "PORTAL_TEST_DATABASE_URL";

static COUNTER: AtomicU64 = AtomicU64::new(0);

fn unique_name() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!(
        "t{}_{}_{}",
        std::process::id(),
        nanos % 1_000_000_000,
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

fn io(e: std::io::Error) -> StoreError {
    StoreError::Db(sqlx::Error::Io(e))
}

/// This process's migrated SQLite database, made once: each test copies the file instead of
/// running every migration again (a tenth of the time, and a test process makes dozens).
static SQLITE_TEMPLATE: tokio::sync::OnceCell<PathBuf> = tokio::sync::OnceCell::const_new();

async fn sqlite_template(dir: &Path) -> Result<&'static PathBuf, StoreError> {
    SQLITE_TEMPLATE
        .get_or_try_init(|| async {
            let path = dir.join(format!("{}-template.db", unique_name()));
            let store = Store::connect(&format!("sqlite://{}", path.display())).await?;
            store.migrate().await?;
            // The last connection to close checkpoints the write-ahead log into the file and
            // removes it, so the one file holds the whole database.
            store.close().await;
            Ok(path)
        })
        .await
}

/// A migrated SQLite database in a new file under the system temp dir.
pub async fn sqlite() -> Result<Store, StoreError> {
    let dir = std::env::temp_dir().join("portal-tests");
    std::fs::create_dir_all(&dir).map_err(io)?;
    let template = sqlite_template(&dir).await?;
    let path = dir.join(format!("{}.db", unique_name()));
    std::fs::copy(template, &path).map_err(io)?;
    let store = Store::connect(&format!("sqlite://{}", path.display())).await?;
    // Nothing to run: proves the copy is at the newest migration.
    store.migrate().await?;
    Ok(store)
}

/// This process's migrated PostgreSQL database, made once: each test's database is a copy
/// (`CREATE DATABASE .. TEMPLATE`), a third of the time of running every migration's DDL again.
static POSTGRES_TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();

/// Runs one statement on the server's own database (`CREATE DATABASE` and `DROP DATABASE`
/// cannot run in a transaction, nor from inside the database they copy or drop).
async fn on_server(options: &PgConnectOptions, statement: String) -> Result<(), StoreError> {
    let mut conn = sqlx::PgConnection::connect_with(options).await?;
    let done = sqlx::query(sqlx::AssertSqlSafe(statement))
        .execute(&mut conn)
        .await;
    conn.close().await?;
    done?;
    Ok(())
}

/// Test databases (about 10 MB each) of processes that have ended, once there are more than
/// [`ORPHANS_KEPT`]: each name starts with its process id. The suite drops them all before it
/// starts (Makefile, `clean-test-schemas`), so this only keeps a developer's repeated
/// `cargo test` from filling the disk; dropping a database forces a checkpoint, too slow to do
/// for every one as the suite runs.
const ORPHANS_KEPT: usize = 300;

async fn drop_orphans(options: &PgConnectOptions) -> Result<(), StoreError> {
    let mut conn = sqlx::PgConnection::connect_with(options).await?;
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT datname FROM pg_database WHERE datname ~ '^t[0-9]+_[0-9]+_[0-9]+$'",
    )
    .fetch_all(&mut conn)
    .await?;
    conn.close().await?;
    let orphans: Vec<String> = names
        .into_iter()
        .filter(|name| {
            let pid = name[1..].split('_').next().unwrap_or_default();
            !Path::new("/proc").join(pid).exists()
        })
        .collect();
    if orphans.len() <= ORPHANS_KEPT {
        return Ok(());
    }
    for name in orphans {
        // Another process may be dropping it at the same moment: whoever wins, it is gone.
        let _ = on_server(
            options,
            format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"),
        )
        .await;
    }
    Ok(())
}

async fn postgres_template(options: &PgConnectOptions) -> Result<&'static String, StoreError> {
    POSTGRES_TEMPLATE
        .get_or_try_init(|| async {
            drop_orphans(options).await?;
            let name = unique_name();
            on_server(options, format!("CREATE DATABASE \"{name}\"")).await?;
            let store = Store::postgres(test_options(options, &name)).await?;
            store.migrate().await?;
            // A database with a session open cannot be copied.
            store.close().await;
            Ok(name)
        })
        .await
}

/// `database` on the test server, its commits not waiting for the disk: a test database need
/// not outlive a crash.
fn test_options(server: &PgConnectOptions, database: &str) -> PgConnectOptions {
    server
        .clone()
        .database(database)
        .options([("synchronous_commit", "off")])
}

/// A migrated PostgreSQL database of its own, or `None` when no test server is configured.
pub async fn postgres() -> Result<Option<Store>, StoreError> {
    let Ok(url) = std::env::var(POSTGRES_URL_VAR) else {
        return Ok(None);
    };
    if url.is_empty() {
        return Ok(None);
    }
    let options = PgConnectOptions::from_str(&url)?;
    let template = postgres_template(&options).await?;
    let name = unique_name();
    on_server(
        &options,
        format!("CREATE DATABASE \"{name}\" TEMPLATE \"{template}\""),
    )
    .await?;
    let store = Store::postgres(test_options(&options, &name)).await?;
    // Nothing to run: proves the copy is at the newest migration.
    store.migrate().await?;
    Ok(Some(store))
}

/// A new, empty PostgreSQL schema for processes a test starts (replicas of `portal serve`):
/// its name, and the database URL that opens it (the schema as `search_path` in the URL's
/// `options`). `None` when no test server is configured. Not migrated: the processes do that.
pub async fn postgres_schema_url() -> Result<Option<(String, String)>, StoreError> {
    let Ok(url) = std::env::var(POSTGRES_URL_VAR) else {
        return Ok(None);
    };
    if url.is_empty() {
        return Ok(None);
    }
    let schema = unique_name();
    let mut conn = sqlx::PgConnection::connect_with(&PgConnectOptions::from_str(&url)?).await?;
    let create = format!("CREATE SCHEMA {schema}");
    sqlx::query(sqlx::AssertSqlSafe(create))
        .execute(&mut conn)
        .await?;
    conn.close().await?;
    let joiner = if url.contains('?') { '&' } else { '?' };
    Ok(Some((
        schema.clone(),
        format!("{url}{joiner}options=-c%20search_path%3D{schema}"),
    )))
}

/// Drops a schema made by [`postgres_schema_url`] (or any test schema) with everything in it.
pub async fn drop_postgres_schema(schema: &str) -> Result<(), StoreError> {
    let Ok(url) = std::env::var(POSTGRES_URL_VAR) else {
        return Ok(());
    };
    let mut conn = sqlx::PgConnection::connect_with(&PgConnectOptions::from_str(&url)?).await?;
    let drop = format!(
        "DROP SCHEMA IF EXISTS \"{}\" CASCADE",
        schema.replace('"', "")
    );
    sqlx::query(sqlx::AssertSqlSafe(drop))
        .execute(&mut conn)
        .await?;
    conn.close().await?;
    Ok(())
}

/// Every backend available to this test run, each fresh.
pub async fn all() -> Result<Vec<Store>, StoreError> {
    let mut stores = vec![sqlite().await?];
    stores.extend(postgres().await?);
    Ok(stores)
}

impl Store {
    /// Test support: moves the expiry of every verification code of `account` to `at`, so that
    /// tests can reach the "code expired" answer without waiting ten minutes.
    pub async fn expire_codes_for_tests(&self, account: &str, at: i64) -> Result<u64, StoreError> {
        Ok(exec!(
            self,
            "UPDATE verification_codes SET expires_at = $2 WHERE account = $1",
            account,
            at
        )?)
    }

    /// Test support: runs a script of several statements, such as a data migration run again
    /// over rows written in the shape it migrates from.
    pub async fn run_script_for_tests(&self, sql: &'static str) -> Result<(), StoreError> {
        match &self.db {
            crate::Db::Sqlite(pool) => {
                sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
                    .execute(pool)
                    .await?;
            }
            crate::Db::Postgres(pool) => {
                sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
                    .execute(pool)
                    .await?;
            }
        }
        Ok(())
    }
}

/// A write a test makes fail (see [`Store::fail_writes_for_tests`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Write {
    Insert,
    Update,
    Delete,
}

impl Write {
    fn sql(self) -> &'static str {
        match self {
            Write::Insert => "INSERT",
            Write::Update => "UPDATE",
            Write::Delete => "DELETE",
        }
    }
}

impl Store {
    /// Test support: from now on every `write` of a row of `table` fails with "injected", so a
    /// test can break a use case half way and check that its transaction left nothing behind.
    /// `table` is one of the schema's table names, never input.
    pub async fn fail_writes_for_tests(
        &self,
        table: &'static str,
        write: Write,
    ) -> Result<(), StoreError> {
        let name = format!("injected_{}_{}", table, write.sql().to_lowercase());
        match self.backend() {
            crate::Backend::Sqlite => {
                let trigger = format!(
                    "CREATE TRIGGER {name} BEFORE {} ON {table} \
                     BEGIN SELECT RAISE(ABORT, 'injected'); END",
                    write.sql()
                );
                exec!(self, &trigger)?;
            }
            crate::Backend::Postgres => {
                let function = format!(
                    "CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS \
                     'BEGIN RAISE EXCEPTION ''injected''; END'"
                );
                exec!(self, &function)?;
                let trigger = format!(
                    "CREATE TRIGGER {name} BEFORE {} ON {table} FOR EACH ROW \
                     EXECUTE FUNCTION {name}()",
                    write.sql()
                );
                exec!(self, &trigger)?;
            }
        }
        Ok(())
    }
}

pub type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Runs a contract test on every available backend, each on a fresh database, naming the
/// backend in the error when it fails.
pub async fn each_backend<F, Fut>(test: F) -> TestResult
where
    F: Fn(Store) -> Fut,
    Fut: std::future::Future<Output = TestResult>,
{
    for store in all().await? {
        let backend = store.backend();
        test(store.clone())
            .await
            .map_err(|e| format!("{backend:?}: {e}"))?;
        store.close().await;
    }
    Ok(())
}

/// An audit entry by no account, for the writes that take one.
pub fn audit(action: &str) -> crate::audit::NewAudit<'_> {
    crate::audit::NewAudit {
        by: crate::log_pages::Author {
            user_id: None,
            account: "test",
            actor_company_id: None,
            plant_id: None,
            plant_owner_id: None,
            plant_company_id: None,
        },
        action,
        target: "t",
        detail: "{}",
        result: "succeeded",
        command_id: None,
        now: 1,
    }
}

/// An account for tests (its password hash is a placeholder nobody can sign in with).
pub fn new_user(account: &str, kind: domain::user::UserKind) -> crate::users::NewUser<'_> {
    crate::users::NewUser {
        account,
        email: account,
        mobile: "",
        password_hash: "h",
        nickname: "Test",
        kind,
        company: None,
        role: None,
        user_src: "test",
        now: 1,
    }
}

/// A plant's fields for tests: a storage plant in Madrid named `name`.
pub fn plant_fields(name: &str) -> crate::plants::PlantFields {
    crate::plants::PlantFields {
        name: name.into(),
        plant_type: 2,
        total_power: 5.0,
        join_date: "2024-01-01".into(),
        currency: "EUR".into(),
        timezone: "Europe/Madrid".into(),
        address: String::new(),
        lon: 0.0,
        lat: 40.0,
        image_url: String::new(),
        thumb_url: String::new(),
        principal: String::new(),
        phone: String::new(),
        email: String::new(),
        installer: String::new(),
        invest: 0.0,
        tilt: None,
        azimuth: None,
    }
}
