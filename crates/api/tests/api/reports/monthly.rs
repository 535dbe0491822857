//! The monthly report e-mail job.

use super::*;

#[tokio::test]
async fn the_monthly_job_queues_one_mail_per_month_for_each_subscriber() {
    for app in spawn().await {
        let c = reported_plant(&app).await;
        let (p, ann) = (c.plant, Some(c.ann.as_str()));
        let sub = format!("/api/v1/report/plant/{p}/subscription");
        let off = app.get(&sub, ann).await;
        assert_eq!(
            off.data(),
            &json!({"enabled": false, "email": "ann@example.com", "lastSent": null})
        );
        app.post(&sub, json!({}), ann).await.expect_code(4);
        app.post(&format!("{sub}?lan=es"), json!({"enabled": true}), ann)
            .await
            .expect_code(0);
        assert_eq!(app.get(&sub, ann).await.data()["enabled"], true);

        // This month: nothing is due yet (the subscription began in it).
        let state = &app.state;
        assert_eq!(
            jobs::monthly_reports::send_due(&state.store, &Default::default(), Utc::now())
                .await
                .expect("job"),
            0
        );
        // On the 1st of next month at 00:30 in London, this month's report goes out once.
        let next = (c.today.with_day(1).expect("1st") + Duration::days(32))
            .with_day(1)
            .expect("1st");
        let at = |d: NaiveDate| {
            London
                .from_local_datetime(&d.and_hms_opt(0, 30, 0).expect("time"))
                .earliest()
                .expect("local")
                .with_timezone(&Utc)
        };
        assert_eq!(
            jobs::monthly_reports::send_due(&state.store, &Default::default(), at(next))
                .await
                .expect("job"),
            1
        );
        assert_eq!(
            jobs::monthly_reports::send_due(
                &state.store,
                &Default::default(),
                at(next) + Duration::hours(1)
            )
            .await
            .expect("job"),
            0
        );
        let month = c.today.format("%Y-%m").to_string();
        let mails = app
            .store
            .outbox(Some("ann@example.com"), 10)
            .await
            .expect("outbox");
        assert_eq!(mails.len(), 1);
        assert!(
            mails[0].subject.contains("Informe mensual") && mails[0].subject.contains(&month),
            "{}",
            mails[0].subject
        );
        assert_eq!(app.get(&sub, ann).await.data()["lastSent"], month);

        // A month later, the next one; after unsubscribing, none.
        let after = (next + Duration::days(32)).with_day(1).expect("1st");
        assert_eq!(
            jobs::monthly_reports::send_due(&state.store, &Default::default(), at(after))
                .await
                .expect("job"),
            1
        );
        app.post(&sub, json!({"enabled": false}), ann)
            .await
            .expect_code(0);
        let later = (after + Duration::days(32)).with_day(1).expect("1st");
        assert_eq!(
            jobs::monthly_reports::send_due(&state.store, &Default::default(), at(later))
                .await
                .expect("job"),
            0
        );
        assert_eq!(
            app.store
                .outbox(Some("ann@example.com"), 10)
                .await
                .expect("outbox")
                .len(),
            2
        );
    }
}
