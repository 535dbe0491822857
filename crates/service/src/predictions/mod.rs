//! Predicted generation: what a plant is expected to make per day or month. [`Predictions`]
//! reads the stored figures for the charts and the reports; [`import`] stores a spreadsheet's.

mod figures;
mod import;

pub use figures::Predictions;
pub use import::{Cells, import, parse};
