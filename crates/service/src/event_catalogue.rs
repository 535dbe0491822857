//! What a stored event means: its entry in the device event catalogue, as lists, reports and
//! alarm e-mails tell it.

use devices::{DeviceFamily, events::EventDef};

/// The catalogue entry of an event: by the device's family, or (device deleted since) the
/// first family that knows the code.
pub fn definition(family: Option<DeviceFamily>, code: &str) -> Option<&'static EventDef> {
    match family {
        Some(f) => devices::events::lookup(f, code),
        None => devices::events::catalogue().iter().find(|d| d.code == code),
    }
}
