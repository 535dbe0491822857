//! Support per family, or the spec's refusals.

use super::*;

#[tokio::test]
async fn support_answers_the_family_or_the_specs_refusals() {
    for app in spawn().await {
        let c = settable_inverters(&app).await;
        let url = |sn: &str| format!("/api/v1/inverter/setting/{sn}/support");
        let r = app.get(&url(INV), Some(&c.ann)).await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(d["support"], true);
        assert_eq!(d["family"], "hybrid_lv");
        assert_eq!(d["editable"], true);
        let groups: Vec<&str> = d["groups"]
            .as_array()
            .expect("groups")
            .iter()
            .map(|g| g["key"].as_str().expect("key"))
            .collect();
        assert_eq!(
            groups,
            [
                "workMode",
                "battery",
                "grid",
                "timeOfUse",
                "generator",
                "limits",
                "power"
            ]
        );
        let fields: Vec<&Value> = d["groups"]
            .as_array()
            .expect("groups")
            .iter()
            .flat_map(|g| g["fields"].as_array().expect("fields"))
            .collect();
        let amps = fields
            .iter()
            .find(|f| f["key"] == "batteryMaxCurrentCharge")
            .expect("amps");
        assert_eq!(
            (
                &amps["type"],
                &amps["unit"],
                &amps["decimals"],
                &amps["max"]
            ),
            (&json!("number"), &json!("A"), &json!(0), &json!(240.0))
        );
        let day = fields.iter().find(|f| f["key"] == "mondayOn").expect("day");
        assert_eq!(day["type"], "bool");
        let mode = fields
            .iter()
            .find(|f| f["key"] == "battMode")
            .expect("mode");
        assert_eq!(mode["choices"], json!(["-1", "0", "1"]));

        // The visitor sees the inverter but may not change its settings.
        let r = app.get(&url(INV), Some(&c.vic)).await;
        r.expect_code(0);
        assert_eq!(r.data()["editable"], false);
        let hv = app.get(&url("INV-SETHV"), Some(&c.ann)).await;
        assert_eq!(hv.expect_code(0).data()["family"], "hybrid_hv");
        let gt = app.get(&url("INV-SETGT"), Some(&c.ann)).await;
        let gt_groups = gt.expect_code(0).data()["groups"]
            .as_array()
            .expect("g")
            .len();
        assert_eq!(gt_groups, 3, "grid-tied: grid, limits and power");
        let micro = app.get(&url("INV-SETMI"), Some(&c.ann)).await;
        micro.expect_code(605);
        assert_eq!(micro.msg(), "No configuration parameters");
        app.get(&url("INV-SETAC"), Some(&c.ann))
            .await
            .expect_code(601);
        app.get(&url(INV), Some(&c.bob)).await.expect_code(600);
        app.get(&url("NOPE-0001"), Some(&c.ann))
            .await
            .expect_code(600);
    }
}
