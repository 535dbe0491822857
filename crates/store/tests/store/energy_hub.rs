//! Store contract for the energy hub: a programme, an enrollment with devices written in one
//! transaction, the queries dispatch and the VTN sync read, events and opt-outs.

use domain::{
    energy_hub::{
        Address, Device, EnrollmentForm, EnrollmentStatus, EventForm, EventKind, ProgramForm,
    },
    policy::PlantVisibility,
    user::UserKind,
};
use store::{
    energy_hub::{EventFilter, NewEnrollment, NewEvent},
    testing::{TestResult, audit, each_backend, new_user, plant_fields},
};

fn form(sn: &str) -> EnrollmentForm {
    let address = Address {
        country: "DE".into(),
        locality: "Berlin".into(),
        ..Address::default()
    };
    EnrollmentForm {
        source_account: "123".into(),
        utility_account: "acc-1".into(),
        first_name: "Ann".into(),
        last_name: "Lee".into(),
        email: "ann@example.com".into(),
        service: address.clone(),
        mailing: address,
        participation: 50,
        time_zone: "Europe/Berlin".into(),
        devices: vec![Device {
            sn: sn.into(),
            manufacturer: "Deye".into(),
            model: "SUN".into(),
            install_date: "2024-01-01".into(),
            charge_kw: 5.0,
            discharge_kw: 5.0,
            storage_kwh: 10.0,
        }],
    }
}

#[tokio::test]
async fn enrollments_events_and_opt_outs_read_back_as_written() -> TestResult {
    each_backend(|s| async move {
        let ann = s
            .create_user(&new_user("ann@example.com", UserKind::Owner))
            .await?;
        let eve = s
            .create_user(&new_user("eve@example.com", UserKind::Owner))
            .await?;
        let plant = s
            .create_plant(ann, None, ann, &plant_fields("Ann roof"), 1)
            .await?;
        let program = s
            .create_program(
                &ProgramForm {
                    name: "Peak".into(),
                    long_name: String::new(),
                    description: String::new(),
                    retailer: "Grid".into(),
                    auto_accept: true,
                    active: true,
                },
                1,
                None,
            )
            .await?;
        assert!(s.program(program).await?.ok_or("program")?.auto_accept);
        let f = form("SN1");
        let id = s
            .create_enrollment(
                &NewEnrollment {
                    program,
                    plant,
                    created_by: Some(ann),
                    status: EnrollmentStatus::Accepted,
                    form: &f,
                },
                2,
                None,
            )
            .await?;
        let live = s.live_enrollments().await?;
        assert_eq!(live.len(), 1);
        assert_eq!(live[0].devices[0].sn, "SN1");
        assert_eq!(live[0].enrollment.plant_id, plant);
        assert_eq!(
            s.sns_in_live_enrollments(&["SN1".into()], None).await?,
            ["SN1"]
        );
        assert!(
            s.sns_in_live_enrollments(&["SN1".into()], Some(id))
                .await?
                .is_empty()
        );
        assert!(s.utility_account_taken(program, "acc-1", None).await?);
        let mine = PlantVisibility::Of {
            user: ann,
            company: None,
        };
        assert!(s.enrollment_visible(id, mine, ann).await?.is_some());
        let theirs = PlantVisibility::Of {
            user: eve,
            company: None,
        };
        assert!(s.enrollment_visible(id, theirs, eve).await?.is_none());

        let event_form = EventForm {
            name: "Evening".into(),
            start: 100,
            end: 200,
            kind: EventKind::Discharge,
            target_kw: 3.0,
            priority: 1,
        };
        let event = s
            .create_hub_event(
                &NewEvent {
                    program,
                    form: &event_form,
                    intervals: "[]",
                    created_by: None,
                },
                50,
                None,
            )
            .await?;
        assert_eq!(s.hub_events_between(150, 160).await?.len(), 1);
        assert!(s.hub_events_between(200, 300).await?.is_empty());
        let listed = s
            .hub_events(&EventFilter {
                programs: Some(vec![program]),
                limit: 10,
            })
            .await?;
        assert_eq!(listed.len(), 1);
        s.opt_out_of_event(event, &[id, id], Some(ann), 60, &audit("optOut"))
            .await?;
        assert_eq!(s.opt_outs_of_event(event).await?.len(), 1);
        assert!(
            s.cancel_hub_event(event, None, 70, &audit("cancel"))
                .await?
        );
        assert!(
            !s.cancel_hub_event(event, None, 80, &audit("cancel"))
                .await?
        );
        assert!(s.hub_events_between(150, 160).await?.is_empty());
        Ok(())
    })
    .await
}
