//! The device family column (`devices.family`, `protocol_configs.family`) as rows read it: the
//! names of `domain::DeviceFamily`. A row with the column always set reads it with
//! `#[sqlx(try_from = "String")]`; a row whose device may be gone (a LEFT JOIN, or a gateway's
//! alarm, which has no device) reads it through [`NullableFamily`].

use domain::{DeviceFamily, device_family::UnknownFamily};

/// A family column that is NULL when there is no device.
#[derive(Debug, sqlx::Type)]
#[sqlx(transparent, no_pg_array)]
pub struct NullableFamily(Option<String>);

impl TryFrom<NullableFamily> for Option<DeviceFamily> {
    type Error = UnknownFamily;

    fn try_from(column: NullableFamily) -> Result<Self, Self::Error> {
        column.0.map(DeviceFamily::try_from).transpose()
    }
}
