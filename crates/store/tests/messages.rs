//! Store contract for events as viewers read them and for messages: visibility through the
//! plant (shares included), filters, counts, and read marks (one event, and "all up to now").

use domain::{
    policy::{PlantVisibility, ShareRole},
    user::UserKind,
};
use store::messages::VisibleEventFilter;
use store::testing::{TestResult, each_backend, new_user, plant_fields};

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
        assert!(s.bind_gateway(gw, home, ann.0, None, 2).await?);
        let inv = s
            .upsert_device("INV00001", gw, "inverter", 2, "p", "", None, 3)
            .await?;
        let bat = s
            .upsert_device("BAT00001", gw, "battery", 0, "b", "", None, 3)
            .await?;
        s.open_event(inv, Some(home), "F01", "fault", 1_000).await?;
        s.open_event(inv, Some(home), "W02", "warning", 2_000)
            .await?;
        s.close_event(inv, "W02", 3_000).await?;
        s.open_event(bat, Some(home), "B01", "warning", 4_000)
            .await?;

        let of = |user| PlantVisibility::Of {
            user,
            company: None,
        };
        let all = VisibleEventFilter {
            limit: 10,
            ..Default::default()
        };
        let (rows, total) = s.events_visible(of(ann), ann, &all).await?;
        assert_eq!(total, 3);
        assert_eq!(rows[0].code, "B01", "newest first");
        assert_eq!(rows[0].device_sn.as_deref(), Some("BAT00001"));
        assert_eq!(rows[0].plant_timezone.as_deref(), Some("Europe/Madrid"));
        let narrowed = |f: VisibleEventFilter| {
            let s = s.clone();
            async move { s.events_visible(of(ann), ann, &f).await.map(|r| r.1) }
        };
        assert_eq!(
            narrowed(VisibleEventFilter {
                open: Some(true),
                ..all.clone()
            })
            .await?,
            2
        );
        assert_eq!(
            narrowed(VisibleEventFilter {
                severity: Some("fault".into()),
                ..all.clone()
            })
            .await?,
            1
        );
        assert_eq!(
            narrowed(VisibleEventFilter {
                family: Some("battery".into()),
                ..all.clone()
            })
            .await?,
            1
        );
        assert_eq!(
            narrowed(VisibleEventFilter {
                sn: Some("inv0".into()),
                ..all.clone()
            })
            .await?,
            2
        );
        assert_eq!(
            narrowed(VisibleEventFilter {
                from: Some(2_000),
                to: Some(4_000),
                ..all.clone()
            })
            .await?,
            1
        );
        let counts = s
            .event_counts_visible(of(ann), ann, Some(home), true, None)
            .await?;
        assert_eq!((counts.warning, counts.fault), (1, 1));

        // Bob sees nothing until the plant is shared with him.
        assert_eq!(s.events_visible(of(bob), bob, &all).await?.1, 0);
        assert_eq!(s.unread_messages(of(bob), bob, 0).await?, 0);
        let id = rows[0].id;
        assert!(s.event_visible(of(bob), bob, id).await?.is_none());
        s.share_plant(home, bob, ShareRole::Visitor, 5).await?;
        assert!(s.event_visible(of(bob), bob, id).await?.is_some());
        assert_eq!(s.unread_messages(of(bob), bob, 0).await?, 3);

        // Read marks are per user.
        s.mark_message_read(ann, id, 6).await?;
        s.mark_message_read(ann, id, 7).await?;
        assert_eq!(s.unread_messages(of(ann), ann, 0).await?, 2);
        assert_eq!(s.unread_messages(of(bob), bob, 0).await?, 3);
        let (page, unread) = s.messages(of(ann), ann, 0, Some(true), 10, 0).await?;
        assert_eq!(unread, 2);
        assert!(page.iter().all(|m| !m.read));
        let (page, read) = s.messages(of(ann), ann, 0, Some(false), 10, 0).await?;
        assert_eq!((read, page[0].event.id), (1, id));
        s.mark_all_messages_read(ann, 8).await?;
        assert_eq!(s.unread_messages(of(ann), ann, 0).await?, 0);
        assert_eq!(s.messages(of(ann), ann, 0, None, 10, 0).await?.1, 3);
        // A later event is unread again.
        s.open_event(inv, Some(home), "F02", "fault", 9_000).await?;
        assert_eq!(s.unread_messages(of(ann), ann, 0).await?, 1);
        assert_eq!(s.unread_messages(PlantVisibility::All, ann, 0).await?, 1);
        // Only events since the given time are messages.
        assert_eq!(s.unread_messages(of(ann), ann, 9_001).await?, 0);
        assert_eq!(s.messages(of(bob), bob, 4_000, None, 10, 0).await?.1, 2);
        Ok(())
    })
    .await
}
