//! The plant figures over HTTP on every backend (`GET /api/v1/plant/{id}/figures`,
//! docs/figures.md): each figure's value and basis against numbers worked out by hand, a
//! station's reference against the clear-sky model's (given or assumed orientation), missing
//! inputs answering null rather than 0, the plant's tilt and azimuth on create, edit and
//! detail, bad spans, and scoping (another tenant's plant answers 700 like a missing one).

use crate::common;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use chrono::{Duration, NaiveDate, Utc};
use chrono_tz::Europe::Madrid;
use common::{
    App,
    fixtures::{People, bound_gateway, energy, people, plant},
    spawn,
};
use serde_json::{Value, json};
use store::telemetry::{CounterKind, EnergyWrite, TelemetryBatch};

const LAT: f64 = 40.4;
const LON: f64 = -3.7;

pub(crate) struct FiguresPlant {
    pub ann: String,
    pub bob: String,
    pub plant: i64,
    /// The day the energy rows are on (two days ago in Madrid).
    pub day: NaiveDate,
}

/// Ann's storage plant in Madrid (4.5 kWp, tilt 30°, facing south) with a hybrid inverter and,
/// when `station`, a weather station. On `day`: the worked example of docs/figures.md scaled to
/// the plant (PV 18.9, load 16.9, import 9, export 10, charge 11, discharge 10, of which 6 kWh
/// charged from the grid; balance 18.9 + 10 + 9 = 16.9 + 11 + 10), 7 of the day's daylight
/// hours available, and 5.25 kWh/m² on the station.
pub(crate) async fn figures_plant(app: &App, station: bool) -> FiguresPlant {
    let People { admin, ann, bob } = people(app).await;
    let plant = plant(
        app,
        &ann,
        json!({"name": "Ann figures plant", "type": 2, "currency": "EUR",
            "timezone": "Europe/Madrid", "lon": LON, "lat": LAT, "totalPower": 4.5,
            "tilt": 30, "azimuth": "180"}),
    )
    .await;
    let gw = bound_gateway(app, &admin, &ann, plant, "GW-FIG-01").await;
    let now = domain::time::now_ms();
    let s = &app.store;
    let inverter = s
        .upsert_device(
            "INV-FIG-1",
            GatewayId(gw),
            DeviceFamily::Inverter,
            2,
            "deye-hybrid-1ph",
            "SIM",
            None,
            now,
        )
        .await
        .expect("inverter");
    let day = Utc::now().with_timezone(&Madrid).date_naive() - Duration::days(2);
    let sum = |device: i64, metric: &str, v: f64| EnergyWrite {
        kind: CounterKind::Sum,
        ..energy(device, plant, day, metric, v)
    };
    let mut rows: Vec<EnergyWrite> = [
        ("pv", 18.9),
        ("load", 16.9),
        ("grid_import", 9.0),
        ("grid_export", 10.0),
        ("charge", 11.0),
        ("discharge", 10.0),
    ]
    .into_iter()
    .map(|(m, v)| energy(inverter.0, plant, day, m, v))
    .collect();
    rows.push(sum(inverter.0, "grid_charge", 6.0));
    rows.push(sum(inverter.0, "available_h", 7.0));
    if station {
        let ws = s
            .upsert_device(
                "WS-FIG-1",
                GatewayId(gw),
                DeviceFamily::WeatherStation,
                0,
                "weather-station",
                "SIM",
                None,
                now,
            )
            .await
            .expect("station");
        rows.push(EnergyWrite {
            rank: 4,
            ..energy(ws.0, plant, day, "irradiation", 5.25)
        });
    }
    s.write_telemetry_batch(&TelemetryBatch {
        samples: Vec::new(),
        energy: rows,
    })
    .await
    .expect("telemetry");
    FiguresPlant {
        ann,
        bob,
        plant,
        day,
    }
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn value(f: &Value, key: &str) -> Option<f64> {
    f[key]["value"].as_f64()
}

/// The daylight hours of `day` in Madrid at the test plant's place, as the figures count them.
fn daylight(day: NaiveDate) -> f64 {
    let (from, to) = devices::history::day_bounds(Madrid, day);
    domain::sun::daylight_ms(LAT, LON, from, to) as f64 / 3_600_000.0
}

#[tokio::test]
async fn a_station_day_has_every_figure_with_its_basis() {
    for app in spawn().await {
        let c = figures_plant(&app, true).await;
        let r = app
            .get(
                &format!("/api/v1/plant/{}/figures?date={}", c.plant, c.day),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let f = r.data();
        let day = c.day.to_string();
        assert_eq!(
            (f["from"].as_str(), f["to"].as_str()),
            (Some(&*day), Some(&*day))
        );
        assert_eq!(
            (f["pvEnergy"].as_f64(), f["capacity"].as_f64()),
            (Some(18.9), Some(4.5))
        );
        // Y_f = 18.9 / 4.5 = 4.2 h; Y_r = 5.25 kWh/m² / 1 kW/m² = 5.25 h; PR = 80 %.
        assert_eq!(value(f, "specificYield"), Some(4.2), "{}", app.backend);
        assert_eq!(f["specificYield"]["basis"], "pvEnergy");
        assert_eq!(value(f, "referenceYield"), Some(5.25));
        assert_eq!(value(f, "performanceRatio"), Some(80.0));
        assert_eq!(f["performanceRatio"]["basis"], "station");
        assert_eq!(
            (f["irradiation"].as_f64(), f["ratioDays"].as_i64()),
            (Some(5.25), Some(1))
        );
        assert!(f["orientation"].is_null(), "a station needs no orientation");
        // Self-consumption: the battery exported nothing (10 ≤ 16.9 - (9 - 6)), so
        // (18.9 - 10) / 18.9 = 47.09 %. Self-sufficiency: 3 kWh straight from the grid, and
        // 6/11 of the 10 kWh the battery gave was grid energy: (16.9 - 3 - 5.4545) / 16.9.
        assert_eq!(value(f, "selfConsumption"), Some(47.09));
        assert_eq!(value(f, "selfSufficiency"), Some(49.97));
        assert_eq!(f["selfSufficiency"]["basis"], "gridCharge");
        assert_eq!(f["gridCharge"].as_f64(), Some(6.0));
        // CO2: 18.9 kWh × 0.4 kg/kWh.
        assert_eq!(value(f, "co2Avoided"), Some(7.56));
        assert_eq!(f["co2Factor"].as_f64(), Some(0.4));
        // Availability: 7 h of the day's daylight hours of one inverter.
        let hours = daylight(c.day);
        assert_eq!(f["daylightHours"].as_f64(), Some(round2(hours)));
        assert_eq!(value(f, "availability"), Some(round2(7.0 / hours * 100.0)));
        assert_eq!(f["availability"]["basis"], "reports");
        // The same day as a span, and the month around it, count the same energy.
        let span = app
            .get(
                &format!(
                    "/api/v1/plant/{}/figures?from={}&to={}",
                    c.plant, c.day, c.day
                ),
                Some(&c.ann),
            )
            .await;
        assert_eq!(span.data()["performanceRatio"], f["performanceRatio"]);
        let month = c.day.format("%Y-%m").to_string();
        let m = app
            .get(
                &format!("/api/v1/plant/{}/figures?date={month}", c.plant),
                Some(&c.ann),
            )
            .await;
        m.expect_code(0);
        assert_eq!(m.data()["pvEnergy"].as_f64(), Some(18.9));
        assert_eq!(m.data()["performanceRatio"]["value"].as_f64(), Some(80.0));
    }
}

#[tokio::test]
async fn without_a_station_the_reference_is_a_clear_sky_given_or_assumed() {
    for app in spawn().await {
        let c = figures_plant(&app, false).await;
        let uri = format!("/api/v1/plant/{}/figures?date={}", c.plant, c.day);
        let f = app.get(&uri, Some(&c.ann)).await.data().clone();
        assert_eq!(f["referenceYield"]["basis"], "clearSky", "{}", app.backend);
        assert_eq!(f["performanceRatio"]["basis"], "clearSky");
        assert_eq!(
            f["orientation"],
            json!({"tilt": 30.0, "azimuth": 180.0, "assumed": false})
        );
        // The model's irradiation of the day on a 30° plane facing south.
        let (from, to) = devices::history::day_bounds(Madrid, c.day);
        let o = domain::clear_sky::orientation(LAT, Some(30.0), Some(180.0));
        let h = domain::clear_sky::poa_irradiation(LAT, LON, o, from, to);
        assert_eq!(value(&f, "referenceYield"), Some(round2(h)));
        assert_eq!(value(&f, "performanceRatio"), Some(round2(4.2 / h * 100.0)));
        // Without the tilt, the model assumes one: the latitude, at most 35°.
        app.post(
            &format!("/api/v1/plant/{}", c.plant),
            json!({"tilt": null}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let f = app.get(&uri, Some(&c.ann)).await.data().clone();
        assert_eq!(f["referenceYield"]["basis"], "clearSkyAssumed");
        assert_eq!(
            f["orientation"],
            json!({"tilt": 35.0, "azimuth": 180.0, "assumed": true})
        );
    }
}

#[tokio::test]
async fn missing_inputs_answer_null_never_zero() {
    for app in spawn().await {
        let c = figures_plant(&app, true).await;
        let ann = c.ann.clone();
        // No data at all, at (0, 0): no place for a clear sky, no inverter for availability.
        let empty = plant(
            &app,
            &ann,
            json!({"name": "Ann empty plant", "type": 1, "currency": "EUR",
                "timezone": "UTC", "lon": 0, "lat": 0, "totalPower": 3}),
        )
        .await;
        let r = app
            .get(&format!("/api/v1/plant/{empty}/figures"), Some(&ann))
            .await;
        r.expect_code(0);
        let f = r.data();
        for key in [
            "specificYield",
            "referenceYield",
            "performanceRatio",
            "availability",
            "selfConsumption",
            "selfSufficiency",
            "co2Avoided",
        ] {
            assert!(f[key]["value"].is_null(), "{key}: {}", f[key]);
            assert_eq!(f[key]["basis"], "missing", "{key}");
        }
        assert!(f["pvEnergy"].is_null() && f["irradiation"].is_null());
        assert!(f["gridCharge"].is_null() && f["daylightHours"].is_null());
        assert_eq!(f["days"].as_i64(), Some(1));

        // A battery that charged while its grid charge was not measured: no shares.
        let gw = app.store.device_by_sn("INV-FIG-1").await.expect("read");
        let inverter = gw.expect("inverter").id;
        let later = c.day + Duration::days(1);
        app.store
            .write_telemetry_batch(&TelemetryBatch {
                samples: Vec::new(),
                energy: [
                    ("pv", 5.0),
                    ("load", 4.0),
                    ("grid_import", 1.0),
                    ("grid_export", 1.0),
                    ("charge", 1.0),
                ]
                .into_iter()
                .map(|(m, v)| energy(inverter.0, c.plant, later, m, v))
                .collect(),
            })
            .await
            .expect("telemetry");
        let f = app
            .get(
                &format!("/api/v1/plant/{}/figures?date={later}", c.plant),
                Some(&c.ann),
            )
            .await
            .data()
            .clone();
        assert!(
            f["selfSufficiency"]["value"].is_null(),
            "{}",
            f["selfSufficiency"]
        );
        assert!(f["selfConsumption"]["value"].is_null());
        assert_eq!(value(&f, "specificYield"), Some(round2(5.0 / 4.5)));
        // The station recorded nothing that day: the clear-sky model is the reference.
        assert_eq!(f["performanceRatio"]["basis"], "clearSky");
        assert!(f["performanceRatio"]["value"].as_f64().is_some());
    }
}

async fn detail(app: &App, c: &FiguresPlant) -> Value {
    let uri = format!("/api/v1/plant/{}", c.plant);
    app.get(&uri, Some(&c.ann)).await.data().clone()
}

#[tokio::test]
async fn tilt_and_azimuth_are_optional_checked_and_kept() {
    for app in spawn().await {
        let c = figures_plant(&app, false).await;
        let d = detail(&app, &c).await;
        assert_eq!(
            (d["tilt"].as_f64(), d["azimuth"].as_f64()),
            (Some(30.0), Some(180.0))
        );
        for (body, field) in [
            (json!({"tilt": 90.5}), "tilt"),
            (json!({"tilt": -1}), "tilt"),
            (json!({"azimuth": 361}), "azimuth"),
            // Not a number at all: the body does not parse.
            (json!({"azimuth": "south"}), "body"),
        ] {
            let r = app
                .post(
                    &format!("/api/v1/plant/{}/info", c.plant),
                    body.clone(),
                    Some(&c.ann),
                )
                .await;
            r.expect_code(4);
            assert!(r.msg().contains(field), "{body}: {}", r.msg());
        }
        // Left out keeps them; given replaces them; null or "" clears them.
        app.post(
            &format!("/api/v1/plant/{}/info", c.plant),
            json!({"name": "Ann figures roof"}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        assert_eq!(detail(&app, &c).await["tilt"].as_f64(), Some(30.0));
        app.post(
            &format!("/api/v1/plant/{}/info", c.plant),
            json!({"tilt": "12.5", "azimuth": 90}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let d = detail(&app, &c).await;
        assert_eq!(
            (d["tilt"].as_f64(), d["azimuth"].as_f64()),
            (Some(12.5), Some(90.0))
        );
        app.post(
            &format!("/api/v1/plant/{}/info", c.plant),
            json!({"tilt": null, "azimuth": ""}),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
        let d = detail(&app, &c).await;
        assert!(d["tilt"].is_null() && d["azimuth"].is_null(), "{d}");
        // A plant created without them has none.
        let none = plant(
            &app,
            &c.ann,
            json!({"name": "Ann flat plant", "type": 1, "currency": "EUR",
                "timezone": "UTC", "lon": 1, "lat": 2, "totalPower": 3}),
        )
        .await;
        let d = app
            .get(&format!("/api/v1/plant/{none}"), Some(&c.ann))
            .await
            .data()
            .clone();
        assert!(d["tilt"].is_null() && d["azimuth"].is_null());
    }
}

#[tokio::test]
async fn another_tenants_plant_is_missing_and_bad_spans_name_their_field() {
    for app in spawn().await {
        let c = figures_plant(&app, true).await;
        let p = c.plant;
        app.get(&format!("/api/v1/plant/{p}/figures"), Some(&c.bob))
            .await
            .expect_code(700);
        app.get("/api/v1/plant/999999/figures", Some(&c.ann))
            .await
            .expect_code(700);
        assert_eq!(
            app.get(&format!("/api/v1/plant/{p}/figures"), None)
                .await
                .status,
            401
        );
        for (q, field) in [
            ("from=2026-01-01", "to"),
            ("to=2026-01-01", "from"),
            ("from=2026-01-05&to=2026-01-04", "to"),
            ("from=2025-01-01&to=2026-01-02", "to"),
            ("from=01/01/2026&to=2026-01-02", "from"),
            ("date=2026-13", "date"),
            ("date=26", "date"),
        ] {
            let r = app
                .get(&format!("/api/v1/plant/{p}/figures?{q}"), Some(&c.ann))
                .await;
            r.expect_code(4);
            assert!(r.msg().ends_with(field), "{q}: {}", r.msg());
        }
        // A whole leap year is fine, and lenient extras are ignored.
        app.get(
            &format!("/api/v1/plant/{p}/figures?from=2024-01-01&to=2024-12-31&lan=en&id="),
            Some(&c.ann),
        )
        .await
        .expect_code(0);
    }
}
