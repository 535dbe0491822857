//! Store contract for the fleet dashboard's reads: exactly the plant list's plants for the same
//! reader and filters, their devices' newest messages, their open warnings and faults, and
//! their PV energy per candidate today and period, on every backend.

use domain::{DeviceFamily, ids::UserId, policy::PlantVisibility, user::UserKind};
use store::testing::{TestResult, each_backend};
use store::{
    Store,
    fleet::EnergyDays,
    plants::{PlantFields, PlantFilter},
    telemetry::{CounterKind, EnergyWrite, SampleWrite, TelemetryBatch},
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

fn fields(name: &str, kind: i64) -> PlantFields {
    PlantFields {
        name: name.into(),
        plant_type: kind,
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

fn days() -> EnergyDays {
    EnergyDays {
        todays: [
            "2024-06-20".into(),
            "2024-06-21".into(),
            "2024-06-22".into(),
        ],
        period_starts: [
            "2024-06-14".into(),
            "2024-06-15".into(),
            "2024-06-16".into(),
        ],
    }
}

#[tokio::test]
async fn the_fleet_reads_cover_exactly_the_plant_lists_plants() -> TestResult {
    each_backend(|s| async move {
        let ann = user(&s, "ann@example.com").await?;
        let bob = user(&s, "bob@example.com").await?;
        let roof = s
            .create_plant(ann, None, ann, &fields("Ann roof", 1), 1)
            .await?;
        let barn = s
            .create_plant(ann, None, ann, &fields("Ann barn", 2), 2)
            .await?;
        let shed = s
            .create_plant(bob, None, bob, &fields("Bob shed", 1), 3)
            .await?;
        let gw = s.create_gateway("GW1", "K", "", 1).await?;
        s.bind_gateway(gw, roof, ann, None, 1).await?;
        let inv = s
            .upsert_device("INV1", gw, DeviceFamily::Inverter, 2, "", "", None, 1)
            .await?;
        let bob_gw = s.create_gateway("GW2", "K", "", 1).await?;
        s.bind_gateway(bob_gw, shed, bob, None, 1).await?;
        let bob_inv = s
            .upsert_device("INV2", bob_gw, DeviceFamily::Inverter, 2, "", "", None, 1)
            .await?;
        let mut batch = TelemetryBatch::default();
        for (device, plant, day, kwh) in [
            (inv, roof, "2024-06-13", 100.0),
            (inv, roof, "2024-06-14", 1.0),
            (inv, roof, "2024-06-16", 2.0),
            (inv, roof, "2024-06-20", 3.0),
            (inv, roof, "2024-06-21", 4.0),
            (inv, roof, "2024-06-22", 5.0),
            (bob_inv, shed, "2024-06-21", 50.0),
        ] {
            batch.energy.push(EnergyWrite {
                device_id: device,
                plant_id: Some(plant),
                day: day.into(),
                metric: "pv".into(),
                value: kwh,
                kind: CounterKind::Daily,
                rank: 0,
            });
        }
        batch.samples.push(SampleWrite {
            device_id: inv,
            ts: 5_000,
            payload: "{}".into(),
        });
        s.write_telemetry_batch(&batch).await?;
        s.open_event(inv, Some(roof), "F01", "fault", 10).await?;
        s.open_event(inv, Some(roof), "N01", "info", 11).await?;
        s.open_event(bob_inv, Some(shed), "F01", "fault", 12)
            .await?;

        let vis = PlantVisibility::Of {
            user: ann,
            company: None,
        };
        let all = PlantFilter::default();
        let plants = s.fleet_plants(vis, ann, &all).await?;
        let (listed, _) = s
            .plants(
                vis,
                ann,
                &PlantFilter {
                    limit: 100,
                    ..PlantFilter::default()
                },
            )
            .await?;
        let mut ids: Vec<_> = listed.iter().map(|p| p.id).collect();
        ids.sort();
        assert_eq!(plants.iter().map(|p| p.id).collect::<Vec<_>>(), ids);
        assert_eq!(ids, [roof, barn]);
        let r = &plants[0];
        assert_eq!((r.gateways, r.devices), (1, 1));
        assert_eq!(r.last_heard(), Some(5_000));
        assert_eq!((plants[1].gateways, plants[1].last_heard()), (0, None));

        let storage = PlantFilter {
            plant_type: Some(2),
            ..PlantFilter::default()
        };
        let only = s.fleet_plants(vis, ann, &storage).await?;
        assert_eq!(only.iter().map(|p| p.id).collect::<Vec<_>>(), [barn]);

        let alarms = s.fleet_open_alarms(vis, ann, &all).await?;
        assert_eq!(
            alarms.len(),
            1,
            "the notice is left out, Bob's fault is Bob's"
        );
        assert_eq!(
            (alarms[0].plant_id, alarms[0].severity.as_str()),
            (roof, "fault")
        );
        assert_eq!(alarms[0].family, Some(DeviceFamily::Inverter));

        let energy = s.fleet_energy(vis, ann, &all, "pv", &days()).await?;
        assert_eq!(energy.len(), 1, "the barn has no rows");
        let e = &energy[0];
        assert_eq!((e.today0, e.today1, e.today2), (3.0, 4.0, 5.0));
        // 14..20, 15..21, 16..22: the 13th is in no period.
        assert_eq!((e.period0, e.period1, e.period2), (6.0, 9.0, 14.0));
        assert!(
            s.fleet_energy(vis, ann, &storage, "pv", &days())
                .await?
                .is_empty()
        );

        // The closed days of a period, for the plants asked about (the barn has none).
        let closed = s
            .plants_energy_between(&[roof, barn], "pv", "2024-06-14", "2024-06-21")
            .await?;
        assert_eq!(closed.len(), 1);
        assert_eq!((closed[0].plant_id, closed[0].kwh), (roof, 6.0));

        let stamps = s.fleet_inverter_stamps(vis, ann, &all).await?;
        assert_eq!(stamps.len(), 1);
        assert_eq!((stamps[0].device_id, stamps[0].ts), (inv, 5_000));

        // Everyone's, for internal staff.
        assert_eq!(
            s.fleet_plants(PlantVisibility::All, ann, &all).await?.len(),
            3
        );
        Ok(())
    })
    .await
}
