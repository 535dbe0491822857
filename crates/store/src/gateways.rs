//! The registry of gateways and devices: what exists, and which plant it belongs to.

use domain::ids::{CompanyId, DeviceId, GatewayId, PlantId};
use domain::{DeviceFamily, ids::UserId, policy::PlantVisibility};

use crate::{Conflict, Result, Store, StoreError, audit::NewAudit};

/// A gateway as the factory registers it.
#[derive(Debug, Clone, Copy)]
pub struct NewGateway<'a> {
    pub sn: &'a str,
    pub reg_key: &'a str,
    pub protocol: &'a str,
    pub model: &'a str,
    pub comm_type: &'a str,
}

/// The detail of a registration's audit entry, made from the new ids (`None` for a known SN),
/// or `None` for no entry.
pub type RegistrationDetail<'a> = dyn Fn(&[Option<GatewayId>]) -> Option<String> + Sync + 'a;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GatewayRow {
    pub id: GatewayId,
    pub sn: String,
    pub reg_key: String,
    /// The next key while a rotation is under way (see [`Store::set_pending_gateway_key`]).
    pub pending_key: Option<String>,
    pub key_changed_at: Option<i64>,
    pub alias: String,
    pub protocol: String,
    pub model: String,
    pub comm_type: String,
    pub soft_ver: String,
    pub hard_ver: String,
    pub signal: Option<i64>,
    pub upload_cycle: i64,
    pub plant_id: Option<PlantId>,
    pub owner_id: Option<UserId>,
    pub company_id: Option<CompanyId>,
    pub online: bool,
    pub last_online: Option<i64>,
    /// When it last signed in (ms): see [`Store::gateways_signed_in`].
    pub signed_in_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DeviceRow {
    pub id: DeviceId,
    pub sn: String,
    pub gateway_id: Option<GatewayId>,
    pub plant_id: Option<PlantId>,
    #[sqlx(try_from = "String")]
    pub family: DeviceFamily,
    pub type_code: i64,
    pub protocol: String,
    pub alias: String,
    pub model: String,
    pub rated_power: f64,
    pub versions: String,
    pub parent_sn: Option<String>,
    pub status: i64,
    pub online: bool,
    pub last_seen: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

const GATEWAY_COLUMNS: &str = "id, sn, reg_key, pending_key, key_changed_at, alias, protocol, \
    model, comm_type, soft_ver, hard_ver, signal, upload_cycle, plant_id, owner_id, company_id, online, last_online, \
    signed_in_at, created_at, updated_at";
const DEVICE_COLUMNS: &str = "id, sn, gateway_id, plant_id, family, type_code, protocol, alias, \
    model, rated_power, versions, parent_sn, status, online, last_seen, created_at, updated_at";

impl Store {
    /// Registers a gateway (SN and registration key); a known SN answers
    /// `Conflict::GatewaySn`.
    pub async fn create_gateway(
        &self,
        sn: &str,
        reg_key: &str,
        protocol: &str,
        now: i64,
    ) -> Result<GatewayId> {
        self.register_gateway(sn, reg_key, protocol, "", "", now)
            .await?
            .ok_or(StoreError::Conflict(Conflict::GatewaySn))
    }

    /// Registers a gateway with its model and communication type (as the factory names them);
    /// `None` when the SN is already registered (a batch counts those, it does not fail).
    pub async fn register_gateway(
        &self,
        sn: &str,
        reg_key: &str,
        protocol: &str,
        model: &str,
        comm_type: &str,
        now: i64,
    ) -> Result<Option<GatewayId>> {
        Ok(scalar!(
            self,
            fetch_optional,
            GatewayId,
            "INSERT INTO gateways (sn, reg_key, protocol, model, comm_type, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (sn) DO NOTHING RETURNING id",
            sn,
            reg_key,
            protocol,
            model,
            comm_type,
            now
        )?)
    }

    /// Registers `gateways` (a known SN is skipped: `None` in its place of the answer) and the
    /// entry `audit` makes of the outcomes (none when it answers `None`), in one transaction:
    /// the factory's registrations and their record commit or roll back together.
    pub async fn register_gateways(
        &self,
        gateways: &[NewGateway<'_>],
        now: i64,
        audit: (&NewAudit<'_>, &RegistrationDetail<'_>),
    ) -> Result<Vec<Option<GatewayId>>> {
        let (entry, detail_of) = audit;
        Ok(in_tx!(self, |tx, sqlite| {
            let mut ids = Vec::with_capacity(gateways.len());
            for g in gateways {
                let id = tx_rows!(
                    tx,
                    sqlite,
                    fetch_optional,
                    (GatewayId,),
                    "INSERT INTO gateways (sn, reg_key, protocol, model, comm_type, created_at, \
                     updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6) \
                     ON CONFLICT (sn) DO NOTHING RETURNING id",
                    g.sn,
                    g.reg_key,
                    g.protocol,
                    g.model,
                    g.comm_type,
                    now
                )?;
                ids.push(id.map(|(id,)| id));
            }
            if let Some(detail) = detail_of(&ids) {
                let entry = NewAudit {
                    detail: &detail,
                    ..entry.clone()
                };
                audit_in_tx!(tx, sqlite, &entry)?;
            }
            ids
        }))
    }

    /// Makes an unplaced gateway the stock of `owner` (and `company`), or frees it with `None`.
    /// Answers `false` when the gateway is on a plant (or missing): the condition is part of
    /// the statement. `audit` is written, in the same transaction, when the change is made.
    pub async fn set_gateway_holder(
        &self,
        gateway: GatewayId,
        owner: Option<UserId>,
        company: Option<CompanyId>,
        now: i64,
        audit: &NewAudit<'_>,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            Some(audit),
            "UPDATE gateways SET owner_id = $2, company_id = $3, updated_at = $4 \
             WHERE id = $1 AND plant_id IS NULL",
            gateway,
            owner,
            company,
            now
        ) == 1)
    }

    pub async fn gateway_by_sn(&self, sn: &str) -> Result<Option<GatewayRow>> {
        let sql = format!("SELECT {GATEWAY_COLUMNS} FROM gateways WHERE sn = $1");
        Ok(rows!(self, fetch_optional, GatewayRow, &sql, sn)?)
    }

    pub async fn gateway(&self, id: GatewayId) -> Result<Option<GatewayRow>> {
        let sql = format!("SELECT {GATEWAY_COLUMNS} FROM gateways WHERE id = $1");
        Ok(rows!(self, fetch_optional, GatewayRow, &sql, id)?)
    }

    /// The upload cycle (s) of each of these gateways that exists, one query.
    pub async fn gateway_upload_cycles(&self, ids: &[GatewayId]) -> Result<Vec<(GatewayId, i64)>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT id, upload_cycle FROM gateways WHERE id IN ({})",
            crate::sql::placeholders(1, ids.len())
        );
        Ok(with_ids!(self, (GatewayId, i64), sql, [], ids)?)
    }

    pub async fn plant_gateways(&self, plant: PlantId) -> Result<Vec<GatewayRow>> {
        let sql = format!("SELECT {GATEWAY_COLUMNS} FROM gateways WHERE plant_id = $1 ORDER BY sn");
        Ok(rows!(self, fetch_all, GatewayRow, &sql, plant)?)
    }

    /// Binds a gateway and the devices behind it to a plant, recording who bound it, in one
    /// transaction.
    pub async fn bind_gateway(
        &self,
        gateway: GatewayId,
        plant: PlantId,
        owner: UserId,
        company: Option<CompanyId>,
        now: i64,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE gateways SET plant_id = $2, owner_id = $3, company_id = $4, \
                 updated_at = $5 WHERE id = $1",
                gateway,
                plant,
                owner,
                company,
                now
            )?;
            tx_exec!(tx, sqlite, DEVICES_FOLLOW, gateway, Some(plant), now)?;
            n == 1
        }))
    }

    /// Unbinds a gateway and its devices from their plant, with `audit` (none for a store test)
    /// when the gateway was there, in one transaction; history stays with the plant.
    pub async fn unbind_gateway(
        &self,
        gateway: GatewayId,
        now: i64,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            tx_exec!(
                tx,
                sqlite,
                "UPDATE devices SET plant_id = NULL, updated_at = $2 WHERE gateway_id = $1",
                gateway,
                now
            )?;
            let unbound = tx_exec!(
                tx,
                sqlite,
                "UPDATE gateways SET plant_id = NULL, owner_id = NULL, company_id = NULL, \
                 updated_at = $2 WHERE id = $1",
                gateway,
                now
            )? == 1;
            if let Some(a) = audit.filter(|_| unbound) {
                audit_in_tx!(tx, sqlite, a)?;
            }
            unbound
        }))
    }

    pub async fn device_by_sn(&self, sn: &str) -> Result<Option<DeviceRow>> {
        let sql = format!("SELECT {DEVICE_COLUMNS} FROM devices WHERE sn = $1");
        Ok(rows!(self, fetch_optional, DeviceRow, &sql, sn)?)
    }

    pub async fn gateway_devices(&self, gateway: GatewayId) -> Result<Vec<DeviceRow>> {
        let sql = format!("SELECT {DEVICE_COLUMNS} FROM devices WHERE gateway_id = $1 ORDER BY sn");
        Ok(rows!(self, fetch_all, DeviceRow, &sql, gateway)?)
    }

    pub async fn plant_devices(&self, plant: PlantId) -> Result<Vec<DeviceRow>> {
        let sql =
            format!("SELECT {DEVICE_COLUMNS} FROM devices WHERE plant_id = $1 ORDER BY family, sn");
        Ok(rows!(self, fetch_all, DeviceRow, &sql, plant)?)
    }

    /// Records a device a gateway reports, or updates what it says about an existing one. The
    /// device follows its gateway's plant.
    #[allow(clippy::too_many_arguments)]
    pub async fn upsert_device(
        &self,
        sn: &str,
        gateway: GatewayId,
        family: DeviceFamily,
        type_code: i64,
        protocol: &str,
        model: &str,
        parent_sn: Option<&str>,
        now: i64,
    ) -> Result<DeviceId> {
        Ok(scalar!(
            self,
            fetch_one,
            DeviceId,
            "INSERT INTO devices (sn, gateway_id, plant_id, family, type_code, protocol, model, \
             parent_sn, created_at, updated_at) \
             VALUES ($1, $2, (SELECT plant_id FROM gateways WHERE id = $2), $3, $4, $5, $6, $7, $8, $8) \
             ON CONFLICT (sn) DO UPDATE SET gateway_id = $2, \
               plant_id = (SELECT plant_id FROM gateways WHERE id = $2), family = $3, \
               type_code = $4, protocol = $5, model = $6, parent_sn = $7, updated_at = $8 \
             RETURNING id",
            sn,
            gateway,
            family.as_str(),
            type_code,
            protocol,
            model,
            parent_sn,
            now
        )?)
    }
}

/// What a gateway listing asks for.
#[derive(Debug, Clone, Default)]
pub struct GatewayFilter {
    pub online: Option<bool>,
    pub upload_cycle: Option<i64>,
    pub protocol: Option<String>,
    /// The company the gateway or its plant belongs to (the lists' `agentCompanyId`).
    pub company: Option<CompanyId>,
    /// The account holding the gateway or owning its plant (the list's `customerId`).
    pub customer: Option<UserId>,
    /// Upper-case part of the SN.
    pub sn: Option<String>,
    /// Only the gateways of this plant.
    pub plant: Option<PlantId>,
    /// `Some(true)` only gateways on a plant, `Some(false)` only stock (on none).
    pub placed: Option<bool>,
    /// Upper-case part of the SN, alias or model.
    pub keyword: Option<String>,
    /// Only these gateways (a follow-up of some of them, such as a restart's).
    pub ids: Option<Vec<GatewayId>>,
    pub limit: i64,
    pub offset: i64,
}

/// A gateway as a listing shows it: the registry row and the name of its plant.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GatewayListRow {
    #[sqlx(flatten)]
    pub gateway: GatewayRow,
    pub plant_name: Option<String>,
}

/// Who a gateway is given to: an account (and its company), and a plant when it is placed on
/// one. A gateway with a holder but no plant is the holder's stock.
#[derive(Debug, Clone, Copy)]
pub struct Holder {
    pub plant: Option<PlantId>,
    pub owner: UserId,
    pub company: Option<CompanyId>,
}

/// Takes gateway `$1` for the holder `$2`-`$4` at `$5` while it is off any plant and free or
/// held by account `$6` (or its company `$7`); shared by claiming and replacing.
pub(crate) const TAKE: &str = "UPDATE gateways SET plant_id = $2, owner_id = $3, company_id = $4, \
    updated_at = $5 WHERE id = $1 AND plant_id IS NULL AND ((owner_id IS NULL AND company_id IS NULL) \
    OR owner_id = $6 OR ($7 IS NOT NULL AND company_id = $7))";
/// Puts the devices behind gateway `$1` on plant `$2` (or none) at `$3`.
pub(crate) const DEVICES_FOLLOW: &str =
    "UPDATE devices SET plant_id = $2, updated_at = $3 WHERE gateway_id = $1";

const LIST_COLUMNS: &str = "g.id, g.sn, g.reg_key, g.pending_key, g.key_changed_at, g.alias, g.protocol, g.model, g.comm_type, \
    g.soft_ver, g.hard_ver, g.signal, g.upload_cycle, g.plant_id, g.owner_id, g.company_id, \
    g.online, g.last_online, g.signed_in_at, g.created_at, g.updated_at, p.name AS plant_name";

/// Gateways and their plant as seen by `$1` (see `plants::VISIBLE` for `$1`-`$3`).
const LIST_FROM: &str = "FROM gateways g LEFT JOIN plants p ON p.id = g.plant_id \
    LEFT JOIN plant_shares s ON s.plant_id = p.id AND s.user_id = $1";

/// A viewer sees the gateways on plants they can see (the plants' own rule) and the stock held
/// by them, their company or their company's agents; internal staff see the whole registry,
/// unbound gateways too.
fn gateway_visible() -> String {
    format!(
        "({} OR (g.plant_id IS NULL AND (g.owner_id = $1 OR ($2 IS NOT NULL AND (g.company_id = $2 \
         OR g.company_id IN (SELECT ag.agent_company_id FROM agents ag WHERE ag.company_id = $2))))))",
        crate::plants::VISIBLE
    )
}

/// The count of the gateways on the viewer's plants from the plants' kept counts (migration
/// 0049) when the list narrows them by plant or placement alone: one column summed over the
/// visible plants, no gateway read. The gateways off any plant are counted apart. Any other
/// filter is on the gateway, so `None`: the gateways are counted.
fn kept_count(f: &GatewayFilter) -> Option<String> {
    let GatewayFilter {
        plant,
        placed,
        online: None,
        upload_cycle: None,
        protocol: None,
        company: None,
        customer: None,
        sn: None,
        keyword: None,
        ids: None,
        limit: _,
        offset: _,
    } = f
    else {
        return None;
    };
    if *placed == Some(false) {
        return Some("SELECT 0".to_string());
    }
    Some(crate::plants::kept_sum(
        "p.gateway_count",
        "$9",
        plant.is_some(),
    ))
}

impl Store {
    /// A page of the gateways `visibility` allows, with the total count before paging.
    pub async fn gateways_visible(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        filter: &GatewayFilter,
    ) -> Result<(Vec<GatewayListRow>, i64)> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let sn = filter
            .sn
            .as_ref()
            .map(|s| format!("%{}%", s.to_uppercase()));
        let conditions = format!(
            "{} AND ($4 IS NULL OR g.online = $4) AND ($5 IS NULL OR g.upload_cycle = $5) \
             AND ($6 IS NULL OR g.protocol = $6) \
             AND ($7 IS NULL OR g.company_id = $7 OR p.company_id = $7) \
             AND ($8 IS NULL OR UPPER(g.sn) LIKE $8) AND ($9 IS NULL OR g.plant_id = $9) \
             AND ($10 IS NULL OR g.owner_id = $10 OR p.owner_id = $10) \
             AND ($11 IS NULL OR (g.plant_id IS NOT NULL) = $11) \
             AND ($12 IS NULL OR UPPER(g.sn) LIKE $12 OR UPPER(g.alias) LIKE $12 \
                  OR UPPER(g.model) LIKE $12) \
             AND ($13 IS NULL OR $13 LIKE ('%,' || CAST(g.id AS TEXT) || ',%'))",
            gateway_visible()
        );
        // The ids as one text `,1,2,3,` (a list of any length in one parameter on both
        // backends).
        let ids = filter.ids.as_ref().map(|ids| {
            let listed: Vec<String> = ids.iter().map(|id| id.0.to_string()).collect();
            format!(",{},", listed.join(","))
        });
        let keyword = filter
            .keyword
            .as_ref()
            .map(|k| format!("%{}%", k.to_uppercase()));
        let bounds = crate::sql::page(filter.limit, filter.offset);
        let total = match kept_count(filter) {
            Some(on_plants) => format!(
                "({on_plants}) + (SELECT COUNT(*) {LIST_FROM} WHERE g.plant_id IS NULL AND {conditions})"
            ),
            None => format!("(SELECT COUNT(*) {LIST_FROM} WHERE {conditions})"),
        };
        let sql = format!(
            "SELECT {LIST_COLUMNS}, {total} AS total {LIST_FROM} WHERE {conditions} \
             ORDER BY g.id DESC {bounds}"
        );
        Ok(counted_page!(
            self,
            GatewayListRow,
            &sql,
            total,
            user,
            company,
            all,
            filter.online,
            filter.upload_cycle,
            filter.protocol.as_deref(),
            filter.company,
            sn.as_deref(),
            filter.plant,
            filter.customer,
            filter.placed,
            keyword.as_deref(),
            ids.as_deref()
        ))
    }

    /// One gateway, by id or by SN (exactly one of them given), if `visibility` lets the reader
    /// see it. One statement whether the gateway is missing or someone else's, so neither the
    /// answer nor its timing tells the two apart.
    pub async fn gateway_visible(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        id: Option<GatewayId>,
        sn: Option<&str>,
    ) -> Result<Option<GatewayListRow>> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let sql = format!(
            "SELECT {LIST_COLUMNS} {LIST_FROM} WHERE {} \
             AND ($4 IS NULL OR g.id = $4) AND ($5 IS NULL OR g.sn = $5) \
             AND ($4 IS NOT NULL OR $5 IS NOT NULL)",
            gateway_visible()
        );
        Ok(rows!(
            self,
            fetch_optional,
            GatewayListRow,
            &sql,
            user,
            company,
            all,
            id,
            sn
        )?)
    }

    /// How many visible gateways there are, and how many of them are online.
    pub async fn gateway_counts(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
    ) -> Result<(i64, i64)> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let sql = format!(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN g.online THEN 1 ELSE 0 END), 0) \
             {LIST_FROM} WHERE {}",
            gateway_visible()
        );
        Ok(rows!(
            self,
            fetch_one,
            (i64, i64),
            &sql,
            user,
            company,
            all
        )?)
    }

    /// Gives a gateway (and the devices behind it) to `to`, but only while it is off any plant
    /// and either free or already held by `by` (an account and its company). Answers whether it
    /// was taken; the condition is checked in the same statement, so two callers racing for one
    /// gateway cannot both win, and the devices follow in the same transaction.
    pub async fn take_gateway(
        &self,
        gateway: GatewayId,
        to: &Holder,
        by: (UserId, Option<CompanyId>),
        now: i64,
    ) -> Result<bool> {
        Ok(in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx, sqlite, TAKE, gateway, to.plant, to.owner, to.company, now, by.0, by.1
            )?;
            if n == 1 {
                tx_exec!(tx, sqlite, DEVICES_FOLLOW, gateway, to.plant, now)?;
            }
            n == 1
        }))
    }

    /// Removes a gateway from the registry, only while nobody holds it; its devices stay
    /// registered without a gateway. `audit` (none for a store test) is written, in the same
    /// transaction, when the gateway goes.
    pub async fn delete_gateway(
        &self,
        gateway: GatewayId,
        audit: Option<&NewAudit<'_>>,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            audit,
            "DELETE FROM gateways WHERE id = $1 AND plant_id IS NULL AND owner_id IS NULL \
             AND company_id IS NULL",
            gateway
        ) == 1)
    }
}
