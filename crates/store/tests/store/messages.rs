//! Store contract for events as viewers read them, occurrences and messages: visibility through
//! the plant (shares included), filters, counts, one occurrence per plant-wide event, notices
//! that need nobody, recoveries that resolve messages, and read marks (one occurrence, and "all
//! up to now").

use domain::DeviceFamily;
use domain::ids::{DeviceId, PlantId};
use domain::{
    ids::UserId,
    policy::{PlantVisibility, ShareRole},
    user::UserKind,
};
use store::Store;
use store::events::OCCURRENCE_WINDOW_MS;
use store::messages::VisibleEventFilter;
use store::testing::{TestResult, each_backend, new_user, plant_fields};

fn of(user: UserId) -> PlantVisibility {
    PlantVisibility::Of {
        user,
        company: None,
    }
}

fn page(limit: i64) -> VisibleEventFilter {
    VisibleEventFilter {
        limit,
        ..Default::default()
    }
}

#[tokio::test]
async fn events_and_messages_follow_the_plant_and_read_marks() -> TestResult {
    each_backend(|s| async move {
        let ann = s
            .create_user(&new_user("ann@example.com", UserKind::Owner))
            .await?;
        let bob = s
            .create_user(&new_user("bob@example.com", UserKind::Owner))
            .await?;
        let home = s
            .create_plant(ann, None, ann, &plant_fields("Ann home"), 1)
            .await?;
        let gw = s.create_gateway("GWMSG001", "K", "", 1).await?;
        assert!(s.bind_gateway(gw, home, ann, None, 2).await?);
        let inv = s
            .upsert_device("INV00001", gw, DeviceFamily::Inverter, 2, "p", "", None, 3)
            .await?;
        let bat = s
            .upsert_device("BAT00001", gw, DeviceFamily::Battery, 0, "b", "", None, 3)
            .await?;
        s.open_event(inv, Some(home), "F01", "fault", 1_000).await?;
        s.open_event(inv, Some(home), "W02", "warning", 2_000)
            .await?;
        s.close_event(inv, "W02", 3_000).await?;
        s.open_event(bat, Some(home), "B01", "warning", 4_000)
            .await?;

        let all = page(10);
        let (rows, total) = s.events_visible(of(ann), ann, &all).await?;
        assert_eq!(total, 3);
        assert_eq!(rows[0].facts.code, "B01", "newest first");
        assert_eq!(rows[0].facts.device_sn.as_deref(), Some("BAT00001"));
        assert_eq!(
            rows[0].facts.plant_timezone.as_deref(),
            Some("Europe/Madrid")
        );
        assert!(rows.iter().all(|e| e.occurrence_id == e.id), "each alone");
        let narrowed = |f: VisibleEventFilter| {
            let s = s.clone();
            async move { s.events_visible(of(ann), ann, &f).await.map(|r| r.1) }
        };
        let open = VisibleEventFilter {
            open: Some(true),
            ..all.clone()
        };
        assert_eq!(narrowed(open).await?, 2);
        let faults = VisibleEventFilter {
            severity: Some("fault".into()),
            ..all.clone()
        };
        assert_eq!(narrowed(faults).await?, 1);
        let batteries = VisibleEventFilter {
            family: Some(DeviceFamily::Battery),
            ..all.clone()
        };
        assert_eq!(narrowed(batteries).await?, 1);
        let by_sn = VisibleEventFilter {
            sn: Some("inv0".into()),
            ..all.clone()
        };
        assert_eq!(narrowed(by_sn).await?, 2);
        let window = VisibleEventFilter {
            from: Some(2_000),
            to: Some(4_000),
            ..all.clone()
        };
        assert_eq!(narrowed(window).await?, 1);
        let counts = s.event_counts_visible(of(ann), ann, Some(home)).await?;
        assert_eq!((counts.warning, counts.fault, counts.info), (1, 1, 0));

        // Bob sees nothing until the plant is shared with him.
        assert_eq!(s.events_visible(of(bob), bob, &all).await?.1, 0);
        assert_eq!(s.occurrences_visible(of(bob), bob, &all).await?.1, 0);
        assert_eq!(s.unread_messages(of(bob), bob).await?, 0);
        let id = rows[0].id;
        assert!(s.occurrence_visible(of(bob), bob, id).await?.is_none());
        s.share_plant(home, bob, ShareRole::Visitor, 5).await?;
        assert!(s.occurrence_visible(of(bob), bob, id).await?.is_some());
        // Unread: the two open ones; the recovered warning is resolved, not unread.
        assert_eq!(s.unread_messages(of(bob), bob).await?, 2);
        assert_eq!(s.messages(of(bob), bob, 0, None, 10, 0).await?.1, 3);

        // Read marks are per user.
        s.mark_message_read(ann, id, 6).await?;
        s.mark_message_read(ann, id, 7).await?;
        assert_eq!(s.unread_messages(of(ann), ann).await?, 1);
        assert_eq!(s.unread_messages(of(bob), bob).await?, 2);
        let (page_, unread) = s.messages(of(ann), ann, 0, Some(true), 10, 0).await?;
        assert_eq!(unread, 1);
        assert!(page_.iter().all(|m| m.unread()));
        assert_eq!(page_[0].occurrence.facts.code, "F01");
        let (page_, others) = s.messages(of(ann), ann, 0, Some(false), 10, 0).await?;
        assert_eq!(others, 2, "the read one and the recovered one");
        assert!(page_.iter().all(|m| !m.unread()));
        assert_eq!(page_[0].occurrence.id, id);
        s.mark_inbox_read(ann, 8).await?;
        assert_eq!(s.unread_messages(of(ann), ann).await?, 0);
        assert_eq!(s.messages(of(ann), ann, 0, None, 10, 0).await?.1, 3);
        // A later event is unread again.
        s.open_event(inv, Some(home), "F02", "fault", 9_000).await?;
        assert_eq!(s.unread_messages(of(ann), ann).await?, 1);
        assert_eq!(s.unread_messages(PlantVisibility::All, ann).await?, 1);
        // Only occurrences since the given time, or still open, are messages.
        assert_eq!(s.messages(of(ann), ann, 9_001, None, 10, 0).await?.1, 3);
        assert_eq!(s.messages(of(bob), bob, 4_000, None, 10, 0).await?.1, 3);
        s.close_event(inv, "F01", 9_500).await?;
        assert_eq!(s.messages(of(ann), ann, 9_001, None, 10, 0).await?.1, 2);
        Ok(())
    })
    .await
}

/// A plant with `n` inverters behind one gateway; answers (owner, plant, inverter ids).
async fn roof(
    s: &Store,
    n: usize,
) -> Result<(UserId, PlantId, Vec<DeviceId>), Box<dyn std::error::Error>> {
    let owner = s
        .create_user(&new_user("roof@example.com", UserKind::Owner))
        .await?;
    let plant = s
        .create_plant(owner, None, owner, &plant_fields("Commercial roof"), 1)
        .await?;
    let gw = s.create_gateway("GWROOF01", "K", "", 1).await?;
    s.bind_gateway(gw, plant, owner, None, 2).await?;
    let mut inverters = Vec::new();
    for i in 0..n {
        let sn = format!("ROOFINV{i:02}");
        inverters.push(
            s.upsert_device(&sn, gw, DeviceFamily::Inverter, 94, "p", "", None, 3)
                .await?,
        );
    }
    Ok((owner, plant, inverters))
}

#[tokio::test]
async fn one_outage_on_ten_inverters_is_one_occurrence() -> TestResult {
    each_backend(|s| async move {
        let (owner, plant, inverters) = roof(&s, 10).await?;
        let t = 1_000_000;
        // The whole roof loses the grid in one report; two inverters recover later.
        for (i, inv) in inverters.iter().enumerate() {
            assert!(
                s.open_event(*inv, Some(plant), "F35", "warning", t + i as i64)
                    .await?
            );
        }
        let (events, total) = s.events_visible(of(owner), owner, &page(50)).await?;
        assert_eq!(
            (events.len(), total),
            (10, 10),
            "every device keeps its event"
        );
        let first = events.iter().map(|e| e.id).min().ok_or("no events")?;
        assert!(events.iter().all(|e| e.occurrence_id == first));

        let (rows, total) = s.occurrences_visible(of(owner), owner, &page(50)).await?;
        assert_eq!(total, 1, "one row for the occurrence");
        let o = &rows[0];
        assert_eq!((o.id, o.devices, o.open_devices), (first, 10, 10));
        assert_eq!((o.facts.opened_at, o.facts.closed_at), (t, None));
        assert_eq!(o.facts.device_sn.as_deref(), Some("ROOFINV00"));
        assert_eq!(s.occurrence_events(&[o.id]).await?.len(), 10);
        let counts = s
            .event_counts_visible(of(owner), owner, Some(plant))
            .await?;
        assert_eq!((counts.warning, counts.fault), (1, 0));
        assert_eq!(s.unread_messages(of(owner), owner).await?, 1);

        // A device's SN finds the whole occurrence; any of its events names it.
        let one = VisibleEventFilter {
            sn: Some("roofinv07".into()),
            ..page(50)
        };
        let (found, n) = s.occurrences_visible(of(owner), owner, &one).await?;
        assert_eq!((n, found[0].devices), (1, 10));
        let member = events.iter().find(|e| e.id != first).ok_or("no member")?;
        let by_member = s.occurrence_visible(of(owner), owner, member.id).await?;
        assert_eq!(by_member.map(|o| o.id), Some(first));

        // Still open while one device is in it; recovered when the last one recovers.
        for inv in &inverters[..9] {
            s.close_event(*inv, "F35", t + 60_000).await?;
        }
        let o = s
            .occurrence_visible(of(owner), owner, first)
            .await?
            .ok_or("gone")?;
        assert_eq!((o.open_devices, o.facts.closed_at), (1, None));
        let open = VisibleEventFilter {
            open: Some(true),
            ..page(50)
        };
        assert_eq!(s.occurrences_visible(of(owner), owner, &open).await?.1, 1);
        s.close_event(inverters[9], "F35", t + 120_000).await?;
        let o = s
            .occurrence_visible(of(owner), owner, first)
            .await?
            .ok_or("gone")?;
        assert_eq!((o.open_devices, o.facts.closed_at), (0, Some(t + 120_000)));
        assert_eq!(s.occurrences_visible(of(owner), owner, &open).await?.1, 0);
        // The recovery resolved the message: nothing needs attention, nothing was added.
        assert_eq!(s.unread_messages(of(owner), owner).await?, 0);
        assert_eq!(s.messages(of(owner), owner, 0, None, 10, 0).await?.1, 1);
        assert_eq!(
            s.event_counts_visible(of(owner), owner, None).await?,
            Default::default()
        );

        // A device that reports it shortly after the end joins it; much later it is a new one.
        let late = t + 120_000 + OCCURRENCE_WINDOW_MS - 1;
        s.open_event(inverters[3], Some(plant), "F35", "warning", late)
            .await?;
        s.close_event(inverters[3], "F35", late + 1).await?;
        let next = late + 1 + OCCURRENCE_WINDOW_MS + 1;
        s.open_event(inverters[4], Some(plant), "F35", "warning", next)
            .await?;
        let (rows, total) = s.occurrences_visible(of(owner), owner, &page(50)).await?;
        assert_eq!(total, 2);
        assert_eq!((rows[0].devices, rows[0].facts.opened_at), (1, next));
        assert_eq!(rows[1].devices, 11, "the late report joined the outage");
        // Another code at the same time is its own occurrence.
        s.open_event(inverters[0], Some(plant), "F41", "fault", next)
            .await?;
        assert_eq!(
            s.occurrences_visible(of(owner), owner, &page(50)).await?.1,
            3
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn notices_change_no_status_and_are_no_messages() -> TestResult {
    each_backend(|s| async move {
        let (owner, plant, inverters) = roof(&s, 2).await?;
        for inv in &inverters {
            s.open_event(*inv, Some(plant), "F13", "info", 5_000)
                .await?;
        }
        let counts = s
            .event_counts_visible(of(owner), owner, Some(plant))
            .await?;
        assert_eq!((counts.info, counts.warning, counts.fault), (1, 0, 0));
        assert_eq!(s.unread_messages(of(owner), owner).await?, 0);
        assert_eq!(s.messages(of(owner), owner, 0, None, 10, 0).await?.1, 0);
        let inputs = s.device_status_inputs().await?;
        assert!(
            inputs
                .iter()
                .filter(|d| inverters.contains(&d.id))
                .all(|d| d.worst_event == 0),
            "a notice leaves the device Normal"
        );
        let notices = VisibleEventFilter {
            severity: Some("info".into()),
            ..page(10)
        };
        let (rows, total) = s.occurrences_visible(of(owner), owner, &notices).await?;
        assert_eq!((total, rows[0].devices), (1, 2));
        // A warning on top of it does change the status.
        s.open_event(inverters[0], Some(plant), "W02", "warning", 6_000)
            .await?;
        let inputs = s.device_status_inputs().await?;
        let i = inputs
            .iter()
            .find(|d| d.id == inverters[0])
            .ok_or("no input")?;
        assert_eq!(i.worst_event, 1);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn openings_at_the_same_moment_still_make_one_occurrence() -> TestResult {
    each_backend(|s| async move {
        let (owner, plant, inverters) = roof(&s, 8).await?;
        // As if each inverter's report were ingested by another worker (or replica) at once.
        let tasks: Vec<_> = inverters
            .iter()
            .map(|inv| {
                let (s, inv) = (s.clone(), *inv);
                tokio::spawn(async move {
                    s.open_event(inv, Some(plant), "F35", "warning", 7_000)
                        .await
                })
            })
            .collect();
        for t in tasks {
            assert!(t.await??);
        }
        let (rows, total) = s.occurrences_visible(of(owner), owner, &page(10)).await?;
        assert_eq!((total, rows[0].devices), (1, 8));
        Ok(())
    })
    .await
}
