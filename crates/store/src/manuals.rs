//! Manuals of product models. Administrators list every manual; anyone else sees a manual
//! only while they see a device of its product (the device visibility rule of
//! `store::devices`, written into the same statement).

use domain::ids::{ManualId, ProductId};
use domain::{ids::UserId, manual::ManualFields, policy::PlantVisibility};

use crate::{Result, Store};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ManualRow {
    pub id: ManualId,
    pub product_id: ProductId,
    pub product_name: String,
    pub part_number: String,
    pub category: String,
    pub title: String,
    pub language: String,
    pub version: String,
    pub issued: String,
    pub file_name: String,
    pub stored_name: String,
    pub content_type: String,
    pub size: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A new manual's file as stored.
#[derive(Debug, Clone)]
pub struct ManualFile {
    pub file_name: String,
    pub stored_name: String,
    pub content_type: String,
    pub size: i64,
}

/// What a manual listing asks for.
#[derive(Debug, Clone, Default)]
pub struct ManualFilter {
    pub product: Option<ProductId>,
    /// Part of the title or of the product's name or part number, any case.
    pub keyword: Option<String>,
    pub language: Option<String>,
    pub limit: i64,
    pub offset: i64,
}

const COLUMNS: &str = "m.id, m.product_id, pr.name AS product_name, pr.part_number, pr.category, \
    m.title, m.language, m.version, m.issued, m.file_name, m.stored_name, m.content_type, m.size, \
    m.created_at, m.updated_at";
const FROM: &str = "FROM manuals m JOIN products pr ON pr.id = m.product_id";
/// `$4`-`$6` filter; `$1`-`$3` are the viewer (`plants::viewer`), `$7` all (1) or only the
/// manuals of products the viewer has a device of (0).
const CONDITIONS: &str = "($4 IS NULL OR m.product_id = $4) \
    AND ($5 IS NULL OR LOWER(m.title) LIKE $5 OR LOWER(pr.name) LIKE $5 OR LOWER(pr.part_number) LIKE $5) \
    AND ($6 IS NULL OR m.language = $6)";

/// The manual's product is a device's product the viewer sees (`$1`-`$3`).
fn has_model() -> String {
    format!(
        "EXISTS (SELECT 1 {} WHERE d.product_id = m.product_id AND {})",
        crate::devices::FROM,
        crate::devices::device_visible()
    )
}

impl Store {
    /// A page of manuals, products by name then newest first, with the total: every manual
    /// with `all_models`, else those of the models the viewer has a visible device of.
    pub async fn manuals(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        all_models: bool,
        f: &ManualFilter,
    ) -> Result<(Vec<ManualRow>, i64)> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let keyword = f
            .keyword
            .as_ref()
            .map(|k| format!("%{}%", k.to_lowercase()));
        let scope = format!("($7 = 1 OR {})", has_model());
        let bounds = crate::sql::page(f.limit, f.offset);
        let sql = format!(
            "SELECT {COLUMNS} {FROM} WHERE {CONDITIONS} AND {scope} \
             ORDER BY pr.name, m.id DESC {bounds}"
        );
        let all_models = i64::from(all_models);
        let rows = rows!(
            self,
            fetch_all,
            ManualRow,
            &sql,
            user,
            company,
            all,
            f.product,
            keyword.clone(),
            f.language.clone(),
            all_models
        )?;
        let count = format!("SELECT COUNT(*) {FROM} WHERE {CONDITIONS} AND {scope}");
        let total = scalar!(
            self,
            fetch_one,
            i64,
            &count,
            user,
            company,
            all,
            f.product,
            keyword,
            f.language.clone(),
            all_models
        )?;
        Ok((rows, total))
    }

    /// One manual, if the viewer may have it (see [`Store::manuals`]).
    pub async fn manual(
        &self,
        visibility: PlantVisibility,
        reader: UserId,
        all_models: bool,
        id: ManualId,
    ) -> Result<Option<ManualRow>> {
        let (user, company, all) = crate::plants::viewer(visibility, reader);
        let sql = format!(
            "SELECT {COLUMNS} {FROM} WHERE m.id = $4 AND ($5 = 1 OR {})",
            has_model()
        );
        Ok(rows!(
            self,
            fetch_optional,
            ManualRow,
            &sql,
            user,
            company,
            all,
            id,
            i64::from(all_models)
        )?)
    }

    pub async fn insert_manual(
        &self,
        m: &ManualFields,
        file: &ManualFile,
        now: i64,
    ) -> Result<ManualId> {
        Ok(scalar!(
            self,
            fetch_one,
            ManualId,
            "INSERT INTO manuals (product_id, title, language, version, issued, file_name, \
             stored_name, content_type, size, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING id",
            m.product_id,
            m.title.as_str(),
            m.language.as_str(),
            m.version.as_str(),
            m.issued.as_str(),
            file.file_name.as_str(),
            file.stored_name.as_str(),
            file.content_type.as_str(),
            file.size,
            now
        )?)
    }

    /// Changes a manual's fields, and its file when `file` is given; answers the stored name
    /// of the file it replaced (for the caller to remove), `None` when there is no such manual.
    pub async fn update_manual(
        &self,
        id: ManualId,
        m: &ManualFields,
        file: Option<&ManualFile>,
        now: i64,
    ) -> Result<Option<String>> {
        let old: Option<String> = scalar!(
            self,
            fetch_optional,
            String,
            "SELECT stored_name FROM manuals WHERE id = $1",
            id
        )?;
        let Some(old) = old else { return Ok(None) };
        let n = match file {
            Some(f) => exec!(
                self,
                "UPDATE manuals SET product_id = $2, title = $3, language = $4, version = $5, \
                 issued = $6, file_name = $7, stored_name = $8, content_type = $9, size = $10, \
                 updated_at = $11 WHERE id = $1",
                id,
                m.product_id,
                m.title.as_str(),
                m.language.as_str(),
                m.version.as_str(),
                m.issued.as_str(),
                f.file_name.as_str(),
                f.stored_name.as_str(),
                f.content_type.as_str(),
                f.size,
                now
            )?,
            None => exec!(
                self,
                "UPDATE manuals SET product_id = $2, title = $3, language = $4, version = $5, \
                 issued = $6, updated_at = $7 WHERE id = $1",
                id,
                m.product_id,
                m.title.as_str(),
                m.language.as_str(),
                m.version.as_str(),
                m.issued.as_str(),
                now
            )?,
        };
        Ok((n == 1).then_some(old))
    }

    /// Removes a manual; answers the stored name of its file, `None` when there is none.
    pub async fn delete_manual(&self, id: ManualId) -> Result<Option<String>> {
        Ok(scalar!(
            self,
            fetch_optional,
            String,
            "DELETE FROM manuals WHERE id = $1 RETURNING stored_name",
            id
        )?)
    }
}
