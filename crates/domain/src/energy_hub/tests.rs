use super::*;

const PARTICIPANT: Acting = Acting {
    is_utility: false,
    is_vtn: false,
};
const UTILITY: Acting = Acting {
    is_utility: true,
    is_vtn: false,
};

fn state(status: EnrollmentStatus, opted_out: bool) -> EnrollmentState {
    EnrollmentState { status, opted_out }
}

fn names(actions: Vec<Action>) -> Vec<&'static str> {
    actions.into_iter().map(Action::as_str).collect()
}

#[test]
fn participants_join_resubmit_quit_and_opt_out_only_where_the_status_allows() {
    use EnrollmentStatus::*;
    assert_eq!(
        names(state(Unenrolled, false).allowed_actions(PARTICIPANT)),
        ["join"]
    );
    assert_eq!(
        names(state(Rejected, false).allowed_actions(PARTICIPANT)),
        ["resubmit"]
    );
    assert_eq!(
        names(state(Pending, false).allowed_actions(PARTICIPANT)),
        ["quit"]
    );
    assert_eq!(
        names(state(Accepted, false).allowed_actions(PARTICIPANT)),
        ["quit", "optOut"]
    );
    assert_eq!(
        names(state(Accepted, true).allowed_actions(PARTICIPANT)),
        ["quit", "optIn"]
    );
}

#[test]
fn the_utility_accepts_and_rejects_built_in_enrollments_but_not_a_vtns() {
    use EnrollmentStatus::*;
    assert_eq!(
        names(state(Pending, false).allowed_actions(UTILITY)),
        ["quit", "accept", "reject"]
    );
    assert_eq!(
        names(allowed_actions(Accepted, false, true, true)),
        ["quit", "optOut"]
    );
    let vtn = Acting {
        is_utility: true,
        is_vtn: true,
    };
    let refused = state(Pending, false)
        .apply(Action::Accept, vtn)
        .unwrap_err();
    assert_eq!(refused.code, Code::EnrollmentStateForbids);
    let refused = state(Pending, false)
        .apply(Action::Accept, PARTICIPANT)
        .unwrap_err();
    assert_eq!(refused.code, Code::EnrollmentStateForbids);
}

#[test]
fn leaving_accepted_clears_the_opt_out() {
    let s = state(EnrollmentStatus::Accepted, true);
    assert_eq!(
        s.apply(Action::Reject, UTILITY),
        Ok(state(EnrollmentStatus::Rejected, false))
    );
    assert_eq!(
        s.apply(Action::Quit, PARTICIPANT),
        Ok(state(EnrollmentStatus::Unenrolled, false))
    );
}

#[test]
fn unknown_actions_are_refused_like_forbidden_ones() {
    assert_eq!(
        Action::parse("dance").unwrap_err().code,
        Code::EnrollmentStateForbids
    );
    assert_eq!(Action::parse("optOut"), Ok(Action::OptOut));
}

#[test]
fn event_status_follows_the_clock_unless_cancelled() {
    assert_eq!(EventStatus::at(10, 20, false, 5), EventStatus::Pending);
    assert_eq!(EventStatus::at(10, 20, false, 10), EventStatus::Active);
    assert_eq!(EventStatus::at(10, 20, false, 20), EventStatus::Completed);
    assert_eq!(EventStatus::at(10, 20, true, 15), EventStatus::Cancelled);
}

#[test]
fn account_numbers_follow_the_utilitys_rules() {
    assert!(source_account(Some("0123456789")).is_ok());
    assert!(source_account(Some("12a")).is_err());
    assert!(source_account(Some("12345678901234567")).is_err());
    assert!(utility_account(Some("acc_01-x")).is_ok());
    assert!(utility_account(Some("Acc")).is_err());
    assert!(utility_account(Some("")).is_err());
}

#[test]
fn dates_must_exist() {
    assert!(is_date("2024-02-29"));
    assert!(!is_date("2023-02-29"));
    assert!(!is_date("2024-13-01"));
    assert!(!is_date("2024-1-01"));
}

fn device(sn: &str) -> DeviceInput {
    DeviceInput {
        sn: Some(sn.into()),
        install_date: Some("2024-01-01".into()),
        charge_capacity: Some(5.0),
        discharge_capacity: Some(5.0),
        storage_capacity: Some(10.0),
        ..DeviceInput::default()
    }
}

fn form() -> EnrollmentInput {
    EnrollmentInput {
        source_account_number: Some("1234".into()),
        utility_account_number: Some("acc-1".into()),
        first_name: Some("Ann".into()),
        last_name: Some("Lee".into()),
        email: Some("ann@example.com".into()),
        service_address: Some(AddressInput {
            country: Some("DE".into()),
            region: Some("BE".into()),
            locality: Some("Berlin".into()),
            street_address: Some("Main 1".into()),
            postal_code: Some("10115".into()),
            ..AddressInput::default()
        }),
        mailing_address: None,
        participation_level: Some(50),
        time_zone: Some("Europe/Berlin".into()),
        devices: Some(vec![device("SN1")]),
    }
}

fn today() -> Today<'static> {
    Today {
        date: "2025-06-01",
        is_time_zone: &|z| z == "Europe/Berlin",
    }
}

#[test]
fn a_form_without_a_mailing_address_gets_the_service_address() {
    let f = form().check(&today()).unwrap();
    assert_eq!(f.mailing, f.service);
    assert_eq!(f.devices.len(), 1);
}

#[test]
fn each_bad_field_is_named() {
    type Change = fn(&mut EnrollmentInput);
    let cases: Vec<(Change, &str)> = vec![
        (|f| f.participation_level = Some(0), "participationLevel"),
        (|f| f.time_zone = Some("Mars/Base".into()), "timeZone"),
        (|f| f.first_name = Some("x".repeat(33)), "firstName"),
        (|f| f.email = Some("nope".into()), "email"),
        (|f| f.devices = Some(vec![]), "devices"),
        (
            |f| {
                f.devices = Some(vec![DeviceInput {
                    install_date: Some("2099-01-01".into()),
                    ..device("A")
                }])
            },
            "devices.installDate",
        ),
        (
            |f| {
                f.devices = Some(vec![DeviceInput {
                    storage_capacity: Some(10001.0),
                    ..device("A")
                }])
            },
            "devices.storageCapacity",
        ),
    ];
    for (change, field) in cases {
        let mut f = form();
        change(&mut f);
        assert_eq!(f.check(&today()).unwrap_err(), DomainError::invalid(field));
    }
}

#[test]
fn the_same_sn_twice_is_1005() {
    let mut f = form();
    f.devices = Some(vec![device("A"), device("A")]);
    assert_eq!(f.check(&today()).unwrap_err().code, Code::InverterSnSame);
}

#[test]
fn events_start_no_earlier_than_five_minutes_ago_and_last_5_to_1440_minutes() {
    let input = EventInput {
        name: Some("Peak".into()),
        start: Some(1000),
        duration_minutes: Some(60),
        kind: Some("exportLimit".into()),
        target_kw: Some(3.0),
        priority: None,
    };
    let f = input.check(1200).unwrap();
    assert_eq!((f.end, f.kind), (4600, EventKind::ExportLimit));
    assert_eq!(
        input.check(1301).unwrap_err(),
        DomainError::invalid("start")
    );
    let short = EventInput {
        duration_minutes: Some(4),
        ..input
    };
    assert_eq!(
        short.check(0).unwrap_err(),
        DomainError::invalid("durationMinutes")
    );
}
