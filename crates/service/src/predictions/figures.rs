//! Expected generation per period from the stored rows (month rows have day 0): one rule for
//! the energy charts, the reports and the ratio to what was produced.
//! - a month: its month row, else the sum of its day rows;
//! - a day: its day row when the month has day rows, else the month row spread evenly over
//!   the month's days.

use chrono::{Datelike, NaiveDate};
use store::reports::Prediction;

use crate::local_time::days_in_month;

pub struct Predictions<'a>(pub &'a [Prediction]);

impl Predictions<'_> {
    fn of_month(&self, year: i32, month: u32) -> impl Iterator<Item = &Prediction> {
        self.0
            .iter()
            .filter(move |p| p.year == i64::from(year) && p.month == i64::from(month))
    }

    /// The month's expected kWh; `None` without any row for it.
    pub fn month(&self, year: i32, month: u32) -> Option<f64> {
        let mut rows = self.of_month(year, month).peekable();
        rows.peek()?;
        let (whole, days): (Vec<&Prediction>, Vec<&Prediction>) = rows.partition(|p| p.day == 0);
        Some(match whole.first() {
            Some(m) => m.kwh,
            None => days.iter().map(|p| p.kwh).sum(),
        })
    }

    /// The day's expected kWh; `None` when nothing covers it.
    pub fn day(&self, year: i32, month: u32, day: u32) -> Option<f64> {
        let rows: Vec<&Prediction> = self.of_month(year, month).collect();
        if rows.iter().any(|p| p.day > 0) {
            return rows.iter().find(|p| p.day == i64::from(day)).map(|p| p.kwh);
        }
        let whole = rows.iter().find(|p| p.day == 0)?;
        Some(whole.kwh / f64::from(days_in_month(year, month)))
    }

    /// The expected kWh of the days from `first` to `last`, both included; `None` when nothing
    /// covers any of them. A period still running is compared with what was expected so far.
    pub fn between(&self, first: NaiveDate, last: NaiveDate) -> Option<f64> {
        first
            .iter_days()
            .take_while(|d| *d <= last)
            .filter_map(|d| self.day(d.year(), d.month(), d.day()))
            .fold(None, |sum, kwh| Some(sum.unwrap_or(0.0) + kwh))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::ids::PlantId;

    fn p(month: i64, day: i64, kwh: f64) -> Prediction {
        Prediction {
            plant_id: PlantId(1),
            year: 2026,
            month,
            day,
            kwh,
        }
    }

    #[test]
    fn a_month_row_spreads_evenly_and_day_rows_win_for_days() {
        let rows = [p(4, 0, 300.0), p(5, 3, 12.0), p(5, 4, 8.0)];
        let f = Predictions(&rows);
        assert_eq!(f.day(2026, 4, 7), Some(10.0));
        assert_eq!(f.day(2026, 5, 3), Some(12.0));
        assert_eq!(f.day(2026, 5, 5), None);
        assert_eq!(f.month(2026, 5), Some(20.0));
        assert_eq!(f.month(2026, 4), Some(300.0));
        assert_eq!(f.month(2026, 6), None);
    }

    #[test]
    fn the_month_row_is_the_months_figure_even_beside_day_rows() {
        let rows = [p(4, 0, 300.0), p(4, 1, 5.0)];
        assert_eq!(Predictions(&rows).month(2026, 4), Some(300.0));
        assert_eq!(Predictions(&rows).day(2026, 4, 2), None);
    }

    #[test]
    fn a_running_period_is_compared_with_what_was_expected_so_far() {
        let rows = [p(4, 0, 300.0), p(5, 0, 310.0)];
        let f = Predictions(&rows);
        let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
        assert_eq!(f.between(d(4, 1), d(4, 10)).map(f64::round), Some(100.0));
        assert_eq!(f.between(d(1, 1), d(5, 31)).map(f64::round), Some(610.0));
        assert_eq!(f.between(d(6, 1), d(6, 30)), None);
    }
}
