//! The energy hub (demand response): programmes, enrollments with their devices, events and
//! the participants' opt-outs; the utilities' VTN connections with what their sync mirrors
//! ([`vtn`]); the dispatch job's state ([`dispatch`]). The tables keep the `dr_` prefix they
//! were made with (`dr_programs`, `dr_events`, ...): only the Rust names say "energy hub". Times: `dr_events` keeps unix **seconds** in every time column
//! (start, end, cancelled, created, updated); the other tables keep milliseconds like the
//! rest of the portal. Booleans are 0/1 integers, read as `bool` through `(x <> 0)`.
//!
//! Who may see an enrollment: the plant's owner, company staff of a company that serves the
//! plant, and internal staff ([`ENROLLMENT_VISIBLE`]); shares do not reach enrollments.

pub mod dispatch;
mod enrollment_writes;
mod enrollments;
mod events;
mod programs;
pub mod vtn;

pub use enrollments::{
    DeviceRow, EnrollmentFilter, EnrollmentRow, LiveEnrollment, NewEnrollment, PlantInverterRow,
    VisibleEnrollment,
};
pub use events::{EventFilter, EventRow, NewEvent, OptOutRow};
pub use programs::ProgramRow;

/// `$1` reader, `$2` reader's company (company staff only), `$3` 1 when the reader sees all,
/// over `plants p` (see `plants::viewer`).
pub(crate) fn enrollment_visible() -> String {
    format!(
        "($3 = 1 OR p.owner_id = $1 OR ($2 IS NOT NULL AND {}))",
        crate::plants::company_serves("$2", "p.owner_id", "p.company_id")
    )
}
