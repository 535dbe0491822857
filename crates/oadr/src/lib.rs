//! The portal as an OpenADR 3 VEN (an aggregator) toward a utility's VTN.
//!
//! Messages are read and checked with the `openleadr-wire` types of the VTN's version (0.1.4 for
//! 3.0.1, 0.2.8 for 3.1.0) inside a lenient metadata wrapper ([`meta::Lenient`]), then turned into
//! version-neutral shapes ([`neutral`]) that the rest of the portal uses: normalised events
//! ([`normal`]), derived statuses ([`status`]), the winning event of a timeline ([`timeline`]),
//! and reports to send back ([`report`]). [`ven::VtnClient`] talks to the VTN over [`http`];
//! [`notify`] subscribes it to webhooks where the VTN offers them.

pub mod error;
pub mod http;
pub mod meta;
pub mod neutral;
pub mod normal;
pub mod notify;
pub mod report;
pub mod status;
pub mod timeline;
pub mod ven;
pub mod version;

pub use error::Error;
pub use version::Version;
