//! The plant figures in the plant generation export (`GET /api/v1/plant/generation/download`,
//! docs/figures.md "In exports"): each day's row carries the figures the figures endpoint
//! answers for that day alone, a missing figure as an empty cell (never 0), headers with their
//! units, and a second sheet saying what each figure is computed from, in the reader's language.

use std::io::Cursor;

use calamine::{Data as XlsData, Reader, Xlsx};
use chrono::Duration;
use serde_json::Value;

use crate::common::{App, spawn};
use crate::figures::{FiguresPlant, figures_plant};

/// The figure columns after date, seven energies and income.
const FIRST: usize = 9;
/// The figures endpoint's keys in the order of the export's figure columns (the fourth is the
/// reference's basis, in words).
const KEYS: [&str; 8] = [
    "specificYield",
    "referenceYield",
    "performanceRatio",
    "",
    "availability",
    "selfConsumption",
    "selfSufficiency",
    "co2Avoided",
];

async fn workbook(app: &App, c: &FiguresPlant, query: &str) -> Xlsx<Cursor<Vec<u8>>> {
    let from = c.day - Duration::days(1);
    let to = c.day + Duration::days(1);
    let file = app
        .get(
            &format!(
                "/api/v1/plant/generation/download?id={}&startDate={from}&endDate={to}{query}",
                c.plant
            ),
            Some(&c.ann),
        )
        .await;
    assert_eq!(file.status, 200, "[{}]", app.backend);
    Xlsx::new(Cursor::new(file.body.to_vec())).expect("an xlsx file")
}

fn rows(book: &mut Xlsx<Cursor<Vec<u8>>>, sheet: usize) -> Vec<Vec<XlsData>> {
    book.worksheet_range_at(sheet)
        .expect("a sheet")
        .expect("readable sheet")
        .rows()
        .map(|r| r.to_vec())
        .collect()
}

fn text(d: &XlsData) -> String {
    match d {
        XlsData::String(s) => s.clone(),
        other => format!("{other:?}"),
    }
}

#[tokio::test]
async fn each_day_of_the_export_carries_that_days_figures_and_blanks_for_missing_ones() {
    for app in spawn().await {
        let c = figures_plant(&app, true).await;
        let mut book = workbook(&app, &c, "").await;
        let table = rows(&mut book, 0);
        assert_eq!(table.len(), 4, "a header and three days");
        let headers: Vec<String> = table[0].iter().map(text).collect();
        assert_eq!(
            headers[FIRST..],
            [
                "Specific yield (kWh/kWp)",
                "Reference yield (h)",
                "Performance ratio (%)",
                "Irradiation reference",
                "Availability (%)",
                "Self-consumption (%)",
                "Self-sufficiency (%)",
                "CO2 avoided (kg)",
            ]
        );
        let mut blanks = 0;
        for (i, row) in table[1..].iter().enumerate() {
            let day = c.day + Duration::days(i as i64 - 1);
            assert_eq!(row[0], XlsData::String(day.to_string()));
            let answer = app
                .get(
                    &format!("/api/v1/plant/{}/figures?date={day}", c.plant),
                    Some(&c.ann),
                )
                .await;
            answer.expect_code(0);
            let f = answer.data();
            for (k, key) in KEYS.iter().enumerate() {
                let cell = row.get(FIRST + k).cloned().unwrap_or(XlsData::Empty);
                if key.is_empty() {
                    let expected = match f["referenceYield"]["basis"].as_str() {
                        Some("station") => XlsData::String("Weather station".into()),
                        Some("clearSky") => XlsData::String("Clear-sky model (upper bound)".into()),
                        _ => XlsData::Empty,
                    };
                    assert_eq!(cell, expected, "[{}] {day} reference", app.backend);
                    continue;
                }
                match &f[*key]["value"] {
                    Value::Null => {
                        blanks += 1;
                        assert_eq!(cell, XlsData::Empty, "[{}] {day} {key}", app.backend);
                    }
                    v => assert_eq!(
                        cell,
                        XlsData::Float(v.as_f64().unwrap_or(f64::NAN)),
                        "[{}] {day} {key}",
                        app.backend
                    ),
                }
            }
        }
        // The day of the fixture: the worked example of docs/figures.md.
        let day = &table[2];
        assert_eq!(day[FIRST], XlsData::Float(4.2));
        assert_eq!(day[FIRST + 2], XlsData::Float(80.0));
        assert_eq!(day[FIRST + 6], XlsData::Float(49.97));
        assert_eq!(day[FIRST + 7], XlsData::Float(7.56));
        // The days around it produced nothing recorded: no yield, no ratio, no CO2, never 0.
        assert_eq!(table[1][FIRST], XlsData::Empty);
        assert_eq!(table[3][FIRST + 2], XlsData::Empty);
        assert!(blanks >= 8, "{blanks} blanks");

        // The second sheet says what each figure is computed from, with the CO2 factor.
        let notes = rows(&mut book, 1);
        let first: Vec<String> = notes.iter().map(|r| text(&r[0])).collect();
        assert!(
            first.contains(&"Performance ratio (%)".to_string()),
            "{first:?}"
        );
        let factor = notes
            .iter()
            .find(|r| text(&r[0]) == "CO2 factor (kg/kWh)")
            .map(|r| r[1].clone());
        assert_eq!(factor, Some(XlsData::Float(0.4)));
        assert!(
            notes.iter().any(|r| text(&r[1]).contains("grid taken out")),
            "the shares' battery correction is said"
        );
    }
}

#[tokio::test]
async fn the_figure_headers_and_notes_follow_the_readers_language() {
    for app in spawn().await {
        let c = figures_plant(&app, false).await;
        let mut book = workbook(&app, &c, "&lan=es").await;
        let table = rows(&mut book, 0);
        assert_eq!(
            table[0].get(FIRST + 2).map(text).as_deref(),
            Some("Índice de rendimiento PR (%)")
        );
        // Without a station the reference is the clear sky, an upper bound, said on each day.
        assert_eq!(
            table[2].get(FIRST + 3).map(text).as_deref(),
            Some("Modelo de cielo despejado (límite superior)")
        );
        let notes = rows(&mut book, 1);
        assert_eq!(notes[0].first().map(text).as_deref(), Some("Indicador"));
    }
}
