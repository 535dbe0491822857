//! Housekeeping removes verification codes a day old and keeps the newer ones, and alarm
//! cases closed longer than their retention (never a live one).

use domain::user::UserKind;
use jobs::housekeeping::Keep;
use store::{
    alarm_engine::{cases::NewCase, rules::RuleWrite},
    plants::PlantFields,
    users::NewUser,
};

use crate::common::stores;

const DAY_MS: i64 = 24 * 3600 * 1000;

#[tokio::test]
async fn codes_older_than_a_day_are_removed_and_newer_ones_kept() {
    for (backend, store) in stores().await {
        let now = domain::time::now_ms();
        let old = now - DAY_MS - 1000;
        store
            .insert_code("old@example.com", "login", "h1", old, old + 600_000)
            .await
            .expect("old code");
        store
            .insert_code("new@example.com", "login", "h2", now - 1000, now + 600_000)
            .await
            .expect("new code");
        jobs::housekeeping::tick(&store, now, &Keep::default()).await;
        assert_eq!(
            store
                .latest_code_sent_at("old@example.com")
                .await
                .expect("read"),
            None,
            "[{backend}]"
        );
        assert_eq!(
            store
                .latest_code_sent_at("new@example.com")
                .await
                .expect("read"),
            Some(now - 1000),
            "[{backend}]"
        );
    }
}

#[tokio::test]
async fn cases_closed_longer_than_the_retention_are_removed_and_live_ones_kept() {
    for (backend, store) in stores().await {
        let now = domain::time::now_ms();
        let company = store.create_company("Sunny", 1).await.expect("company");
        let ann = store
            .create_user(&NewUser {
                account: "ann@example.com",
                email: "ann@example.com",
                mobile: "",
                password_hash: "h",
                nickname: "n",
                kind: UserKind::Owner,
                company: None,
                role: None,
                user_src: "web",
                now: 1,
            })
            .await
            .expect("user");
        let fields = PlantFields {
            name: "Roof".into(),
            plant_type: 1,
            total_power: 5.0,
            join_date: "2024-05-01".into(),
            currency: "EUR".into(),
            timezone: "Europe/Madrid".into(),
            address: String::new(),
            lon: -3.7,
            lat: 40.4,
            image_url: String::new(),
            thumb_url: String::new(),
            principal: String::new(),
            phone: String::new(),
            email: String::new(),
            installer: String::new(),
            invest: 0.0,
            tilt: None,
            azimuth: None,
        };
        let plant = store
            .create_plant(ann, Some(company), ann, &fields, 1)
            .await
            .expect("plant");
        let rule = RuleWrite {
            kind: "cell_spread",
            enabled: true,
            severity: "warning",
            scope: "all",
            scope_id: None,
            params: "{}",
        };
        store
            .seed_alarm_rules(company, &[rule], 1)
            .await
            .expect("rule");
        let rule_id = store.alarm_rules(company).await.expect("rules")[0].id;
        let mut ids = Vec::new();
        for subject in ["BAT-OLD", "BAT-RECENT", "BAT-LIVE"] {
            let case = NewCase {
                rule_id,
                company_id: company,
                plant_id: plant,
                kind: "cell_spread",
                subject,
                device_id: None,
                device_sn: Some(subject),
                severity: "warning",
                value: 250.0,
                detail: "{}",
            };
            let opened = now - 400 * DAY_MS;
            ids.push(
                store
                    .open_alarm_case(&case, opened)
                    .await
                    .expect("open")
                    .expect("new"),
            );
        }
        store
            .close_alarm_case(ids[0], now - 366 * DAY_MS)
            .await
            .expect("close");
        store
            .close_alarm_case(ids[1], now - 364 * DAY_MS)
            .await
            .expect("close");
        // Kept forever: nothing goes.
        jobs::housekeeping::tick(&store, now, &Keep { closed_cases: None }).await;
        assert_eq!(
            store.alarm_case_history(ids[0]).await.expect("h").len(),
            2,
            "[{backend}]"
        );
        // A year (the default): the case closed 366 days ago goes, with its history.
        jobs::housekeeping::tick(&store, now, &Keep::default()).await;
        let left: Vec<usize> = {
            let mut v = Vec::new();
            for id in &ids {
                v.push(store.alarm_case_history(*id).await.expect("h").len());
            }
            v
        };
        assert_eq!(left, [0, 2, 1], "[{backend}]");
    }
}
