//! 500 silent gateways: one digest per recipient, and the quiet period.

use super::*;
use domain::ids::{GatewayId, UserId};

#[tokio::test]
async fn five_hundred_silent_gateways_make_one_digest_per_recipient_and_the_quiet_period_holds() {
    let Some(python) = aiosmtpd() else { return };
    for app in common::spawn().await {
        let ours = app.company("Sunny Installers").await;
        let theirs = app.company("Other Installers").await;
        let (ann, ann_token) = app
            .signed_in("ann@example.com", BuiltinRole::PlantOwner, None)
            .await;
        let ivan = app
            .user(
                "ivan@example.com",
                "secret123",
                BuiltinRole::CompanyAdmin,
                Some(ours),
            )
            .await;
        let zoe = app
            .user(
                "zoe@example.com",
                "secret123",
                BuiltinRole::CompanyStaff,
                Some(theirs),
            )
            .await;
        let sam = app
            .user(
                "sam@example.com",
                "secret123",
                BuiltinRole::PlantOwner,
                None,
            )
            .await;
        notify(&app, ann, "ann.alerts@example.com", 10, "es").await;
        notify(&app, ivan, "ivan@example.com", 30, "en").await;
        notify(&app, zoe, "zoe@example.com", 5, "en").await;
        notify(&app, sam, "sam@example.com", 5, "en").await;

        let mut plants = Vec::new();
        let mut gateways = Vec::new();
        for p in 0..50 {
            let id = plant(&app, ann, ours, &format!("Roof {p:02}")).await;
            plants.push(id);
            for g in 0..10 {
                let sn = format!("GW{p:02}{g:02}");
                gateways.push((gateway(&app, id, ann, ours, &sn).await, sn));
            }
        }
        // Ann's own home plant (no company: Ivan does not see it) is shared with Sam: shares
        // are not mailed.
        let home = app
            .store
            .create_plant(ann, None, ann, &fields("Home"), domain::time::now_ms())
            .await
            .expect("home");
        let home_gw = app
            .store
            .create_gateway("GWHOME", "KEY12345", "", domain::time::now_ms())
            .await
            .expect("gateway");
        app.store
            .bind_gateway(home_gw, home, UserId(ann.0), None, domain::time::now_ms())
            .await
            .expect("bound");
        gateways.push((home_gw.0, "GWHOME".to_string()));
        common::fixtures::share(&app, &ann_token, home.0, &[("sam@example.com", "visitor")]).await;
        // Heard after they were bound (a message older than the binding does not count).
        let t0 = domain::time::now_ms() + 1;
        let heard: Vec<(String, i64)> = gateways.iter().map(|(_, sn)| (sn.clone(), t0)).collect();
        app.store.gateways_heard(&heard).await.expect("heard");
        for (id, _) in &gateways {
            app.store
                .set_gateway_silent(GatewayId(*id), Some(t0), t0 + 1)
                .await
                .expect("silent");
        }
        let offline = t0 + offline_after_ms(300);

        // Before Ann's delay of 10 minutes nothing; then one e-mail for her 500 gateways.
        let s = settings();
        assert_eq!(
            tick(&app.store, &s, offline + 9 * MIN)
                .await
                .expect("tick")
                .mails,
            0
        );
        let started = std::time::Instant::now();
        let first = tick(&app.store, &s, offline + 10 * MIN)
            .await
            .expect("tick");
        eprintln!(
            "[{}] one alarm run over 501 silent gateways: {} ms",
            app.backend,
            started.elapsed().as_millis()
        );
        assert_eq!((first.mails, first.alarms), (1, 501), "[{}]", app.backend);
        // Ivan's delay is 30 minutes; Ann is not mailed twice.
        let second = tick(&app.store, &s, offline + 30 * MIN)
            .await
            .expect("tick");
        assert_eq!((second.mails, second.alarms), (1, 500), "[{}]", app.backend);

        let port = free_port();
        let smtp = Smtp::start(&python, port).await;
        let pass = deliver_due(&app.store, &mailer(port), offline + 31 * MIN)
            .await
            .expect("pass");
        assert_eq!(pass.sent, 2);
        let to_ann = smtp.mails_to("ann.alerts@example.com");
        assert_eq!(to_ann.len(), 1);
        assert_eq!(
            to_ann[0]["subject"],
            "Alarmas de plantas: 501 nuevas, 0 recuperadas (51 plantas)"
        );
        let body = to_ann[0]["body"].as_str().expect("body");
        assert!(body.starts_with("Hola, ann:"), "{body}");
        for id in &plants {
            let link = format!("https://portal.example.com/plants/overview/{id}/1\n");
            assert_eq!(body.matches(&link).count(), 1, "{link}");
        }
        for (_, sn) in &gateways {
            assert!(
                body.contains(&format!("Pasarela sin conexión: {sn},")),
                "{sn}"
            );
        }
        let to_ivan = smtp.mails_to("ivan@example.com");
        assert_eq!(to_ivan.len(), 1);
        assert!(
            to_ivan[0]["subject"]
                .as_str()
                .is_some_and(|s| s.starts_with("Plant alarms: 500 new")),
            "{}",
            to_ivan[0]["subject"]
        );
        assert!(
            smtp.mails_to("zoe@example.com").is_empty(),
            "another company"
        );
        assert!(smtp.mails_to("sam@example.com").is_empty(), "a share");

        // One gateway comes back: its recovery is mailed to both (recoveries are their own
        // kind); it falls silent again and the quiet period holds the second alarm back.
        let (gw0, sn0) = gateways[0].clone();
        let back = t0 + 40 * MIN;
        app.store
            .gateways_heard(&[(sn0.clone(), back)])
            .await
            .expect("heard");
        let r = tick(&app.store, &s, back + 1000).await.expect("tick");
        assert_eq!(
            (r.mails, r.recoveries, r.alarms),
            (2, 2, 0),
            "[{}]",
            app.backend
        );
        app.store
            .set_gateway_silent(GatewayId(gw0), Some(back), back + 1)
            .await
            .expect("silent");
        let again = back + offline_after_ms(300) + 10 * MIN;
        // Ann's alarm went at `offline + 10 min`: quiet until an hour after that.
        assert!(again < offline + 70 * MIN);
        assert_eq!(tick(&app.store, &s, again).await.expect("tick").mails, 0);
        let after_quiet = tick(&app.store, &s, offline + 71 * MIN)
            .await
            .expect("tick");
        assert_eq!(
            (after_quiet.mails, after_quiet.alarms),
            (1, 1),
            "Ann, after the quiet period"
        );
        let ivan_late = tick(&app.store, &s, offline + 91 * MIN)
            .await
            .expect("tick");
        assert_eq!(
            (ivan_late.mails, ivan_late.alarms),
            (1, 1),
            "Ivan, after his"
        );
        deliver_due(&app.store, &mailer(port), offline + 92 * MIN)
            .await
            .expect("pass");
        let to_ann = smtp.mails_to("ann.alerts@example.com");
        assert_eq!(to_ann.len(), 3, "alarm, recovery, alarm again");
        assert!(to_ann.iter().any(|m| {
            m["body"]
                .as_str()
                .is_some_and(|b| b.contains(&format!("Pasarela de nuevo en línea: {sn0},")))
        }));
        assert_eq!(smtp.mails_to("ivan@example.com").len(), 3);
        assert!(smtp.mails_to("zoe@example.com").is_empty());
    }
}
