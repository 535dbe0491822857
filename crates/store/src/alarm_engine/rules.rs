//! A company's alarm rules: listing, adding, rewriting and deleting them (each with its audit
//! entry in the same transaction), the defaults a company starts with, and the enabled rules
//! the engine runs.

use domain::ids::{AlarmRuleId, CompanyId, PlantId};

use crate::{Result, Store, audit::NewAudit, audit::NewRowsAudit};

/// A stored rule; `params` is the JSON text of `domain::alarm_rules::ParamsDraft`.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct RuleRow {
    pub id: AlarmRuleId,
    pub company_id: CompanyId,
    pub kind: String,
    pub enabled: bool,
    pub severity: String,
    pub scope: String,
    pub scope_id: Option<i64>,
    pub params: String,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A rule's fields as written.
#[derive(Debug, Clone)]
pub struct RuleWrite<'a> {
    pub kind: &'a str,
    pub enabled: bool,
    pub severity: &'a str,
    pub scope: &'a str,
    pub scope_id: Option<i64>,
    pub params: &'a str,
}

const COLUMNS: &str = "id, company_id, kind, enabled, severity, scope, scope_id, params, \
    created_at, updated_at";

impl Store {
    /// The rules of `company`, oldest first.
    pub async fn alarm_rules(&self, company: CompanyId) -> Result<Vec<RuleRow>> {
        let sql = format!("SELECT {COLUMNS} FROM alarm_rules WHERE company_id = $1 ORDER BY id");
        Ok(rows!(self, fetch_all, RuleRow, &sql, company)?)
    }

    /// One rule of `company`; another company's reads as missing.
    pub async fn alarm_rule(&self, company: CompanyId, id: AlarmRuleId) -> Result<Option<RuleRow>> {
        let sql = format!("SELECT {COLUMNS} FROM alarm_rules WHERE company_id = $1 AND id = $2");
        Ok(rows!(self, fetch_optional, RuleRow, &sql, company, id)?)
    }

    /// Every enabled rule of a company that is not disabled, by company.
    pub async fn enabled_alarm_rules(&self) -> Result<Vec<RuleRow>> {
        let sql = format!(
            "SELECT {} FROM alarm_rules r JOIN companies c ON c.id = r.company_id \
             WHERE r.enabled AND NOT c.disabled ORDER BY r.company_id, r.id",
            COLUMNS
                .split(", ")
                .map(|c| format!("r.{}", c.trim()))
                .collect::<Vec<_>>()
                .join(", ")
        );
        Ok(rows!(self, fetch_all, RuleRow, &sql)?)
    }

    /// Companies that never had the default rules.
    pub async fn companies_without_alarm_rules(&self) -> Result<Vec<CompanyId>> {
        Ok(scalar!(
            self,
            fetch_all,
            CompanyId,
            "SELECT id FROM companies WHERE NOT alarm_rules_seeded ORDER BY id"
        )?)
    }

    /// Gives `company` the `defaults` once in its life; `false` when it had them already (a
    /// replica or a request was first).
    pub async fn seed_alarm_rules(
        &self,
        company: CompanyId,
        defaults: &[RuleWrite<'_>],
        now: i64,
    ) -> Result<bool> {
        in_tx!(self, |tx, sqlite| {
            let n = tx_exec!(
                tx,
                sqlite,
                "UPDATE companies SET alarm_rules_seeded = TRUE \
                 WHERE id = $1 AND NOT alarm_rules_seeded",
                company
            )?;
            if n > 0 {
                for r in defaults {
                    tx_exec!(
                        tx,
                        sqlite,
                        "INSERT INTO alarm_rules (company_id, kind, enabled, severity, scope, \
                         scope_id, params, created_at, updated_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)",
                        company,
                        r.kind,
                        r.enabled,
                        r.severity,
                        r.scope,
                        r.scope_id,
                        r.params,
                        now
                    )?;
                }
            }
            Ok::<bool, crate::StoreError>(n > 0)
        })
    }

    /// A new rule of `company`, with its audit entry (whose detail names the new id).
    pub async fn insert_alarm_rule(
        &self,
        company: CompanyId,
        r: &RuleWrite<'_>,
        now: i64,
        audit: NewRowsAudit<'_, AlarmRuleId>,
    ) -> Result<AlarmRuleId> {
        in_tx!(self, |tx, sqlite| {
            let id = tx_scalar!(
                tx,
                sqlite,
                AlarmRuleId,
                "INSERT INTO alarm_rules (company_id, kind, enabled, severity, scope, scope_id, \
                 params, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) \
                 RETURNING id",
                company,
                r.kind,
                r.enabled,
                r.severity,
                r.scope,
                r.scope_id,
                r.params,
                now
            )?;
            let (target, detail) = (audit.describe)(id);
            let entry = NewAudit {
                target: &target,
                detail: &detail,
                ..audit.entry.clone()
            };
            audit_in_tx!(tx, sqlite, &entry)?;
            Ok::<AlarmRuleId, crate::StoreError>(id)
        })
    }

    /// Rewrites a rule of `company` (its kind stays); `false` when there is none.
    pub async fn update_alarm_rule(
        &self,
        company: CompanyId,
        id: AlarmRuleId,
        r: &RuleWrite<'_>,
        audit: &NewAudit<'_>,
        now: i64,
    ) -> Result<bool> {
        Ok(exec_audited!(
            self,
            Some(audit),
            "UPDATE alarm_rules SET enabled = $3, severity = $4, scope = $5, scope_id = $6, \
             params = $7, updated_at = $8 WHERE company_id = $1 AND id = $2",
            company,
            id,
            r.enabled,
            r.severity,
            r.scope,
            r.scope_id,
            r.params,
            now
        ) > 0)
    }

    /// Deletes a rule of `company`, closing its live cases first (they keep their history);
    /// `false` when there is none.
    pub async fn delete_alarm_rule(
        &self,
        company: CompanyId,
        id: AlarmRuleId,
        audit: &NewAudit<'_>,
        now: i64,
    ) -> Result<bool> {
        let live = self.live_cases_of_rule(id).await?;
        in_tx!(self, |tx, sqlite| {
            let exists = tx_scalar!(
                tx,
                sqlite,
                i64,
                "SELECT COUNT(*) FROM alarm_rules WHERE company_id = $1 AND id = $2",
                company,
                id
            )?;
            if exists == 0 {
                return Ok(false);
            }
            for c in &live {
                close_case_in_tx!(tx, sqlite, c.id, now);
            }
            tx_exec!(
                tx,
                sqlite,
                "DELETE FROM alarm_rules WHERE company_id = $1 AND id = $2",
                company,
                id
            )?;
            audit_in_tx!(tx, sqlite, audit)?;
            Ok::<bool, crate::StoreError>(true)
        })
    }

    /// Whether `company` serves plant `plant` (its own, its customer's, its agent's).
    pub async fn company_serves_plant(&self, company: CompanyId, plant: PlantId) -> Result<bool> {
        let sql = format!(
            "SELECT COUNT(*) FROM plants p WHERE p.id = $2 AND {}",
            crate::plants::company_serves("$1", "p.owner_id", "p.company_id")
        );
        Ok(scalar!(self, fetch_one, i64, &sql, company, plant)? > 0)
    }

    /// Whether `customer` (a `customers` row) is one of `company`'s.
    pub async fn company_has_customer_row(
        &self,
        company: CompanyId,
        customer: i64,
    ) -> Result<bool> {
        Ok(scalar!(
            self,
            fetch_one,
            i64,
            "SELECT COUNT(*) FROM customers WHERE company_id = $1 AND id = $2",
            company,
            customer
        )? > 0)
    }
}
