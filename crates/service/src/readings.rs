//! A device's reported values as the plant's figures read them: one report decoded by key, the
//! power keys of inverters, and the thinned day of samples curves are drawn from.

use domain::ids::DeviceId;
use serde_json::{Map, Value};
use store::{Store, telemetry::SampleRow};

/// A day curve reads at most one sample per this many ms (a day of 25 hours is 1500 points),
/// however often the gateway uploads.
pub const DAY_BUCKET_MS: i64 = 60_000;

/// The PV string power keys the shipped protocols know (up to 8 MPPT inputs).
pub const PV_KEYS: [&str; 8] = [
    "pv1_power",
    "pv2_power",
    "pv3_power",
    "pv4_power",
    "pv5_power",
    "pv6_power",
    "pv7_power",
    "pv8_power",
];

/// One report's decoded values, by key.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    pub ts: i64,
    pub values: Map<String, Value>,
}

impl Reading {
    pub fn from_sample(ts: i64, payload: &str) -> Reading {
        let values = serde_json::from_str::<Map<String, Value>>(payload).unwrap_or_default();
        Reading { ts, values }
    }

    /// A value as a number; booleans read as 0/1, anything else as missing.
    pub fn num(&self, key: &str) -> Option<f64> {
        match self.values.get(key)? {
            Value::Number(n) => n.as_f64(),
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            _ => None,
        }
    }

    /// The first of `keys` present, as a number.
    pub fn first(&self, keys: &[&str]) -> Option<f64> {
        keys.iter().find_map(|k| self.num(k))
    }

    /// The sum of `keys` present; `None` when none is.
    pub fn sum(&self, keys: &[&str]) -> Option<f64> {
        keys.iter()
            .filter_map(|k| self.num(k))
            .fold(None, |acc, v| Some(acc.unwrap_or(0.0) + v))
    }

    pub fn text(&self, key: &str) -> Option<&str> {
        self.values.get(key).and_then(Value::as_str)
    }
}

/// Power of the PV inputs of one inverter reading, W.
pub fn pv_power(r: &Reading) -> Option<f64> {
    r.num("pv_power").or_else(|| r.sum(&PV_KEYS))
}

/// Grid power of an inverter reading, W: positive imports, negative exports.
pub fn inverter_grid(r: &Reading) -> Option<f64> {
    r.first(&["grid_ct_power", "grid_power"])
}

/// A device's samples of `[from, to)` for a day curve, oldest first: at most one a minute, so
/// a whole day is read (and drawn) whether the gateway uploads every 5 minutes or every 5
/// seconds.
pub async fn day_samples(
    store: &Store,
    device: DeviceId,
    from: i64,
    to: i64,
) -> store::Result<Vec<SampleRow>> {
    store.samples_thinned(device, from, to, DAY_BUCKET_MS).await
}

/// A number as the numeric string clients parse (`"230.8"`), trimmed to 2 decimals.
pub fn num_text(v: f64) -> String {
    let rounded = (v * 100.0).round() / 100.0;
    if rounded == rounded.trunc() && rounded.abs() < 1e15 {
        // Through an integer: `{:.1}` of a float takes the exact (bignum) formatter.
        let sign = if rounded.is_sign_negative() { "-" } else { "" };
        format!("{sign}{}.0", rounded.abs() as i64)
    } else {
        format!("{rounded}")
    }
}

/// Rounds to 2 decimals for numeric fields.
pub fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}
