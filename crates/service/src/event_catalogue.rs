//! What a stored event means: its entry in the device event catalogue, as lists, reports and
//! alarm e-mails tell it.

use devices::{DeviceFamily, events::EventDef};
use serde_json::Value;

/// The catalogue family of a stored family name.
pub fn family(name: &str) -> Option<DeviceFamily> {
    serde_json::from_value(Value::String(name.to_string())).ok()
}

/// The catalogue entry of an event: by the device's family, or (device deleted since) the
/// first family that knows the code.
pub fn definition(family: Option<&str>, code: &str) -> Option<&'static EventDef> {
    match family.and_then(self::family) {
        Some(f) => devices::events::lookup(f, code),
        None => devices::events::catalogue().iter().find(|d| d.code == code),
    }
}
