//! One replica at a time for a job whose two runs at once would act twice (send a device the
//! same command twice): the job holds a lease while it runs. On PostgreSQL the lease is a
//! transaction-level advisory lock in a transaction of its own, so it ends with the job (the
//! transaction is rolled back when the lease is dropped) or with the replica holding it (its
//! connection closes when the process dies): no lease outlives its holder and none needs an
//! expiry. On SQLite, which one process serves, every lease is granted.

use crate::{Db, Result, Store};

/// The demand-response dispatch tick (`jobs::dispatch`).
pub const DISPATCH: i64 = 0x706f_7274_616c_0001; // "portal" 1
/// The VTN sync's polling tick (`jobs::vtn_sync`).
pub const VTN_SYNC: i64 = 0x706f_7274_616c_0002; // "portal" 2
/// The webhook sender's tick (`jobs::webhooks`): a delivery is posted by one replica.
pub const WEBHOOKS: i64 = 0x706f_7274_616c_0003; // "portal" 3
/// The battery health days (`jobs::battery_health`).
pub const BATTERY_HEALTH: i64 = 0x706f_7274_616c_0004; // "portal" 4
/// The alarm engine's tick (`jobs::alarm_engine`).
pub const ALARM_ENGINE: i64 = 0x706f_7274_616c_0005; // "portal" 5
/// The Web Push sender's tick (`jobs::push`): a message is pushed by one replica.
pub const PUSH: i64 = 0x706f_7274_616c_0006; // "portal" 6

/// Held while the job runs; dropping it lets another replica take it.
#[derive(Debug)]
pub struct Lease {
    _held: Option<sqlx::Transaction<'static, sqlx::Postgres>>,
}

impl Lease {
    /// Ends the lease now (dropping it ends it too, a moment later, when its connection goes
    /// back to the pool).
    pub async fn release(self) -> Result<()> {
        if let Some(tx) = self._held {
            tx.rollback().await?;
        }
        Ok(())
    }
}

impl Store {
    /// The lease `key` when no other replica holds it now; `None` when one does.
    pub async fn try_lease(&self, key: i64) -> Result<Option<Lease>> {
        match &self.db {
            Db::Sqlite(_) => Ok(Some(Lease { _held: None })),
            Db::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                let taken: bool = sqlx::query_scalar("SELECT pg_try_advisory_xact_lock($1)")
                    .bind(key)
                    .fetch_one(&mut *tx)
                    .await?;
                Ok(taken.then_some(Lease { _held: Some(tx) }))
            }
        }
    }
}
