//! The case list: live cases first (alarms before warnings, the oldest first), the filters
//! and paging.

use super::*;
use serde_json::json;

#[tokio::test]
async fn live_alarms_come_first_and_the_filters_narrow_the_list() {
    for app in common::spawn().await {
        let w = world(&app).await;
        only(&app, &w, "cell_spread").await;
        let rules = app.get("/api/v1/alarm/rules", Some(&w.admin)).await;
        for r in rules.data().as_array().expect("rules") {
            if r["kind"] == "event_code" {
                let id = r["id"].as_i64().expect("id");
                app.post(
                    &format!("/api/v1/alarm/rule/{id}"),
                    json!({"enabled": true}),
                    Some(&w.admin),
                )
                .await
                .expect_code(0);
            }
        }
        let bat = device(&app, w.gateway, "BAT-L1", DeviceFamily::Battery).await;
        let inv = device(&app, w.gateway, "INV-L1", DeviceFamily::Inverter).await;
        report(
            &app,
            bat,
            &[NOON],
            &json!({"cell_voltage_max": 3.6, "cell_voltage_min": 3.1}),
        )
        .await;
        assert_eq!(tick(&app, NOON + 10_000).await.opened, 1);
        app.store
            .open_event(inv, Some(w.plant), "F13", "fault", NOON + 20_000)
            .await
            .expect("fault");
        assert_eq!(tick(&app, NOON + 30_000).await.opened, 1);

        let all = cases(&app, &w.admin, "").await;
        let kinds: Vec<&str> = all.iter().filter_map(|c| c["kind"].as_str()).collect();
        // The fault (an alarm) before the older cell spread (a warning).
        assert_eq!(kinds, ["event_code", "cell_spread"], "[{}]", app.backend);
        assert_eq!(cases(&app, &w.admin, "severity=warning").await.len(), 1);
        assert_eq!(
            cases(&app, &w.admin, "kind=cell_spread&severity=alarm")
                .await
                .len(),
            0
        );
        assert_eq!(
            cases(&app, &w.admin, &format!("plantId={}", w.plant.0))
                .await
                .len(),
            2
        );
        assert_eq!(cases(&app, &w.admin, "state=whatever").await.len(), 2);
        let page = app
            .get("/api/v1/alarm/cases?page=2&limit=1", Some(&w.admin))
            .await;
        page.expect_code(0);
        assert_eq!(page.data()["total"], 2);
        assert_eq!(page.data()["infos"][0]["kind"], "cell_spread");
        // Someone who sees none of the plants sees none of the cases.
        let (_, nobody) = app
            .signed_in(
                "nobody@example.com",
                domain::user::BuiltinRole::PlantOwner,
                None,
            )
            .await;
        assert!(cases(&app, &nobody, "").await.is_empty());
    }
}
