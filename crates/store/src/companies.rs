//! Companies (installers, distributors, agents) and their branding.

use domain::ids::CompanyId;

use crate::{Result, Store, conflict};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CompanyRow {
    pub id: i64,
    pub name: String,
    pub contact_name: String,
    pub email: String,
    pub phone: String,
    pub address: String,
    pub remark: String,
    pub logo_url: String,
    pub icon_url: String,
    pub theme_color: String,
    pub created_at: i64,
}

const COLUMNS: &str = "id, name, contact_name, email, phone, address, remark, logo_url, icon_url, \
    theme_color, created_at";

impl Store {
    /// Creates a company; a taken name answers `Conflict("companies")`.
    pub async fn create_company(&self, name: &str, now: i64) -> Result<CompanyId> {
        let id: i64 = scalar!(
            self,
            fetch_one,
            i64,
            "INSERT INTO companies (name, created_at) VALUES ($1, $2) RETURNING id",
            name,
            now
        )
        .map_err(|e| conflict(e, "companies"))?;
        Ok(CompanyId(id))
    }

    pub async fn company(&self, id: CompanyId) -> Result<Option<CompanyRow>> {
        let sql = format!("SELECT {COLUMNS} FROM companies WHERE id = $1");
        Ok(rows!(self, fetch_optional, CompanyRow, &sql, id.0)?)
    }

    pub async fn company_by_name(&self, name: &str) -> Result<Option<CompanyRow>> {
        let sql = format!("SELECT {COLUMNS} FROM companies WHERE name = $1");
        Ok(rows!(self, fetch_optional, CompanyRow, &sql, name)?)
    }

    pub async fn set_company_theme(&self, id: CompanyId, color: &str) -> Result<bool> {
        Ok(exec!(
            self,
            "UPDATE companies SET theme_color = $2 WHERE id = $1",
            id.0,
            color
        )? == 1)
    }
}
