//! The communication log: one row per MQTT message a gateway sent or the portal published to
//! it. Written in batches by the device link (never on the message path), read by the
//! communication log screens, and kept bounded by [`Store::prune_comm_log`].

use crate::{Result, Store};
use domain::ids::{CommEntryId, CommandId, GatewayId};

/// How many messages one prune transaction trims (gateways), so the write lock is held briefly.
const PRUNE_CHUNK: usize = 200;

/// A message about to be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCommEntry {
    pub gateway_sn: String,
    /// `up` or `down`.
    pub direction: &'static str,
    pub kind: String,
    pub topic: String,
    /// UTF-8 text as sent, else hex; already cut to the stored maximum.
    pub payload: String,
    pub truncated: bool,
    /// The whole payload's size in bytes.
    pub size: i64,
    /// The command's id when the writer knows it (a downlink command).
    pub command_id: Option<CommandId>,
    /// The command's correlation id (a reply): resolved to its id when written.
    pub correlation: Option<String>,
    pub at: i64,
}

/// A message as listed: the payload's first characters only.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct CommRow {
    pub id: CommEntryId,
    pub gateway_id: GatewayId,
    pub gateway_sn: String,
    pub direction: String,
    pub kind: String,
    pub topic: String,
    /// The listing's summary, or the whole payload for [`Store::comm_log_entry`].
    pub payload: String,
    pub truncated: bool,
    pub size: i64,
    pub command_id: Option<CommandId>,
    pub at: i64,
}

/// What a gateway's listing is narrowed by; `None` means "any".
#[derive(Debug, Clone, Default)]
pub struct CommFilter {
    pub direction: Option<String>,
    pub kind: Option<String>,
    /// Milliseconds, inclusive.
    pub from: Option<i64>,
    /// Milliseconds, exclusive.
    pub to: Option<i64>,
    pub limit: i64,
    pub offset: i64,
}

/// How much of one gateway's log is stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct CommCounts {
    pub gateway_id: GatewayId,
    pub uplinks: i64,
    pub downlinks: i64,
    pub last_at: Option<i64>,
}

/// Characters of the payload a listing shows.
pub const SUMMARY_CHARS: i64 = 120;

const INSERT: &str = "INSERT INTO comm_log (gateway_id, gateway_sn, direction, kind, topic, \
    payload, truncated, size, command_id, at) \
    SELECT g.id, g.sn, $2, $3, $4, $5, $6, $7, \
    COALESCE($8, (SELECT c.id FROM commands c WHERE c.correlation_id = $9)), $10 \
    FROM gateways g WHERE g.sn = $1";

const FILTERS: &str = "gateway_id = $1 AND ($2 IS NULL OR direction = $2) \
    AND ($3 IS NULL OR kind = $3) AND ($4 IS NULL OR at >= $4) AND ($5 IS NULL OR at < $5)";

impl Store {
    /// Writes a batch in one transaction; messages of gateways that are not registered (any
    /// more) are skipped. Answers how many rows were written.
    pub async fn insert_comm_log(&self, entries: &[NewCommEntry]) -> Result<u64> {
        if entries.is_empty() {
            return Ok(0);
        }
        let mut written = 0;
        in_tx!(self, |tx, sqlite| {
            for e in entries {
                written += tx_exec!(
                    tx,
                    sqlite,
                    INSERT,
                    &e.gateway_sn,
                    e.direction,
                    &e.kind,
                    &e.topic,
                    &e.payload,
                    e.truncated,
                    e.size,
                    e.command_id,
                    e.correlation.as_deref(),
                    e.at
                )?;
            }
        });
        Ok(written)
    }

    /// A page of one gateway's messages, newest first, with the total before paging; each
    /// row's payload cut to [`SUMMARY_CHARS`] characters.
    pub async fn comm_log_page(
        &self,
        gateway_id: GatewayId,
        f: &CommFilter,
    ) -> Result<(Vec<CommRow>, i64)> {
        let bounds = crate::sql::page(f.limit, f.offset);
        let sql = format!(
            "SELECT id, gateway_id, gateway_sn, direction, kind, topic, \
             SUBSTR(payload, 1, {SUMMARY_CHARS}) AS payload, truncated, size, command_id, at \
             FROM comm_log WHERE {FILTERS} ORDER BY id DESC {bounds}"
        );
        let (direction, kind) = (f.direction.as_deref(), f.kind.as_deref());
        let rows = rows!(
            self, fetch_all, CommRow, &sql, gateway_id, direction, kind, f.from, f.to
        )?;
        let total = scalar!(
            self,
            fetch_one,
            i64,
            &format!("SELECT COUNT(*) FROM comm_log WHERE {FILTERS}"),
            gateway_id,
            direction,
            kind,
            f.from,
            f.to
        )?;
        Ok((rows, total))
    }

    /// One message with its whole stored payload.
    pub async fn comm_log_entry(&self, id: CommEntryId) -> Result<Option<CommRow>> {
        Ok(rows!(
            self,
            fetch_optional,
            CommRow,
            "SELECT id, gateway_id, gateway_sn, direction, kind, topic, payload, truncated, \
             size, command_id, at FROM comm_log WHERE id = $1",
            id
        )?)
    }

    /// How many messages are stored per gateway of `gateways` (those with none are absent).
    pub async fn comm_log_counts(&self, gateways: &[GatewayId]) -> Result<Vec<CommCounts>> {
        if gateways.is_empty() {
            return Ok(Vec::new());
        }
        let mut sql = String::from(
            "SELECT gateway_id, \
             SUM(CASE WHEN direction = 'up' THEN 1 ELSE 0 END) AS uplinks, \
             SUM(CASE WHEN direction = 'down' THEN 1 ELSE 0 END) AS downlinks, \
             MAX(at) AS last_at FROM comm_log WHERE gateway_id IN (",
        );
        crate::sql::push_params(
            &mut sql,
            0,
            gateways.len(),
            matches!(self.db, crate::Db::Sqlite(_)),
        );
        sql.push_str(") GROUP BY gateway_id");
        Ok(with_ids!(self, CommCounts, sql, [], gateways)?)
    }

    /// The SNs of the gateways that have messages stored (the pruner's first pass).
    pub async fn comm_log_gateways(&self) -> Result<Vec<String>> {
        Ok(scalar!(
            self,
            fetch_all,
            String,
            "SELECT g.sn FROM gateways g \
             WHERE EXISTS (SELECT 1 FROM comm_log c WHERE c.gateway_id = g.id) ORDER BY g.sn"
        )?)
    }

    /// Deletes the messages older than `before` (ms), and of each gateway of `gateways` (SNs)
    /// all but its newest `per_gateway`. Answers how many rows went.
    pub async fn prune_comm_log(
        &self,
        before: i64,
        per_gateway: i64,
        gateways: &[String],
    ) -> Result<u64> {
        let mut removed = exec!(self, "DELETE FROM comm_log WHERE at < $1", before)?;
        for chunk in gateways.chunks(PRUNE_CHUNK) {
            in_tx!(self, |tx, sqlite| {
                for sn in chunk {
                    // The newest `per_gateway` rows stay: everything at or below the id just
                    // after them goes (nothing when the gateway has fewer).
                    removed += tx_exec!(
                        tx,
                        sqlite,
                        "DELETE FROM comm_log WHERE gateway_id = \
                         (SELECT id FROM gateways WHERE sn = $1) AND id <= \
                         (SELECT c.id FROM comm_log c JOIN gateways g ON g.id = c.gateway_id \
                          WHERE g.sn = $1 ORDER BY c.id DESC LIMIT 1 OFFSET $2)",
                        sn,
                        per_gateway
                    )?;
                }
            });
        }
        Ok(removed)
    }
}
