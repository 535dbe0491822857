//! The energy hub over HTTP on every backend: the utility's programme and event, an owner's
//! enrollment through its life (accept, opt out, reject, resubmit, quit), the validation
//! codes (4, 1000-1007), another tenant's enrollment and event answering as missing, and
//! cancelling an event (opt-out for a participant, for everyone by the utility).

use crate::common;
use domain::DeviceFamily;
use domain::ids::GatewayId;

use common::{
    App,
    fixtures::{hybrid_gateway, madrid_plant, people, plant},
    spawn,
};
use serde_json::{Value, json};

/// A plant of `owner` with hybrid inverters `sns` each with a battery behind it.
async fn hybrid_plant(app: &App, admin: &str, owner: &str, gw: &str, sns: &[&str]) -> i64 {
    let id = plant(app, owner, madrid_plant(&format!("Roof {gw}"), 2, 10)).await;
    let gateway = hybrid_gateway(app, admin, owner, id, gw).await;
    for sn in sns {
        app.store
            .upsert_device(
                sn,
                GatewayId(gateway),
                DeviceFamily::Inverter,
                2,
                "deye-hybrid-1ph",
                "SUN-5K",
                None,
                1,
            )
            .await
            .expect("inverter");
        app.store
            .upsert_device(
                &format!("B{sn}"),
                GatewayId(gateway),
                DeviceFamily::Battery,
                0,
                "bms",
                "B",
                Some(sn),
                1,
            )
            .await
            .expect("battery");
    }
    id
}

fn enrollment(program: i64, station: i64, account: &str, sns: &[&str]) -> Value {
    let devices: Vec<Value> = sns
        .iter()
        .map(|sn| {
            json!({"sn": sn, "manufacturer": "Deye", "model": "SUN-5K", "installDate": "2024-03-01",
                "chargeCapacity": 5, "dischargeCapacity": 5, "storageCapacity": 10})
        })
        .collect();
    json!({"programId": program, "stationId": station, "sourceAccountNumber": "12345",
        "utilityAccountNumber": account, "firstName": "Ann", "lastName": "Lee",
        "email": "ann@example.com", "participationLevel": 80, "timeZone": "Europe/Madrid",
        "serviceAddress": {"country": "ES", "region": "Madrid", "locality": "Madrid",
            "streetAddress": "Gran Via 1", "postalCode": "28013"},
        "devices": devices})
}

#[tokio::test]
async fn an_enrollment_goes_through_its_life_and_tenants_stay_apart() {
    for app in spawn().await {
        let p = people(&app).await;
        let ann_plant = hybrid_plant(&app, &p.admin, &p.ann, "GW-HUB01", &["INVA1", "INVA2"]).await;
        let bob_plant = hybrid_plant(&app, &p.admin, &p.bob, "GW-HUB02", &["INVB1"]).await;

        // The utility's programme; owners may not make one.
        let body = json!({"name": "Evening peak", "retailer": "Grid Co", "autoAccept": false});
        app.post("/api/v1/oadr/program", body.clone(), Some(&p.ann))
            .await
            .expect_code(2);
        let r = app
            .post("/api/v1/oadr/program", body.clone(), Some(&p.admin))
            .await;
        r.expect_code(0);
        let program = r.data()["id"].as_i64().expect("id");
        app.post("/api/v1/oadr/program", body, Some(&p.admin))
            .await
            .expect_code(4);
        let list = app.get("/api/v1/oadr/listProgram", Some(&p.ann)).await;
        assert_eq!(list.data()[0]["source"], "local");

        // The form's reads.
        let devs = app
            .get(
                &format!("/api/v1/oadr/stationMasterDevice/{ann_plant}"),
                Some(&p.ann),
            )
            .await;
        assert_eq!(devs.data().as_array().map(Vec::len), Some(2));
        assert_eq!(devs.data()[0]["hasBattery"], true);
        app.get(
            &format!("/api/v1/oadr/stationMasterDevice/{bob_plant}"),
            Some(&p.ann),
        )
        .await
        .expect_code(700);
        let tz = app
            .get(
                &format!("/api/v1/oadr/stationTimezoneId/{ann_plant}"),
                Some(&p.ann),
            )
            .await;
        assert_eq!(tz.data(), "Europe/Madrid");
        let zones = app.get("/api/v1/oadr/timezones", Some(&p.ann)).await;
        assert!(zones.data().as_array().is_some_and(|z| z.len() > 300));

        // Validation codes.
        let mut bad = enrollment(program, ann_plant, "acc-ann", &["INVA1"]);
        bad["utilityAccountNumber"] = json!("Bad!");
        app.post("/api/v1/oadr/enrollment", bad, Some(&p.ann))
            .await
            .expect_code(4);
        let twice = enrollment(program, ann_plant, "acc-ann", &["INVA1", "INVA1"]);
        app.post("/api/v1/oadr/enrollment", twice, Some(&p.ann))
            .await
            .expect_code(1005);
        let wrong = enrollment(program, ann_plant, "acc-ann", &["INVB1"]);
        app.post("/api/v1/oadr/enrollment", wrong, Some(&p.ann))
            .await
            .expect_code(1006);
        let theirs = enrollment(program, bob_plant, "acc-ann", &["INVB1"]);
        app.post("/api/v1/oadr/enrollment", theirs, Some(&p.ann))
            .await
            .expect_code(700);

        let r = app
            .post(
                "/api/v1/oadr/enrollment",
                enrollment(program, ann_plant, "acc-ann", &["INVA1"]),
                Some(&p.ann),
            )
            .await;
        r.expect_code(0);
        assert_eq!(r.data()["status"], "pending");
        assert_eq!(r.data()["mailingAddress"]["postalCode"], "28013");
        assert_eq!(r.data()["allowedActions"], json!(["quit"]));
        let id = r.data()["id"].as_i64().expect("id");
        let used = enrollment(program, ann_plant, "acc-ann2", &["INVA1"]);
        app.post("/api/v1/oadr/enrollment", used, Some(&p.ann))
            .await
            .expect_code(1003);
        let bound = enrollment(program, ann_plant, "acc-ann", &["INVA2"]);
        app.post("/api/v1/oadr/enrollment", bound, Some(&p.ann))
            .await
            .expect_code(1004);

        // Devices.
        let add = json!({"devices": [{"sn": "INVA1", "chargeCapacity": 1, "dischargeCapacity": 1, "storageCapacity": 1}]});
        app.post(
            &format!("/api/v1/oadr/enrollment/{id}/devices"),
            add,
            Some(&p.ann),
        )
        .await
        .expect_code(1000);
        app.post(
            &format!("/api/v1/oadr/enrollment/{id}/devices/INVA2/remove"),
            json!({}),
            Some(&p.ann),
        )
        .await
        .expect_code(1001);
        app.post(
            &format!("/api/v1/oadr/enrollment/{id}/devices/INVA1/remove"),
            json!({}),
            Some(&p.ann),
        )
        .await
        .expect_code(4);
        let add = json!({"devices": [{"sn": "INVA2", "chargeCapacity": 1, "dischargeCapacity": 1, "storageCapacity": 1}]});
        let r = app
            .post(
                &format!("/api/v1/oadr/enrollment/{id}/devices"),
                add,
                Some(&p.ann),
            )
            .await;
        assert_eq!(r.data()["devices"].as_array().map(Vec::len), Some(2));

        // Tenancy: Bob sees nothing of Ann's.
        app.get(&format!("/api/v1/oadr/enrollment/{id}"), Some(&p.bob))
            .await
            .expect_code(1002);
        app.post(
            &format!("/api/v1/oadr/enrollment/{id}/unenroll"),
            json!({}),
            Some(&p.bob),
        )
        .await
        .expect_code(1002);
        let page = app.get("/api/v1/oadr/enrollments", Some(&p.bob)).await;
        assert_eq!(page.data()["total"], 0);
        let stations = app
            .get(
                &format!("/api/v1/oadr/userStationList/{}", ann_plant),
                Some(&p.bob),
            )
            .await;
        assert_eq!(stations.data(), &json!([]));

        // Transitions.
        let act = |a: &str| json!({"action": a});
        app.post(
            &format!("/api/v1/oadr/enrollment/{id}/action"),
            act("accept"),
            Some(&p.ann),
        )
        .await
        .expect_code(1007);
        app.post(
            &format!("/api/v1/oadr/enrollment/{id}/action"),
            act("dance"),
            Some(&p.ann),
        )
        .await
        .expect_code(1007);
        let r = app
            .post(
                &format!("/api/v1/oadr/enrollment/{id}/action"),
                act("accept"),
                Some(&p.admin),
            )
            .await;
        assert_eq!(r.data()["status"], "accepted");

        // An event now: Ann sees it, Bob does not.
        let start = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string();
        let ev = json!({"programId": program, "name": "Peak", "start": start, "durationMinutes": 60, "kind": "discharge", "targetKw": 3});
        app.post("/api/v1/oadr/event", ev.clone(), Some(&p.ann))
            .await
            .expect_code(2);
        let r = app.post("/api/v1/oadr/event", ev, Some(&p.admin)).await;
        r.expect_code(0);
        let event = r.data()["id"].as_i64().expect("event");
        let mine = app
            .get(&format!("/api/v1/oadr/event/{event}"), Some(&p.ann))
            .await;
        assert_eq!(
            (
                mine.data()["status"].as_str(),
                mine.data()["plants"].as_i64()
            ),
            (Some("active"), Some(1))
        );
        assert_eq!(mine.data()["intervals"][0]["kind"], "discharge");
        app.get(&format!("/api/v1/oadr/event/{event}"), Some(&p.bob))
            .await
            .expect_code(1009);
        app.post(
            &format!("/api/v1/oadr/event/{event}/cancel"),
            json!({}),
            Some(&p.bob),
        )
        .await
        .expect_code(1009);

        // Ann opts out of it: cancelled for her, still active for the utility's count of others.
        let r = app
            .post(
                &format!("/api/v1/oadr/event/{event}/cancel"),
                json!({}),
                Some(&p.ann),
            )
            .await;
        assert_eq!(
            (r.data()["status"].as_str(), r.data()["optedOut"].as_bool()),
            (Some("cancelled"), Some(true))
        );
        app.post(
            &format!("/api/v1/oadr/event/{event}/cancel"),
            json!({}),
            Some(&p.ann),
        )
        .await
        .expect_code(1010);
        let listed = app
            .get("/api/v1/oadr/events?status=cancelled", Some(&p.ann))
            .await;
        assert_eq!(listed.data()["total"], 1);

        // Reject needs a reason; resubmit; quit.
        app.post(
            &format!("/api/v1/oadr/enrollment/{id}/action"),
            act("reject"),
            Some(&p.admin),
        )
        .await
        .expect_code(4);
        let r = app
            .post(
                &format!("/api/v1/oadr/enrollment/{id}/action"),
                json!({"action": "reject", "reason": "Meter missing"}),
                Some(&p.admin),
            )
            .await;
        assert_eq!(
            (r.data()["status"].as_str(), r.data()["reason"].as_str()),
            (Some("rejected"), Some("Meter missing"))
        );
        let r = app
            .post(
                &format!("/api/v1/oadr/enrollment/{id}/action"),
                act("resubmit"),
                Some(&p.ann),
            )
            .await;
        assert_eq!(r.data()["status"], "pending");
        let r = app
            .post(
                &format!("/api/v1/oadr/enrollment/{id}/unenroll"),
                json!({}),
                Some(&p.ann),
            )
            .await;
        assert_eq!(r.data()["status"], "unenrolled");
        app.post(
            &format!("/api/v1/oadr/enrollment/{id}/unenroll"),
            json!({}),
            Some(&p.ann),
        )
        .await
        .expect_code(1007);
        let state = app
            .get(&format!("/api/v1/oadr/enrollment/{id}/state"), Some(&p.ann))
            .await;
        assert_eq!(state.data()["allowedActions"], json!(["join"]));

        // The utility cancels its built-in event for everyone.
        let r = app
            .post(
                &format!("/api/v1/oadr/event/{event}/cancel"),
                json!({}),
                Some(&p.admin),
            )
            .await;
        assert_eq!(r.data()["status"], "cancelled");
    }
}
