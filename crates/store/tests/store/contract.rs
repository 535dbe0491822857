//! The store contract: every backend must pass every test here. SQLite always runs; PostgreSQL
//! runs when PORTAL_TEST_DATABASE_URL is set (CI sets it).

use domain::DeviceFamily;
use domain::{
    ids::CompanyId,
    user::{BuiltinRole, UserKind},
};
use store::testing::{TestResult, each_backend};
use store::{
    Conflict, StoreError,
    users::{NewUser, Profile},
};

fn owner(account: &str) -> NewUser<'_> {
    NewUser {
        account,
        email: account,
        mobile: "",
        password_hash: "hash",
        nickname: "Ann",
        kind: UserKind::Owner,
        company: None,
        role: None,
        user_src: "web",
        now: 1_000,
    }
}

#[tokio::test]
async fn an_account_name_can_be_registered_only_once() -> TestResult {
    each_backend(|s| async move {
        let id = s.create_user(&owner("ann@example.com")).await?;
        let again = s.create_user(&owner("ann@example.com")).await;
        assert!(
            matches!(again, Err(StoreError::Conflict(Conflict::Registered))),
            "{again:?}"
        );
        let row = s
            .user_by_account("ann@example.com")
            .await?
            .ok_or("missing")?;
        assert_eq!(row.id(), id);
        assert_eq!(row.kind(), UserKind::Owner);
        assert!(!row.disabled);
        assert_eq!(s.count_users().await?, 1);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn profile_password_and_preferences_are_saved() -> TestResult {
    each_backend(|s| async move {
        let id = s.create_user(&owner("bob@example.com")).await?;
        let profile = Profile {
            nickname: "Bobby".into(),
            name: "Bob Smith".into(),
            gender: 1,
            mobile: "+4412345".into(),
            email: "bob@example.com".into(),
        };
        assert!(s.update_profile(id, &profile).await?);
        assert!(s.set_password(id, "new-hash", 2_000).await?);
        assert!(s.set_temp_unit(id, "F").await?);
        assert!(s.set_avatar(id, "/files/avatars/1.png").await?);
        let notify = store::users::NotifyChoice {
            enabled: true,
            email: "alerts@example.com",
            offline_minutes: 45,
            lang: "es",
        };
        assert!(s.set_notify(id, &notify).await?);
        let row = s.user(id).await?.ok_or("missing")?;
        assert_eq!(
            (row.nickname.as_str(), row.gender, row.temp_unit.as_str()),
            ("Bobby", 1, "F")
        );
        assert_eq!(
            (row.password_hash.as_str(), row.password_changed_at),
            ("new-hash", 2_000)
        );
        assert!(row.notify_enabled);
        assert_eq!(
            (row.notify_offline_minutes, row.notify_lang.as_str()),
            (45, "es")
        );
        assert_eq!(row.avatar, "/files/avatars/1.png");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn refresh_tokens_are_single_use_and_expire() -> TestResult {
    each_backend(|s| async move {
        let id = s.create_user(&owner("cy@example.com")).await?;
        s.create_session("s1", id, 1_000, 5_000).await?;
        s.insert_refresh_token("h1", id, "s1", 1_000, 5_000).await?;
        let taken = s.take_refresh_token("h1", 2_000).await?;
        assert_eq!(
            taken.map(|t| (t.user(), t.session_id)),
            Some((id, Some("s1".into())))
        );
        assert_eq!(s.take_refresh_token("h1", 2_001).await?, None, "second use");
        s.insert_refresh_token("h2", id, "s1", 1_000, 5_000).await?;
        assert_eq!(s.take_refresh_token("h2", 6_000).await?, None, "expired");
        s.insert_refresh_token("h3", id, "s1", 1_000, 9_000).await?;
        s.insert_refresh_token("h4", id, "s1", 1_000, 9_000).await?;
        assert_eq!(
            s.revoke_user_sessions(id, 3_000).await?,
            3,
            "h2, h3, h4 were live"
        );
        assert_eq!(s.take_refresh_token("h3", 3_001).await?, None);
        assert_eq!(s.take_refresh_token("unknown", 3_001).await?, None);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_new_code_retires_the_previous_one_and_codes_are_used_once() -> TestResult {
    each_backend(|s| async move {
        s.insert_code("d@example.com", "register", "c1", 1_000, 2_000)
            .await?;
        s.insert_code("d@example.com", "register", "c2", 1_100, 2_100)
            .await?;
        let live = s
            .live_code("d@example.com", "register")
            .await?
            .ok_or("no code")?;
        assert_eq!(live.code_hash, "c2");
        s.count_code_attempt(live.id).await?;
        assert_eq!(
            s.live_code("d@example.com", "register")
                .await?
                .ok_or("gone")?
                .attempts,
            1
        );
        assert!(s.use_code(live.id, 1_200).await?);
        assert!(!s.use_code(live.id, 1_201).await?);
        assert!(s.live_code("d@example.com", "register").await?.is_none());
        assert!(s.live_code("d@example.com", "reset").await?.is_none());
        assert_eq!(s.codes_sent_since("d@example.com", 1_050).await?, 1);
        assert_eq!(s.latest_code_sent_at("d@example.com").await?, Some(1_100));
        assert_eq!(s.latest_code_sent_at("nobody@example.com").await?, None);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn login_failures_count_within_a_window_and_reset_after_it() -> TestResult {
    each_backend(|s| async move {
        assert!(s.throttle("acct:e").await?.is_none());
        assert_eq!(
            s.record_login_failure("acct:e", 1_000, 0).await?.failures,
            1
        );
        assert_eq!(
            s.record_login_failure("acct:e", 1_500, 0).await?.failures,
            2
        );
        s.lock_login("acct:e", 9_000).await?;
        assert_eq!(
            s.throttle("acct:e").await?.ok_or("gone")?.locked_until,
            9_000
        );
        let fresh = s.record_login_failure("acct:e", 5_000, 2_000).await?;
        assert_eq!((fresh.failures, fresh.window_start), (1, 5_000));
        s.clear_login_failures("acct:e").await?;
        assert!(s.throttle("acct:e").await?.is_none());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn secrets_keep_the_first_value_written() -> TestResult {
    each_backend(|s| async move {
        assert_eq!(s.secret_or_insert("jwt", "first").await?, "first");
        assert_eq!(s.secret_or_insert("jwt", "second").await?, "first");
        Ok(())
    })
    .await
}

#[tokio::test]
async fn builtin_roles_grant_their_catalogue_permissions_and_custom_roles_are_per_company()
-> TestResult {
    each_backend(|s| async move {
        s.sync_builtin_roles(1_000).await?;
        s.sync_builtin_roles(1_000).await?;
        let owner_role = s.builtin_role(BuiltinRole::PlantOwner).await?;
        let mut expected: Vec<String> = BuiltinRole::PlantOwner
            .permissions()
            .iter()
            .map(|k| k.to_string())
            .collect();
        expected.sort();
        assert_eq!(s.role_permissions(owner_role).await?, expected);

        let a = s.create_company("Acme Solar", 1_000).await?;
        let b = s.create_company("Beta Energy", 1_000).await?;
        assert!(matches!(
            s.create_company("Acme Solar", 1_000).await,
            Err(StoreError::Conflict(Conflict::CompanyName))
        ));
        let role = s
            .create_role(a, "ops", &["station.view", "event.view"], 1_000, None)
            .await?;
        assert!(matches!(
            s.create_role(a, "ops", &[], 1_000, None).await,
            Err(StoreError::Conflict(Conflict::RoleName))
        ));
        s.create_role(b, "ops", &[], 1_000, None).await?;
        assert_eq!(s.company_roles(a).await?.len(), 1);
        assert_eq!(
            s.role_permissions(role).await?,
            vec!["event.view", "station.view"]
        );
        s.update_role(role, None, Some(&["gateway.view"]), None)
            .await?;
        assert_eq!(s.role_permissions(role).await?, vec!["gateway.view"]);
        s.update_role(role, Some("ops2"), None, None).await?;
        // A taken name refuses the whole change: the permissions stay as they were.
        let dup = s.create_role(a, "dup", &["event.view"], 1, None).await?;
        assert!(matches!(
            s.update_role(role, Some("dup"), Some(&["station.view"]), None)
                .await,
            Err(StoreError::Conflict(Conflict::RoleName))
        ));
        assert_eq!(s.role_permissions(role).await?, vec!["gateway.view"]);
        assert!(s.company_roles(a).await?.iter().any(|r| r.name == "ops2"));
        assert!(s.delete_role(role).await?);
        assert!(s.delete_role(dup).await?);
        assert!(
            !s.delete_role(owner_role).await?,
            "built-in roles cannot be deleted"
        );
        assert!(s.company_roles(CompanyId(a.0)).await?.is_empty());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn company_staff_are_listed_per_company_and_outbox_keeps_messages() -> TestResult {
    each_backend(|s| async move {
        let a = s.create_company("Gamma", 1_000).await?;
        let mut staff = owner("staff@gamma.com");
        staff.kind = UserKind::Company;
        staff.company = Some(a);
        s.create_user(&staff).await?;
        s.create_user(&owner("solo@example.com")).await?;
        assert_eq!(s.users(Some(a)).await?.len(), 1);
        assert_eq!(s.users(None).await?.len(), 2);
        assert!(s.set_company_theme(a, "#112233", None).await?);
        assert_eq!(s.company(a).await?.ok_or("gone")?.theme_color, "#112233");

        s.push_outbox("email", "x@example.com", "Code", "123456", None, 1_000)
            .await?;
        s.push_outbox("email", "y@example.com", "Code", "654321", None, 1_001)
            .await?;
        let mine = s.outbox(Some("x@example.com"), 10).await?;
        assert_eq!((mine.len(), mine[0].body.as_str()), (1, "123456"));
        assert_eq!(s.outbox(None, 10).await?.len(), 2);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_queued_mail_is_taken_by_one_worker_and_retried_until_it_is_sent() -> TestResult {
    each_backend(|s| async move {
        let mail = store::outbox::NewMail {
            kind: "alarm".into(),
            recipient: "ann@example.com".into(),
            subject: "Alarm".into(),
            body: "Gateway offline".into(),
            attachment: Some(("a.txt".into(), vec![1, 2, 3])),
        };
        let id = s.queue_mail(&mail, 1_000).await?;
        assert!(
            s.due_mail(999, 10).await?.is_empty(),
            "not due before it was queued"
        );
        let due = s.due_mail(1_000, 10).await?;
        assert_eq!(due.len(), 1);
        assert_eq!(due[0].attachment.as_deref(), Some(&[1u8, 2, 3][..]));
        // Two workers see it due: only the first takes it.
        assert!(s.claim_mail(&due[0], 301_000).await?);
        assert!(!s.claim_mail(&due[0], 301_000).await?);
        assert!(s.due_mail(2_000, 10).await?.is_empty(), "taken");
        s.mail_failed(id, "smtp: connection refused", 31_000)
            .await?;
        let again = s.due_mail(31_000, 10).await?;
        assert_eq!((again.len(), again[0].attempts), (1, 1));
        assert!(s.claim_mail(&again[0], 331_000).await?);
        assert!(s.mail_sent(id, 31_500).await?);
        assert!(!s.mail_sent(id, 31_600).await?, "sent once");
        assert_eq!(s.undelivered_mail().await?, 0);
        let row = &s.outbox(Some("ann@example.com"), 1).await?[0];
        assert_eq!(
            (row.attempts, row.sent_at, row.last_error.as_deref()),
            (2, Some(31_500), None)
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn sign_out_revokes_only_the_callers_own_refresh_token() -> TestResult {
    each_backend(|s| async move {
        let ann = s.create_user(&owner("ann@example.com")).await?;
        let bob = s.create_user(&owner("bob@example.com")).await?;
        s.create_session("ann-session", ann, 1_000, 9_000).await?;
        s.insert_refresh_token("ann-token", ann, "ann-session", 1_000, 9_000)
            .await?;
        assert!(
            !s.revoke_refresh_token("ann-token", Some(bob), 2_000)
                .await?,
            "not bob's"
        );
        assert!(
            s.revoke_refresh_token("ann-token", Some(ann), 2_000)
                .await?
        );
        assert_eq!(s.take_refresh_token("ann-token", 2_001).await?, None);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn release_notes_are_listed_newest_first_and_version_numbers_are_unique() -> TestResult {
    use store::versions::VersionFields;
    each_backend(|s| async move {
        let note = |version: &str, at: i64| VersionFields {
            version: version.into(),
            kind: 1,
            content_en: format!("{version} notes"),
            content_cn: String::new(),
            content_es: String::new(),
            announcer: "ops".into(),
            release_time: at,
        };
        let old = s.create_version(&note("V1.0", 1_000), 1, None).await?;
        s.create_version(&note("V1.1", 2_000), 2, None).await?;
        assert!(matches!(
            s.create_version(&note("V1.0", 3_000), 3, None).await,
            Err(StoreError::Conflict(Conflict::VersionLabel))
        ));
        let (rows, total) = s.versions(10, 0).await?;
        assert_eq!((total, rows[0].version.as_str()), (2, "V1.1"));
        assert!(s.update_version(old, &note("V1.0.1", 1_500), None).await?);
        assert_eq!(s.version(old).await?.ok_or("gone")?.version, "V1.0.1");
        assert!(s.delete_version(old, None).await?);
        assert_eq!(s.versions(10, 0).await?.1, 1);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn shipped_protocol_configs_are_seeded_once_and_edits_are_kept() -> TestResult {
    each_backend(|s| async move {
        assert!(
            s.seed_protocol(
                "inv-a",
                DeviceFamily::Inverter,
                "Inverter A",
                "{\"v\":1}",
                1
            )
            .await?
        );
        assert!(
            !s.seed_protocol(
                "inv-a",
                DeviceFamily::Inverter,
                "Inverter A",
                "{\"v\":2}",
                2
            )
            .await?
        );
        let ann = s.create_user(&owner("admin@example.com")).await?;
        s.save_protocol(
            "inv-a",
            DeviceFamily::Inverter,
            "Inverter A (edited)",
            "{\"v\":3}",
            ann,
            4,
            None,
        )
        .await?;
        assert!(
            !s.seed_protocol(
                "inv-a",
                DeviceFamily::Inverter,
                "Inverter A",
                "{\"v\":1}",
                5
            )
            .await?
        );
        let row = s.protocol("inv-a").await?.ok_or("gone")?;
        assert_eq!(
            (row.config.as_str(), row.builtin, row.updated_by),
            ("{\"v\":3}", false, Some(ann))
        );
        assert_eq!(s.protocols().await?.len(), 1);
        Ok(())
    })
    .await
}
