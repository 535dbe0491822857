//! Store contract for the alarm engine's cases: one live case per (rule, plant, subject), a
//! case opened again after it closed, escalation and acknowledgement with their history rows,
//! the defaults given once, and the list as the plant visibility rule allows, on every backend.

use domain::{ids::UserId, policy::PlantVisibility, user::UserKind};
use store::testing::{TestResult, each_backend};
use store::{
    Store,
    alarm_engine::{
        cases::{CaseFilter, NewCase},
        rules::RuleWrite,
    },
    audit::NewAudit,
    log_pages::Author,
    plants::PlantFields,
    users::NewUser,
};

async fn user(s: &Store, account: &str) -> Result<UserId, store::StoreError> {
    s.create_user(&NewUser {
        account,
        email: account,
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
}

fn fields() -> PlantFields {
    PlantFields {
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
    }
}

#[tokio::test]
async fn one_live_case_per_key_with_its_history() -> TestResult {
    each_backend(|s| async move {
        let company = s.create_company("Sunny", 1).await?;
        let ann = user(&s, "ann@example.com").await?;
        let bob = user(&s, "bob@example.com").await?;
        let plant = s
            .create_plant(ann, Some(company), ann, &fields(), 1)
            .await?;
        let rule = RuleWrite {
            kind: "cell_spread",
            enabled: true,
            severity: "warning",
            scope: "all",
            scope_id: None,
            params: "{}",
        };
        assert!(
            s.seed_alarm_rules(company, std::slice::from_ref(&rule), 1)
                .await?
        );
        assert!(
            !s.seed_alarm_rules(company, &[rule], 2).await?,
            "given once"
        );
        let rules = s.alarm_rules(company).await?;
        assert_eq!(rules.len(), 1);
        let rule_id = rules[0].id;
        let case = NewCase {
            rule_id,
            company_id: company,
            plant_id: plant,
            kind: "cell_spread",
            subject: "BAT-1",
            device_id: None,
            device_sn: Some("BAT-1"),
            severity: "warning",
            value: 250.0,
            detail: "{}",
        };
        let id = s.open_alarm_case(&case, 10).await?.ok_or("opened")?;
        assert_eq!(s.open_alarm_case(&case, 11).await?, None, "no duplicate");
        assert!(
            s.refresh_alarm_case(id, 300.0, "{}", Some("alarm"), 20)
                .await?
        );
        let by = Author {
            user_id: Some(ann),
            account: "ann@example.com",
            actor_company_id: None,
            plant_id: Some(plant),
            plant_owner_id: Some(ann),
            plant_company_id: Some(company),
        };
        let audit = NewAudit {
            by,
            action: "alarmCase.acknowledge",
            target: "alarmCase:1",
            detail: "{}",
            result: "succeeded",
            command_id: None,
            now: 30,
        };
        assert!(
            s.acknowledge_alarm_case(id, ann, Some("on it"), &audit, 30)
                .await?
        );
        assert!(
            !s.acknowledge_alarm_case(id, ann, None, &audit, 31).await?,
            "once"
        );
        s.close_alarm_case(id, 40).await?;
        let history: Vec<String> = s
            .alarm_case_history(id)
            .await?
            .into_iter()
            .map(|h| h.action)
            .collect();
        assert_eq!(history, ["opened", "escalated", "acknowledged", "closed"]);
        // Closed: the key is free again.
        let again = s.open_alarm_case(&case, 50).await?.ok_or("reopened")?;
        assert_ne!(again, id);

        let f = CaseFilter {
            limit: 10,
            ..CaseFilter::default()
        };
        let of = |u| PlantVisibility::Of {
            user: u,
            company: None,
        };
        let (rows, total) = s.alarm_cases_visible(of(ann), ann, &f).await?;
        assert_eq!((rows.len(), total), (2, 2));
        assert_eq!(rows[0].id, again, "the live case first");
        assert_eq!(
            rows[1].acknowledged_account.as_deref(),
            Some("ann@example.com")
        );
        assert_eq!(s.alarm_cases_visible(of(bob), bob, &f).await?.1, 0);
        assert!(s.alarm_case_visible(of(bob), bob, id).await?.is_none());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn closed_cases_past_retention_go_with_their_history_in_batches_and_live_ones_stay()
-> TestResult {
    each_backend(|s| async move {
        let company = s.create_company("Sunny", 1).await?;
        let ann = user(&s, "ann@example.com").await?;
        let plant = s
            .create_plant(ann, Some(company), ann, &fields(), 1)
            .await?;
        let rule = RuleWrite {
            kind: "cell_spread",
            enabled: true,
            severity: "warning",
            scope: "all",
            scope_id: None,
            params: "{}",
        };
        s.seed_alarm_rules(company, &[rule], 1).await?;
        let rule_id = s.alarm_rules(company).await?[0].id;
        let open = |subject: &'static str, at: i64| {
            let s = s.clone();
            async move {
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
                let id = s.open_alarm_case(&case, at).await?;
                id.ok_or_else(|| Box::<dyn std::error::Error>::from("opened"))
            }
        };
        // Three cases closed at 100, 110 and 120, one closed at 300, and one opened at 5 and
        // never closed (an old live case is never purged).
        let mut closed = Vec::new();
        for (subject, at) in [
            ("BAT-1", 100),
            ("BAT-2", 110),
            ("BAT-3", 120),
            ("BAT-4", 300),
        ] {
            let id = open(subject, at - 50).await?;
            s.close_alarm_case(id, at).await?;
            closed.push(id);
        }
        let live = open("BAT-5", 5).await?;
        // Before 200, two at a time: two, then the third, then nothing.
        assert_eq!(s.purge_closed_alarm_cases(200, 2).await?, 2);
        assert_eq!(s.purge_closed_alarm_cases(200, 2).await?, 1);
        assert_eq!(s.purge_closed_alarm_cases(200, 2).await?, 0);
        for id in &closed[..3] {
            assert!(s.alarm_case_history(*id).await?.is_empty(), "history gone");
        }
        let f = CaseFilter {
            limit: 10,
            ..CaseFilter::default()
        };
        let of = PlantVisibility::Of {
            user: ann,
            company: None,
        };
        let (rows, total) = s.alarm_cases_visible(of, ann, &f).await?;
        assert_eq!(total, 2);
        let ids: Vec<_> = rows.iter().map(|r| r.id).collect();
        assert_eq!(ids, [live, closed[3]]);
        assert_eq!(s.alarm_case_history(closed[3]).await?.len(), 2);
        // Even a cut-off after everything leaves the live case.
        assert_eq!(s.purge_closed_alarm_cases(i64::MAX, 100).await?, 1);
        assert_eq!(s.alarm_cases_visible(of, ann, &f).await?.1, 1);
        assert_eq!(s.alarm_case_history(live).await?.len(), 1);
        Ok(())
    })
    .await
}
