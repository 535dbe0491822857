//! An inverter's series: day curves from its samples (plant-local day, times in the plant's
//! zone) and month, year and total energy bars from the day rollups, never from raw samples.
//! Every answer is `{infos:[{unit, label, id, groupCode, name, records:[{time, value,
//! updateTime}]}]}`; `label` is a stable key (the web app translates it), `name` English.
//! This module holds what every series shares (the column reader, the day curve, the bars);
//! the handlers live beside it: the inverter's own curves, its energy bars, per port, and the
//! generator.

pub(crate) mod curves;
pub(crate) mod energy;
pub(crate) mod generator;
pub(crate) mod port;

use serde::Deserialize;
use store::telemetry::{Bucket, DayRange};
use utoipa::IntoParams;

use super::{Inverter, wire::SeriesAnswer};
use crate::{
    AppState,
    envelope::ApiResult,
    extract::num,
    readings::{self, Column, Reading},
};

/// Month, year or total bars.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Span {
    Month,
    Year,
    Total,
}

impl Span {
    /// The days a bar chart covers and its bar size: a month per day, a year per month,
    /// all time per year.
    fn range(self, date: Option<&str>, tz: chrono_tz::Tz) -> (DayRange, Bucket) {
        match self {
            Span::Month => {
                let (y, m) = readings::month_param(date, tz);
                (DayRange::month(y, m), Bucket::Day)
            }
            Span::Year => (
                DayRange::year(readings::year_param(date, tz)),
                Bucket::Month,
            ),
            Span::Total => (DayRange::total(), Bucket::Year),
        }
    }
}

/// One day-curve column: a stable label, an English name, a unit, and the keys it reads
/// (summed when `sum`, else the first present).
pub(crate) struct Col {
    label: String,
    name: String,
    unit: &'static str,
    keys: Vec<String>,
    sum: bool,
}

impl Col {
    fn key(label: &str, name: &str, unit: &'static str, key: &str) -> Col {
        Col {
            label: label.into(),
            name: name.into(),
            unit,
            keys: vec![key.into()],
            sum: false,
        }
    }

    fn read(&self, r: &Reading) -> Option<f64> {
        let keys: Vec<&str> = self.keys.iter().map(String::as_str).collect();
        if self.sum {
            r.sum(&keys)
        } else {
            r.first(&keys)
        }
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct DateQuery {
    /// `YYYY-MM-DD` (day), `YYYY-MM` (month) or `YYYY` (year); today in the plant's zone when
    /// absent.
    #[serde(default, deserialize_with = "num::opt_text")]
    pub date: Option<String>,
    /// `output/day` only: comma-separated column names (`dc_temp,igbt_temp`).
    #[serde(default, deserialize_with = "num::opt_text")]
    pub column: Option<String>,
}

/// Series of `cols` over the inverter's samples of one local day. The first `keep` columns
/// are answered even when empty; the others only when the inverter reported them.
async fn day_curve(
    app: &AppState,
    inv: &Inverter,
    date: Option<&str>,
    cols: &[Col],
    keep: usize,
) -> ApiResult<SeriesAnswer> {
    let columns: Vec<Column<'_>> = cols
        .iter()
        .map(|c| Column {
            label: &c.label,
            unit: c.unit,
            read: Box::new(move |r: &Reading| c.read(r)),
        })
        .collect();
    let (day, series) = readings::day_series(app, inv.row.id, inv.tz, date, &columns).await?;
    let infos: Vec<readings::Series> = series
        .into_iter()
        .zip(cols)
        .enumerate()
        .filter(|(i, (s, _))| *i < keep || !s.records.is_empty())
        .map(|(_, (mut s, c))| {
            s.name = Some(c.name.clone());
            s
        })
        .collect();
    Ok(SeriesAnswer {
        date: Some(day.to_string()),
        timezone: Some(inv.tz.name().to_string()),
        infos,
    })
}

/// Energy bars of `metrics` over a span.
async fn bars(
    app: &AppState,
    inv: &Inverter,
    span: Span,
    date: Option<&str>,
    metrics: &[(&str, &str)],
) -> ApiResult<SeriesAnswer> {
    let (range, bucket) = span.range(date, inv.tz);
    let points = app
        .store
        .device_energy_series(inv.row.id, &range, bucket)
        .await?;
    let infos: Vec<readings::Series> = readings::energy_series(&points, metrics)
        .into_iter()
        .zip(metrics)
        .map(|(mut s, (metric, name))| {
            s.label = (*metric).to_string();
            s.name = Some((*name).to_string());
            s
        })
        .collect();
    Ok(SeriesAnswer {
        date: None,
        timezone: None,
        infos,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_cover_their_days_in_bars_of_the_next_size_down() {
        let tz = chrono_tz::Tz::UTC;
        let (r, b) = Span::Month.range(Some("2026-02"), tz);
        assert_eq!(
            (r.from.as_str(), r.to.as_str(), b),
            ("2026-02-01", "2026-02-31", Bucket::Day)
        );
        let (r, b) = Span::Year.range(Some("2025"), tz);
        assert_eq!((r.from.as_str(), b), ("2025-01-01", Bucket::Month));
        assert_eq!(
            Span::Total.range(None, tz),
            (DayRange::total(), Bucket::Year)
        );
    }
}
