//! The plant day curves' 5-minute means per device, kept between requests. A day curve sums
//! the means of the plant's devices per bucket; computing them means reading and parsing every
//! sample of the day (thousands of JSON objects for a ten-inverter plant), which made the day
//! curve the slowest read of the portal. Here each device-day's means are kept, and a request
//! reads only the samples that arrived since the last one (usually none):
//!
//! - an open day (today) is brought up to date at most every [`OPEN_DAY_FRESH`];
//! - a closed day is read again in full every [`CLOSED_DAY_FRESH`], which picks up late
//!   reports merged since.
//!
//! Every replica keeps its own; nothing here is shared or needs to be.

use domain::ids::DeviceId;
use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use store::telemetry::SampleRow;

use crate::readings::Reading;

/// How stale an open day's means may be.
const OPEN_DAY_FRESH: Duration = Duration::from_secs(2);
/// How long a closed day's means are trusted before they are read again in full.
const CLOSED_DAY_FRESH: Duration = Duration::from_secs(600);
/// Most device-days kept (each at most about 30 kB).
const CAPACITY: usize = 2048;

/// The values a plant day curve reads from a device's samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Curve {
    Pv,
    Load,
    Grid,
    Battery,
    Soc,
    Generator,
}

pub const CURVES: usize = 6;

/// Takes a device's values for each curve from one sample (`None`: the curve reads nothing
/// from this device).
pub type Extract = fn(&Reading) -> [Option<f64>; CURVES];

/// A sum and a count: one device's values of one curve within one bucket.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Acc {
    sum: f64,
    n: u32,
}

/// One device's day: per bucket and curve, its values so far.
#[derive(Debug, Clone)]
struct DeviceDay {
    buckets: Vec<[Acc; CURVES]>,
    /// Samples from here on have not been read (a minute boundary: the day read is thinned
    /// to the first sample of each minute).
    next_from: i64,
    checked: Instant,
    used: Instant,
}

/// A device-day's place in the cache: the device and the start of its day. What a device's
/// samples give each curve depends on the device alone, so the key needs nothing more.
type Key = (DeviceId, i64);

#[derive(Default)]
pub struct DayCache {
    days: Mutex<HashMap<Key, DeviceDay>>,
}

impl std::fmt::Debug for DayCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let held = self.days.lock().map_or(0, |d| d.len());
        write!(f, "DayCache({held} device-days)")
    }
}

/// A device's means per bucket (the index) and curve (`None`: no value in the bucket).
pub type Means = Vec<[Option<f64>; CURVES]>;

impl DayCache {
    /// What to read for a device's day `[from, to)` now: `None` when the kept means are fresh
    /// enough, else the time to read from (`from` for a full read).
    fn due(&self, key: Key, open: bool, now: Instant) -> Option<i64> {
        let days = self.days.lock().ok()?;
        let Some(d) = days.get(&key) else {
            return Some(key.1);
        };
        let age = now.duration_since(d.checked);
        match open {
            true if age < OPEN_DAY_FRESH => None,
            true => Some(d.next_from),
            false if age < CLOSED_DAY_FRESH => None,
            false => Some(key.1),
        }
    }

    /// Adds the samples read from `read_from` on to a device's day, or replaces it when that
    /// was a full read; answers the means.
    #[allow(clippy::too_many_arguments)]
    fn update(
        &self,
        key: Key,
        buckets: usize,
        bucket_ms: i64,
        minute_ms: i64,
        read_from: i64,
        samples: &[SampleRow],
        extract: Extract,
        now: Instant,
    ) -> Means {
        let Ok(mut days) = self.days.lock() else {
            return Vec::new();
        };
        let from = key.1;
        let full = read_from == from;
        let day = days.entry(key).or_insert_with(|| DeviceDay {
            buckets: vec![[Acc::default(); CURVES]; buckets],
            next_from: from,
            checked: now,
            used: now,
        });
        if full {
            day.buckets = vec![[Acc::default(); CURVES]; buckets];
            day.next_from = from;
        }
        for s in samples {
            if s.ts < day.next_from {
                continue;
            }
            let Ok(b) = usize::try_from((s.ts - from) / bucket_ms) else {
                continue;
            };
            let Some(slot) = day.buckets.get_mut(b) else {
                continue;
            };
            let values = extract(&Reading::from_sample(s.ts, &s.payload));
            for (acc, v) in slot.iter_mut().zip(values) {
                if let Some(v) = v {
                    acc.sum += v;
                    acc.n += 1;
                }
            }
        }
        if let Some(last) = samples.last().filter(|s| s.ts >= day.next_from) {
            day.next_from = from + ((last.ts - from) / minute_ms + 1) * minute_ms;
        }
        day.checked = now;
        day.used = now;
        let means = means(&day.buckets);
        if days.len() > CAPACITY {
            evict(&mut days);
        }
        means
    }

    /// The kept means of a device's day, marking it used.
    fn kept(&self, key: Key, now: Instant) -> Option<Means> {
        let mut days = self.days.lock().ok()?;
        let day = days.get_mut(&key)?;
        day.used = now;
        Some(means(&day.buckets))
    }

    /// A device's means per 5-minute bucket of its day `[from, to)`, read through `read` (the
    /// day's samples from a time on, thinned to a minute) only as far as needed.
    #[allow(clippy::too_many_arguments)]
    pub async fn means<F, Fut>(
        &self,
        device: DeviceId,
        from: i64,
        to: i64,
        open: bool,
        bucket_ms: i64,
        minute_ms: i64,
        extract: Extract,
        read: F,
    ) -> store::Result<Means>
    where
        F: FnOnce(i64) -> Fut,
        Fut: std::future::Future<Output = store::Result<Vec<SampleRow>>>,
    {
        let key = (device, from);
        let now = Instant::now();
        if let Some(read_from) = self.due(key, open, now) {
            let samples = read(read_from).await?;
            let buckets = usize::try_from((to - from) / bucket_ms + 1).unwrap_or(0);
            return Ok(self.update(
                key, buckets, bucket_ms, minute_ms, read_from, &samples, extract, now,
            ));
        }
        Ok(self.kept(key, now).unwrap_or_default())
    }
}

fn means(buckets: &[[Acc; CURVES]]) -> Means {
    buckets
        .iter()
        .map(|b| b.map(|a| (a.n > 0).then(|| a.sum / f64::from(a.n))))
        .collect()
}

/// Drops the least recently used quarter.
fn evict(days: &mut HashMap<Key, DeviceDay>) {
    let mut used: Vec<(Instant, Key)> = days.iter().map(|(k, d)| (d.used, *k)).collect();
    used.sort_unstable_by_key(|(t, _)| *t);
    for (_, key) in used.into_iter().take(days.len() / 4) {
        days.remove(&key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pv(r: &Reading) -> [Option<f64>; CURVES] {
        [r.num("pv"), None, None, None, None, None]
    }

    fn sample(ts: i64, pv: f64) -> SampleRow {
        SampleRow {
            device_id: DeviceId(1),
            ts,
            payload: format!("{{\"pv\":{pv}}}"),
        }
    }

    #[test]
    fn later_samples_add_to_the_means_and_earlier_ones_are_not_counted_twice() {
        let cache = DayCache::default();
        let now = Instant::now();
        let key = (DeviceId(1), 0);
        let means = cache.update(
            key,
            3,
            300,
            60,
            0,
            &[sample(0, 2.0), sample(60, 4.0)],
            pv,
            now,
        );
        assert_eq!(means[0][0], Some(3.0));
        assert_eq!(cache.due(key, true, now), None);
        let later = now + OPEN_DAY_FRESH;
        // Read from the next minute on: the sample at 60 is not read again.
        assert_eq!(cache.due(key, true, later), Some(120));
        let means = cache.update(
            key,
            3,
            300,
            60,
            120,
            &[sample(120, 6.0), sample(300, 1.0)],
            pv,
            later,
        );
        assert_eq!(
            (means[0][0], means[1][0], means[2][0]),
            (Some(4.0), Some(1.0), None)
        );
        // A closed day is read again in full after a while, and replaced.
        assert_eq!(cache.due(key, false, later), None);
        let much_later = later + CLOSED_DAY_FRESH;
        assert_eq!(cache.due(key, false, much_later), Some(0));
        let means = cache.update(key, 3, 300, 60, 0, &[sample(0, 8.0)], pv, much_later);
        assert_eq!((means[0][0], means[1][0]), (Some(8.0), None));
    }

    #[test]
    fn the_least_recently_used_days_go_first() {
        let cache = DayCache::default();
        let start = Instant::now();
        for d in 0..=CAPACITY as i64 {
            let at = start + Duration::from_millis(d as u64);
            cache.update((DeviceId(d), 0), 1, 300, 60, 0, &[sample(0, 1.0)], pv, at);
        }
        let days = cache.days.lock().map(|d| d.len()).unwrap_or(0);
        assert!(days <= CAPACITY);
        assert!(cache.kept((DeviceId(0), 0), Instant::now()).is_none());
        assert!(
            cache
                .kept((DeviceId(CAPACITY as i64), 0), Instant::now())
                .is_some()
        );
    }
}
