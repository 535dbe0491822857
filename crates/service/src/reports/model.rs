//! A plant report as the builder makes it: numbers as numbers, energy in kWh to 2 decimals,
//! dates and times in the plant's zone. The API answers it as it is (these types are its wire
//! shape, `GET /report/plant/{id}`); the workbook writes the same figures.

use serde::Serialize;
use utoipa::ToSchema;

/// The plant a report is about, as its header shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportPlant {
    pub id: i64,
    pub name: String,
    /// Installed power, kWp.
    pub capacity: f64,
    pub address: String,
    pub timezone: String,
    /// Currency code of the income.
    pub currency: String,
    /// The plant type code.
    #[serde(rename = "type")]
    pub kind: i64,
    pub owner_name: Option<String>,
    pub company_name: Option<String>,
    pub company_logo_url: Option<String>,
}

/// How many events of each severity began in the period.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct EventCounts {
    pub fault: i64,
    pub warning: i64,
    pub info: i64,
}

/// The period's totals.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportSummary {
    pub produced: f64,
    pub consumed: f64,
    pub imported: f64,
    pub exported: f64,
    pub charged: f64,
    pub discharged: f64,
    pub generator: f64,
    /// Share of the production used on site (directly or through the battery), % 0-100: the
    /// figures' `selfConsumption` (the battery's grid charge taken out); null without
    /// production or what it needs.
    pub self_consumption: Option<f64>,
    /// Share of the consumption solar energy covered, % 0-100: the figures'
    /// `selfSufficiency`; null without consumption or what it needs.
    pub self_sufficiency: Option<f64>,
    /// What the production earned under the plant's tariff, in its currency.
    pub income: f64,
    /// Highest PV power of the period, W (0 without readings).
    pub peak_power: f64,
    /// When it was reached, plant-local `YYYY-MM-DD HH:MM:SS`.
    pub peak_power_at: Option<String>,
    /// Expected production of the period, kWh; null without predictions.
    pub predicted: Option<f64>,
    /// `produced` over `predicted`, %; null without predictions.
    pub predicted_ratio: Option<f64>,
    pub events: EventCounts,
}

/// One bar of the energy table: an hour (`00`-`23`), a day (`01`-`31`) or a month (`01`-`12`).
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct EnergyRow {
    pub label: String,
    pub produced: f64,
    pub consumed: f64,
    pub imported: f64,
    pub exported: f64,
    pub charged: f64,
    pub discharged: f64,
    /// Expected production, kWh; null without a prediction for it.
    pub predicted: Option<f64>,
}

/// One 5-minute point of the day's power curves, W (grid + import, battery + discharge).
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct PowerPoint {
    /// `HH:MM`, plant-local.
    pub time: String,
    pub pv: Option<f64>,
    pub load: Option<f64>,
    pub grid: Option<f64>,
    pub battery: Option<f64>,
}

/// One event that began in the period.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportEvent {
    pub id: i64,
    pub sn: Option<String>,
    pub code: String,
    /// Its meaning in the caller's language; null for a code the catalogue does not know.
    pub content: Option<String>,
    /// `info`, `warning` or `fault`.
    pub severity: String,
    /// Plant-local `YYYY-MM-DD HH:MM:SS`.
    pub opened_at: String,
    pub closed_at: Option<String>,
}

/// The period a plant report covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReportType {
    Day,
    Month,
    Year,
}

/// A plant's daily, monthly or yearly report.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantReport {
    pub plant: ReportPlant,
    #[serde(rename = "type")]
    pub kind: ReportType,
    /// As asked: `YYYY-MM-DD`, `YYYY-MM` or `YYYY`.
    pub date: String,
    /// First and last plant-local day of the period, `YYYY-MM-DD`.
    pub from: String,
    pub to: String,
    /// UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub generated_at: String,
    pub summary: ReportSummary,
    pub energy: Vec<EnergyRow>,
    /// The day's 5-minute curves; empty for a month or a year.
    pub power: Vec<PowerPoint>,
    /// Newest first, at most 200.
    pub events: Vec<ReportEvent>,
    /// The plant figures of the period (`GET /api/v1/plant/{id}/figures`).
    pub figures: crate::figures::PlantFigures,
    /// A month's figures of each of its days, for the workbook's Energy sheet (empty for a day
    /// or a year). Not in the answer: its days are the figures endpoint's.
    #[serde(skip)]
    #[schema(ignore)]
    pub day_figures: Vec<crate::figures::PlantFigures>,
}
