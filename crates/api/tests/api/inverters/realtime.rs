//! Every realtime port of an inverter and its strict fields.

use super::*;

fn is_num_text(v: &Value) -> bool {
    v.as_str().is_some_and(|s| s.parse::<f64>().is_ok())
}

#[tokio::test]
async fn realtime_input_and_output_have_the_strict_fields() {
    for app in spawn().await {
        let c = reporting_inverters(&app).await;
        let r = app
            .get("/api/v1/inverter/2306012345/realtime/input", Some(&c.ann))
            .await;
        r.expect_code(0);
        let d = r.data();
        assert!(d["etoday"].is_number() && d["etotal"].is_number() && d["pac"].is_number());
        assert_eq!(d["mpptIV"], json!([]));
        let pv = d["pvIV"].as_array().expect("pvIV");
        assert_eq!(pv.len(), 2, "two inputs reported");
        for (n, i) in pv.iter().enumerate() {
            assert_eq!(i["pvNo"], n as i64 + 1);
            assert!(i["id"].is_i64());
            for k in ["vpv", "ipv", "ppv", "todayPv"] {
                assert!(is_num_text(&i[k]), "{k}: {}", i[k]);
            }
            assert_eq!(i["sn"], "2306012345");
            let time = i["time"].as_str().expect("time");
            assert!(chrono::NaiveDateTime::parse_from_str(time, "%Y-%m-%d %H:%M:%S").is_ok());
        }
        assert_eq!(pv[0]["vpv"], "310.5");
        assert_eq!(pv[0]["ppv"], "1304.0");
        // The inputs share the inverter's PV energy today by what each made (1304 W : 924 W
        // all day here), so they add up to its `etoday` however rarely it reports.
        let kwh = |i: &Value| -> f64 {
            i["todayPv"]
                .as_str()
                .and_then(|s| s.parse().ok())
                .expect("kWh")
        };
        let etoday = d["etoday"].as_f64().expect("etoday");
        assert!(etoday > 1.0, "{etoday}");
        assert!((kwh(&pv[0]) + kwh(&pv[1]) - etoday).abs() < 0.02);
        let share = kwh(&pv[0]) / (kwh(&pv[0]) + kwh(&pv[1]));
        assert!((share - 1304.0 / 2228.0).abs() < 0.01, "{share}");

        let iv = app
            .get("/api/v1/inverter/2306012345/pvIVRealtime", Some(&c.ann))
            .await;
        iv.expect_code(0);
        assert_eq!(iv.data()["pvIV"].as_array().map(Vec::len), Some(2));

        let out = app
            .get("/api/v1/inverter/2306012345/realtime/output", Some(&c.ann))
            .await;
        out.expect_code(0);
        let d = out.data();
        assert_eq!(
            d["vip"],
            json!([{"volt": "230.8", "current": "0.3", "power": -50.0}])
        );
        assert!(d["pInv"].is_number() && d["pac"].is_number());
        assert_eq!(d["fac"], 50.01);
        let three = app
            .get("/api/v1/inverter/2306099999/realtime/output", Some(&c.ann))
            .await;
        let vip = three.data()["vip"].as_array().expect("vip").clone();
        assert_eq!(vip.len(), 3, "one per phase");
        for v in &vip {
            assert!(v["volt"].is_string() && v["current"].is_string() && v["power"].is_number());
        }
    }
}

#[tokio::test]
async fn grid_load_battery_generator_eps_and_meter_realtime_have_their_fields() {
    for app in spawn().await {
        let c = reporting_inverters(&app).await;
        let get = |port: &str, sn: &str| {
            let url = format!("/api/v1/inverter/{port}/{sn}/realtime?sn=&lan");
            let app = &app;
            let ann = c.ann.clone();
            async move {
                let r = app.get(&url, Some(&ann)).await;
                r.expect_code(0);
                r.data().clone()
            }
        };
        let grid = get("grid", "2306012345").await;
        keys_present(
            &grid,
            &[
                "vip",
                "pac",
                "qac",
                "fac",
                "pf",
                "status",
                "etodayFrom",
                "etodayTo",
                "etotalFrom",
                "etotalTo",
                "limiterPowerArr",
                "limiterTotalPower",
            ],
            "grid",
        );
        for k in ["etodayFrom", "etodayTo", "etotalFrom", "etotalTo"] {
            assert!(is_num_text(&grid[k]), "{k}: {}", grid[k]);
        }
        assert_eq!(grid["etodayFrom"], "1.5");
        assert_eq!(grid["etotalTo"], "12.0");
        assert_eq!(grid["pac"], 460.0);
        assert_eq!(grid["status"], 1);
        assert!(grid["limiterPowerArr"].is_array());
        let grid3 = get("grid", "2306099999").await;
        assert_eq!(grid3["vip"].as_array().map(Vec::len), Some(3));
        assert_eq!(grid3["limiterPowerArr"], json!([291.0, 292.0, 293.0]));

        let load = get("load", "2306012345").await;
        keys_present(
            &load,
            &[
                "totalUsed",
                "dailyUsed",
                "totalPower",
                "smartLoadStatus",
                "loadFac",
                "upsPowerL1",
                "upsPowerL2",
                "upsPowerL3",
                "upsPowerTotal",
            ],
            "load",
        );
        assert_eq!(
            (load["dailyUsed"].as_f64(), load["totalUsed"].as_f64()),
            (Some(9.0), Some(27.0))
        );
        assert_eq!(load["totalPower"], 2100.0);

        let bat = get("battery", "2306012345").await;
        let all = [
            "etodayChg",
            "etodayDischg",
            "emonthChg",
            "emonthDischg",
            "eyearChg",
            "eyearDischg",
            "etotalChg",
            "etotalDischg",
            "type",
            "power",
            "capacity",
            "correctCap",
            "current",
            "voltage",
            "temp",
            "soc",
            "chargeVolt",
            "dischargeVolt",
            "chargeCurrentLimit",
            "dischargeCurrentLimit",
            "maxChargeCurrentLimit",
            "maxDischargeCurrentLimit",
            "status",
            "batterySoc1",
            "batteryCurrent1",
            "batteryVolt1",
            "batteryPower1",
            "batteryTemp1",
            "batteryStatus2",
            "batterySoc2",
            "batteryCurrent2",
            "batteryVolt2",
            "batteryPower2",
            "batteryTemp2",
            "numberOfBatteries",
            "batt1Factory",
            "batt2Factory",
        ];
        keys_present(&bat, &all, "battery");
        assert!(bat["power"].is_number(), "power never null");
        assert!(is_num_text(&bat["current"]) && is_num_text(&bat["voltage"]));
        for k in ["etodayChg", "etotalChg", "etotalDischg", "temp", "soc"] {
            assert!(is_num_text(&bat[k]), "{k}: {}", bat[k]);
        }
        assert_eq!(bat["soc"], "67.0");
        assert_eq!(bat["etotalChg"], "9.0");
        assert_eq!(bat["status"], 1, "negative power charges");
        assert_eq!(bat["numberOfBatteries"], 1);
        // A reading without a battery still answers numbers for power, current and voltage.
        let bare = get("battery", "2306099999").await;
        assert!(bare["power"].is_number() && bare["current"].is_string());

        let eps = get("eps", "2306099999").await;
        assert_eq!(eps["vip"].as_array().map(Vec::len), Some(3));
        assert_eq!(eps["pac"], 1500.0);
        let meter = get("meter", "2306012345").await;
        assert_eq!(meter["pac"], 455.0);
        assert!(is_num_text(&meter["etodayFrom"]));

        let generator = app
            .get("/api/v1/inverter/gen/2306012345/realtime", Some(&c.ann))
            .await;
        generator.expect_code(0);
        keys_present(
            generator.data(),
            &["genTotal", "genDaily", "totalPower", "genFac", "vip"],
            "gen",
        );
        assert_eq!(generator.data()["totalPower"], 0.0);
    }
}
