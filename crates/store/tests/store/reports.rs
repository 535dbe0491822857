//! Store contract for predicted generation and report subscriptions, on every backend.

use domain::ids::PlantId;
use domain::{ids::UserId, user::UserKind};
use store::testing::{TestResult, each_backend};
use store::{Store, outbox::NewMail, plants::PlantFields, reports::Prediction, users::NewUser};

async fn owner_and_plant(s: &Store) -> Result<(UserId, PlantId), store::StoreError> {
    let ann = s
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
        .await?;
    let fields = PlantFields {
        name: "Ann home".into(),
        plant_type: 1,
        total_power: 5.0,
        join_date: "2024-05-01".into(),
        currency: "GBP".into(),
        timezone: "Europe/London".into(),
        address: String::new(),
        lon: 0.0,
        lat: 51.0,
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
    let plant = s.create_plant(ann, None, ann, &fields, 10).await?;
    Ok((ann, plant))
}

fn p(plant: PlantId, month: i64, day: i64, kwh: f64) -> Prediction {
    Prediction {
        plant_id: plant,
        year: 2026,
        month,
        day,
        kwh,
    }
}

#[tokio::test]
async fn predictions_are_upserted_per_plant_and_period() -> TestResult {
    each_backend(|s| async move {
        let (_, plant) = owner_and_plant(&s).await?;
        s.upsert_predictions(&[p(plant, 3, 0, 300.0), p(plant, 3, 2, 9.5)], 1)
            .await?;
        s.upsert_predictions(&[p(plant, 3, 0, 310.0), p(plant, 1, 0, 100.0)], 2)
            .await?;
        let rows = s.plant_predictions(plant, 2026).await?;
        assert_eq!(
            rows,
            vec![
                p(plant, 1, 0, 100.0),
                p(plant, 3, 0, 310.0),
                p(plant, 3, 2, 9.5)
            ]
        );
        assert!(s.plant_predictions(plant, 2025).await?.is_empty());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_report_mail_is_queued_with_its_month_once() -> TestResult {
    each_backend(|s| async move {
        let (ann, plant) = owner_and_plant(&s).await?;
        assert!(s.report_subscription(ann, plant).await?.is_none());
        s.set_report_subscription(ann, plant, true, "es", 5).await?;
        let sub = s.report_subscription(ann, plant).await?.ok_or("missing")?;
        assert_eq!(
            (sub.lang.as_str(), sub.last_period.as_deref()),
            ("es", None)
        );
        assert_eq!(sub.plant_timezone, "Europe/London");
        assert_eq!(s.report_subscriptions_due("2026-03").await?.len(), 1);
        let mail = NewMail {
            kind: "report".into(),
            recipient: "ann@example.com".into(),
            subject: "Informe".into(),
            body: "b".into(),
            attachment: Some(("Ann home-2026-03.xlsx".into(), vec![1, 2, 3])),
        };
        assert!(
            s.queue_report_mail(&mail, ann, plant, "2026-03", 9)
                .await?
                .is_some()
        );
        // A second replica that found the same month due queues nothing.
        assert_eq!(
            s.queue_report_mail(&mail, ann, plant, "2026-03", 9).await?,
            None
        );
        assert!(s.report_subscriptions_due("2026-03").await?.is_empty());
        assert_eq!(s.report_subscriptions_due("2026-04").await?.len(), 1);
        assert_eq!(s.outbox(Some("ann@example.com"), 5).await?.len(), 1);
        // Subscribing again keeps the sent month; unsubscribing removes the row.
        s.set_report_subscription(ann, plant, true, "en", 20)
            .await?;
        let sub = s.report_subscription(ann, plant).await?.ok_or("missing")?;
        assert_eq!(
            (sub.lang.as_str(), sub.last_period.as_deref()),
            ("en", Some("2026-03"))
        );
        s.set_report_subscription(ann, plant, false, "en", 21)
            .await?;
        assert!(s.report_subscription(ann, plant).await?.is_none());
        Ok(())
    })
    .await
}
