//! Realtime figures, income and energy across day, month, year and total.

use super::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.011
}

#[tokio::test]
async fn realtime_income_and_energy_agree_across_day_month_year_and_total() {
    for app in spawn().await {
        let c = monitored_plant(&app).await;
        let in_month: f64 = c
            .pv_days
            .iter()
            .filter(|(d, _)| d.year() == c.today.year() && d.month() == c.today.month())
            .map(|(_, k)| k)
            .sum();
        let in_year: f64 = c
            .pv_days
            .iter()
            .filter(|(d, _)| d.year() == c.today.year())
            .map(|(_, k)| k)
            .sum();
        let total: f64 = c.pv_days.iter().map(|(_, k)| k).sum();

        let r = app
            .get(
                &format!("/api/v1/plant/{}/realtime?id={}", c.plant, c.plant),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let rt = r.data();
        for key in [
            "pac",
            "etoday",
            "emonth",
            "eyear",
            "etotal",
            "income",
            "efficiency",
            "totalPower",
        ] {
            assert!(rt[key].is_number(), "realtime.{key}: {}", rt[key]);
        }
        assert!(is_update_at(&rt["updateAt"]), "{}", rt["updateAt"]);
        assert!(rt["currency"]["id"].is_number());
        assert_eq!(rt["currency"]["code"], "GBP");
        assert_eq!(rt["currency"]["text"], "£");
        assert_eq!(rt["pac"].as_f64(), Some(4000.0), "[{}]", app.backend);
        assert_eq!(rt["etoday"].as_f64(), Some(10.0));
        assert!(close(rt["emonth"].as_f64().unwrap_or(-1.0), in_month));
        assert!(close(rt["eyear"].as_f64().unwrap_or(-1.0), in_year));
        assert!(close(rt["etotal"].as_f64().unwrap_or(-1.0), total));
        assert_eq!(rt["income"].as_f64(), Some(2.0), "10 kWh at 0.20");
        assert_eq!(rt["efficiency"].as_f64(), Some(0.5), "4 kW of 8 kWp");
        assert_eq!(rt["totalPower"].as_f64(), Some(8.0));

        let uses = app
            .get(
                &format!("/api/v1/plant/energy/{}/generation/use", c.plant),
                Some(&c.ann),
            )
            .await;
        uses.expect_code(0);
        let u = uses.data();
        assert_eq!(
            (
                u["load"].as_f64(),
                u["pv"].as_f64(),
                u["batteryCharge"].as_f64(),
                u["gridSell"].as_f64()
            ),
            (Some(8.0), Some(10.0), Some(3.0), Some(1.5))
        );

        let get = |path: String| {
            let app = &app;
            let token = c.ann.clone();
            async move {
                let r = app.get(&path, Some(&token)).await;
                r.expect_code(0);
                r.json["data"].clone()
            }
        };
        let p = c.plant;
        let month = get(format!(
            "/api/v1/plant/energy/{p}/month?lan=en&date={}&id={p}",
            c.today.format("%Y-%m")
        ))
        .await;
        let year = get(format!(
            "/api/v1/plant/energy/{p}/year?lan=en&date={}",
            c.today.year()
        ))
        .await;
        let all = get(format!("/api/v1/plant/energy/{p}/total?lan=en")).await;
        let sum = |v: &Value| records(v, "pv").iter().map(|(_, k)| k).sum::<f64>();
        assert!(close(sum(&month), in_month), "month bars {month}");
        assert!(close(sum(&year), in_year), "year bars {year}");
        assert!(close(sum(&all), total), "total bars {all}");
        let today_bar = records(&month, "pv")
            .into_iter()
            .find(|(t, _)| *t == c.today.to_string())
            .map(|(_, k)| k);
        assert_eq!(today_bar, Some(10.0), "the day's bar is the day's energy");
        assert_eq!(records(&month, "load").len(), 1);
        assert_eq!(
            labels(&month),
            [
                "pv",
                "load",
                "grid_import",
                "grid_export",
                "charge",
                "discharge",
                "generator"
            ]
        );
        let this_month = format!("{}", c.today.format("%Y-%m"));
        assert!(
            records(&year, "pv")
                .iter()
                .any(|(t, k)| *t == this_month && close(*k, in_month))
        );

        let day = get(format!(
            "/api/v1/plant/energy/{p}/day?lan=en&date={}&id={p}",
            c.today
        ))
        .await;
        assert_eq!(labels(&day), ["pv", "load", "grid", "battery", "soc"]);
        let pv = records(&day, "pv");
        assert!(
            !pv.is_empty() && pv.iter().all(|(_, w)| *w == 4000.0),
            "{day}"
        );
        assert!(pv.iter().all(|(t, _)| t.starts_with(&c.today.to_string())));
        assert!(records(&day, "grid").iter().all(|(_, w)| *w == -400.0));
        assert!(records(&day, "battery").iter().all(|(_, w)| *w == -1500.0));
        assert!(records(&day, "soc").iter().all(|(_, s)| *s == 55.0));

        let power_day = get(format!("/api/v1/plant/{p}/power/day?date={}", c.today)).await;
        assert_eq!(labels(&power_day), ["pv"]);
        let power_total = get(format!("/api/v1/plant/{p}/power/total")).await;
        assert_eq!(labels(&power_total), ["pv"]);
        assert!(close(sum(&power_total), total));
        app.get(&format!("/api/v1/plant/{p}/power/week"), Some(&c.ann))
            .await
            .expect_code(4);

        // The plant list and detail carry the same figures.
        let list = app
            .get("/api/v1/plants?page=1&limit=10&name=&status=", Some(&c.ann))
            .await;
        list.expect_code(0);
        let item = &list.data()["infos"][0];
        assert_eq!(item["pac"].as_f64(), Some(4000.0));
        assert_eq!(item["etoday"].as_f64(), Some(10.0));
        assert!(close(item["etotal"].as_f64().unwrap_or(-1.0), total));
        assert_eq!(item["efficiency"].as_f64(), Some(0.5));
        assert!(is_update_at(&item["updateAt"]));
        let detail = app
            .get(&format!("/api/v1/plant/{p}?lan=en&id={p}"), Some(&c.ann))
            .await;
        detail.expect_code(0);
        let d = &detail.data()["realtime"];
        for key in [
            "pac",
            "efficiency",
            "etoday",
            "emonth",
            "eyear",
            "etotal",
            "totalPower",
            "invest",
            "income",
        ] {
            assert!(d[key].is_number(), "detail realtime.{key}: {}", d[key]);
        }
        assert_eq!(d["currency"]["code"], "GBP");
        assert_eq!(d["pac"].as_f64(), Some(4000.0));
        assert_eq!(d["etoday"].as_f64(), Some(10.0));
        assert_eq!(d["income"].as_f64(), Some(2.0));
        assert!(is_update_at(&d["updateAt"]));
    }
}
