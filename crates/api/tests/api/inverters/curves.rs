//! Day curves and energy bars, against the rollups.

use super::*;

fn values_of(series: &Value) -> Vec<f64> {
    series["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| {
            r["value"]
                .as_str()
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("value not a decimal string: {r}"))
        })
        .collect()
}

#[tokio::test]
async fn day_curves_and_energy_bars_agree_with_the_rollups() {
    for app in spawn().await {
        let c = reporting_inverters(&app).await;
        let day = today();
        let r = app
            .get(
                &format!("/api/v1/inverter/2306012345/day?date={day}&lan=en"),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let infos = &r.data()["infos"];
        assert_eq!(infos[0]["label"], "pv_power");
        assert_eq!(infos[0]["unit"], "W");
        assert_eq!(values_of(&infos[0]), vec![2228.0, 2228.0]);
        keys_present(
            &infos[0],
            &["unit", "label", "id", "groupCode", "name", "records"],
            "series",
        );
        keys_present(
            &infos[0]["records"][0],
            &["time", "value", "updateTime"],
            "record",
        );

        let month = app
            .get(
                &format!(
                    "/api/v1/inverter/2306012345/month?date={}",
                    &day.to_string()[..7]
                ),
                Some(&c.ann),
            )
            .await;
        assert_eq!(month.data()["infos"][0]["label"], "pv");
        assert_eq!(values_of(&month.data()["infos"][0]), vec![12.5]);
        let year = app
            .get(
                &format!("/api/v1/inverter/2306012345/year?date={}", day.year()),
                Some(&c.ann),
            )
            .await;
        let year_sum: f64 = values_of(&year.data()["infos"][0]).iter().sum();
        let older = day - Duration::days(40);
        let expected = if older.year() == day.year() {
            32.5
        } else {
            12.5
        };
        assert_eq!(year_sum, expected);
        let total = app
            .get("/api/v1/inverter/2306012345/total?lan=en", Some(&c.ann))
            .await;
        total.expect_code(0);
        let total_sum: f64 = values_of(&total.data()["infos"][0]).iter().sum();
        assert_eq!(total_sum, 39.75, "total = sum of every day");
        let list = app.get("/api/v1/inverter/2306012345", Some(&c.ann)).await;
        assert_eq!(list.data()["etotal"].as_f64(), Some(total_sum));

        // Ports: battery day curve with SOC, bars of charge and discharge.
        let bat = app
            .get(
                &format!("/api/v1/inverter/battery/2306012345/day?date={day}"),
                Some(&c.ann),
            )
            .await;
        bat.expect_code(0);
        assert_eq!(bat.data()["infos"][1]["label"], "soc");
        assert_eq!(values_of(&bat.data()["infos"][1]), vec![67.0, 67.0]);
        let bat_total = app
            .get("/api/v1/inverter/battery/2306012345/total", Some(&c.ann))
            .await;
        let labels: Vec<&Value> = bat_total.data()["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .map(|s| &s["label"])
            .collect();
        assert_eq!(labels, [&json!("charge"), &json!("discharge")]);
        for port in ["grid", "load", "eps", "meter"] {
            for span in ["day", "month", "year", "total"] {
                let r = app
                    .get(
                        &format!("/api/v1/inverter/{port}/2306099999/{span}"),
                        Some(&c.ann),
                    )
                    .await;
                r.expect_code(0);
                assert!(r.data()["infos"].is_array(), "{port}/{span}");
            }
        }
        let grid3 = app
            .get("/api/v1/inverter/grid/2306099999/day", Some(&c.ann))
            .await;
        let labels: Vec<String> = grid3.data()["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .filter_map(|s| s["label"].as_str().map(String::from))
            .collect();
        assert!(labels.contains(&"grid_power_l3".to_string()), "{labels:?}");

        // Requested output columns come back as string-valued series, in order.
        let out = app
            .get(
                &format!("/api/v1/inverter/2306012345/output/day?date={day}&lan=en&column=dc_temp,igbt_temp"),
                Some(&c.ann),
            )
            .await;
        out.expect_code(0);
        let infos = &out.data()["infos"];
        assert_eq!(infos[0]["label"], "dc_temp");
        assert_eq!(infos[1]["label"], "igbt_temp");
        assert_eq!(infos[0]["unit"], "°C");
        assert_eq!(values_of(&infos[0]), vec![41.5, 41.5]);
        assert_eq!(values_of(&infos[1]), vec![38.2, 38.2]);
        let input = app
            .get("/api/v1/inverter/2306012345/input/day", Some(&c.ann))
            .await;
        assert_eq!(
            input.data()["infos"].as_array().map(Vec::len),
            Some(6),
            "2 inputs x V, I, P"
        );

        for url in [
            "/api/v1/inverter/genMi/2306012345/day",
            "/api/v1/inverter/gen/2306012345/byDate",
            "/api/v1/inverter/gen/2306012345/byDate?date=2026",
        ] {
            app.get(url, Some(&c.ann)).await.expect_code(0);
        }
        // An earlier day has no samples: empty records, not an error.
        let empty = app
            .get(
                "/api/v1/inverter/2306012345/day?date=2001-01-01",
                Some(&c.ann),
            )
            .await;
        assert_eq!(empty.data()["infos"][0]["records"], json!([]));
    }
}
