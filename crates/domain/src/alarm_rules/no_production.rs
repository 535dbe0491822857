//! `no_production`: a plant with PV gives (almost) nothing for a stretch while the sun stands
//! high enough over it to give something: at least the rule's elevation, or, when the plant's
//! weather station measures at least [`IRRADIANCE_W_M2`], at least
//! [`sun::DAYLIGHT_ELEVATION_DEG`] (a low winter sun on a clear day). Never at night: with the
//! sun low the verdict is unknown (an open case waits for the morning), and a plant without a
//! location is never judged. Production back (the newest report at or above the threshold)
//! clears it.

use super::{Severity, Verdict};
use crate::sun;

/// A station measuring at least this (W/m²) says the panels should give something.
pub const IRRADIANCE_W_M2: f64 = 200.0;

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
    /// The plant's weather station's newest irradiance, W/m², when it has a fresh one.
    pub irradiance: Option<f64>,
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
    let bright = i.irradiance.is_some_and(|w| w >= IRRADIANCE_W_M2);
    let floor = if bright {
        min_elevation_deg.min(sun::DAYLIGHT_ELEVATION_DEG)
    } else {
        min_elevation_deg
    };
    let high = |t| sun::elevation_deg(i.lat, i.lon, t) >= floor;
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
            irradiance: None,
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

    #[test]
    fn a_bright_station_lets_a_low_sun_count() {
        // The first hour-long stretch of the morning with the sun above 5 degrees at its start
        // and below 15 at its end.
        let now = (0..300)
            .map(|k| MIDNIGHT + k * 5 * MIN)
            .find(|t| {
                sun::elevation_deg(40.4, -3.7, t - 60 * MIN) >= sun::DAYLIGHT_ELEVATION_DEG
                    && sun::elevation_deg(40.4, -3.7, *t) < 15.0
            })
            .expect("a low-sun hour");
        let s = reports(now, 0.0);
        assert_eq!(
            evaluate(&input(now, &s), 10.0, 15.0, Severity::Alarm),
            Verdict::Unknown
        );
        let bright = Input {
            irradiance: Some(450.0),
            ..input(now, &s)
        };
        assert!(matches!(
            evaluate(&bright, 10.0, 15.0, Severity::Alarm),
            Verdict::Firing { .. }
        ));
        let dark = reports(MIDNIGHT, 0.0);
        let night = Input {
            irradiance: Some(450.0),
            ..input(MIDNIGHT, &dark)
        };
        assert_eq!(
            evaluate(&night, 10.0, 15.0, Severity::Alarm),
            Verdict::Unknown
        );
    }
}
