//! Replacing a gateway (the plant keeps its devices and history), unbinding and deleting one.

use super::*;

#[tokio::test]
async fn replacing_a_gateway_keeps_the_plants_devices_and_history() {
    for app in spawn().await {
        let c = action_gateways(&app).await;
        let url = "/api/v1/gateway/replace";
        let body = json!({"oldSn": "GW-ACT01", "newSn": "GW-NEW01", "key": "KEY12345"});
        // Refusals: owner and maintainer lack gateway.replace, a stranger sees nothing, a wrong
        // key, a gateway in use, the same gateway, a missing SN.
        app.post(url, body.clone(), Some(&c.ann))
            .await
            .expect_code(2);
        app.post(url, body.clone(), Some(&c.max))
            .await
            .expect_code(2);
        app.post(url, body.clone(), Some(&c.bob))
            .await
            .expect_code(305);
        app.post(
            url,
            json!({"oldSn": "GW-ACT01", "newSn": "GW-NEW01", "key": "WRONG1"}),
            Some(&c.admin),
        )
        .await
        .expect_code(300);
        app.post(
            url,
            json!({"oldSn": "GW-ACT01", "newSn": "GW-BOB01", "key": "KEY12345"}),
            Some(&c.admin),
        )
        .await
        .expect_code(301);
        app.post(
            url,
            json!({"oldSn": "GW-ACT01", "newSn": "GW-ACT01", "key": "KEY12345"}),
            Some(&c.admin),
        )
        .await
        .expect_code(4);
        app.post(
            url,
            json!({"newSn": "GW-NEW01", "key": "KEY12345"}),
            Some(&c.admin),
        )
        .await
        .expect_code(4);

        let r = app.post(url, body.clone(), Some(&c.admin)).await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(d.as_object().map(|o| o.len()), Some(4), "{d}");
        assert_eq!(d["oldSn"], "GW-ACT01");
        assert_eq!(d["newSn"], "GW-NEW01");
        assert_eq!(d["plantId"], c.plant);
        assert_eq!(d["devices"], 1);

        // The plant has the new gateway, the old one is unbound and free.
        let new = app
            .store
            .gateway_by_sn("GW-NEW01")
            .await
            .expect("db")
            .expect("new");
        let old = app
            .store
            .gateway_by_sn("GW-ACT01")
            .await
            .expect("db")
            .expect("old");
        assert_eq!(new.plant_id, Some(PlantId(c.plant)));
        assert_eq!((old.plant_id, old.owner_id), (None, None));
        // The inverter is the same row, now behind the new gateway, still on the plant, with
        // its samples and the plant's energy.
        let devices = app
            .store
            .plant_devices(PlantId(c.plant))
            .await
            .expect("devices");
        let inv = devices
            .iter()
            .find(|d| d.sn == "INV-ACT01")
            .expect("inverter stays");
        assert_eq!((inv.id.0, inv.gateway_id), (c.inverter, Some(new.id)));
        let samples = app
            .store
            .samples(DeviceId(c.inverter), 0, i64::MAX, 10)
            .await
            .expect("samples");
        assert_eq!(samples.len(), 1);
        let energy = app
            .store
            .plant_energy(PlantId(c.plant), &DayRange::total())
            .await
            .expect("energy");
        assert!(
            energy
                .iter()
                .any(|e| e.metric == "pv" && (e.kwh - 12.5).abs() < 1e-9)
        );
        // The owner's gateway list shows the new one, not the old.
        let r = app.get("/api/v1/gateways?limit=50", Some(&c.ann)).await;
        let sns: Vec<&str> = r.data()["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .filter_map(|g| g["sn"].as_str())
            .collect();
        assert!(
            sns.contains(&"GW-NEW01") && !sns.contains(&"GW-ACT01"),
            "{sns:?}"
        );

        let results = audit_results(&app, &c.admin, "gateway.replace").await;
        assert!(
            results.iter().any(|r| r == "GW-ACT01:succeeded"),
            "{results:?}"
        );
        assert!(
            results.iter().any(|r| r == "GW-ACT01:refused"),
            "{results:?}"
        );
    }
}

#[tokio::test]
async fn unbinding_and_deleting_a_gateway_are_audited() {
    for app in spawn().await {
        let c = action_gateways(&app).await;
        app.post("/api/v1/gateway/GW-ACT03/unbind", json!({}), Some(&c.ann))
            .await
            .expect_code(0);
        app.get("/api/v1/gateway/GW-ACT03/delete", Some(&c.admin))
            .await
            .expect_code(0);
        assert_eq!(
            audit_results(&app, &c.admin, "gateway.unbind").await,
            vec!["GW-ACT03:succeeded".to_string()]
        );
        assert_eq!(
            audit_results(&app, &c.admin, "gateway.delete").await,
            vec!["GW-ACT03:succeeded".to_string()]
        );
        // The unbind is filed under the plant it left: its owner reads it.
        let r = app
            .get("/api/v1/audit?action=gateway.unbind", Some(&c.ann))
            .await;
        assert_eq!(r.data()["infos"][0]["plantId"], c.plant);
    }
}
