//! Reading telemetry for the monitoring endpoints: a device's latest values, its samples over a
//! plant-local day, and the `infos[{unit, label, id, groupCode, name, records}]` series shape of
//! docs/api-conventions.md. Every device and plant screen builds its answers from these pieces.

use chrono::{Datelike, NaiveDate};
use chrono_tz::Tz;
use domain::ids::DeviceId;
use serde::Serialize;
use std::collections::HashMap;
use store::telemetry::{EnergyPoint, SampleRow};
use utoipa::ToSchema;

use crate::AppState;

pub(crate) use service::readings::{Reading, num_text, round2};

/// The newest values a device reported, if any: from ingest's memory when this process holds
/// them, else from the database.
pub(crate) async fn latest(app: &AppState, device: DeviceId) -> store::Result<Option<Reading>> {
    if let Some(hot) = app.latest.as_ref().and_then(|cache| cache.get(device)) {
        return Ok(Some(Reading::from_sample(hot.ts, &hot.payload)));
    }
    Ok(app
        .store
        .latest_sample(device)
        .await?
        .map(|s| Reading::from_sample(s.ts, &s.payload)))
}

/// The newest values of each of `devices` that has any, as [`latest`] reads them one by one:
/// from ingest's memory where this process holds them, the rest in one query.
pub(crate) async fn latest_of(
    app: &AppState,
    devices: &[DeviceId],
) -> store::Result<HashMap<DeviceId, Reading>> {
    let mut out = HashMap::new();
    let mut missing = Vec::new();
    for &device in devices {
        match app.latest.as_ref().and_then(|cache| cache.get(device)) {
            Some(hot) => {
                out.insert(device, Reading::from_sample(hot.ts, &hot.payload));
            }
            None => missing.push(device),
        }
    }
    missing.sort_unstable();
    missing.dedup();
    for s in app.store.latest_samples(&missing).await? {
        out.insert(s.device_id, Reading::from_sample(s.ts, &s.payload));
    }
    Ok(out)
}

/// A device's samples of `[from, to)` for a day curve (`service::readings::day_samples`).
pub(crate) async fn day_samples(
    app: &AppState,
    device: DeviceId,
    from: i64,
    to: i64,
) -> store::Result<Vec<SampleRow>> {
    service::readings::day_samples(&app.store, device, from, to).await
}

pub(crate) use service::local_time::{local_time, zone};

pub(crate) use service::local_time::today;

pub(crate) use devices::history::day_bounds;

/// The `date` a day query names (`YYYY-MM-DD`), today in `tz` when absent or unreadable.
pub(crate) fn day_param(raw: Option<&str>, tz: Tz) -> NaiveDate {
    raw.and_then(|s| NaiveDate::parse_from_str(s.get(..10).unwrap_or(s), "%Y-%m-%d").ok())
        .unwrap_or_else(|| today(tz))
}

/// The `(year, month)` a month query names (`YYYY-MM`, or a full date), this month by default.
pub(crate) fn month_param(raw: Option<&str>, tz: Tz) -> (i32, u32) {
    raw.and_then(|s| NaiveDate::parse_from_str(&format!("{}-01", s.get(..7)?), "%Y-%m-%d").ok())
        .map(|d| (d.year(), d.month()))
        .unwrap_or_else(|| {
            let t = today(tz);
            (t.year(), t.month())
        })
}

/// The year a year query names (`YYYY`, or a longer date), this year by default.
pub(crate) fn year_param(raw: Option<&str>, tz: Tz) -> i32 {
    raw.and_then(|s| s.get(..4)?.parse().ok())
        .filter(|y| (1970..=9999).contains(y))
        .unwrap_or_else(|| today(tz).year())
}

/// An optional number as a numeric string (`null` when absent).
pub(crate) fn opt_string(v: Option<f64>) -> Option<String> {
    v.map(num_text)
}

/// One point of a series.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// Plant-local `YYYY-MM-DD HH:MM:SS` in day curves; the bucket (`YYYY-MM-DD`, `YYYY-MM`,
    /// `YYYY`) in energy bars.
    pub time: String,
    /// A numeric string.
    pub value: String,
    /// Always sent (null in these answers).
    pub update_time: Option<String>,
}

/// One named series: the `infos[]` item of day, month, year and total answers.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Series {
    /// `W`, `V`, `A`, `kWh`, `%`, `°C`...
    #[schema(value_type = String)]
    pub unit: &'static str,
    pub label: String,
    pub id: Option<i64>,
    pub group_code: Option<String>,
    pub name: Option<String>,
    pub records: Vec<Record>,
}

impl From<service::curves::DayCurve> for Series {
    fn from(c: service::curves::DayCurve) -> Self {
        Series {
            unit: c.unit,
            label: c.label.into(),
            id: None,
            group_code: None,
            name: Some(c.name.into()),
            records: c
                .points
                .into_iter()
                .map(|p| Record {
                    time: p.time,
                    value: p.value,
                    update_time: None,
                })
                .collect(),
        }
    }
}

/// The answer of a day curve or of energy bars: its series.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SeriesList {
    pub infos: Vec<Series>,
}

/// How a day-curve column gets its value from a reading (a key, or a sum or choice of keys).
/// `Send` and `Sync`: handlers hold their columns across the sample read.
pub(crate) type ReadFn<'a> = Box<dyn Fn(&Reading) -> Option<f64> + Send + Sync + 'a>;

/// What one series of a day curve reads: its label, its unit and how to get its value.
pub(crate) struct Column<'a> {
    pub label: &'a str,
    pub unit: &'static str,
    pub read: ReadFn<'a>,
}

/// A device's day curve: the plant-local day `date` names (today in `tz` when absent) and one
/// series per column over the device's samples of that day. Every device family's day curve
/// reads through here; each shapes its own answer from the day and the series.
pub(crate) async fn day_series(
    app: &AppState,
    device: DeviceId,
    tz: Tz,
    date: Option<&str>,
    columns: &[Column<'_>],
) -> store::Result<(NaiveDate, Vec<Series>)> {
    let day = day_param(date, tz);
    let (from, to) = day_bounds(tz, day);
    let samples = day_samples(app, device, from, to).await?;
    Ok((day, sample_series(&samples, columns, tz)))
}

/// Day-curve series from samples: one record per sample that has the value.
pub(crate) fn sample_series(samples: &[SampleRow], columns: &[Column<'_>], tz: Tz) -> Vec<Series> {
    let readings: Vec<Reading> = samples
        .iter()
        .map(|s| Reading::from_sample(s.ts, &s.payload))
        .collect();
    columns
        .iter()
        .map(|c| Series {
            unit: c.unit,
            label: c.label.to_string(),
            id: None,
            group_code: None,
            name: None,
            records: readings
                .iter()
                .filter_map(|r| {
                    (c.read)(r).map(|v| Record {
                        time: local_time(r.ts, tz),
                        value: num_text(v),
                        update_time: None,
                    })
                })
                .collect(),
        })
        .collect()
}

/// Energy bars from rollup points: one series per metric in `metrics` (missing buckets are
/// simply absent), each value in kWh.
pub(crate) fn energy_series(points: &[EnergyPoint], metrics: &[(&str, &str)]) -> Vec<Series> {
    metrics
        .iter()
        .map(|(metric, label)| Series {
            unit: "kWh",
            label: (*label).to_string(),
            id: None,
            group_code: None,
            name: None,
            records: points
                .iter()
                .filter(|p| p.metric == *metric)
                .map(|p| Record {
                    time: p.bucket.clone(),
                    value: num_text(p.kwh),
                    update_time: None,
                })
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_days_have_their_real_length() {
        let madrid: Tz = "Europe/Madrid".parse().unwrap();
        let day = |s| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        let hours = |d| {
            let (a, b) = day_bounds(madrid, day(d));
            (b - a) / 3_600_000
        };
        assert_eq!(hours("2026-03-29"), 23);
        assert_eq!(hours("2026-10-25"), 25);
        assert_eq!(hours("2026-06-01"), 24);
    }

    #[test]
    fn params_fall_back_to_now_and_read_prefixes() {
        let tz = Tz::UTC;
        assert_eq!(day_param(Some("2026-05-04"), tz).to_string(), "2026-05-04");
        assert_eq!(day_param(Some("junk"), tz), today(tz));
        assert_eq!(month_param(Some("2026-02"), tz), (2026, 2));
        assert_eq!(month_param(Some("2026-02-17"), tz), (2026, 2));
        assert_eq!(year_param(Some("2025"), tz), 2025);
        assert_eq!(year_param(Some(""), tz), today(tz).year());
    }

    #[test]
    fn numbers_are_sent_as_short_numeric_strings() {
        assert_eq!(num_text(230.8), "230.8");
        assert_eq!(num_text(9.0), "9.0");
        assert_eq!(num_text(0.123), "0.12");
        assert_eq!(opt_string(None), None);
    }

    #[test]
    fn whole_numbers_read_as_the_float_formatter_wrote_them() {
        for v in [
            0.0,
            -0.0,
            1.0,
            -4.0,
            5000.0,
            -123_456_789.0,
            999_999_999_999_999.0,
        ] {
            assert_eq!(num_text(v), format!("{v:.1}"), "{v}");
        }
        assert_eq!(num_text(-0.001), "-0.0");
    }

    #[test]
    fn readings_sum_and_choose_keys() {
        let r = Reading::from_sample(1, r#"{"a":1.5,"b":2,"on":true,"s":"x"}"#);
        assert_eq!(r.sum(&["a", "b", "c"]), Some(3.5));
        assert_eq!(r.sum(&["c"]), None);
        assert_eq!(r.first(&["c", "b"]), Some(2.0));
        assert_eq!(r.num("on"), Some(1.0));
        assert_eq!(r.text("s"), Some("x"));
    }
}
