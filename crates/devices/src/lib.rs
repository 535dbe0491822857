//! Device-side building blocks: protocol configs (what to read from a device and how to turn
//! registers into named values), the register decoder, and the Modbus RTU/ASCII framing codec
//! shared by the simulator and the remote-debug toolbox.

pub mod decode;
pub mod error;
pub mod events;
pub mod history;
pub mod ingest;
pub mod link;
pub mod modbus;
pub mod protocol;
pub mod report;

pub use decode::{Decoded, RegisterBlock, Value, decode};
pub use error::{Error, Problem};
pub use protocol::{DataType, DeviceFamily, PointDef, ProtocolConfig, RegisterType};
