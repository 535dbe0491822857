//! The inverter list, one plant's list and counts, and the detail.

use super::*;

fn find<'a>(infos: &'a Value, sn: &str) -> &'a Value {
    infos
        .as_array()
        .and_then(|a| a.iter().find(|i| i["sn"] == sn))
        .unwrap_or_else(|| panic!("{sn} not in {infos}"))
}

fn assert_item_types(i: &Value, ctx: &str) {
    assert!(i["sn"].is_string(), "{ctx}: sn");
    assert!(i["id"].is_i64(), "{ctx}: id");
    assert!(i["alias"].is_string(), "{ctx}: alias");
    assert!(i["gsn"].is_string(), "{ctx}: gsn");
    assert!(i["status"].is_i64(), "{ctx}: status");
    assert!(i["type"].is_i64(), "{ctx}: type");
    assert_eq!(i["commTypeName"], "RS485", "{ctx}");
    assert!(i["custCode"].is_i64(), "{ctx}: custCode");
    keys_present(
        &i["version"],
        &["masterVer", "softVer", "hardVer", "hmiVer", "bmsVer"],
        ctx,
    );
    assert!(i["model"].is_string(), "{ctx}: model");
    assert!(i["pac"].is_number(), "{ctx}: pac");
    assert!(i["etoday"].is_number(), "{ctx}: etoday");
    assert!(i["etotal"].is_number(), "{ctx}: etotal");
    assert!(
        is_update_at(&i["updateAt"]),
        "{ctx}: updateAt {}",
        i["updateAt"]
    );
    assert!(i["opened"].is_i64(), "{ctx}: opened");
    let p = &i["plant"];
    assert!(
        p["id"].is_i64() && p["name"].is_string() && p["type"].is_i64(),
        "{ctx}"
    );
    // sunsynk-python types it a string: an int fails its whole list.
    assert!(
        p["master"].is_string(),
        "{ctx}: plant.master {}",
        p["master"]
    );
    keys_present(p, &["installer", "email", "phone"], ctx);
    assert!(i["gatewayVO"]["gsn"].is_string(), "{ctx}: gatewayVO.gsn");
    assert!(i["gatewayVO"]["status"].is_i64(), "{ctx}: gatewayVO.status");
    assert!(i["sunsynkEquip"].is_boolean(), "{ctx}: sunsynkEquip");
    assert!(
        i["protocolIdentifier"].is_string(),
        "{ctx}: protocolIdentifier"
    );
    keys_present(i, &["equipMode", "equipType", "ratePower"], ctx);
    // An int or null for sunsynk-python; never the kind's text (that is `typeKey`).
    assert!(
        i["equipMode"].is_null() || i["equipMode"].is_i64(),
        "{ctx}: equipMode {}",
        i["equipMode"]
    );
}

#[tokio::test]
async fn the_list_has_the_client_field_types_filters_and_paging() {
    for app in spawn().await {
        let c = reporting_inverters(&app).await;
        let r = app
            .get(
                "/api/v1/inverters?page=1&limit=10&total=0&status=-1&sn=&plantId=&type=-2&softVer=&hmiVer=&agentCompanyId=-1&gsn=",
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(d["total"], 2, "{}: only Ann's inverters", app.backend);
        assert_eq!(
            (d["pageSize"].as_i64(), d["pageNumber"].as_i64()),
            (Some(10), Some(1))
        );
        for i in d["infos"].as_array().expect("infos") {
            assert_item_types(i, app.backend);
        }
        let single = find(&d["infos"], "2306012345");
        assert_eq!(single["type"], 2);
        assert_eq!(single["status"], 1, "reporting makes it normal");
        assert_eq!(single["opened"], 1);
        assert_eq!(single["sunsynkEquip"], true);
        assert_eq!(single["protocolIdentifier"], "deye-hybrid-1ph");
        assert_eq!(single["pac"], 2228.0, "sum of the PV inputs");
        assert_eq!(single["etoday"], 12.5);
        assert_eq!(single["etotal"], 39.75, "all days from rollups");
        assert_eq!(single["ratePower"], 5000.0);
        assert_eq!(single["gsn"], "GW-ANN-0001");
        assert_eq!(single["plant"]["id"].as_i64(), Some(c.ann_plant));
        assert_eq!(single["plant"]["name"], "Ann storage plant");

        // Filters: type, SN part, gateway, status, and paging.
        let only = |q: &str| {
            let q = q.to_string();
            let app = &app;
            let ann = c.ann.clone();
            async move {
                let r = app.get(&format!("/api/v1/inverters?{q}"), Some(&ann)).await;
                r.expect_code(0);
                r.data().clone()
            }
        };
        assert_eq!(only("type=93").await["infos"][0]["sn"], "2306099999");
        assert_eq!(only("type=93").await["total"], 1);
        assert_eq!(only("sn=012345").await["total"], 1);
        assert_eq!(only("gsn=GW-ANN-0001").await["total"], 2);
        assert_eq!(only("gsn=GW-BOB-0001").await["total"], 0);
        assert_eq!(only("status=0").await["total"], 0);
        assert_eq!(only("status=1").await["total"], 2);
        let p = only("page=2&limit=1").await;
        assert_eq!(
            (p["total"].as_i64(), p["infos"].as_array().map(Vec::len)),
            (Some(2), Some(1))
        );
        assert_eq!(only(&format!("plantId={}", c.ann_plant)).await["total"], 2);
        assert_eq!(only("type=-1&lan&id=").await["total"], 2, "lenient query");
    }
}

#[tokio::test]
async fn a_plants_inverters_and_counts_follow_the_callers_plants() {
    for app in spawn().await {
        let c = reporting_inverters(&app).await;
        let url = format!(
            "/api/v1/plant/{}/inverters?page=1&limit=10&status=-1&sn=&id={}&type=-2",
            c.ann_plant, c.ann_plant
        );
        let r = app.get(&url, Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 2);
        for i in r.data()["infos"].as_array().expect("infos") {
            assert_item_types(i, app.backend);
        }
        let one = app
            .get(
                &format!("/api/v1/plant/{}/inverters?limit=1&type=-1", c.ann_plant),
                Some(&c.ann),
            )
            .await;
        assert_eq!(one.data()["infos"].as_array().map(Vec::len), Some(1));
        app.get(&url, Some(&c.bob)).await.expect_code(700);

        let count = app.get("/api/v1/inverters/count", Some(&c.ann)).await;
        count.expect_code(0);
        let d = count.data();
        for k in [
            "total",
            "normal",
            "offline",
            "warning",
            "fault",
            "upgrading",
        ] {
            assert!(d[k].is_i64(), "{k}");
        }
        assert_eq!(
            (d["total"].as_i64(), d["normal"].as_i64()),
            (Some(2), Some(2))
        );
        let bobs = app.get("/api/v1/inverters/count", Some(&c.bob)).await;
        assert_eq!(bobs.data()["total"], 1);
    }
}

#[tokio::test]
async fn the_detail_is_the_list_item_with_readings_and_the_callers_keys() {
    for app in spawn().await {
        let c = reporting_inverters(&app).await;
        let r = app.get("/api/v1/inverter/2306012345", Some(&c.ann)).await;
        r.expect_code(0);
        let d = r.data();
        assert_item_types(d, app.backend);
        assert_eq!(d["typeKey"], "single_phase_lv_hybrid");
        assert_eq!(d["hybrid"], true);
        assert_eq!(d["timezone"], TZ);
        assert_eq!(d["dcTemp"], 41.5, "°C as stored");
        assert_eq!(d["values"]["battery_soc"], 67);
        let keys: Vec<&str> = d["plantPermission"]
            .as_array()
            .expect("keys")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert!(keys.contains(&"inverter.alias") && keys.contains(&"station.edit"));
        app.get("/api/v1/inverter/NO-SUCH-SN", Some(&c.ann))
            .await
            .expect_code(600);
    }
}
