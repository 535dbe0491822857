//! Plants, their tariffs and who they are shared with. Listings take the caller's visibility
//! from the policy (`domain::policy::PlantVisibility`) and apply it in SQL.

use domain::ids::PlantId;
use domain::{
    ids::{CompanyId, UserId},
    policy::{PlantScope, PlantVisibility, ShareRole},
};

use crate::{Result, Store};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PlantRow {
    pub id: PlantId,
    pub name: String,
    pub owner_id: UserId,
    pub company_id: Option<CompanyId>,
    pub created_by: UserId,
    pub plant_type: i64,
    pub total_power: f64,
    pub join_date: String,
    pub currency: String,
    pub timezone: String,
    pub address: String,
    pub lon: f64,
    pub lat: f64,
    pub image_url: String,
    pub thumb_url: String,
    pub principal: String,
    pub phone: String,
    pub email: String,
    pub installer: String,
    pub invest: f64,
    /// Tilt of the modules from the horizontal, degrees (0-90); `None` when not given.
    pub tilt: Option<f64>,
    /// Azimuth of the modules clockwise from north, degrees (0-360, 180 south); `None` when
    /// not given.
    pub azimuth: Option<f64>,
    pub status: i64,
    pub created_at: i64,
    pub updated_at: i64,
    /// The account the plant waits to be accepted by (see `offers`), and since when.
    pub offered_to: Option<UserId>,
    pub offered_at: Option<i64>,
    /// How the plant is shared with the user the row was read for (`visitor`/`maintainer`).
    pub shared_as: Option<String>,
    /// The company of the user the row was read for (company staff) when that company serves
    /// the plant through a customer or an agent (see [`company_serves`]).
    pub linked_company: Option<CompanyId>,
}

impl PlantRow {
    pub fn scope(&self) -> PlantScope {
        PlantScope {
            owner: self.owner_id,
            company: self.company_id,
            shared_as: self.shared_as.as_deref().and_then(ShareRole::parse),
            linked_company: self.linked_company,
        }
    }
}

/// The values a plant is created or edited with.
#[derive(Debug, Clone)]
pub struct PlantFields {
    pub name: String,
    pub plant_type: i64,
    pub total_power: f64,
    pub join_date: String,
    pub currency: String,
    pub timezone: String,
    pub address: String,
    pub lon: f64,
    pub lat: f64,
    pub image_url: String,
    pub thumb_url: String,
    pub principal: String,
    pub phone: String,
    pub email: String,
    pub installer: String,
    pub invest: f64,
    /// Tilt of the modules, degrees (0-90), when known.
    pub tilt: Option<f64>,
    /// Azimuth of the modules, degrees clockwise from north (0-360), when known.
    pub azimuth: Option<f64>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TariffSegmentRow {
    pub id: i64,
    pub plant_id: PlantId,
    pub kind: i64,
    pub start_range: String,
    pub end_range: String,
    pub price: f64,
    pub direction: Option<String>,
    pub created_at: i64,
}

#[derive(Debug, Clone)]
pub struct NewTariffSegment {
    pub kind: i64,
    pub start_range: String,
    pub end_range: String,
    pub price: f64,
    pub direction: Option<String>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ShareRow {
    pub user_id: UserId,
    pub account: String,
    pub nickname: String,
    pub role: String,
    pub created_at: i64,
}

/// What a plant listing asks for.
#[derive(Debug, Clone, Default)]
pub struct PlantFilter {
    /// Lower-case substring of the name.
    pub name: Option<String>,
    pub status: Option<i64>,
    pub plant_type: Option<i64>,
    /// Only the plants of this company (the lists' `agentCompanyId`).
    pub company: Option<CompanyId>,
    /// Only the plants this account owns (the list's `customerId`); still within what the
    /// reader may see.
    pub owner: Option<UserId>,
    /// Only the plants others shared with the reader (the list's `share=1`).
    pub shared: bool,
    pub sort: PlantSort,
    pub descending: bool,
    pub limit: i64,
    pub offset: i64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PlantSort {
    #[default]
    Created,
    Name,
    Capacity,
    Status,
}

impl PlantSort {
    fn column(self) -> &'static str {
        match self {
            PlantSort::Created => "p.id",
            PlantSort::Name => "LOWER(p.name)",
            PlantSort::Capacity => "p.total_power",
            PlantSort::Status => "p.status",
        }
    }
}

const COLUMNS: &str = "p.id, p.name, p.owner_id, p.company_id, p.created_by, p.plant_type, \
    p.total_power, p.join_date, p.currency, p.timezone, p.address, p.lon, p.lat, p.image_url, \
    p.thumb_url, p.principal, p.phone, p.email, p.installer, p.invest, p.tilt, p.azimuth, \
    p.status, p.created_at, p.updated_at, p.offered_to, p.offered_at, s.role AS shared_as";

/// The one rule of who may see a plant. `$1` is the viewer, `$2` their company (company staff
/// only, else NULL), `$3` 1 when they see everything: the plants they own or that are shared
/// with them, and for company staff the plants the company serves ([`company_serves`]). Every
/// listing of plants, devices, gateways, events and messages applies it.
pub(crate) const VISIBLE: &str = "($3 = 1 OR p.owner_id = $1 OR s.user_id IS NOT NULL \
    OR ($2 IS NOT NULL AND (p.company_id = $2 \
    OR p.owner_id IN (SELECT cu.user_id FROM customers cu WHERE cu.company_id = $2) \
    OR p.company_id IN (SELECT ag.agent_company_id FROM agents ag WHERE ag.company_id = $2))))";

/// The sum of one of the plants' kept counts (`column`, migration 0049) over the plants
/// [`VISIBLE`] to `$1`-`$3`, only the plant in parameter `plant` when `one_plant`: a list's
/// total without reading its rows.
pub(crate) fn kept_sum(column: &str, plant: &str, one_plant: bool) -> String {
    format!(
        "SELECT COALESCE(SUM({column}), 0) FROM plants p \
         LEFT JOIN plant_shares s ON s.plant_id = p.id AND s.user_id = $1 WHERE {VISIBLE} AND {}",
        crate::sql::when(&format!("p.id = {plant}"), plant, one_plant)
    )
}

/// Whether `company` serves a plant owned by `owner` and belonging to `plant_company` (SQL
/// expressions): the plant is the company's, its owner is the company's customer, or it
/// belongs to one of the company's agent companies. [`VISIBLE`] is this rule for `$2` on
/// `plants p`; a test keeps the two the same. Uncorrelated `IN` lists: each is read once per
/// query (a hashed list in PostgreSQL, an ephemeral index in SQLite), not once per plant.
pub(crate) fn company_serves(company: &str, owner: &str, plant_company: &str) -> String {
    format!(
        "({plant_company} = {company} \
    OR {owner} IN (SELECT cu.user_id FROM customers cu WHERE cu.company_id = {company}) \
    OR {plant_company} IN (SELECT ag.agent_company_id FROM agents ag WHERE ag.company_id = {company}))"
    )
}

/// The reader's company (`company`, an SQL expression that is NULL for anyone but company
/// staff) when it serves plant `p` without owning it; read into [`PlantRow::linked_company`].
fn linked_column(company: &str) -> String {
    format!(
        "CASE WHEN EXISTS (SELECT 1 FROM customers cu WHERE cu.company_id = {company} \
         AND cu.user_id = p.owner_id) OR EXISTS (SELECT 1 FROM agents ag \
         WHERE ag.company_id = {company} AND ag.agent_company_id = p.company_id) \
         THEN {company} END AS linked_company"
    )
}

/// The tables a [`Matching`] rule reads: the plant and the reader's share of it.
pub(crate) const MATCHING_FROM: &str =
    "FROM plants p LEFT JOIN plant_shares s ON s.plant_id = p.id AND s.user_id = $1";

/// The plant list's one rule, for every read that takes its filters (the list and its map,
/// the fleet dashboard): who may see a plant ([`VISIBLE`]) and the list's filters, over
/// [`MATCHING_FROM`], with its values bound as `$1` to `$9` by `matching_rows!` (a query adds
/// its own parameters from `$10`).
#[derive(Debug, Clone)]
pub(crate) struct Matching {
    pub conditions: String,
    pub user: UserId,
    pub company: Option<CompanyId>,
    pub all: i64,
    pub name: Option<String>,
    pub status: Option<i64>,
    pub plant_type: Option<i64>,
    pub only_company: Option<CompanyId>,
    pub owner: Option<UserId>,
    pub shared: i64,
}

impl Matching {
    pub(crate) fn new(visibility: PlantVisibility, reader: UserId, filter: &PlantFilter) -> Self {
        let (user, company, all) = viewer(visibility, reader);
        let name = filter
            .name
            .as_ref()
            .map(|n| format!("%{}%", n.to_lowercase()));
        let by_name = crate::sql::contains("LOWER(p.name)", "$4", name.is_some());
        let conditions = format!(
            "{VISIBLE} AND {by_name} AND ($5 IS NULL OR p.status = $5) \
             AND ($6 IS NULL OR p.plant_type = $6) AND ($7 IS NULL OR p.company_id = $7) \
             AND ($8 IS NULL OR p.owner_id = $8) \
             AND ($9 = 0 OR (s.user_id IS NOT NULL AND p.owner_id <> $1))"
        );
        Matching {
            conditions,
            user,
            company,
            all,
            name,
            status: filter.status,
            plant_type: filter.plant_type,
            only_company: filter.company,
            owner: filter.owner,
            shared: i64::from(filter.shared),
        }
    }
}

pub(crate) fn viewer(
    visibility: PlantVisibility,
    reader: UserId,
) -> (UserId, Option<CompanyId>, i64) {
    match visibility {
        PlantVisibility::All => (reader, None, 1),
        PlantVisibility::Of { user, company } => (user, company, 0),
    }
}

impl Store {
    /// A plant without a tariff, in its owner's name (see [`Store::create_plant_with_tariff`]).
    pub async fn create_plant(
        &self,
        owner: UserId,
        company: Option<CompanyId>,
        created_by: UserId,
        f: &PlantFields,
        now: i64,
    ) -> Result<PlantId> {
        self.create_plant_with_tariff(&crate::offers::NewPlant {
            owner,
            company,
            created_by,
            offered_to: None,
            fields: f,
            tariff: &[],
            now,
        })
        .await
    }

    /// One plant as `reader` sees it (with how it is shared with them), or `None`.
    pub async fn plant(&self, id: PlantId, reader: UserId) -> Result<Option<PlantRow>> {
        let linked = linked_column(
            "(SELECT r.company_id FROM users r WHERE r.id = $2 AND r.kind = 'company')",
        );
        let sql = format!(
            "SELECT {COLUMNS}, {linked} FROM plants p \
             LEFT JOIN plant_shares s ON s.plant_id = p.id AND s.user_id = $2 WHERE p.id = $1"
        );
        Ok(rows!(self, fetch_optional, PlantRow, &sql, id, reader)?)
    }

    /// The plants with these ids as `reader` sees them (as [`Store::plant`]), one query, in
    /// no particular order; ids without a plant are left out. For a page of devices or
    /// gateways, whose rows were read through a visible listing.
    pub async fn plants_by_ids(&self, ids: &[PlantId], reader: UserId) -> Result<Vec<PlantRow>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let linked = linked_column(
            "(SELECT r.company_id FROM users r WHERE r.id = $1 AND r.kind = 'company')",
        );
        let sql = format!(
            "SELECT {COLUMNS}, {linked} FROM plants p \
             LEFT JOIN plant_shares s ON s.plant_id = p.id AND s.user_id = $1 WHERE p.id IN ({})",
            crate::sql::placeholders(2, ids.len())
        );
        Ok(with_ids!(self, PlantRow, sql, [reader], ids)?)
    }

    /// A page of the plants `visibility` allows, with the total count before paging.
    pub async fn plants(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        filter: &PlantFilter,
    ) -> Result<(Vec<PlantRow>, i64)> {
        let m = Matching::new(visibility, reader, filter);
        let direction = if filter.descending { "DESC" } else { "ASC" };
        let order = format!("{} {direction}, p.id {direction}", filter.sort.column());
        // The total rides on the page's rows as an uncorrelated subquery (computed once): one
        // statement instead of two on every list. The page is the ids alone in the sort's
        // order, walked along the sort's index (migration 0047) until the page is full; only
        // its rows are read whole. A window (`COUNT(*) OVER ()`) would carry the total instead
        // but needs every visible plant sorted first: 4 to 5 ms a page at 5,000 plants against
        // about 1 ms. A page past the end has no row to carry the total and counts apart.
        let sql = format!(
            "WITH page AS (SELECT p.id {MATCHING_FROM} WHERE {conditions} ORDER BY {order} {}) \
             SELECT {COLUMNS}, {}, \
             (SELECT COUNT(*) {MATCHING_FROM} WHERE {conditions}) AS total \
             FROM page JOIN plants p ON p.id = page.id \
             LEFT JOIN plant_shares s ON s.plant_id = p.id AND s.user_id = $1 ORDER BY {order}",
            crate::sql::page(filter.limit, filter.offset),
            linked_column("$2"),
            conditions = m.conditions,
        );
        let page = matching_rows!(self, fetch_all, crate::sql::Counted<PlantRow>, &sql, m)?;
        if let Some(listed) = crate::sql::Counted::split(page) {
            return Ok(listed);
        }
        let count_sql = format!("SELECT COUNT(*) {MATCHING_FROM} WHERE {}", m.conditions);
        let total = matching_rows!(self, fetch_one, (i64,), &count_sql, m)?.0;
        Ok((Vec::new(), total))
    }

    /// How many visible plants are in each status.
    pub async fn plant_status_counts(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
    ) -> Result<Vec<(i64, i64)>> {
        let (user, company, all) = viewer(visibility, reader);
        let sql = format!(
            "SELECT p.status, COUNT(*) FROM plants p LEFT JOIN plant_shares s \
             ON s.plant_id = p.id AND s.user_id = $1 WHERE {VISIBLE} GROUP BY p.status"
        );
        Ok(rows!(
            self,
            fetch_all,
            (i64, i64),
            &sql,
            user,
            company,
            all
        )?)
    }

    /// Edits a plant and, when `tariff` is given, replaces its tariff, in one transaction.
    pub async fn update_plant(
        &self,
        id: PlantId,
        f: &PlantFields,
        tariff: Option<&[NewTariffSegment]>,
        now: i64,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE plants SET name = $2, plant_type = $3, total_power = $4, join_date = $5, \
                 currency = $6, timezone = $7, address = $8, lon = $9, lat = $10, \
                 image_url = $11, thumb_url = $12, principal = $13, phone = $14, email = $15, \
                 installer = $16, invest = $17, updated_at = $18, tilt = $19, azimuth = $20 \
                 WHERE id = $1",
                id,
                &f.name,
                f.plant_type,
                f.total_power,
                &f.join_date,
                &f.currency,
                &f.timezone,
                &f.address,
                f.lon,
                f.lat,
                &f.image_url,
                &f.thumb_url,
                &f.principal,
                &f.phone,
                &f.email,
                &f.installer,
                f.invest,
                now,
                f.tilt,
                f.azimuth,
            )?;
            if let Some(segments) = tariff {
                tx_exec!(
                    tx,
                    sqlite,
                    "DELETE FROM tariff_segments WHERE plant_id = $1",
                    id
                )?;
                for c in segments {
                    tx_exec!(
                        tx,
                        sqlite,
                        "INSERT INTO tariff_segments (plant_id, kind, start_range, end_range, \
                         price, direction, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                        id,
                        c.kind,
                        &c.start_range,
                        &c.end_range,
                        c.price,
                        c.direction.as_deref(),
                        now
                    )?;
                }
            }
            n == 1
        }))
    }

    pub async fn tariff(&self, plant: PlantId) -> Result<Vec<TariffSegmentRow>> {
        Ok(rows!(
            self,
            fetch_all,
            TariffSegmentRow,
            "SELECT id, plant_id, kind, start_range, end_range, price, direction, created_at \
             FROM tariff_segments WHERE plant_id = $1 ORDER BY id",
            plant
        )?)
    }

    pub async fn share_plant(
        &self,
        plant: PlantId,
        user: UserId,
        role: ShareRole,
        now: i64,
    ) -> Result<()> {
        exec!(
            self,
            "INSERT INTO plant_shares (plant_id, user_id, role, created_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (plant_id, user_id) DO UPDATE SET role = $3",
            plant,
            user,
            role.as_str(),
            now
        )?;
        Ok(())
    }

    pub async fn unshare_plant(&self, plant: PlantId, user: UserId) -> Result<bool> {
        Ok(exec!(
            self,
            "DELETE FROM plant_shares WHERE plant_id = $1 AND user_id = $2",
            plant,
            user
        )? == 1)
    }

    /// Gives a plant's picture and thumbnail new file names, only if they are still `old`
    /// (an edit in between wins); true when they were replaced.
    pub async fn replace_plant_pictures(
        &self,
        plant: PlantId,
        old: (&str, &str),
        new: (&str, &str),
    ) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE plants SET image_url = $2, thumb_url = $3 \
             WHERE id = $1 AND image_url = $4 AND thumb_url = $5",
            plant,
            new.0,
            new.1,
            old.0,
            old.1
        )? == 1)
    }

    pub async fn plant_shares(&self, plant: PlantId) -> Result<Vec<ShareRow>> {
        Ok(rows!(
            self,
            fetch_all,
            ShareRow,
            "SELECT s.user_id, u.account, u.nickname, s.role, s.created_at FROM plant_shares s \
             JOIN users u ON u.id = s.user_id WHERE s.plant_id = $1 ORDER BY s.created_at",
            plant
        )?)
    }

    /// Gives the plant to another account in one transaction: shares with the new owner end
    /// (they own it now), and the plant leaves any company it belonged to only if `company`
    /// says so.
    pub async fn transfer_plant(
        &self,
        plant: PlantId,
        to: UserId,
        company: Option<CompanyId>,
        now: i64,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            tx_exec!(
                tx,
                sqlite,
                "DELETE FROM plant_shares WHERE plant_id = $1 AND user_id = $2",
                plant,
                to
            )?;
            tx_exec!(
                tx,
                sqlite,
                "UPDATE plants SET owner_id = $2, company_id = $3, updated_at = $4 WHERE id = $1",
                plant,
                to,
                company,
                now
            )? == 1
        }))
    }

    /// Deletes a plant with its tariff and shares in one transaction: a failure half way leaves
    /// the plant whole.
    pub async fn delete_plant(&self, plant: PlantId) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            tx_exec!(
                tx,
                sqlite,
                "DELETE FROM tariff_segments WHERE plant_id = $1",
                plant
            )?;
            tx_exec!(
                tx,
                sqlite,
                "DELETE FROM plant_shares WHERE plant_id = $1",
                plant
            )?;
            tx_exec!(tx, sqlite, "DELETE FROM plants WHERE id = $1", plant)? == 1
        }))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_visibility_rule_is_the_company_rule_for_the_viewers_company() {
        let rule = super::company_serves("$2", "p.owner_id", "p.company_id");
        let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(squash(super::VISIBLE).contains(&squash(&rule)), "{rule}");
    }
}
