//! Derived event statuses and the winner of overlapping events.

use oadr::status::EventStatus;
use oadr::timeline::{Slot, next_change, winner};

#[test]
fn status_follows_the_clock_unless_cancelled() {
    assert_eq!(
        EventStatus::derive(100, 200, false, 99),
        EventStatus::Pending
    );
    assert_eq!(
        EventStatus::derive(100, 200, false, 100),
        EventStatus::Active
    );
    assert_eq!(
        EventStatus::derive(100, 200, false, 199),
        EventStatus::Active
    );
    assert_eq!(
        EventStatus::derive(100, 200, false, 200),
        EventStatus::Completed
    );
    assert_eq!(
        EventStatus::derive(100, 200, true, 150),
        EventStatus::Cancelled
    );
    assert_eq!(
        EventStatus::derive(100, 100, false, 100),
        EventStatus::Completed
    );
}

fn slot(id: i64, priority: i64, start: i64, end: i64) -> Slot {
    Slot {
        id,
        priority,
        start,
        end,
        cancelled: false,
    }
}

#[test]
fn the_lowest_priority_number_wins_then_the_latest_start() {
    let slots = [slot(1, 5, 0, 100), slot(2, 1, 50, 80), slot(3, 5, 10, 100)];
    assert_eq!(winner(&slots, 20).map(|s| s.id), Some(3));
    assert_eq!(winner(&slots, 60).map(|s| s.id), Some(2));
    assert_eq!(winner(&slots, 80).map(|s| s.id), Some(3));
    assert_eq!(winner(&slots, 100), None);
    assert_eq!(next_change(&slots, 20), Some(50));
}

#[test]
fn a_cancelled_event_never_wins() {
    let mut s = slot(1, 0, 0, 100);
    s.cancelled = true;
    assert_eq!(winner(&[s, slot(2, 9, 0, 100)], 5).map(|s| s.id), Some(2));
}
