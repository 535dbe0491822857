//! How much sunlight a plane of modules would get under a clear sky: the modelled reference
//! irradiation of the plant figures (`crate::kpi`) when a plant has no weather station. Three
//! published models, chained:
//!
//! 1. **Global horizontal irradiance**: Haurwitz (1945), `GHI = 1098 cos z exp(-0.059 / cos z)`
//!    W/m² for a zenith angle z below 90°, which needs nothing but the sun's position.
//! 2. **Direct and diffuse parts**: Erbs, Klein and Duffie (1982), the diffuse fraction as a
//!    function of the clearness index `kt = GHI / (I0 cos z)`, with `I0` the extraterrestrial
//!    normal irradiance of Spencer (1971) on day of year `n`.
//! 3. **Plane of array**: the isotropic sky of Liu and Jordan (1963),
//!    `POA = DNI cos θ + DHI (1 + cos β) / 2 + GHI ρ (1 - cos β) / 2` with θ the angle of
//!    incidence on a plane of tilt β and azimuth γ, and the ground's albedo ρ = 0.2.
//!
//! The same chain as pvlib's `clearsky.haurwitz`, `irradiance.erbs` and
//! `irradiance.get_total_irradiance(model="isotropic")`, which the tests compare with. A clear
//! sky is the most a plane gets, so a performance ratio against it is an upper-bound
//! reference: it reads lower than the ratio against measured irradiance on every cloudy day.

use crate::sun;

/// The solar constant of Spencer's extraterrestrial irradiance, W/m² (pvlib's default).
pub const SOLAR_CONSTANT: f64 = 1366.1;
/// The ground's reflectance (grass, concrete): 0.2.
pub const ALBEDO: f64 = 0.2;
/// Steepest tilt the default orientation gives a plant: modules steeper than this are rare on
/// the roofs and ground mounts the portal sees.
pub const DEFAULT_TILT_MAX: f64 = 35.0;
/// Step of the integration over a day: five minutes.
pub const STEP_MS: i64 = 300_000;

/// The clearness index takes the sun at least this high (cos z of 0.065, about 86°): it loses
/// meaning near the horizon (pvlib's `min_cos_zenith`).
const MIN_COS_ZENITH: f64 = 0.065;
/// Beyond this zenith angle Erbs' split gives no direct light (pvlib's `max_zenith`).
const MAX_ZENITH: f64 = 87.0;

/// How a plant's modules face: tilt from the horizontal (0-90°) and azimuth clockwise from north
/// (0-360°, 180 south), and whether the plant said so or the default was taken.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Orientation {
    pub tilt: f64,
    pub azimuth: f64,
    /// Assumed by [`orientation`]: the plant gave neither its tilt nor its azimuth.
    pub assumed: bool,
}

/// A plant's orientation: as given, and where a part is missing, the default: tilted at its
/// latitude (at most [`DEFAULT_TILT_MAX`]) and facing the equator (south north of it, north
/// south of it), the orientation that collects most over a year.
pub fn orientation(lat_deg: f64, tilt: Option<f64>, azimuth: Option<f64>) -> Orientation {
    let default_tilt = lat_deg.abs().min(DEFAULT_TILT_MAX);
    let default_azimuth = if lat_deg < 0.0 { 0.0 } else { 180.0 };
    Orientation {
        tilt: tilt.unwrap_or(default_tilt),
        azimuth: azimuth.unwrap_or(default_azimuth),
        assumed: tilt.is_none() || azimuth.is_none(),
    }
}

/// Haurwitz's clear-sky global horizontal irradiance (W/m²) with the sun at `zenith_deg`; 0 with
/// the sun at or below the horizon.
pub fn haurwitz_ghi(zenith_deg: f64) -> f64 {
    let cos_z = zenith_deg.to_radians().cos();
    if cos_z <= 0.0 {
        return 0.0;
    }
    1098.0 * cos_z * (-0.059 / cos_z).exp()
}

/// The extraterrestrial irradiance normal to the sun's rays on day of year `day` (1-366), W/m²:
/// the solar constant corrected for the Earth's distance from the sun (Spencer, 1971).
pub fn extraterrestrial(day: u32) -> f64 {
    let b = 2.0 * std::f64::consts::PI * (f64::from(day) - 1.0) / 365.0;
    SOLAR_CONSTANT
        * (1.00011
            + 0.034221 * b.cos()
            + 0.00128 * b.sin()
            + 0.000719 * (2.0 * b).cos()
            + 0.000077 * (2.0 * b).sin())
}

/// Erbs' split of `ghi` (W/m²) into direct normal and diffuse horizontal irradiance (DNI, DHI)
/// with the sun at `zenith_deg` on day of year `day`. With the sun beyond [`MAX_ZENITH`] all of
/// it is diffuse.
pub fn erbs(ghi: f64, zenith_deg: f64, day: u32) -> (f64, f64) {
    let cos_z = zenith_deg.to_radians().cos();
    if ghi <= 0.0 || cos_z <= 0.0 {
        return (0.0, 0.0);
    }
    let kt = (ghi / (extraterrestrial(day) * cos_z.max(MIN_COS_ZENITH))).clamp(0.0, 1.0);
    let diffuse_fraction = if kt <= 0.22 {
        1.0 - 0.09 * kt
    } else if kt <= 0.8 {
        0.9511 - 0.1604 * kt + 4.388 * kt.powi(2) - 16.638 * kt.powi(3) + 12.336 * kt.powi(4)
    } else {
        0.165
    };
    let dhi = diffuse_fraction * ghi;
    let dni = (ghi - dhi) / cos_z;
    if zenith_deg > MAX_ZENITH || dni < 0.0 {
        return (0.0, ghi);
    }
    (dni, dhi)
}

/// The cosine of the angle between the sun's rays and the normal of a plane of `tilt_deg` and
/// `plane_azimuth_deg`, with the sun at `zenith_deg` and `sun_azimuth_deg`; negative when the
/// sun is behind the plane.
pub fn cos_incidence(
    zenith_deg: f64,
    sun_azimuth_deg: f64,
    tilt_deg: f64,
    plane_azimuth_deg: f64,
) -> f64 {
    let (z, b) = (zenith_deg.to_radians(), tilt_deg.to_radians());
    let d = (sun_azimuth_deg - plane_azimuth_deg).to_radians();
    z.cos() * b.cos() + z.sin() * b.sin() * d.cos()
}

/// The irradiance on the plane (W/m²) of the isotropic sky model from GHI, DNI and DHI.
pub fn isotropic_poa(ghi: f64, dni: f64, dhi: f64, cos_incidence: f64, tilt_deg: f64) -> f64 {
    let cos_b = tilt_deg.to_radians().cos();
    let beam = dni * cos_incidence.max(0.0);
    let sky = dhi * (1.0 + cos_b) / 2.0;
    let ground = ghi * ALBEDO * (1.0 - cos_b) / 2.0;
    (beam + sky + ground).max(0.0)
}

/// Day of the year (1-366) of a Unix time in ms, UTC (Hinnant's days-to-civil algorithm).
pub fn day_of_year(at_ms: i64) -> u32 {
    let days = at_ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy_march = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy_march + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let day = doy_march - (153 * mp + 2) / 5 + 1;
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    const BEFORE: [i64; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let before = BEFORE[(month - 1).clamp(0, 11) as usize] + i64::from(leap && month > 2);
    u32::try_from(before + day).unwrap_or(1)
}

/// The clear-sky irradiance on a plane of orientation `o` at (`lat_deg`, `lon_deg`) at `at_ms`,
/// W/m² (the chain of the module comment).
pub fn poa_irradiance(lat_deg: f64, lon_deg: f64, o: Orientation, at_ms: i64) -> f64 {
    let zenith = 90.0 - sun::elevation_deg(lat_deg, lon_deg, at_ms);
    if zenith >= 90.0 {
        return 0.0;
    }
    let ghi = haurwitz_ghi(zenith);
    let (dni, dhi) = erbs(ghi, zenith, day_of_year(at_ms));
    let sun_azimuth = sun::azimuth_deg(lat_deg, lon_deg, at_ms);
    let cos_i = cos_incidence(zenith, sun_azimuth, o.tilt, o.azimuth);
    isotropic_poa(ghi, dni, dhi, cos_i, o.tilt)
}

/// The clear-sky irradiation on the plane over `[from_ms, to_ms)`, kWh/m²: the irradiance at
/// the middle of each step of at most [`STEP_MS`], times the step. A day is 288 evaluations, a
/// year about 105,000.
pub fn poa_irradiation(
    lat_deg: f64,
    lon_deg: f64,
    o: Orientation,
    from_ms: i64,
    to_ms: i64,
) -> f64 {
    if to_ms <= from_ms {
        return 0.0;
    }
    let span = to_ms - from_ms;
    let steps = (span + STEP_MS - 1) / STEP_MS;
    let mut wh = 0.0;
    let mut start = from_ms;
    for k in 1..=steps {
        let end = from_ms + span * k / steps;
        let middle = start + (end - start) / 2;
        wh += poa_irradiance(lat_deg, lon_deg, o, middle) * (end - start) as f64 / 3_600_000.0;
        start = end;
    }
    wh / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn haurwitz_matches_pvlib() {
        // pvlib 0.16.1 `clearsky.haurwitz(apparent_zenith)`.
        for (zenith, ghi) in [
            (0.0, 1035.0920),
            (30.0, 888.2713),
            (60.0, 487.8941),
            (85.0, 48.6299),
        ] {
            assert!(close(haurwitz_ghi(zenith), ghi, 0.01), "{zenith}");
        }
        assert_eq!(haurwitz_ghi(90.0), 0.0);
        assert_eq!(haurwitz_ghi(120.0), 0.0);
    }

    #[test]
    fn erbs_splits_like_pvlib() {
        // pvlib 0.16.1 `irradiance.erbs(ghi, zenith, doy)`: (dni, dhi). The third is a dim
        // sky (kt below 0.22, nearly all diffuse), the fourth the sun beyond 87°.
        for (ghi, zenith, day, dni, dhi) in [
            (888.2734, 30.0, 172, 853.9567, 148.7252),
            (487.2, 60.0, 355, 720.6003, 126.8999),
            (100.0, 40.0, 80, 1.1139, 99.1467),
            (40.0, 88.0, 80, 0.0, 40.0),
        ] {
            let (d, h) = erbs(ghi, zenith, day);
            assert!(close(d, dni, 0.01) && close(h, dhi, 0.01), "{ghi}: {d} {h}");
        }
        assert_eq!(erbs(0.0, 30.0, 1), (0.0, 0.0));
        // pvlib `get_extra_radiation(doy)`, Spencer's.
        assert!(close(extraterrestrial(172), 1321.6236, 0.001));
        assert!(close(extraterrestrial(1), 1413.9818, 0.001));
    }

    #[test]
    fn the_isotropic_plane_gets_beam_sky_and_ground() {
        // pvlib `get_total_irradiance(30, 180, 30, 160, 849.36, 888.27, 149.17, albedo=0.2,
        // model="isotropic")["poa_global"]`: a plane tilted 30° facing south, the sun 30° from
        // the zenith in the south-south-east.
        let cos_i = cos_incidence(30.0, 160.0, 30.0, 180.0);
        let poa = isotropic_poa(888.27, 849.36, 149.17, cos_i, 30.0);
        assert!(close(poa, 987.6324, 0.001), "{poa}");
        // A horizontal plane gets the global horizontal irradiance back.
        let flat = isotropic_poa(
            888.27,
            853.96,
            148.73,
            cos_incidence(30.0, 0.0, 0.0, 0.0),
            0.0,
        );
        assert!(close(flat, 888.27, 0.05), "{flat}");
        // The sun behind a plane adds no beam.
        let behind = isotropic_poa(500.0, 600.0, 100.0, -0.3, 90.0);
        assert!(close(behind, 100.0 * 0.5 + 500.0 * 0.2 * 0.5, 1e-9));
    }

    #[test]
    fn the_day_of_year_counts_leap_days() {
        assert_eq!(day_of_year(0), 1);
        // 2024-03-01T12:00Z is day 61 of a leap year; 2023-12-31 is day 365.
        assert_eq!(day_of_year(1_709_294_400_000), 61);
        assert_eq!(day_of_year(1_703_980_800_000), 365);
        assert_eq!(day_of_year(1_735_603_200_000), 366);
    }

    #[test]
    fn the_default_orientation_faces_the_equator_at_the_latitude_capped() {
        let madrid = orientation(40.4, None, None);
        assert_eq!(
            (madrid.tilt, madrid.azimuth, madrid.assumed),
            (35.0, 180.0, true)
        );
        let sydney = orientation(-33.9, None, None);
        assert_eq!((sydney.tilt, sydney.azimuth), (33.9, 0.0));
        let given = orientation(40.4, Some(10.0), Some(200.0));
        assert_eq!(
            (given.tilt, given.azimuth, given.assumed),
            (10.0, 200.0, false)
        );
        assert!(orientation(40.4, Some(10.0), None).assumed);
    }

    #[test]
    fn a_clear_june_day_in_madrid_gives_about_eight_kwh_per_square_metre() {
        // 2024-06-21 00:00 to 24:00 UTC in Madrid, 30° tilt. pvlib's chain (solar position by
        // its NREL SPA, the same three models, 5-minute midpoints) gives 8.164 kWh/m² facing
        // south, 7.555 facing north, and 3.989 facing south on 2024-12-21.
        let day = 1_718_928_000_000;
        let o = orientation(40.4168, Some(30.0), Some(180.0));
        let h = poa_irradiation(40.4168, -3.7038, o, day, day + 86_400_000);
        assert!(close(h, 8.164, 0.02), "{h}");
        let north = orientation(40.4168, Some(30.0), Some(0.0));
        let n = poa_irradiation(40.4168, -3.7038, north, day, day + 86_400_000);
        assert!(close(n, 7.555, 0.02), "{n}");
        let dec = 1_734_739_200_000;
        let winter = poa_irradiation(40.4168, -3.7038, o, dec, dec + 86_400_000);
        assert!(close(winter, 3.989, 0.02), "{winter}");
        assert_eq!(poa_irradiation(40.4, -3.7, o, day, day), 0.0);
    }
}
