//! `no_production`: a plant with PV gives (almost) nothing for a stretch while the sun stands
//! high enough over it to give something. Never at night: with the sun low the verdict is
//! unknown (an open case waits for the morning), and a plant without a location is never
//! judged. Production back (the newest report at or above the threshold) clears it.

use super::{Severity, Verdict};
use crate::sun;

/// One plant's PV over the stretch `[from, now]`.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    pub lat: f64,
    pub lon: f64,
    pub from: i64,
    pub now: i64,
    /// (time, the plant's PV power summed over its inverters at that report, W), oldest first.
    pub samples: &'a [(i64, f64)],
    /// A report older than this (ms) is not news: the plant's data is stale.
    pub stale_after_ms: i64,
}

pub fn evaluate(
    i: &Input<'_>,
    threshold_w: f64,
    min_elevation_deg: f64,
    severity: Severity,
) -> Verdict {
    let Some(&(newest_at, newest_w)) = i.samples.last() else {
        return Verdict::Unknown;
    };
    if newest_w >= threshold_w {
        return Verdict::Clear;
    }
    if !sun::has_location(i.lat, i.lon) {
        return Verdict::Unknown;
    }
    // Over a stretch of up to half a day the sun is lowest at one of its ends.
    let high = |t| sun::elevation_deg(i.lat, i.lon, t) >= min_elevation_deg;
    if !high(i.from) || !high(i.now) {
        return Verdict::Unknown;
    }
    let covered =
        i.samples[0].0 <= i.from + i.stale_after_ms && newest_at >= i.now - i.stale_after_ms;
    if !covered {
        return Verdict::Unknown;
    }
    let best = i
        .samples
        .iter()
        .filter(|(t, _)| *t >= i.from)
        .map(|(_, w)| *w)
        .fold(0.0_f64, f64::max);
    if best < threshold_w {
        Verdict::Firing {
            severity,
            value: best,
        }
    } else {
        Verdict::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-06-21T12:00:00Z, Madrid (40.4 N, 3.7 W): the sun some 72 degrees up.
    const NOON: i64 = 1_782_043_200_000;
    /// 2026-06-21T00:00:00Z: night in Madrid.
    const MIDNIGHT: i64 = 1_782_000_000_000;
    const MIN: i64 = 60_000;

    fn reports(now: i64, w: f64) -> Vec<(i64, f64)> {
        (0..=12)
            .map(|k| (now - 60 * MIN + k * 5 * MIN, w))
            .collect()
    }

    fn input(now: i64, samples: &[(i64, f64)]) -> Input<'_> {
        Input {
            lat: 40.4,
            lon: -3.7,
            from: now - 60 * MIN,
            now,
            samples,
            stale_after_ms: 12 * MIN,
        }
    }

    #[test]
    fn nothing_for_an_hour_at_noon_fires() {
        let s = reports(NOON, 0.0);
        assert_eq!(
            evaluate(&input(NOON, &s), 10.0, 15.0, Severity::Alarm),
            Verdict::Firing {
                severity: Severity::Alarm,
                value: 0.0
            }
        );
    }

    #[test]
    fn the_night_never_fires() {
        let s = reports(MIDNIGHT, 0.0);
        assert_eq!(
            evaluate(&input(MIDNIGHT, &s), 10.0, 15.0, Severity::Alarm),
            Verdict::Unknown
        );
    }

    #[test]
    fn production_back_clears_and_a_short_stretch_does_not_fire() {
        let mut s = reports(NOON, 0.0);
        s.push((NOON, 2500.0));
        assert_eq!(
            evaluate(&input(NOON, &s), 10.0, 15.0, Severity::Alarm),
            Verdict::Clear
        );
        let short: Vec<(i64, f64)> = (0..3).map(|k| (NOON - k * MIN, 0.0)).rev().collect();
        assert_eq!(
            evaluate(&input(NOON, &short), 10.0, 15.0, Severity::Alarm),
            Verdict::Unknown
        );
        let nowhere = Input {
            lat: 0.0,
            lon: 0.0,
            ..input(NOON, &short)
        };
        assert_eq!(
            evaluate(&nowhere, 10.0, 15.0, Severity::Alarm),
            Verdict::Unknown
        );
    }
}
