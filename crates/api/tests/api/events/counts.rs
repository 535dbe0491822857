//! A plant's events and counts, a device's events, the overview counts and the last hour.

use super::*;
use domain::ids::DeviceId;

#[tokio::test]
async fn a_plant_answers_its_events_event_count_and_inverter_count() {
    for app in spawn().await {
        let c = event_plants(&app).await;
        events(&app, &c).await;
        // Status job's view: Ann's inverter in fault, the battery normal.
        app.store
            .apply_statuses(
                &[
                    (DeviceId(c.ann_inv), 3, true),
                    (DeviceId(c.ann_bat), 1, true),
                ],
                &[],
            )
            .await
            .expect("statuses");

        let r = app
            .get(
                &format!("/api/v1/plant/{}/events", c.ann_plant),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        for key in ["pageSize", "pageNumber", "total"] {
            assert!(d[key].is_i64(), "{key}: {d}");
        }
        assert_eq!(d["total"], 3);
        d["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .for_each(assert_event);
        let open = app
            .get(
                &format!("/api/v1/plant/{}/events?status=1", c.ann_plant),
                Some(&c.ann),
            )
            .await;
        assert_eq!(open.data()["total"], 2);

        let r = app
            .get(
                &format!("/api/v1/plant/{}/eventCount", c.ann_plant),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        assert_eq!(d["warning"].as_i64(), Some(0), "the warning is closed");
        assert_eq!(d["fault"].as_i64(), Some(2));
        assert!(d["updateAt"].as_str().is_some_and(|s| s.ends_with('Z')));

        let r = app
            .get(
                &format!("/api/v1/plant/{}/inverterCount", c.ann_plant),
                Some(&c.ann),
            )
            .await;
        r.expect_code(0);
        let d = r.data();
        for key in ["warning", "fault", "total", "normal", "offline"] {
            assert!(d[key].is_i64(), "{key}: {d}");
        }
        assert!(d["updateAt"].is_string());
        assert_eq!(
            (d["total"].as_i64(), d["fault"].as_i64()),
            (Some(1), Some(1))
        );
        assert_eq!(d["normal"], 0, "the battery is not an inverter");

        // Another tenant's plant answers 700 like a missing one.
        for path in ["events", "eventCount", "inverterCount"] {
            app.get(
                &format!("/api/v1/plant/{}/{path}", c.ann_plant),
                Some(&c.bob),
            )
            .await
            .expect_code(700);
            app.get(&format!("/api/v1/plant/999999/{path}"), Some(&c.ann))
                .await
                .expect_code(700);
        }
        let _ = c.bob_plant;
    }
}

#[tokio::test]
async fn device_events_overview_counts_and_the_last_hour() {
    for app in spawn().await {
        let c = event_plants(&app).await;
        events(&app, &c).await;
        let r = app.get("/api/v1/event/INV-ANN01", Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 2);
        let r = app
            .get("/api/v1/event/INV-ANN01/realtime", Some(&c.ann))
            .await;
        r.expect_code(0);
        let open = r.data().as_array().expect("array");
        assert_eq!(open.len(), 1);
        assert_event(&open[0]);
        assert_eq!(open[0]["code"], "F01");
        // Another tenant's device answers like a missing one.
        app.get("/api/v1/event/INV-ANN01", Some(&c.bob))
            .await
            .expect_code(600);
        app.get("/api/v1/event/INV-ANN01/realtime", Some(&c.bob))
            .await
            .expect_code(600);
        app.get("/api/v1/event/NOPE-0001/realtime", Some(&c.ann))
            .await
            .expect_code(600);

        let r = app.get("/api/v1/battery/events", Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 1);
        assert_eq!(r.data()["infos"][0]["sn"], "BAT-ANN01");

        let r = app.get("/api/v1/event/oneHour", Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(r.data()["total"], 2, "the closed warning is two hours old");
        r.data()["infos"]
            .as_array()
            .expect("infos")
            .iter()
            .for_each(assert_event);

        let r = app.get("/api/v1/overview/eventCount", Some(&c.ann)).await;
        r.expect_code(0);
        assert_eq!(
            (r.data()["warning"].as_i64(), r.data()["fault"].as_i64()),
            (Some(0), Some(2))
        );
        let r = app.get("/api/v1/overview/eventCount", Some(&c.admin)).await;
        assert_eq!(
            (r.data()["warning"].as_i64(), r.data()["fault"].as_i64()),
            (Some(1), Some(2))
        );

        let ann_count = format!("/api/v1/user/{}/eventCount", c.ann_id);
        let r = app.get(&ann_count, Some(&c.admin)).await;
        r.expect_code(0);
        assert_eq!(r.data()["fault"], 2);
        app.get(&ann_count, Some(&c.bob)).await.expect_code(105);

        // Detail by id, with the solution; another tenant's id answers 4.
        let id = open[0]["id"].as_i64().expect("id");
        let r = app
            .get(&format!("/api/v1/event/detail/{id}"), Some(&c.ann))
            .await;
        r.expect_code(0);
        assert_event(r.data());
        app.get(&format!("/api/v1/event/detail/{id}"), Some(&c.bob))
            .await
            .expect_code(4);
    }
}
