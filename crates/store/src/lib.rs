//! Storage: one interface, two backends. Each domain module holds its queries once; a query whose
//! SQL differs between SQLite and PostgreSQL spells out both. Migrations are per backend.
//! See docs/decisions.md ("one store, two backends") for why this is not a trait per backend.

#[macro_use]
mod sql;
// Before the modules whose transactions queue webhook deliveries (its macro).
#[macro_use]
pub mod webhook_deliveries;
#[macro_use]
pub mod push;
pub mod agent_offers;
pub mod agents;
#[macro_use]
pub mod alarm_engine;
pub mod alarms;
pub mod audit;
pub mod auth;
pub mod backup;
pub mod battery_health;
pub mod comm_log;
pub mod commands;
pub mod companies;
pub mod customer_offers;
pub mod customer_types;
pub mod customers;
pub mod debug_log;
pub mod device_screens;
pub mod devices;
pub mod energy_hub;
pub mod energy_reads;
pub mod events;
pub mod family;
pub mod files;
pub mod firmware;
pub mod fleet;
pub mod gateway_actions;
pub mod gateway_keys;
pub mod gateways;
pub mod history;
pub mod inverter_types;
pub mod leases;
pub mod liveness;
pub mod log_pages;
pub mod manuals;
pub mod messages;
pub mod notices;
pub mod occurrences;
pub mod offers;
pub mod outbox;
pub mod plants;
pub mod power_peaks;
pub mod products;
pub mod protocols;
pub mod reported_devices;
pub mod reports;
pub mod roles;
pub mod sessions;
pub mod settings;
pub mod shares;
pub mod telemetry;
pub mod testing;
pub mod upgrades;
pub mod users;
pub mod versions;
pub mod webhooks;

use std::{str::FromStr, time::Duration};

use sqlx::{
    PgPool, SqlitePool,
    postgres::{PgConnectOptions, PgPoolOptions},
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A unique constraint refused the write; the value says which rule it was.
    #[error("conflict: {0:?}")]
    Conflict(Conflict),
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// Stored data that cannot be read back (a damaged history block).
    #[error("damaged: {0}")]
    Damaged(String),
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// The unique rule a write broke, as the writing method knows it (one constraint may mean
/// different things to different writes: an account taken at self-registration is not a staff
/// account taken). `service` answers each with its spec code in one place (its error
/// conversion), so no caller matches on the constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conflict {
    /// A command's correlation id is already recorded.
    CommandId,
    /// A company's name is taken.
    CompanyName,
    /// Self-registration: the account is taken.
    Registered,
    /// A new staff member's account is taken.
    StaffAccount,
    /// A new company's administrator: the account is taken, or the owner to promote is no
    /// longer an owner without a company.
    AdminAccount,
    /// An inverter type's name is taken among its siblings, or one of its codes by another type.
    InverterTypeName,
    /// A moved inverter type's name is taken among the children of its new parent.
    InverterTypeNameAtTarget,
    /// The company already waits on the user's answer to becoming its customer.
    CustomerOffer,
    /// The user is already the company's customer.
    Customer,
    /// A product's part number is taken.
    PartNumber,
    /// A file's key is taken.
    FileKey,
    /// The agent company already serves a principal.
    AgentTaken,
    /// The company already waits on the agent's answer.
    AgentOffer,
    /// A built-in energy-hub programme's name is taken.
    ProgramName,
    /// The user already keeps a settings profile of that name.
    ProfileName,
    /// A firmware version is taken for its target and label.
    FirmwareVersion,
    /// A customer type's code is taken in its company.
    CustomerTypeCode,
    /// A role's name is taken in its company.
    RoleName,
    /// A version note's label is taken.
    VersionLabel,
    /// A gateway's SN is already registered.
    GatewaySn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone, Debug)]
pub(crate) enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// The portal's database. Cheap to clone (pools are shared).
#[derive(Clone, Debug)]
pub struct Store {
    pub(crate) db: Db,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

impl Store {
    /// Opens the database named by `url`: `postgres://` or `postgresql://` selects PostgreSQL,
    /// anything else is a SQLite path or `sqlite:` URL (created when missing, in WAL mode).
    pub async fn connect(url: &str) -> Result<Store> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let options = PgConnectOptions::from_str(url)?;
            return Ok(Store::postgres(options).await?);
        }
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await?;
        Ok(Store {
            db: Db::Sqlite(pool),
        })
    }

    /// Opens PostgreSQL with explicit options (tests use this to pin a schema per test).
    pub async fn postgres(options: PgConnectOptions) -> std::result::Result<Store, sqlx::Error> {
        let pool = PgPoolOptions::new()
            .max_connections(10)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await?;
        Ok(Store {
            db: Db::Postgres(pool),
        })
    }

    pub fn backend(&self) -> Backend {
        match self.db {
            Db::Sqlite(_) => Backend::Sqlite,
            Db::Postgres(_) => Backend::Postgres,
        }
    }

    pub async fn migrate(&self) -> Result<()> {
        match &self.db {
            Db::Sqlite(pool) => SQLITE_MIGRATIONS.run(pool).await?,
            Db::Postgres(pool) => POSTGRES_MIGRATIONS.run(pool).await?,
        }
        Ok(())
    }

    /// A cheap round trip for health checks.
    pub async fn ping(&self) -> Result<()> {
        // An explicit BIGINT: PostgreSQL answers a bare `SELECT 1` as INT4, which is not an i64.
        let _: i64 = scalar!(self, fetch_one, i64, "SELECT CAST(1 AS BIGINT)")?;
        Ok(())
    }

    pub async fn close(&self) {
        match &self.db {
            Db::Sqlite(pool) => pool.close().await,
            Db::Postgres(pool) => pool.close().await,
        }
    }
}

/// Turns a unique-constraint violation into [`StoreError::Conflict`], leaving other errors as
/// they are, so that callers can answer "already exists" without parsing driver messages.
pub(crate) fn conflict(err: sqlx::Error, what: Conflict) -> StoreError {
    match &err {
        sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict(what),
        _ => StoreError::Db(err),
    }
}
