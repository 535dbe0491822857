//! What the product routes read and answer.

use domain::product::ProductInput;
use serde::{Deserialize, Serialize};
use store::products::{HardwareRow, ProductRow};
use utoipa::ToSchema;

use crate::{extract::num, plants::update_at, users::create_at};

/// A hardware version of a product.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductHardware {
    pub id: i64,
    pub version: String,
    pub remark: String,
}

/// The categories of the catalogue (`domain::product::Category`), the only ones a product has.
fn category_schema() -> utoipa::openapi::Object {
    crate::openapi::one_of_text(
        "`inverter`, `gateway`, `battery` or `meter`.",
        domain::product::Category::ALL.map(domain::product::Category::as_str),
    )
}

/// A product of the catalogue.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Product {
    pub id: i64,
    /// `inverter`, `gateway`, `battery` or `meter`.
    #[schema(schema_with = category_schema)]
    pub category: String,
    pub name: String,
    pub part_number: String,
    pub manufacturer: String,
    /// The secondary label of the inverter-type tree (inverters); null when none.
    pub type_id: Option<i64>,
    pub type_name: Option<String>,
    /// Watts (inverters); null when unknown.
    pub rated_power: Option<f64>,
    pub remark: String,
    pub hardware: Vec<ProductHardware>,
    /// Firmware files that name the product.
    pub firmware_count: i64,
    /// Devices that are this product.
    pub device_count: i64,
    pub create_at: String,
    pub update_at: String,
}

impl Product {
    pub fn of(p: &ProductRow, hardware: &[HardwareRow]) -> Product {
        Product {
            id: p.id.0,
            category: p.category.clone(),
            name: p.name.clone(),
            part_number: p.part_number.clone(),
            manufacturer: p.manufacturer.clone(),
            type_id: p.type_id.map(|v| v.0),
            type_name: p.type_name.clone(),
            rated_power: p.rated_power,
            remark: p.remark.clone(),
            hardware: hardware
                .iter()
                .filter(|h| h.product_id == p.id)
                .map(|h| ProductHardware {
                    id: h.id.0,
                    version: h.version.clone(),
                    remark: h.remark.clone(),
                })
                .collect(),
            firmware_count: p.firmware_count,
            device_count: p.device_count,
            create_at: create_at(p.created_at),
            update_at: update_at(p.updated_at),
        }
    }
}

/// A hardware version with its product, as `GET /hardware` lists it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Hardware {
    pub id: i64,
    pub product_id: i64,
    pub product_name: String,
    pub version: String,
    pub remark: String,
}

impl From<&HardwareRow> for Hardware {
    fn from(h: &HardwareRow) -> Self {
        Hardware {
            id: h.id.0,
            product_id: h.product_id.0,
            product_name: h.product_name.clone(),
            version: h.version.clone(),
            remark: h.remark.clone(),
        }
    }
}

/// A hardware version as sent: its text, or an object with `version`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum HardwareIn {
    Version(String),
    Object { version: String },
}

/// A product as sent to add or edit it.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductRequest {
    /// 1-64 characters.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub name: Option<String>,
    /// 1-40 letters, digits and `-_./`; unique.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub part_number: Option<String>,
    /// `inverter`, `gateway`, `battery` or `meter`.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub category: Option<String>,
    /// At most 64 characters.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub manufacturer: Option<String>,
    /// A secondary label of the inverter-type tree (inverters only).
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub type_id: Option<i64>,
    /// Watts (inverters only).
    #[serde(default, deserialize_with = "num::opt_f64")]
    pub rated_power: Option<f64>,
    /// At most 200 characters.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub remark: Option<String>,
    /// The hardware versions (each 1-32 characters, at most 50); an edit replaces the list.
    #[serde(default)]
    pub hardware: Vec<HardwareIn>,
}

impl ProductRequest {
    pub fn input(self) -> ProductInput {
        ProductInput {
            name: self.name,
            part_number: self.part_number,
            category: self.category,
            manufacturer: self.manufacturer,
            type_id: self.type_id,
            rated_power: self.rated_power,
            remark: self.remark,
            hardware: self
                .hardware
                .into_iter()
                .map(|h| match h {
                    HardwareIn::Version(v) | HardwareIn::Object { version: v } => v,
                })
                .collect(),
        }
    }
}

/// The inverter and the product it is.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InverterProductRequest {
    #[serde(default, deserialize_with = "num::opt_text")]
    pub sn: Option<String>,
    /// Null clears it.
    #[serde(default, deserialize_with = "num::opt_i64")]
    pub product_id: Option<i64>,
}
