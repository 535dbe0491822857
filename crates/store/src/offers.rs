//! Creating plants for other accounts, with their consent. Company staff may put a plant into a
//! customer's account at once; for anyone else the plant is made in the creator's name and
//! *offered* to the account, which accepts it (becoming the company's customer) or declines.

use domain::ids::PlantId;
use domain::ids::{CompanyId, UserId};

use crate::{
    Result, Store,
    plants::{NewTariffSegment, PlantFields},
};

/// A plant to create with its tariff, in one transaction.
#[derive(Debug, Clone)]
pub struct NewPlant<'a> {
    pub owner: UserId,
    pub company: Option<CompanyId>,
    pub created_by: UserId,
    /// The account asked to accept the plant; `None` for a plant made for its owner.
    pub offered_to: Option<UserId>,
    pub fields: &'a PlantFields,
    pub tariff: &'a [NewTariffSegment],
    pub now: i64,
}

/// A plant waiting for the reader to accept it, with who offers it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OfferRow {
    pub plant_id: PlantId,
    pub name: String,
    pub address: String,
    pub total_power: f64,
    pub plant_type: i64,
    pub company_id: Option<CompanyId>,
    pub company_name: Option<String>,
    pub offered_by: String,
    pub offered_by_name: String,
    pub offered_at: i64,
}

impl Store {
    /// Whether `user` is a customer of `company`.
    pub async fn is_customer(&self, company: CompanyId, user: UserId) -> Result<bool> {
        Ok(scalar!(
            self,
            fetch_optional,
            i64,
            "SELECT id FROM customers WHERE company_id = $1 AND user_id = $2",
            company,
            user
        )?
        .is_some())
    }

    /// Creates a plant with its tariff (and its offer, if any) in one transaction.
    pub async fn create_plant_with_tariff(&self, p: &NewPlant<'_>) -> Result<PlantId> {
        let f = p.fields;
        let offered_at = p.offered_to.map(|_| p.now);
        Ok(in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                PlantId,
                "INSERT INTO plants (name, owner_id, company_id, created_by, plant_type, \
                 total_power, join_date, currency, timezone, address, lon, lat, image_url, \
                 thumb_url, principal, phone, email, installer, invest, offered_to, offered_at, \
                 created_at, updated_at, tilt, azimuth) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, \
                 $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $22, $23, \
                 $24) RETURNING id",
                &f.name,
                p.owner,
                p.company,
                p.created_by,
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
                p.offered_to,
                offered_at,
                p.now,
                f.tilt,
                f.azimuth,
            )?;
            for c in p.tariff {
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO tariff_segments (plant_id, kind, start_range, end_range, price, \
                     direction, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    id,
                    c.kind,
                    &c.start_range,
                    &c.end_range,
                    c.price,
                    c.direction.as_deref(),
                    p.now
                )?;
            }
            id
        }))
    }

    /// The plants waiting for `user` to accept them, newest first.
    pub async fn plant_offers(&self, user: UserId) -> Result<Vec<OfferRow>> {
        Ok(rows!(
            self,
            fetch_all,
            OfferRow,
            "SELECT p.id AS plant_id, p.name, p.address, p.total_power, p.plant_type, \
             p.company_id, c.name AS company_name, u.account AS offered_by, \
             u.nickname AS offered_by_name, p.offered_at \
             FROM plants p JOIN users u ON u.id = p.owner_id \
             LEFT JOIN companies c ON c.id = p.company_id \
             WHERE p.offered_to = $1 AND p.offered_at IS NOT NULL ORDER BY p.offered_at DESC, p.id DESC",
            user
        )?)
    }

    /// `user` takes the plant offered to them: they become its owner and, for a company plant,
    /// the company's customer. `false` when no such offer waits for them.
    pub async fn accept_plant_offer(&self, plant: PlantId, user: UserId, now: i64) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let moved = tx_exec!(
                tx,
                sqlite,
                "UPDATE plants SET owner_id = offered_to, offered_to = NULL, offered_at = NULL, \
                 updated_at = $3 WHERE id = $1 AND offered_to = $2",
                plant,
                user,
                now
            )?;
            if moved == 1 {
                tx_exec!(
                    tx,
                    sqlite,
                    "INSERT INTO customers (company_id, user_id, created_at) \
                     SELECT company_id, $2, $3 FROM plants WHERE id = $1 AND company_id IS NOT NULL \
                     ON CONFLICT (company_id, user_id) DO NOTHING",
                    plant,
                    user,
                    now
                )?;
            }
            moved == 1
        }))
    }

    /// Ends an offer without moving the plant: declined by `user` when given, else withdrawn
    /// by whoever offered it. `false` when there was no such offer.
    pub async fn end_plant_offer(&self, plant: PlantId, user: Option<UserId>) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE plants SET offered_to = NULL, offered_at = NULL \
             WHERE id = $1 AND offered_to IS NOT NULL AND ($2 IS NULL OR offered_to = $2)",
            plant,
            user
        )? == 1)
    }

    /// Makes `user` a customer of `company` (idempotent).
    pub async fn add_customer(&self, company: CompanyId, user: UserId, now: i64) -> Result<()> {
        exec!(
            self,
            "INSERT INTO customers (company_id, user_id, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (company_id, user_id) DO NOTHING",
            company,
            user,
            now
        )?;
        Ok(())
    }
}
