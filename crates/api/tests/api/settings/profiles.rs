//! Custom profiles and their limits.

use super::*;

#[tokio::test]
async fn custom_profiles_hold_six_parameters_and_a_user_six_profiles() {
    for app in spawn().await {
        let c = settable_inverters(&app).await;
        let url = "/api/v1/inverter/params/custom";
        let r = app.get("/api/v1/inverter/params", Some(&c.ann)).await;
        let d = r.expect_code(0).data();
        assert_eq!(
            (d["maxParams"].as_i64(), d["maxProfiles"].as_i64()),
            (Some(6), Some(6))
        );
        let infos = d["infos"].as_array().expect("infos");
        assert!(!infos.is_empty() && infos.len() <= 30);
        assert!(infos.iter().all(|f| f["group"] != "timeOfUse"));
        let hv = app
            .get("/api/v1/inverter/params?sn=INV-SETHV", Some(&c.ann))
            .await;
        assert_eq!(hv.expect_code(0).data()["family"], "hybrid_hv");

        let r = app
            .post(
                url,
                json!({"name": "Night charge", "params": {"battMode": "1", "zeroExportPower": 30, "solarSell": true}}),
                Some(&c.ann),
            )
            .await;
        let p = r.expect_code(0).data().clone();
        assert!(p["id"].is_i64());
        assert_eq!(p["name"], "Night charge");
        assert_eq!(
            p["params"],
            json!({"battMode": "1", "zeroExportPower": "30", "solarSell": "1"})
        );
        assert!(p["createAt"].is_string() && p["updateAt"].is_string());
        // Limits and rules.
        let seven = json!({"battMode": "1", "zeroExportPower": "1", "solarSell": "true",
            "sysWorkMode": "0", "energyMode": "0", "batteryCap": "100", "pf": "1.00"});
        app.post(
            url,
            json!({"name": "Too many", "params": seven}),
            Some(&c.ann),
        )
        .await
        .expect_code(4);
        let r = app
            .post(
                url,
                json!({"name": "Slots", "params": {"sellTime1": "01:00"}}),
                Some(&c.ann),
            )
            .await;
        r.expect_code(4);
        assert_eq!(r.msg(), "Parameter validation error: sellTime1");
        app.post(
            url,
            json!({"name": "Range", "params": {"batteryLowCap": "101"}}),
            Some(&c.ann),
        )
        .await
        .expect_code(4);
        app.post(
            url,
            json!({"name": "", "params": {"battMode": "1"}}),
            Some(&c.ann),
        )
        .await
        .expect_code(4);
        let dup = app
            .post(
                url,
                json!({"name": "Night charge", "params": {"battMode": "0"}}),
                Some(&c.ann),
            )
            .await;
        dup.expect_code(4);
        assert_eq!(dup.msg(), "Parameter validation error: name");
        for i in 2..=6 {
            app.post(
                url,
                json!({"name": format!("P{i}"), "params": {"cap1": "50"}}),
                Some(&c.ann),
            )
            .await
            .expect_code(4); // cap1 is a time-of-use value, not selectable
            app.post(
                url,
                json!({"name": format!("P{i}"), "params": {"batteryLowCap": "25"}}),
                Some(&c.ann),
            )
            .await
            .expect_code(0);
        }
        let r = app
            .post(
                url,
                json!({"name": "P7", "params": {"batteryLowCap": "25"}}),
                Some(&c.ann),
            )
            .await;
        r.expect_code(4);
        assert!(r.msg().contains("at most 6"), "{}", r.msg());
        let list = app.get(url, Some(&c.ann)).await;
        let list = list.expect_code(0).data().as_array().expect("list").clone();
        assert_eq!(list.len(), 6);
        // Change and delete; another user's profile is not theirs to touch.
        let id = p["id"].as_i64().expect("id");
        let r = app
            .post(
                url,
                json!({"id": id, "name": "Night", "params": {"battMode": "0"}}),
                Some(&c.ann),
            )
            .await;
        assert_eq!(r.expect_code(0).data()["params"], json!({"battMode": "0"}));
        app.post(url, json!({"id": id, "delete": true}), Some(&c.bob))
            .await
            .expect_code(4);
        assert_eq!(
            app.get(url, Some(&c.bob)).await.expect_code(0).data(),
            &json!([])
        );
        let r = app
            .post(url, json!({"id": id, "delete": true}), Some(&c.ann))
            .await;
        assert_eq!(r.expect_code(0).data(), &Value::Null);
        let list = app.get(url, Some(&c.ann)).await;
        assert_eq!(
            list.expect_code(0).data().as_array().expect("list").len(),
            5
        );
    }
}
