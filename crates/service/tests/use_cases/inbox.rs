//! The inbox: marking everything read marks the messages and the notices together.

use crate::common::{actor, failed_in_store, plant};
use domain::DeviceFamily;
use domain::user::BuiltinRole;
use service::inbox;
use store::testing::{TestResult, Write, each_backend};

#[tokio::test]
async fn reading_all_that_fails_half_way_leaves_every_mark_as_it_was() -> TestResult {
    each_backend(|s| async move {
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let home = plant(&s, &ann, "Home").await?;
        let gw = s.create_gateway("GWINBOX1", "K", "", 1).await?;
        assert!(s.bind_gateway(gw, home, ann.id, None, 2).await?);
        let inv = s
            .upsert_device("INVINBOX1", gw, DeviceFamily::Inverter, 2, "p", "", None, 3)
            .await?;
        s.open_event(inv, Some(home), "F01", "fault", 1_000).await?;
        s.open_event(inv, Some(home), "F02", "fault", 2_000).await?;
        let (messages, _) = s
            .messages(ann.plant_visibility(), ann.id, 0, None, 10, 0)
            .await?;
        let first = messages.last().ok_or("a message")?.occurrence.id;
        inbox::read_message(&s, &ann, first, 3_000).await?;
        let unread = s.unread_messages(ann.plant_visibility(), ann.id).await?;
        assert_eq!(unread, 1);
        // The mark moves to the newest event; dropping the single marks below it then fails.
        s.fail_writes_for_tests("message_reads", Write::Delete)
            .await?;
        let read = inbox::read_all(&s, &ann, 4_000).await;
        assert!(failed_in_store(&read), "{read:?}");
        assert_eq!(
            s.unread_messages(ann.plant_visibility(), ann.id).await?,
            unread
        );
        Ok(())
    })
    .await
}
