//! Plant reports as more than one caller needs them: where a subscriber's reports go, and the
//! workbook the monthly report e-mail attaches (built by the same builder as the HTTP
//! download, which the HTTP layer provides through [`Workbooks`]).

use std::{future::Future, pin::Pin};

use chrono_tz::Tz;
use domain::{Lang, policy::Actor};
use store::{plants::PlantRow, users::UserRow};

/// Where a user's reports go: the account's e-mail, or the account itself when it is one.
pub fn address(user: &UserRow) -> Option<String> {
    [&user.email, &user.account]
        .into_iter()
        .map(|a| a.trim())
        .find(|a| a.contains('@'))
        .map(String::from)
}

/// A report workbook: its file name and its bytes.
pub type Workbook = (String, Vec<u8>);

/// Why a workbook was not built (logged by the caller, tried again on its next run).
pub type WorkbookError = Box<dyn std::error::Error + Send + Sync>;

/// A boxed future of a workbook, so that [`Workbooks`] can be used as `dyn`.
pub type WorkbookFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Workbook, WorkbookError>> + Send + 'a>>;

/// Builds a plant's month report workbook as `actor` may see it, in `lang`.
pub trait Workbooks: Send + Sync {
    fn month<'a>(
        &'a self,
        actor: &'a Actor,
        plant: PlantRow,
        tz: Tz,
        month: (i32, u32),
        lang: Lang,
    ) -> WorkbookFuture<'a>;
}
