//! What ingest left out of one telemetry message, and why: a value or a device that breaks the
//! rules is skipped alone and the rest of the message is stored. One [`Skipped`] is filled per
//! message; it is counted in `ingest_skipped_total{what,reason}` and summed up in one log line,
//! and it is what a communication log would record for the message.

use std::{
    collections::HashMap,
    fmt,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

/// Most examples (SN, key, reason) kept per message; the counts cover everything.
pub const MAX_EXAMPLES: usize = 8;
/// SNs and keys in examples are cut to this many characters (a key may be over the limit).
const EXAMPLE_CHARS: usize = 64;

/// Why a value or a device was left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A value key that is empty, longer than `MAX_KEY_LEN` or holds control characters.
    BadKey,
    /// A text longer than `MAX_TEXT_LEN` bytes.
    TextTooLong,
    /// `null`, an array or an object where a number, text or boolean belongs.
    NotAScalar,
    /// Values beyond `MAX_VALUES` in one reading.
    TooManyValues,
    /// A value decoded from raw registers that lies outside its point's valid range (`min`,
    /// `max` of the protocol config): a read or wiring fault, not a measurement.
    OutOfRange,
    /// A device (or parent) SN that is empty, too long or holds control characters.
    BadSn,
    UnknownFamily,
    /// `values` is not an object, or not readable JSON (e.g. a number out of range).
    UnreadableValues,
    /// Raw register blocks with an unknown protocol, or one made for another family.
    UndecodableRaw,
    /// The device is registered behind another gateway.
    AnotherGateways,
    /// The gateway already has the most devices one gateway may register.
    OverDeviceLimit,
}

impl Reason {
    pub const ALL: [Reason; 11] = [
        Reason::BadKey,
        Reason::TextTooLong,
        Reason::NotAScalar,
        Reason::TooManyValues,
        Reason::OutOfRange,
        Reason::BadSn,
        Reason::UnknownFamily,
        Reason::UnreadableValues,
        Reason::UndecodableRaw,
        Reason::AnotherGateways,
        Reason::OverDeviceLimit,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Reason::BadKey => "bad_key",
            Reason::TextTooLong => "text_too_long",
            Reason::NotAScalar => "not_a_scalar",
            Reason::TooManyValues => "too_many_values",
            Reason::OutOfRange => "out_of_range",
            Reason::BadSn => "bad_sn",
            Reason::UnknownFamily => "unknown_family",
            Reason::UnreadableValues => "unreadable_values",
            Reason::UndecodableRaw => "undecodable_raw",
            Reason::AnotherGateways => "another_gateways",
            Reason::OverDeviceLimit => "over_device_limit",
        }
    }

    /// What is left out for this reason: one `value`, or a whole `device` reading.
    pub fn what(self) -> &'static str {
        match self {
            Reason::BadKey
            | Reason::TextTooLong
            | Reason::NotAScalar
            | Reason::TooManyValues
            | Reason::OutOfRange => "value",
            _ => "device",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One thing left out: the device's SN, the value's key (for values), why, and what was
/// wrong with it when that says more than the reason (an out-of-range value and its range).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    pub reason: Reason,
    pub sn: String,
    pub key: Option<String>,
    pub detail: Option<String>,
}

/// Everything one message lost: counts per reason and the first [`MAX_EXAMPLES`] examples.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Skipped {
    counts: [u64; Reason::ALL.len()],
    examples: Vec<Example>,
}

impl Skipped {
    pub fn device(&mut self, sn: &str, reason: Reason) {
        self.note(reason, sn, None, None);
    }

    pub fn value(&mut self, sn: &str, key: &str, reason: Reason) {
        self.note(reason, sn, Some(key), None);
    }

    /// A decoded value outside its valid range `min..=max` (either bound may be open).
    pub fn out_of_range(
        &mut self,
        sn: &str,
        key: &str,
        value: f64,
        min: Option<f64>,
        max: Option<f64>,
    ) {
        let bound = |b: Option<f64>| b.map(|b| b.to_string()).unwrap_or_default();
        let detail = format!("{value} outside {}..={}", bound(min), bound(max));
        self.note(Reason::OutOfRange, sn, Some(key), Some(detail));
    }

    fn note(&mut self, reason: Reason, sn: &str, key: Option<&str>, detail: Option<String>) {
        self.counts[reason.index()] += 1;
        if self.examples.len() < MAX_EXAMPLES {
            self.examples.push(Example {
                reason,
                sn: cut(sn),
                key: key.map(cut),
                detail,
            });
        }
    }

    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&n| n == 0)
    }

    pub fn count(&self, reason: Reason) -> u64 {
        self.counts[reason.index()]
    }

    /// Values (or devices, with `"device"`) left out for any reason.
    pub fn total(&self, what: &str) -> u64 {
        Reason::ALL
            .iter()
            .filter(|r| r.what() == what)
            .map(|r| self.count(*r))
            .sum()
    }

    pub fn examples(&self) -> &[Example] {
        &self.examples
    }

    /// Adds these counts to `ingest_skipped_total{what,reason}`.
    pub fn count_in_metrics(&self) {
        for reason in Reason::ALL {
            let n = self.count(reason);
            if n > 0 {
                metrics::counter!("ingest_skipped_total", "what" => reason.what(), "reason" => reason.label())
                    .increment(n);
            }
        }
    }
}

/// `2 values (text_too_long 1, bad_key 1), 1 device (another_gateways 1); INV2 serial:
/// text_too_long, ...`
impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for what in ["value", "device"] {
            let total = self.total(what);
            if total == 0 {
                continue;
            }
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            let plural = if total == 1 { "" } else { "s" };
            write!(f, "{total} {what}{plural} (")?;
            let mut reasons = Reason::ALL
                .iter()
                .filter(|r| r.what() == what && self.count(**r) > 0);
            if let Some(r) = reasons.next() {
                write!(f, "{} {}", r.label(), self.count(*r))?;
            }
            for r in reasons {
                write!(f, ", {} {}", r.label(), self.count(*r))?;
            }
            f.write_str(")")?;
        }
        for (i, e) in self.examples.iter().enumerate() {
            f.write_str(if i == 0 { "; " } else { ", " })?;
            match &e.key {
                Some(key) => write!(f, "{:?} {:?}: {}", e.sn, key, e.reason.label())?,
                None => write!(f, "{:?}: {}", e.sn, e.reason.label())?,
            }
            if let Some(detail) = &e.detail {
                write!(f, " ({detail})")?;
            }
        }
        Ok(())
    }
}

/// Everything ingest left out since it started, per reason (the same figures as the
/// `ingest_skipped_total` metric), for tests and diagnostics.
#[derive(Debug, Default)]
pub struct SkipCounts([AtomicU64; Reason::ALL.len()]);

impl SkipCounts {
    pub fn get(&self, reason: Reason) -> u64 {
        self.0[reason.index()].load(Ordering::Relaxed)
    }

    fn add(&self, skipped: &Skipped) {
        for (total, n) in self.0.iter().zip(skipped.counts) {
            total.fetch_add(n, Ordering::Relaxed);
        }
    }
}

/// Counts what messages lost and logs it, at most one line per gateway per
/// [`SkipLog::EVERY`] (with the number of messages not logged since), so a gateway cannot
/// flood the log; the counts cover every message.
#[derive(Debug, Default)]
pub struct SkipLog {
    counts: Arc<SkipCounts>,
    last: HashMap<String, (Instant, u64)>,
}

impl SkipLog {
    pub const EVERY: Duration = Duration::from_secs(60);

    pub fn new(counts: Arc<SkipCounts>) -> SkipLog {
        SkipLog {
            counts,
            last: HashMap::new(),
        }
    }

    /// Counts `skipped` and logs it unless `gateway` was logged lately; answers whether it
    /// logged.
    pub fn report(&mut self, gateway: &str, skipped: &Skipped) -> bool {
        skipped.count_in_metrics();
        self.counts.add(skipped);
        let not_logged = match self.last.get_mut(gateway) {
            Some((at, quiet)) if at.elapsed() < Self::EVERY => {
                *quiet += 1;
                return false;
            }
            Some((_, quiet)) => std::mem::take(quiet),
            None => 0,
        };
        tracing::warn!(
            gateway,
            not_logged,
            "telemetry stored without what breaks the rules: {skipped}"
        );
        self.last.insert(gateway.to_string(), (Instant::now(), 0));
        true
    }
}

fn cut(s: &str) -> String {
    s.chars().take(EXAMPLE_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_skip_and_keeps_the_first_examples() {
        let mut s = Skipped::default();
        assert!(s.is_empty());
        for i in 0..20 {
            s.value("INV1", &format!("k{i}"), Reason::TextTooLong);
        }
        s.device("INV2", Reason::AnotherGateways);
        assert_eq!(s.count(Reason::TextTooLong), 20);
        assert_eq!((s.total("value"), s.total("device")), (20, 1));
        assert_eq!(s.examples().len(), MAX_EXAMPLES);
        assert_eq!(s.examples()[0].key.as_deref(), Some("k0"));
    }

    #[test]
    fn a_summary_names_counts_per_reason_and_examples_with_long_names_cut() {
        let mut s = Skipped::default();
        s.value("INV1", &"k".repeat(100), Reason::BadKey);
        s.value("INV1", "serial", Reason::TextTooLong);
        s.device("INV\n2", Reason::AnotherGateways);
        let text = s.to_string();
        assert!(
            text.starts_with(
                "2 values (bad_key 1, text_too_long 1), 1 device (another_gateways 1); "
            ),
            "{text}"
        );
        assert!(text.contains(&format!("\"INV1\" \"{}\": bad_key", "k".repeat(64))));
        assert!(text.ends_with("\"INV\\n2\": another_gateways"), "{text}");
    }

    #[test]
    fn a_gateway_is_logged_once_a_minute_and_others_are_not_held_back() {
        let counts = Arc::new(SkipCounts::default());
        let mut log = SkipLog::new(counts.clone());
        let mut s = Skipped::default();
        s.device("INV1", Reason::AnotherGateways);
        assert!(log.report("GW1", &s));
        assert!(!log.report("GW1", &s));
        assert!(!log.report("GW1", &s));
        assert!(log.report("GW2", &s));
        assert_eq!(log.last.get("GW1").map(|(_, quiet)| *quiet), Some(2));
        assert_eq!(
            counts.get(Reason::AnotherGateways),
            4,
            "every message counts"
        );
    }

    #[test]
    fn every_reason_is_a_value_or_a_device_and_has_its_own_label() {
        let labels: std::collections::HashSet<&str> =
            Reason::ALL.iter().map(|r| r.label()).collect();
        assert_eq!(labels.len(), Reason::ALL.len());
        for (i, r) in Reason::ALL.iter().enumerate() {
            assert_eq!(r.index(), i);
            assert!(["value", "device"].contains(&r.what()));
        }
    }
}
