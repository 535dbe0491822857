//! The energy hub: each write with more than one row (an enrollment and its devices, devices
//! added or removed, a state change, a programme, an event, a cancellation or opt-out, a VTN
//! connection) writes its audit entry with it, or nothing at all when the last statement
//! fails.

use crate::common::{Error, actor, audit_actions, fail_audit, failed_in_store, plant};
use domain::DeviceFamily;
use domain::ids::{EnrollmentId, VtnId};
use domain::{
    energy_hub::{AddressInput, DeviceInput, EnrollmentInput, EventInput, ProgramInput},
    ids::PlantId,
    policy::Actor,
    user::BuiltinRole,
};
use service::{
    energy_hub::{
        enrollments::{self, Save},
        events, programs,
        vtn::{
            Ven,
            admin::{self, VtnInput},
        },
    },
    gateways,
};
use store::{
    Store,
    testing::{TestResult, each_backend},
};

const KEY: &str = "KEY12345";
/// 2030-01-01 in unix seconds: events start after "now" in these tests.
const NOW_S: i64 = 1_893_456_000;
const NOW_MS: i64 = NOW_S * 1000;
/// An hour later.
const START: &str = "2030-01-01T01:00:00Z";

/// Ann's plant with the hybrid inverters `sns` behind one gateway, and an administrator (the
/// utility).
struct Hub {
    ann: Actor,
    admin: Actor,
    plant: PlantId,
}

async fn hub(s: &Store, sns: &[&str]) -> Result<Hub, Error> {
    let ann = actor(s, "ann@example.com", BuiltinRole::PlantOwner).await?;
    let admin = actor(s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
    let plant = plant(s, &ann, "Ann home").await?;
    let gw = s
        .create_gateway("GW-HUB-01", KEY, "deye-hybrid-1ph", 1)
        .await?;
    let to_plant = gateways::target_plant(s, &ann, plant).await?;
    gateways::claim(s, &ann, "GW-HUB-01", KEY, Some(&to_plant), 2).await?;
    for sn in sns {
        s.upsert_device(
            sn,
            gw,
            DeviceFamily::Inverter,
            2,
            "deye-hybrid-1ph",
            "SUN-5K",
            None,
            3,
        )
        .await?;
    }
    Ok(Hub { ann, admin, plant })
}

fn device(sn: &str) -> DeviceInput {
    DeviceInput {
        sn: Some(sn.into()),
        manufacturer: Some("Deye".into()),
        model: Some("SUN-5K".into()),
        install_date: Some("2024-03-01".into()),
        charge_capacity: Some(5.0),
        discharge_capacity: Some(5.0),
        storage_capacity: Some(10.0),
    }
}

fn form(account: &str, sns: &[&str]) -> EnrollmentInput {
    EnrollmentInput {
        source_account_number: Some("12345".into()),
        utility_account_number: Some(account.into()),
        first_name: Some("Ann".into()),
        last_name: Some("Lee".into()),
        email: Some("ann@example.com".into()),
        service_address: Some(AddressInput {
            country: Some("ES".into()),
            region: Some("Madrid".into()),
            locality: Some("Madrid".into()),
            street_address: Some("Gran Via 1".into()),
            postal_code: Some("28013".into()),
            ..AddressInput::default()
        }),
        participation_level: Some(80),
        time_zone: Some("Europe/Madrid".into()),
        devices: Some(sns.iter().map(|sn| device(sn)).collect()),
        ..EnrollmentInput::default()
    }
}

fn program(name: &str) -> ProgramInput {
    ProgramInput {
        name: Some(name.into()),
        retailer: Some("Grid Co".into()),
        auto_accept: Some(false),
        ..ProgramInput::default()
    }
}

fn event(name: &str) -> EventInput {
    EventInput {
        name: Some(name.into()),
        duration_minutes: Some(60),
        kind: Some("discharge".into()),
        target_kw: Some(3.0),
        priority: Some(1),
        ..EventInput::default()
    }
}

/// The SNs an enrollment holds, sorted.
async fn held(s: &Store, id: EnrollmentId) -> Result<Vec<String>, Error> {
    let mut sns: Vec<String> = s
        .enrollment_devices(&[id])
        .await?
        .into_iter()
        .map(|d| d.sn)
        .collect();
    sns.sort();
    Ok(sns)
}

#[tokio::test]
async fn enrolling_and_changing_an_enrollment_each_write_their_entry() -> TestResult {
    each_backend(|s| async move {
        let h = hub(&s, &["INV1", "INV2", "INV3"]).await?;
        let prog = programs::save(&s, &h.admin, None, program("Peak"), NOW_MS).await?;
        let save = Save {
            program: Some(prog),
            plant: Some(h.plant),
            form: form("acc-1", &["INV1", "INV2"]),
            ..Save::default()
        };
        let id = enrollments::save(&s, &h.ann, &save, NOW_MS).await?;
        enrollments::add_devices(&s, &h.ann, id, &[device("INV3")], NOW_MS).await?;
        enrollments::remove_device(&s, &h.ann, id, "INV1", NOW_MS).await?;
        assert_eq!(held(&s, id).await?, ["INV2", "INV3"]);
        enrollments::act(&s, &h.admin, id, "accept", None, NOW_MS).await?;
        let edit = Save {
            id: Some(id),
            form: form("acc-1", &["INV2"]),
            ..Save::default()
        };
        let refused = enrollments::save(&s, &h.ann, &edit, NOW_MS).await;
        assert!(!failed_in_store(&refused), "an accepted one is not edited");
        assert_eq!(
            audit_actions(&s).await?,
            [
                "energyhub.program.create",
                "energyhub.enrollment.create",
                "energyhub.enrollment.devices.add",
                "energyhub.enrollment.devices.remove",
                "energyhub.enrollment.action",
            ]
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_enrollment_change_whose_entry_fails_leaves_nothing() -> TestResult {
    each_backend(|s| async move {
        let h = hub(&s, &["INV1", "INV2", "INV3"]).await?;
        let prog = programs::save(&s, &h.admin, None, program("Peak"), NOW_MS).await?;
        let save = Save {
            program: Some(prog),
            plant: Some(h.plant),
            form: form("acc-1", &["INV1", "INV2"]),
            ..Save::default()
        };
        let id = enrollments::save(&s, &h.ann, &save, NOW_MS).await?;
        fail_audit(&s).await?;

        let other = Save {
            form: form("acc-2", &["INV3"]),
            ..save.clone()
        };
        let created = enrollments::save(&s, &h.ann, &other, NOW_MS).await;
        assert!(failed_in_store(&created), "{created:?}");
        let (rows, total) = s
            .enrollments_page(
                h.admin.plant_visibility(),
                h.admin.id,
                &store::energy_hub::EnrollmentFilter {
                    limit: 10,
                    ..Default::default()
                },
            )
            .await?;
        assert_eq!((rows.len(), total), (1, 1), "no second enrollment");

        let edit = Save {
            id: Some(id),
            form: form("acc-9", &["INV3"]),
            ..Save::default()
        };
        let edited = enrollments::save(&s, &h.ann, &edit, NOW_MS).await;
        assert!(failed_in_store(&edited), "{edited:?}");
        let row = s.enrollment(id).await?.ok_or("enrollment")?;
        assert_eq!(row.utility_account, "acc-1");
        assert_eq!(held(&s, id).await?, ["INV1", "INV2"]);

        let added = enrollments::add_devices(&s, &h.ann, id, &[device("INV3")], NOW_MS).await;
        assert!(failed_in_store(&added), "{added:?}");
        let removed = enrollments::remove_device(&s, &h.ann, id, "INV1", NOW_MS).await;
        assert!(failed_in_store(&removed), "{removed:?}");
        assert_eq!(held(&s, id).await?, ["INV1", "INV2"]);

        let accepted = enrollments::act(&s, &h.admin, id, "accept", None, NOW_MS).await;
        assert!(failed_in_store(&accepted), "{accepted:?}");
        let row = s.enrollment(id).await?.ok_or("enrollment")?;
        assert_eq!(row.status, "pending");
        assert_eq!(audit_actions(&s).await?.len(), 2);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn programmes_and_events_whose_entry_fails_are_not_written() -> TestResult {
    each_backend(|s| async move {
        let h = hub(&s, &["INV1"]).await?;
        let prog = programs::save(&s, &h.admin, None, program("Peak"), NOW_MS).await?;
        let ev = events::create(
            &s,
            &h.admin,
            Some(prog),
            Some(START),
            event("Evening"),
            NOW_S,
        )
        .await?;
        let save = Save {
            program: Some(prog),
            plant: Some(h.plant),
            form: form("acc-1", &["INV1"]),
            ..Save::default()
        };
        let id = enrollments::save(&s, &h.ann, &save, NOW_MS).await?;
        enrollments::act(&s, &h.admin, id, "accept", None, NOW_MS).await?;
        fail_audit(&s).await?;

        let created = programs::save(&s, &h.admin, None, program("Other"), NOW_MS).await;
        assert!(failed_in_store(&created), "{created:?}");
        assert_eq!(s.programs(true).await?.len(), 1);
        let edited = programs::save(&s, &h.admin, Some(prog), program("Renamed"), NOW_MS).await;
        assert!(failed_in_store(&edited), "{edited:?}");
        assert_eq!(s.program(prog).await?.ok_or("programme")?.name, "Peak");

        let later =
            events::create(&s, &h.admin, Some(prog), Some(START), event("Later"), NOW_S).await;
        assert!(failed_in_store(&later), "{later:?}");
        let listed = s
            .hub_events(&store::energy_hub::EventFilter {
                programs: None,
                limit: 10,
            })
            .await?;
        assert_eq!(listed.len(), 1, "no second event");

        let opted = events::cancel(&s, &h.ann, ev, None, NOW_S).await;
        assert!(failed_in_store(&opted), "{opted:?}");
        assert!(s.opt_outs_of_event(ev).await?.is_empty());
        let cancelled = events::cancel(&s, &h.admin, ev, None, NOW_S).await;
        assert!(failed_in_store(&cancelled), "{cancelled:?}");
        assert!(
            s.hub_event(ev)
                .await?
                .ok_or("event")?
                .cancelled_at
                .is_none()
        );
        assert_eq!(
            audit_actions(&s).await?,
            [
                "energyhub.program.create",
                "energyhub.event.create",
                "energyhub.enrollment.create",
                "energyhub.enrollment.action",
            ]
        );
        Ok(())
    })
    .await
}

fn ven() -> Ven {
    Ven {
        public_url: None,
        data_dir: std::env::temp_dir().join(format!("use-cases-{}", std::process::id())),
    }
}

fn connection(id: Option<VtnId>, name: &str) -> VtnInput {
    VtnInput {
        id,
        name: Some(name.into()),
        url: Some("http://127.0.0.1:1/openadr3".into()),
        version: Some("3.1.0".into()),
        client_id: Some("ven-client".into()),
        client_secret: Some("ven-secret".into()),
        ven_name: Some("portal".into()),
        ..VtnInput::default()
    }
}

#[tokio::test]
async fn a_vtn_connection_whose_entry_fails_is_not_saved_or_removed() -> TestResult {
    each_backend(|s| async move {
        let admin = actor(&s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
        let id = admin::save(&s, &admin, &ven(), &connection(None, "Utility"), NOW_MS).await?;
        fail_audit(&s).await?;

        let added = admin::save(&s, &admin, &ven(), &connection(None, "Other"), NOW_MS).await;
        assert!(
            matches!(
                added,
                Err(admin::SaveError::Service(service::ServiceError::Store(_)))
            ),
            "{added:?}"
        );
        let edited =
            admin::save(&s, &admin, &ven(), &connection(Some(id), "Renamed"), NOW_MS).await;
        assert!(
            matches!(
                edited,
                Err(admin::SaveError::Service(service::ServiceError::Store(_)))
            ),
            "{edited:?}"
        );
        let removed = admin::remove(&s, &admin, &ven(), id, NOW_MS).await;
        assert!(failed_in_store(&removed), "{removed:?}");
        let vtns = s.vtns().await?;
        assert_eq!(vtns.len(), 1);
        assert_eq!(vtns[0].name, "Utility");
        assert_eq!(audit_actions(&s).await?, ["energyhub.vtn.save"]);
        Ok(())
    })
    .await
}
