//! The shares of one account across all plants, both ways, for the shared-management screen:
//! what the account shared of the plants it owns, and what others shared with it.

use domain::ids::PlantId;
use domain::ids::UserId;

use crate::{Result, Store};

/// One share of one plant.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PlantShareRow {
    pub plant_id: PlantId,
    pub plant_name: String,
    pub plant_type: i64,
    /// The other side: the sharee for a share given, the plant's owner for one received.
    pub user_id: UserId,
    pub account: String,
    pub nickname: String,
    /// `visitor` or `maintainer`.
    pub role: String,
    pub created_at: i64,
}

impl Store {
    /// The shares of the plants `owner` owns (`given`), or the shares others gave `owner`,
    /// newest first, at most `limit`.
    pub async fn shares_of(
        &self,
        owner: UserId,
        given: bool,
        limit: i64,
    ) -> Result<Vec<PlantShareRow>> {
        let (matched, other) = if given {
            ("p.owner_id", "s.user_id")
        } else {
            ("s.user_id", "p.owner_id")
        };
        let sql = format!(
            "SELECT p.id AS plant_id, p.name AS plant_name, p.plant_type, u.id AS user_id, u.account, \
             u.nickname, s.role, s.created_at FROM plant_shares s \
             JOIN plants p ON p.id = s.plant_id JOIN users u ON u.id = {other} \
             WHERE {matched} = $1 AND s.user_id <> p.owner_id \
             ORDER BY s.created_at DESC, p.id DESC {}",
            crate::sql::page(limit, 0)
        );
        Ok(rows!(self, fetch_all, PlantShareRow, &sql, owner)?)
    }
}
