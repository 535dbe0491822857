//! The wire shape of a plant report (`GET /report/plant/{id}`): numbers as numbers, energy in
//! kWh to 2 decimals, dates and times in the plant's zone. Field for field the report
//! `service::reports::build` makes (`service::reports::model`).

use serde::Serialize;
use service::reports::model;
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
    /// Share of the production used on site (not exported), % 0-100; null without production.
    #[schema(required)]
    pub self_consumption: Option<f64>,
    /// Share of the consumption not bought from the grid, % 0-100; null without consumption.
    #[schema(required)]
    pub self_sufficiency: Option<f64>,
    /// What the production earned under the plant's tariff, in its currency.
    pub income: f64,
    /// Highest PV power of the period, W (0 without readings).
    pub peak_power: f64,
    /// When it was reached, plant-local `YYYY-MM-DD HH:MM:SS`.
    #[schema(required)]
    pub peak_power_at: Option<String>,
    /// Expected production of the period, kWh; null without predictions.
    #[schema(required)]
    pub predicted: Option<f64>,
    /// `produced` over `predicted`, %; null without predictions.
    #[schema(required)]
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
    #[schema(required)]
    pub predicted: Option<f64>,
}

/// One 5-minute point of the day's power curves, W (grid + import, battery + discharge).
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct PowerPoint {
    /// `HH:MM`, plant-local.
    pub time: String,
    #[schema(required)]
    pub pv: Option<f64>,
    #[schema(required)]
    pub load: Option<f64>,
    #[schema(required)]
    pub grid: Option<f64>,
    #[schema(required)]
    pub battery: Option<f64>,
}

/// One event that began in the period.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportEvent {
    pub id: i64,
    #[schema(required)]
    pub sn: Option<String>,
    pub code: String,
    /// Its meaning in the caller's language; null for a code the catalogue does not know.
    #[schema(required)]
    pub content: Option<String>,
    /// `info`, `warning` or `fault`.
    pub severity: String,
    /// Plant-local `YYYY-MM-DD HH:MM:SS`.
    pub opened_at: String,
    #[schema(required)]
    pub closed_at: Option<String>,
}

/// A plant's daily, monthly or yearly report.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlantReport {
    pub plant: ReportPlant,
    /// `day`, `month` or `year`.
    #[serde(rename = "type")]
    #[schema(value_type = crate::text_enums::ReportType)]
    pub kind: String,
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
}

/// The caller's monthly e-mail of a plant's report.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionState {
    pub enabled: bool,
    /// Where it goes: the account's e-mail address (null without one).
    #[schema(required)]
    pub email: Option<String>,
    /// The last month sent, `YYYY-MM`.
    #[schema(required)]
    pub last_sent: Option<String>,
}

impl From<model::ReportPlant> for ReportPlant {
    fn from(p: model::ReportPlant) -> Self {
        ReportPlant {
            id: p.id,
            name: p.name,
            capacity: p.capacity,
            address: p.address,
            timezone: p.timezone,
            currency: p.currency,
            kind: p.kind,
            owner_name: p.owner_name,
            company_name: p.company_name,
            company_logo_url: p.company_logo_url,
        }
    }
}

impl From<model::EventCounts> for EventCounts {
    fn from(c: model::EventCounts) -> Self {
        EventCounts {
            fault: c.fault,
            warning: c.warning,
            info: c.info,
        }
    }
}

impl From<model::ReportSummary> for ReportSummary {
    fn from(s: model::ReportSummary) -> Self {
        ReportSummary {
            produced: s.produced,
            consumed: s.consumed,
            imported: s.imported,
            exported: s.exported,
            charged: s.charged,
            discharged: s.discharged,
            generator: s.generator,
            self_consumption: s.self_consumption,
            self_sufficiency: s.self_sufficiency,
            income: s.income,
            peak_power: s.peak_power,
            peak_power_at: s.peak_power_at,
            predicted: s.predicted,
            predicted_ratio: s.predicted_ratio,
            events: s.events.into(),
        }
    }
}

impl From<model::EnergyRow> for EnergyRow {
    fn from(e: model::EnergyRow) -> Self {
        EnergyRow {
            label: e.label,
            produced: e.produced,
            consumed: e.consumed,
            imported: e.imported,
            exported: e.exported,
            charged: e.charged,
            discharged: e.discharged,
            predicted: e.predicted,
        }
    }
}

impl From<model::PowerPoint> for PowerPoint {
    fn from(p: model::PowerPoint) -> Self {
        PowerPoint {
            time: p.time,
            pv: p.pv,
            load: p.load,
            grid: p.grid,
            battery: p.battery,
        }
    }
}

impl From<model::ReportEvent> for ReportEvent {
    fn from(e: model::ReportEvent) -> Self {
        ReportEvent {
            id: e.id,
            sn: e.sn,
            code: e.code,
            content: e.content,
            severity: e.severity,
            opened_at: e.opened_at,
            closed_at: e.closed_at,
        }
    }
}

impl From<model::PlantReport> for PlantReport {
    fn from(r: model::PlantReport) -> Self {
        PlantReport {
            plant: r.plant.into(),
            kind: r.kind,
            date: r.date,
            from: r.from,
            to: r.to,
            generated_at: r.generated_at,
            summary: r.summary.into(),
            energy: r.energy.into_iter().map(Into::into).collect(),
            power: r.power.into_iter().map(Into::into).collect(),
            events: r.events.into_iter().map(Into::into).collect(),
        }
    }
}
