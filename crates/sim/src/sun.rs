//! Where the sun is: elevation above the horizon from latitude, longitude and UTC time
//! (NOAA's simplified equations; accurate to a fraction of a degree, plenty for the weather).
//! The sunlight on the modules is `domain::clear_sky`'s (see `plant`).

use std::f64::consts::PI;

use chrono::{DateTime, Datelike, Timelike, Utc};

/// Solar elevation in degrees (negative at night).
pub fn elevation(lat: f64, lon: f64, at: DateTime<Utc>) -> f64 {
    let day = f64::from(at.ordinal0());
    let hour =
        f64::from(at.hour()) + f64::from(at.minute()) / 60.0 + f64::from(at.second()) / 3600.0;
    let gamma = 2.0 * PI / 365.0 * (day + (hour - 12.0) / 24.0);
    let eq_time = 229.18
        * (0.000075 + 0.001868 * gamma.cos()
            - 0.032077 * gamma.sin()
            - 0.014615 * (2.0 * gamma).cos()
            - 0.040849 * (2.0 * gamma).sin());
    let decl = 0.006918 - 0.399912 * gamma.cos() + 0.070257 * gamma.sin()
        - 0.006758 * (2.0 * gamma).cos()
        + 0.000907 * (2.0 * gamma).sin()
        - 0.002697 * (3.0 * gamma).cos()
        + 0.00148 * (3.0 * gamma).sin();
    let true_solar_minutes = hour * 60.0 + eq_time + 4.0 * lon;
    let hour_angle = (true_solar_minutes / 4.0 - 180.0).to_radians();
    let lat = lat.to_radians();
    let cos_zenith = lat.sin() * decl.sin() + lat.cos() * decl.cos() * hour_angle.cos();
    90.0 - cos_zenith.clamp(-1.0, 1.0).acos().to_degrees()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn the_sun_is_high_at_noon_in_summer_and_below_the_horizon_at_midnight() {
        // London, 21 June: noon elevation is about 62 degrees.
        let noon = Utc.with_ymd_and_hms(2024, 6, 21, 12, 0, 0).unwrap();
        let e = elevation(51.5, -0.1, noon);
        assert!((60.0..64.0).contains(&e), "{e}");
        let midnight = Utc.with_ymd_and_hms(2024, 6, 21, 0, 0, 0).unwrap();
        assert!(elevation(51.5, -0.1, midnight) < 0.0);
        // Sydney in June (its winter) at local noon (02:00 UTC): about 32 degrees.
        let sydney = elevation(
            -33.9,
            151.2,
            Utc.with_ymd_and_hms(2024, 6, 21, 2, 0, 0).unwrap(),
        );
        assert!((29.0..36.0).contains(&sydney), "{sydney}");
    }
}
