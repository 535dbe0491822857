//! Enabling with a notice to the owners concerned.

use super::*;
use domain::DeviceFamily;
use domain::ids::GatewayId;

/// An owner with a plant holding an inverter of type `code`.
async fn owner_with_inverter(app: &App, admin: &str, name: &str, gw: &str, code: i64) -> String {
    let [owner] = fixtures::owners(app, [name]).await;
    let plant = fixtures::plant(
        app,
        &owner,
        fixtures::madrid_plant(&format!("{name} plant"), 2, 8),
    )
    .await;
    let g = fixtures::hybrid_gateway(app, admin, &owner, plant, gw).await;
    app.store
        .upsert_device(
            &format!("INV-{gw}"),
            GatewayId(g),
            DeviceFamily::Inverter,
            code,
            "p",
            "M",
            None,
            1,
        )
        .await
        .expect("device");
    owner
}

#[tokio::test]
async fn enabling_with_notify_tells_exactly_the_owners_concerned_and_offers_the_fitting_firmware() {
    for app in spawn().await {
        let admin = fixtures::admin(&app).await;
        let (_, lv) = label(&app, &admin, "Hybrid", "LV hybrid", &[2]).await;
        let (_, hv) = label(&app, &admin, "Hybrid", "HV hybrid", &[94]).await;
        let ann = owner_with_inverter(&app, &admin, "ann", "GW-FWN01", 2).await;
        let bob = owner_with_inverter(&app, &admin, "bob", "GW-FWN02", 94).await;
        let fw = upload(&app, &admin, lv, "lv", "V2_0").await;
        let other = upload(&app, &admin, hv, "hv", "V3_0").await;
        let before = app
            .get("/api/v1/message/count", Some(&ann))
            .await
            .data()
            .as_i64()
            .unwrap_or(0);

        // Disabled firmware is offered to nobody.
        let offered = app
            .get("/api/v1/firmware?sn=INV-GW-FWN01", Some(&ann))
            .await;
        offered.expect_code(0);
        assert_eq!(offered.data()["total"], 0);

        let r = app
            .get(
                &format!("/api/v1/firmware/{fw}/changeEnable?enable=true&notify=true"),
                Some(&admin),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["enabled"], true);
        app.get(
            &format!("/api/v1/firmware/{other}/changeEnable?enable=true"),
            Some(&admin),
        )
        .await
        .expect_code(0);

        // Ann's inverter (type 2) gets the LV firmware only; Bob's the HV only.
        let offered = app
            .get("/api/v1/firmware?sn=INV-GW-FWN01", Some(&ann))
            .await;
        let ids: Vec<i64> = offered.data()["infos"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f["id"].as_i64())
            .collect();
        assert_eq!(ids, [fw]);
        let offered = app
            .get("/api/v1/firmware?sn=INV-GW-FWN02", Some(&bob))
            .await;
        let ids: Vec<i64> = offered.data()["infos"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f["id"].as_i64())
            .collect();
        assert_eq!(ids, [other]);

        // One notice for Ann, none for Bob (he was not notified).
        let m = app.get("/api/v1/messages?lan=en", Some(&ann)).await;
        m.expect_code(0);
        let notices: Vec<Value> = m.data()["infos"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|i| i["source"] == "notice")
            .cloned()
            .collect();
        assert_eq!(notices.len(), 1, "{}", m.text());
        let n = &notices[0];
        assert_eq!(n["title"], "Firmware update available");
        assert_eq!(n["content"], "LV hybrid: version V2_0 (lv.bin)");
        assert!(n["event"].is_null() && n["plantId"].is_null() && n["sn"].is_null());
        assert_eq!(n["type"], "info");
        assert_eq!(n["status"], 0);
        let after = app
            .get("/api/v1/message/count", Some(&ann))
            .await
            .data()
            .as_i64()
            .unwrap_or(0);
        assert_eq!(after, before + 1);
        let m = app.get("/api/v1/messages", Some(&bob)).await;
        assert!(
            m.data()["infos"]
                .as_array()
                .into_iter()
                .flatten()
                .all(|i| i["source"] != "notice")
        );
        let zh = app.get("/api/v1/messages?lan=zh", Some(&ann)).await;
        assert!(
            zh.data()["infos"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|i| i["title"] == "有可用的固件更新")
        );

        // Read by source: Bob cannot read Ann's notice.
        let nid = n["id"].as_i64().expect("id");
        app.post(
            &format!("/api/v1/message/{nid}/read?source=notice"),
            json!({}),
            Some(&bob),
        )
        .await
        .expect_code(4);
        app.post(
            &format!("/api/v1/message/{nid}/read?source=notice"),
            json!({}),
            Some(&ann),
        )
        .await
        .expect_code(0);
        let after = app
            .get("/api/v1/message/count", Some(&ann))
            .await
            .data()
            .as_i64()
            .unwrap_or(0);
        assert_eq!(after, before);

        // Disabling stops the offer; audited.
        app.get(
            &format!("/api/v1/firmware/{fw}/changeEnable?enable=false"),
            Some(&admin),
        )
        .await
        .expect_code(0);
        let offered = app
            .get("/api/v1/firmware?sn=INV-GW-FWN01", Some(&ann))
            .await;
        assert_eq!(offered.data()["total"], 0);
        let audit = app.get("/api/v1/audit?limit=50", Some(&admin)).await;
        let actions: Vec<&str> = audit.data()["infos"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e["action"].as_str())
            .collect();
        assert!(
            actions.contains(&"firmware.enable") && actions.contains(&"firmware.disable"),
            "{actions:?}"
        );
    }
}
