//! Device families: what kind of device a gateway reports (inverter, meter, ...). One name per
//! family from the gateway's report to the `devices.family` column, the protocol configs and
//! the API; `as_str` is that name, and serde, `FromStr` and `Display` all use it.
//!
//! Not to be confused with [`crate::settings::Family`], the settings catalogue an inverter has
//! (hybrid LV/HV, grid-tied, micro).

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeviceFamily {
    Inverter,
    Meter,
    Battery,
    WeatherStation,
    /// A DC combiner box: the currents and voltages of the strings it gathers.
    Combiner,
}

/// A name that is no device family.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown device family {0:?}")]
pub struct UnknownFamily(pub String);

impl DeviceFamily {
    pub const ALL: [DeviceFamily; 5] = [
        DeviceFamily::Inverter,
        DeviceFamily::Meter,
        DeviceFamily::Battery,
        DeviceFamily::WeatherStation,
        DeviceFamily::Combiner,
    ];

    /// The family's name in the database, on the wire and in reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            DeviceFamily::Inverter => "inverter",
            DeviceFamily::Meter => "meter",
            DeviceFamily::Battery => "battery",
            DeviceFamily::WeatherStation => "weather_station",
            DeviceFamily::Combiner => "combiner",
        }
    }

    /// The family a gateway's report names: the family's name, or `weather`, which ingest has
    /// taken for a weather station since its first version.
    pub fn reported(name: &str) -> Option<DeviceFamily> {
        match name.parse() {
            Ok(f) => Some(f),
            Err(_) if name == "weather" => Some(DeviceFamily::WeatherStation),
            Err(_) => None,
        }
    }
}

impl FromStr for DeviceFamily {
    type Err = UnknownFamily;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DeviceFamily::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| UnknownFamily(s.to_string()))
    }
}

/// For reading the family column (`#[sqlx(try_from = "String")]` in the store's rows).
impl TryFrom<String> for DeviceFamily {
    type Error = UnknownFamily;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl fmt::Display for DeviceFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_reads_back_from_its_name_in_each_form() {
        use serde::de::{IntoDeserializer, value::Error, value::StrDeserializer};
        for f in DeviceFamily::ALL {
            assert_eq!(f.as_str().parse::<DeviceFamily>(), Ok(f));
            assert_eq!(DeviceFamily::try_from(f.to_string()), Ok(f));
            let de: StrDeserializer<'_, Error> = f.as_str().into_deserializer();
            assert_eq!(
                DeviceFamily::deserialize(de),
                Ok(f),
                "serde's name is as_str"
            );
        }
        assert_eq!(DeviceFamily::WeatherStation.as_str(), "weather_station");
    }

    #[test]
    fn unknown_names_are_refused_and_weather_is_only_a_reported_alias() {
        assert!("fridge".parse::<DeviceFamily>().is_err());
        assert!("Inverter".parse::<DeviceFamily>().is_err());
        assert!("weather".parse::<DeviceFamily>().is_err());
        assert_eq!(
            DeviceFamily::reported("weather"),
            Some(DeviceFamily::WeatherStation)
        );
        assert_eq!(
            DeviceFamily::reported("combiner"),
            Some(DeviceFamily::Combiner)
        );
        assert_eq!(DeviceFamily::reported("fridge"), None);
    }
}
