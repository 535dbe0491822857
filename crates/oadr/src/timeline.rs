//! Which of several overlapping events applies at a time: the lowest priority number wins, then
//! the latest start (a newer instruction replaces an older one of the same rank), then the
//! higher id.

/// The part of an event the choice needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    pub id: i64,
    pub priority: i64,
    pub start: i64,
    pub end: i64,
    pub cancelled: bool,
}

impl Slot {
    pub fn applies_at(&self, t: i64) -> bool {
        !self.cancelled && self.start <= t && t < self.end
    }
}

pub fn winner(slots: &[Slot], t: i64) -> Option<Slot> {
    slots
        .iter()
        .filter(|s| s.applies_at(t))
        .min_by(|a, b| {
            a.priority
                .cmp(&b.priority)
                .then(b.start.cmp(&a.start))
                .then(b.id.cmp(&a.id))
        })
        .copied()
}

/// The next time after `t` at which the winner may change (a start or end of any live slot).
pub fn next_change(slots: &[Slot], t: i64) -> Option<i64> {
    slots
        .iter()
        .filter(|s| !s.cancelled)
        .flat_map(|s| [s.start, s.end])
        .filter(|&x| x > t)
        .min()
}
