//! Plant reports: a day, month or year of one plant (energy, self-consumption, income, peak
//! power, predicted generation, events), built by [`build`] for the report page, its workbook
//! ([`sheet`]) and the monthly report e-mail ([`month_workbook`], which `jobs` attaches); and
//! the subscriptions to that e-mail.

mod build;
mod day;
pub mod model;
mod peak;
pub mod period;
pub mod sheet;

pub use build::build;
pub use period::Period;

use domain::{DomainError, Lang, policy::Actor};
use store::{Store, plants::PlantRow, users::UserRow};

use crate::{
    ServiceError,
    curves::{CurveCaches, PlantDevices},
    xlsx::XlsxError,
};

/// Where a user's reports go: the account's e-mail, or the account itself when it is one.
pub fn address(user: &UserRow) -> Option<String> {
    [&user.email, &user.account]
        .into_iter()
        .map(|a| a.trim())
        .find(|a| a.contains('@'))
        .map(String::from)
}

/// Subscribes the actor to the plant's monthly report e-mail, in `lang` (sent on the 1st of
/// each month in the plant's zone with the month's workbook), or stops it. Anyone who can see
/// the plant may (4 `id` otherwise); subscribing needs an e-mail address (4 `email`).
pub async fn subscribe(
    store: &Store,
    actor: &Actor,
    plant: &PlantRow,
    enabled: bool,
    lang: Lang,
    now: i64,
) -> crate::Result<()> {
    if actor.plant_access(&plant.scope()).is_none() {
        return Err(DomainError::invalid("id").into());
    }
    if enabled {
        let user = store.user(actor.id).await?;
        if user.as_ref().and_then(address).is_none() {
            return Err(DomainError::invalid("email").into());
        }
    }
    store
        .set_report_subscription(actor.id, plant.id, enabled, lang.code(), now)
        .await?;
    Ok(())
}

/// A report workbook: its file name and its bytes.
pub type Workbook = (String, Vec<u8>);

/// Why a workbook was not built (logged by the caller, tried again on its next run).
#[derive(Debug, thiserror::Error)]
pub enum WorkbookError {
    #[error(transparent)]
    Service(#[from] ServiceError),
    #[error("xlsx: {0}")]
    Xlsx(#[from] XlsxError),
}

/// A plant's month report workbook as `actor` may see it, in `lang`: what the monthly report
/// e-mail attaches (the same figures and sheets as the download of the month).
pub async fn month_workbook(
    store: &Store,
    curves: &CurveCaches,
    actor: &Actor,
    plant: PlantDevices<'_>,
    (year, month, config): (i32, u32, &crate::figures::FiguresConfig),
    lang: Lang,
) -> Result<Workbook, WorkbookError> {
    let report = build(
        store,
        curves,
        actor,
        plant,
        (Period::Month(year, month), config),
        lang,
    )
    .await?;
    let bytes = crate::xlsx::workbook(&sheet::sheets(&report, lang))?;
    Ok((sheet::file_name(&report), bytes))
}
