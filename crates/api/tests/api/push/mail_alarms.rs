//! The e-mail alarms (a device fault) are pushed too, when they begin, to a user whose only
//! way of being told is a push subscription; the notification opens the plant.

use super::*;
use crate::alarm_mail::{gateway, plant, settings as alarm_settings};
use domain::{
    DeviceFamily,
    ids::{GatewayId, PlantId},
    user::BuiltinRole,
};
use jobs::{alarms, push as sender};

#[tokio::test]
async fn a_fault_is_pushed_to_a_user_told_by_push_alone() {
    let Some(python) = python() else { return };
    for app in spawn_allowed().await {
        let ours = app.company("Sunny Installers").await;
        let (ann_id, ann) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let (url, got) = push_service(&[]).await;
        let browser = Browser::new(&python);
        let endpoint = format!("{url}?d=ann");
        subscribe(
            &app,
            &ann,
            body(&endpoint, &browser, json!({"kinds": ["fault"]})),
        )
        .await;

        let roof = plant(&app, ann_id, ours, "North roof").await;
        let gw = gateway(&app, roof, ann_id, ours, "GWP01").await;
        let inverter = app
            .store
            .upsert_device(
                "INVP001",
                GatewayId(gw),
                DeviceFamily::Inverter,
                1,
                "p",
                "M1",
                None,
                1,
            )
            .await
            .expect("inverter");
        let s = alarm_settings();
        let t0 = domain::time::now_ms();
        alarms::tick(&app.store, &s, t0).await.expect("tick");
        app.store
            .open_event(inverter, Some(PlantId(roof)), "F13", "fault", t0 + 1000)
            .await
            .expect("fault");
        let opened = alarms::tick(&app.store, &s, t0 + 30_000)
            .await
            .expect("tick");
        assert_eq!((opened.alarms, opened.mails), (1, 0), "[{}]", app.backend);
        let pass = sender::tick(&app.store, &super::settings(), t0 + 31_000)
            .await
            .expect("push");
        assert_eq!(pass.sent, 1, "[{}] {pass:?}", app.backend);

        let (_, headers, raw) = got.lock().expect("got")[0].clone();
        let p = browser.open(&python, &endpoint, &headers, &raw)["payload"].clone();
        assert_eq!(p["kind"], "fault");
        assert_eq!(p["plant"], "North roof");
        assert_eq!(p["body"], "North roof · INVP001");
        assert!(
            p["url"]
                .as_str()
                .is_some_and(|u| u.starts_with(&format!("/plants/overview/{roof}"))),
            "{p}"
        );
        assert!(p["title"].as_str().is_some_and(|t| !t.is_empty()));
    }
}
