//! Where the sun stands over a place at a moment, and whether it is day there: the fleet
//! dashboard's "no data in daylight" asks this of every plant (docs/overview.md, "Fleet
//! dashboard"). A gateway powered from its inverter may sleep at night, so a silent plant only
//! needs someone when the sun has been up over it the whole time it has been silent.
//!
//! The equations are those of NOAA's solar calculator (after Meeus, *Astronomical
//! Algorithms*): the sun's apparent longitude and the equation of time from the Julian century,
//! good to about 0.01° for the years 1800 to 2100, far finer than any use here. They need no
//! calendar: a Unix time in milliseconds is all.

/// The sun counts as up once it is this high (degrees, refraction included): at the horizon
/// panels give nothing, and an inverter (with a gateway it powers) wakes a little later.
pub const DAYLIGHT_ELEVATION_DEG: f64 = 5.0;

/// For a plant without a location: the local hours (from 07:00, before 19:00) that count as day.
pub const CLOCK_DAY_HOURS: (u32, u32) = (7, 19);

const MS_PER_DAY: f64 = 86_400_000.0;
/// Julian day of the Unix epoch, 1970-01-01T00:00Z.
const JD_UNIX_EPOCH: f64 = 2_440_587.5;
/// Julian day of J2000.0, 2000-01-01T12:00 TT.
const JD_J2000: f64 = 2_451_545.0;

/// The sun's elevation above the horizon in degrees (negative below it) at latitude `lat_deg`
/// (north positive) and longitude `lon_deg` (east positive) at `at_ms` (Unix ms, UTC), as
/// NOAA's calculator gives it: corrected for atmospheric refraction.
pub fn elevation_deg(lat_deg: f64, lon_deg: f64, at_ms: i64) -> f64 {
    let geometric = geometric_elevation_deg(lat_deg, lon_deg, at_ms);
    geometric + refraction_deg(geometric)
}

/// Where the sun is at a moment, seen from the Earth's centre: what every position on Earth
/// derives its sun from (elevation here, sunrise and sunset on the weather card).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolarPosition {
    /// The sun's declination, radians.
    pub declination: f64,
    /// The equation of time, minutes: how far the true sun runs ahead of the mean sun.
    pub equation_of_time: f64,
}

/// The sun's declination and the equation of time at `at_ms` (Unix ms, UTC).
pub fn position(at_ms: i64) -> SolarPosition {
    let jd = at_ms as f64 / MS_PER_DAY + JD_UNIX_EPOCH;
    let t = (jd - JD_J2000) / 36_525.0;

    // Geometric mean longitude and anomaly of the sun, eccentricity of Earth's orbit.
    let l0 = (280.46646 + t * (36_000.769_83 + t * 0.000_303_2)).rem_euclid(360.0);
    let m = 357.52911 + t * (35_999.050_29 - 0.000_153_7 * t);
    let e = 0.016_708_634 - t * (0.000_042_037 + 0.000_000_126_7 * t);
    let (mr, l0r) = (m.to_radians(), l0.to_radians());
    let centre = mr.sin() * (1.914_602 - t * (0.004_817 + 0.000_014 * t))
        + (2.0 * mr).sin() * (0.019_993 - 0.000_101 * t)
        + (3.0 * mr).sin() * 0.000_289;
    let omega = (125.04 - 1_934.136 * t).to_radians();
    let apparent_long = (l0 + centre - 0.005_69 - 0.004_78 * omega.sin()).to_radians();

    // Obliquity of the ecliptic, corrected; the sun's declination.
    let seconds = 21.448 - t * (46.815 + t * (0.000_59 - t * 0.001_813));
    let obliquity = (23.0 + (26.0 + seconds / 60.0) / 60.0 + 0.002_56 * omega.cos()).to_radians();
    let declination = (obliquity.sin() * apparent_long.sin()).asin();

    let y = (obliquity / 2.0).tan().powi(2);
    let equation_of_time = 4.0
        * (y * (2.0 * l0r).sin() - 2.0 * e * mr.sin() + 4.0 * e * y * mr.sin() * (2.0 * l0r).cos()
            - 0.5 * y * y * (4.0 * l0r).sin()
            - 1.25 * e * e * (2.0 * mr).sin())
        .to_degrees();
    SolarPosition {
        declination,
        equation_of_time,
    }
}

/// The sun's hour angle at longitude `lon_deg` at `at_ms` (radians, negative before solar
/// noon), from the true solar time at the place (minutes after its solar midnight).
fn hour_angle(sun: &SolarPosition, lon_deg: f64, at_ms: i64) -> f64 {
    let utc_minutes = at_ms.rem_euclid(86_400_000) as f64 / 60_000.0;
    let solar_minutes = (utc_minutes + sun.equation_of_time + 4.0 * lon_deg).rem_euclid(1_440.0);
    (solar_minutes / 4.0 - 180.0).to_radians()
}

/// The elevation of the sun's centre without refraction (degrees).
pub fn geometric_elevation_deg(lat_deg: f64, lon_deg: f64, at_ms: i64) -> f64 {
    let sun = position(at_ms);
    let hour_angle = hour_angle(&sun, lon_deg, at_ms);
    let lat = lat_deg.to_radians();
    let cos_zenith = (lat.sin() * sun.declination.sin()
        + lat.cos() * sun.declination.cos() * hour_angle.cos())
    .clamp(-1.0, 1.0);
    90.0 - cos_zenith.acos().to_degrees()
}

/// How much the atmosphere lifts the sun's image at geometric elevation `h` (degrees), NOAA's
/// approximation.
fn refraction_deg(h: f64) -> f64 {
    if h > 85.0 {
        return 0.0;
    }
    let tan = h.to_radians().tan();
    let arcsec = if h > 5.0 {
        58.1 / tan - 0.07 / tan.powi(3) + 0.000_086 / tan.powi(5)
    } else if h > -0.575 {
        1_735.0 + h * (-518.2 + h * (103.4 + h * (-12.79 + h * 0.711)))
    } else {
        -20.772 / tan
    };
    arcsec / 3_600.0
}

/// Whether a plant at (`lat_deg`, `lon_deg`) has a location the sun can be computed for: in
/// range, and not (0, 0), which is what a plant saved without a position holds.
pub fn has_location(lat_deg: f64, lon_deg: f64) -> bool {
    lat_deg.is_finite()
        && lon_deg.is_finite()
        && (-90.0..=90.0).contains(&lat_deg)
        && (-180.0..=180.0).contains(&lon_deg)
        && !(lat_deg == 0.0 && lon_deg == 0.0)
}

/// Whether the sun stood at least [`DAYLIGHT_ELEVATION_DEG`] high over the place for the whole
/// of `[from_ms, to_ms]`. Over a stretch of up to half a day the sun's height rises, falls, or
/// rises then falls, so it is lowest at one of the two ends: looking at both is enough.
pub fn sun_up_throughout(lat_deg: f64, lon_deg: f64, from_ms: i64, to_ms: i64) -> bool {
    elevation_deg(lat_deg, lon_deg, from_ms) >= DAYLIGHT_ELEVATION_DEG
        && elevation_deg(lat_deg, lon_deg, to_ms) >= DAYLIGHT_ELEVATION_DEG
}

/// Whether a stretch of local time lies within the clock's day ([`CLOCK_DAY_HOURS`]):
/// `from` and `to` are (local date as days since any epoch, minute of the local day).
pub fn clock_day_throughout(from: (i64, u32), to: (i64, u32)) -> bool {
    let (start, end) = (CLOCK_DAY_HOURS.0 * 60, CLOCK_DAY_HOURS.1 * 60);
    let day = |m: u32| (start..end).contains(&m);
    from.0 == to.0 && day(from.1) && day(to.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Figures of NOAA's solar calculator equations for these places and times (UTC), geometric
    /// and with refraction, as computed by the `astral` package's implementation of them.
    const NOAA: [(&str, f64, f64, i64, f64, f64); 7] = [
        // Boulder, Colorado, June solstice, 12:00 MDT.
        (
            "boulder",
            40.0150,
            -105.2705,
            1_718_992_800_000,
            68.7477,
            68.7540,
        ),
        // Greenwich, March equinox, 12:00 UTC.
        (
            "greenwich",
            51.4779,
            -0.0015,
            1_710_936_000_000,
            38.6460,
            38.6661,
        ),
        // Sydney, December solstice, 13:00 AEDT.
        (
            "sydney",
            -33.8688,
            151.2093,
            1_734_746_400_000,
            79.4663,
            79.4693,
        ),
        // Madrid on a January morning, 09:30 CET: the sun just risen.
        (
            "madrid",
            40.4168,
            -3.7038,
            1_736_929_800_000,
            7.9146,
            8.0239,
        ),
        // The equator at Greenwich's meridian, September equinox, noon.
        ("equator", 0.0, 0.0, 1_727_006_400_000, 88.1418, 88.1418),
        // Tromsø at noon in the polar night: below the horizon.
        (
            "tromso",
            69.6492,
            18.9553,
            1_734_778_800_000,
            -3.1413,
            -3.0361,
        ),
        // Tokyo, 08:00 JST in July.
        (
            "tokyo",
            35.6762,
            139.6503,
            1_719_874_800_000,
            39.9497,
            39.9689,
        ),
    ];

    #[test]
    fn the_elevation_matches_noaa_figures_to_a_hundredth_of_a_degree() {
        for (place, lat, lon, at, geometric, apparent) in NOAA {
            let g = geometric_elevation_deg(lat, lon, at);
            let a = elevation_deg(lat, lon, at);
            assert!(
                (g - geometric).abs() < 0.01,
                "{place}: geometric {g} vs {geometric}"
            );
            assert!(
                (a - apparent).abs() < 0.01,
                "{place}: apparent {a} vs {apparent}"
            );
        }
    }

    #[test]
    fn the_sun_is_below_the_horizon_at_midnight_and_highest_near_solar_noon() {
        // Madrid, 2024-06-21: 00:00 and 11:00 / 12:00 / 13:00 / 16:00 UTC.
        let day = 1_718_928_000_000;
        let at = |h: i64| elevation_deg(40.4168, -3.7038, day + h * 3_600_000);
        assert!(at(0) < -20.0);
        // Solar noon in Madrid falls near 12:15 UTC in June.
        assert!(at(12) > at(11) && at(12) > at(16));
        // Midsummer noon: 90 - 40.4 + 23.4, about 73 degrees.
        assert!((at(12) - 73.0).abs() < 1.0, "{}", at(12));
    }

    #[test]
    fn refraction_lifts_the_sun_most_at_the_horizon() {
        assert!((refraction_deg(0.0) - 1735.0 / 3600.0).abs() < 1e-9);
        assert!(refraction_deg(10.0) < refraction_deg(1.0));
        assert_eq!(refraction_deg(89.0), 0.0);
    }

    #[test]
    fn a_plant_at_zero_zero_or_out_of_range_has_no_location() {
        assert!(has_location(40.4, -3.7));
        assert!(has_location(0.0, 12.0));
        assert!(!has_location(0.0, 0.0));
        assert!(!has_location(91.0, 0.0));
        assert!(!has_location(10.0, f64::NAN));
    }

    #[test]
    fn the_sun_is_up_throughout_only_when_both_ends_are_in_daylight() {
        // Madrid, 2024-06-21 UTC: sunrise about 04:45, sunset about 19:50.
        let day = 1_718_928_000_000;
        let h = |x: f64| day + (x * 3_600_000.0) as i64;
        assert!(sun_up_throughout(40.4168, -3.7038, h(9.0), h(10.0)));
        assert!(
            !sun_up_throughout(40.4168, -3.7038, h(3.0), h(10.0)),
            "from before dawn"
        );
        assert!(
            !sun_up_throughout(40.4168, -3.7038, h(18.0), h(21.0)),
            "past dusk"
        );
        // Tromsø in the polar night is never in daylight.
        let dec = 1_734_739_200_000;
        assert!(!sun_up_throughout(
            69.6492,
            18.9553,
            dec + 36_000_000,
            dec + 39_600_000
        ));
    }

    #[test]
    fn the_clock_day_runs_from_seven_to_seven_on_one_local_day() {
        assert!(clock_day_throughout((100, 7 * 60), (100, 18 * 60 + 59)));
        assert!(!clock_day_throughout((100, 6 * 60 + 59), (100, 9 * 60)));
        assert!(!clock_day_throughout((100, 18 * 60), (100, 19 * 60)));
        assert!(
            !clock_day_throughout((99, 18 * 60), (100, 8 * 60)),
            "across a night"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The sun's azimuth and the daylight within a stretch of time, for the plant figures
// (`crate::kpi`'s availability, `crate::clear_sky`'s modelled irradiance), from the same
// NOAA terms as the elevation above.
// ---------------------------------------------------------------------------------------------

/// The sun's azimuth in degrees clockwise from north (90 east, 180 south, 270 west) at
/// latitude `lat_deg` and longitude `lon_deg` at `at_ms`, from NOAA's declination and hour
/// angle: `180 + atan2(sin H, cos H sin φ - tan δ cos φ)`, the form that stays defined with
/// the sun overhead.
pub fn azimuth_deg(lat_deg: f64, lon_deg: f64, at_ms: i64) -> f64 {
    let sun = position(at_ms);
    let hour_angle = hour_angle(&sun, lon_deg, at_ms);
    let lat = lat_deg.to_radians();
    let x = hour_angle.cos() * lat.sin() - sun.declination.tan() * lat.cos();
    (180.0 + hour_angle.sin().atan2(x).to_degrees()).rem_euclid(360.0)
}

/// Longest step [`daylight_ms`] looks at the sun with: five minutes.
pub const DAYLIGHT_STEP_MS: i64 = 300_000;

/// How much of `[from_ms, to_ms)` the sun stood at least [`DAYLIGHT_ELEVATION_DEG`] high over
/// the place (ms): the stretch cut into equal steps of at most [`DAYLIGHT_STEP_MS`], each
/// counted whole when the sun is that high at its middle. 0 for an empty stretch. Ingest counts
/// a report interval's daylight with it, and the figures the daylight of a period, so both
/// sides of the availability measure time the same way.
pub fn daylight_ms(lat_deg: f64, lon_deg: f64, from_ms: i64, to_ms: i64) -> i64 {
    if to_ms <= from_ms {
        return 0;
    }
    let span = to_ms - from_ms;
    let steps = (span + DAYLIGHT_STEP_MS - 1) / DAYLIGHT_STEP_MS;
    let mut lit = 0i64;
    let mut start = from_ms;
    for k in 1..=steps {
        // Integer step ends: the steps add up to the span exactly.
        let end = from_ms + span * k / steps;
        let middle = start + (end - start) / 2;
        if elevation_deg(lat_deg, lon_deg, middle) >= DAYLIGHT_ELEVATION_DEG {
            lit += end - start;
        }
        start = end;
    }
    lit
}

#[cfg(test)]
mod azimuth_tests {
    use super::*;

    /// The sun's azimuth for the places and times of the elevation tests above, as the
    /// `astral` package (3.2, NOAA's equations) computes it: `astral.sun.azimuth(observer,
    /// time)`.
    const ASTRAL: [(&str, f64, f64, i64, f64); 7] = [
        ("boulder", 40.0150, -105.2705, 1_718_992_800_000, 136.5496),
        ("greenwich", 51.4779, -0.0015, 1_710_936_000_000, 177.6641),
        ("sydney", -33.8688, 151.2093, 1_734_746_400_000, 351.5368),
        ("madrid", 40.4168, -3.7038, 1_736_929_800_000, 126.4913),
        ("equator", 0.0, 0.0, 1_727_006_400_000, 270.3106),
        ("tromso", 69.6492, 18.9553, 1_734_778_800_000, 184.0240),
        ("tokyo", 35.6762, 139.6503, 1_719_874_800_000, 88.4796),
    ];

    #[test]
    fn the_azimuth_matches_the_noaa_figures_of_astral_to_a_tenth_of_a_degree() {
        for (place, lat, lon, at, expected) in ASTRAL {
            let a = azimuth_deg(lat, lon, at);
            let diff = (a - expected + 540.0).rem_euclid(360.0) - 180.0;
            assert!(diff.abs() < 0.1, "{place}: {a} vs {expected}");
        }
    }

    #[test]
    fn the_sun_rises_in_the_east_and_sets_in_the_west() {
        // Madrid, 2024-06-21 UTC: morning, solar noon (about 12:15 UTC) and evening.
        let day = 1_718_928_000_000;
        let at = |h: f64| azimuth_deg(40.4168, -3.7038, day + (h * 3_600_000.0) as i64);
        assert!((50.0..110.0).contains(&at(6.0)), "{}", at(6.0));
        assert!((at(12.25) - 180.0).abs() < 5.0, "{}", at(12.25));
        assert!((250.0..310.0).contains(&at(18.5)), "{}", at(18.5));
        // In Sydney the midday sun stands in the north.
        let sydney_noon = 1_718_928_000_000 + 2 * 3_600_000;
        let a = azimuth_deg(-33.87, 151.21, sydney_noon);
        assert!(!(90.0..270.0).contains(&a), "{a}");
    }

    #[test]
    fn daylight_is_the_time_the_sun_stands_high_enough() {
        // Madrid, 2024-06-21: the sun is 5 degrees up from about 05:15 to 19:20 UTC.
        let day = 1_718_928_000_000;
        let lit = daylight_ms(40.4168, -3.7038, day, day + 86_400_000) as f64 / 3_600_000.0;
        assert!((13.5..14.5).contains(&lit), "{lit} h");
        // A stretch at noon is all daylight, one at midnight none, an empty one nothing.
        let noon = day + 12 * 3_600_000;
        assert_eq!(daylight_ms(40.4, -3.7, noon, noon + 3_600_000), 3_600_000);
        assert_eq!(daylight_ms(40.4, -3.7, day, day + 3_600_000), 0);
        assert_eq!(daylight_ms(40.4, -3.7, noon, noon), 0);
        // An odd span is counted to the millisecond.
        assert_eq!(daylight_ms(40.4, -3.7, noon, noon + 777_777), 777_777);
        // Tromsø in the polar night has none.
        let dec = 1_734_739_200_000;
        assert_eq!(daylight_ms(69.6492, 18.9553, dec, dec + 86_400_000), 0);
    }
}
