//! Notices: messages to one user that are not events, such as "a firmware update is
//! available". Each row is one user's; it keeps the words to render it with (JSON) so the
//! reader's language is chosen when it is read.

use domain::ids::{FirmwareId, NoticeId};
use domain::{DeviceFamily, ids::UserId};

use crate::{
    Result, Store,
    audit::{NewAudit, noting},
};

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct NoticeRow {
    pub id: NoticeId,
    pub user_id: UserId,
    /// `firmware`: an update is available.
    pub kind: String,
    pub subject_id: Option<FirmwareId>,
    /// A JSON object.
    pub params: String,
    pub created_at: i64,
    pub read_at: Option<i64>,
}

/// Who a firmware notice goes to: the owners of plants holding an inverter whose type code is
/// one of label `$1`'s, or (for gateway software) holding a gateway. `$5` is the inverters'
/// family name (both read it, so both take the same parameters).
const INVERTER_OWNERS: &str = "SELECT DISTINCT p.owner_id FROM devices d \
    JOIN plants p ON p.id = d.plant_id \
    WHERE d.family = $5 \
    AND d.type_code IN (SELECT c.code FROM inverter_type_codes c WHERE c.type_id = $1)";
const GATEWAY_OWNERS: &str = "SELECT DISTINCT p.owner_id FROM gateways g \
    JOIN plants p ON p.id = g.plant_id WHERE $1 = $1 AND $5 = $5";

impl Store {
    /// Turns firmware `id` on or off and, when `notice` (its JSON params) is given, leaves one
    /// notice for every owner it concerns (see `INVERTER_OWNERS`), all in one transaction.
    /// Answers how many notices were written, or `None` (nothing written) when the firmware is
    /// gone. The audit entry is written with them, its detail noting the count as `notices`.
    pub async fn enable_firmware(
        &self,
        id: FirmwareId,
        enabled: bool,
        notice: Option<&str>,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<Option<u64>> {
        let Some(f) = self.firmware(id).await? else {
            return Ok(None);
        };
        let owners = if f.target == "gateway" {
            GATEWAY_OWNERS
        } else {
            INVERTER_OWNERS
        };
        let insert = format!(
            "INSERT INTO notices (user_id, kind, subject_id, params, created_at) \
             SELECT o.owner_id, 'firmware', $2, $3, $4 FROM ({owners}) o"
        );
        let out: Result<Option<u64>> = in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE firmware SET enabled = $2, updated_at = $3 WHERE id = $1",
                id,
                enabled,
                now
            )?;
            if n != 1 {
                Ok(None)
            } else {
                let sent = match notice {
                    Some(params) => tx_exec!(
                        tx,
                        sqlite,
                        &insert,
                        f.type_id,
                        id,
                        params,
                        now,
                        DeviceFamily::Inverter.as_str()
                    )?,
                    None => 0,
                };
                let detail = noting(audit.detail, "notices", sent);
                audit_in_tx!(
                    tx,
                    sqlite,
                    &NewAudit {
                        detail: &detail,
                        ..audit.clone()
                    }
                )?;
                Ok(Some(sent))
            }
        });
        out
    }

    /// The user's notices, newest first (`unread`: `Some(true)` unread only, `Some(false)` read
    /// only): at most `limit`, and how many there are.
    pub async fn notices(
        &self,
        user: UserId,
        unread: Option<bool>,
        limit: i64,
    ) -> Result<(Vec<NoticeRow>, i64)> {
        let condition = "user_id = $1 AND ($2 IS NULL OR (read_at IS NULL) = $2)";
        let sql = format!(
            "SELECT id, user_id, kind, subject_id, params, created_at, read_at FROM notices \
             WHERE {condition} ORDER BY created_at DESC, id DESC LIMIT $3"
        );
        let rows = rows!(self, fetch_all, NoticeRow, &sql, user, unread, limit)?;
        let count_sql = format!("SELECT CAST(COUNT(*) AS BIGINT) FROM notices WHERE {condition}");
        let total = scalar!(self, fetch_one, i64, &count_sql, user, unread)?;
        Ok((rows, total))
    }

    pub async fn unread_notices(&self, user: UserId) -> Result<i64> {
        Ok(scalar!(
            self,
            fetch_one,
            i64,
            "SELECT CAST(COUNT(*) AS BIGINT) FROM notices WHERE user_id = $1 AND read_at IS NULL",
            user
        )?)
    }

    /// Marks one of the user's notices read; `false` when the user has no such notice.
    pub async fn mark_notice_read(&self, user: UserId, id: NoticeId, now: i64) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE notices SET read_at = COALESCE(read_at, $3) WHERE user_id = $1 AND id = $2",
            user,
            id,
            now
        )? == 1)
    }
}
