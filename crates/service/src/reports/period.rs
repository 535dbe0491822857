//! The period a report covers: a plant-local day, month or year, parsed strictly from the
//! request (a report of the wrong month is worse than an error).

use chrono::{Datelike, NaiveDate};
use domain::DomainError;
use store::telemetry::DayRange;

use crate::local_time::days_in_month;

use super::model::ReportType;

/// A plant-local day, month or year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    Day(NaiveDate),
    Month(i32, u32),
    Year(i32),
}

impl Period {
    /// `type` and `date` of a report request; `today` (plant-local) when `date` is absent.
    /// 4 `type` for an unknown type, 4 `date` for a date not of the type's form.
    pub fn parse(
        kind: Option<&str>,
        date: Option<&str>,
        today: NaiveDate,
    ) -> Result<Period, DomainError> {
        let date = date.map(str::trim).filter(|s| !s.is_empty());
        let bad = || DomainError::invalid("date");
        let year = |s: &str| -> Result<i32, DomainError> {
            let y: i32 = s.parse().map_err(|_| bad())?;
            if s.len() == 4 && (1970..=9999).contains(&y) {
                Ok(y)
            } else {
                Err(bad())
            }
        };
        match kind.map(str::trim).unwrap_or("day") {
            "day" => match date {
                None => Ok(Period::Day(today)),
                Some(s) if s.len() == 10 => NaiveDate::parse_from_str(s, "%Y-%m-%d")
                    .map(Period::Day)
                    .map_err(|_| bad()),
                Some(_) => Err(bad()),
            },
            "month" => match date {
                None => Ok(Period::Month(today.year(), today.month())),
                Some(s) if s.len() == 7 => {
                    NaiveDate::parse_from_str(&format!("{s}-01"), "%Y-%m-%d")
                        .map(|d| Period::Month(d.year(), d.month()))
                        .map_err(|_| bad())
                }
                Some(_) => Err(bad()),
            },
            "year" => Ok(Period::Year(date.map_or(Ok(today.year()), year)?)),
            _ => Err(DomainError::invalid("type")),
        }
    }

    pub fn report_type(&self) -> ReportType {
        match self {
            Period::Day(_) => ReportType::Day,
            Period::Month(..) => ReportType::Month,
            Period::Year(_) => ReportType::Year,
        }
    }

    /// The date as the request names it.
    pub fn label(&self) -> String {
        match self {
            Period::Day(d) => d.format("%Y-%m-%d").to_string(),
            Period::Month(y, m) => format!("{y:04}-{m:02}"),
            Period::Year(y) => format!("{y:04}"),
        }
    }

    pub fn first(&self) -> NaiveDate {
        match *self {
            Period::Day(d) => d,
            Period::Month(y, m) => NaiveDate::from_ymd_opt(y, m, 1).unwrap_or_default(),
            Period::Year(y) => NaiveDate::from_ymd_opt(y, 1, 1).unwrap_or_default(),
        }
    }

    pub fn last(&self) -> NaiveDate {
        match *self {
            Period::Day(d) => d,
            Period::Month(y, m) => {
                NaiveDate::from_ymd_opt(y, m, days_in_month(y, m)).unwrap_or_default()
            }
            Period::Year(y) => NaiveDate::from_ymd_opt(y, 12, 31).unwrap_or_default(),
        }
    }

    pub fn days(&self) -> DayRange {
        DayRange {
            from: self.first().format("%Y-%m-%d").to_string(),
            to: self.last().format("%Y-%m-%d").to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, 15).unwrap()
    }

    #[test]
    fn each_type_reads_only_its_own_date_form() {
        let p = |k: &str, d: &str| Period::parse(Some(k), Some(d), today());
        assert_eq!(p("month", "2024-02").unwrap().last().day(), 29);
        assert_eq!(p("year", "2025").unwrap().days().to, "2025-12-31");
        assert_eq!(p("day", "2026-01-05").unwrap().label(), "2026-01-05");
        for (k, d) in [
            ("day", "2026-01"),
            ("month", "2026-13"),
            ("year", "26"),
            ("month", "x"),
        ] {
            assert_eq!(
                p(k, d).unwrap_err().detail.as_deref(),
                Some("date"),
                "{k} {d}"
            );
        }
        assert_eq!(
            p("week", "2026").unwrap_err().detail.as_deref(),
            Some("type")
        );
    }

    #[test]
    fn a_missing_date_is_the_current_period() {
        let p = Period::parse(Some("month"), None, today()).unwrap();
        assert_eq!(p, Period::Month(2026, 3));
    }
}
