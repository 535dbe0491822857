//! The portal as a VEN toward utilities' OpenADR 3 VTNs: the connections an administrator
//! manages (`sys.energyhub.edit`, [`admin`]), and one sync of a connection ([`sync`]), which
//! mirrors programmes and events, keeps one VTN resource per enrolled plant ([`enroll`]),
//! sends the reports the events ask for ([`reporting`]) and keeps the webhook subscriptions
//! ([`webhooks`]). The job `jobs::vtn_sync` runs the sync of each connection every
//! `pollSeconds`, and at once when a webhook's notification nudges it ([`Nudges`]); "sync now"
//! runs it for an administrator.

pub mod admin;
pub mod enroll;
pub mod reporting;
pub mod secrets;
pub mod sync;
pub mod webhooks;

use domain::ids::VtnId;
use std::{
    collections::BTreeSet,
    path::PathBuf,
    sync::{Arc, Mutex},
};

use oadr::{
    Version,
    ven::{Credentials, VtnClient},
};
use secrets::Sealer;
use store::energy_hub::vtn::VtnRow;
use tokio::sync::Notify;

pub use sync::{SyncError, SyncSummary};

/// What a sync needs besides the store: where the portal is reached from outside (the
/// webhooks' callback; `None`: polling only) and the data directory holding the credential
/// key ([`secrets`]).
#[derive(Debug, Clone)]
pub struct Ven {
    pub public_url: Option<String>,
    pub data_dir: PathBuf,
}

impl Ven {
    /// The process's credential key (`crate::sealing`); loaded once (the first data directory
    /// asked wins: one portal process has one).
    pub fn sealer(&self) -> Result<&'static Sealer, String> {
        crate::sealing::key_in(&self.data_dir)
    }

    /// A client of the connection's VTN with its credentials opened.
    pub(crate) fn client(&self, vtn: &VtnRow) -> Result<VtnClient, SyncError> {
        let version = Version::parse(&vtn.version)
            .ok_or_else(|| SyncError::Local("unknown OpenADR version".into()))?;
        let sealer = self
            .sealer()
            .map_err(|_| SyncError::Local("energy hub key unavailable".into()))?;
        let open = |s: &str| sealer.open(s).map_err(|e| SyncError::Local(e.to_string()));
        let creds = Credentials {
            client_id: open(&vtn.client_id_enc)?,
            client_secret: open(&vtn.client_secret_enc)?,
        };
        Ok(VtnClient::new(&vtn.url, version, creds)?)
    }
}

/// Connections a webhook's notification asked to sync now, for the sync job of this process
/// to take (`jobs::vtn_sync`). A connection asked twice before the job took it syncs once.
#[derive(Debug, Clone, Default)]
pub struct Nudges {
    inner: Arc<NudgesInner>,
}

#[derive(Debug, Default)]
struct NudgesInner {
    asked: Mutex<BTreeSet<VtnId>>,
    wake: Notify,
}

impl Nudges {
    /// Asks for a sync of connection `id`.
    pub fn nudge(&self, id: VtnId) {
        let mut asked = self.inner.asked.lock().unwrap_or_else(|e| e.into_inner());
        asked.insert(id);
        self.inner.wake.notify_one();
    }

    /// The connections asked for since the last call, waiting until there is one.
    pub async fn next(&self) -> Vec<VtnId> {
        loop {
            let taken: Vec<VtnId> = {
                let mut asked = self.inner.asked.lock().unwrap_or_else(|e| e.into_inner());
                std::mem::take(&mut *asked).into_iter().collect()
            };
            if !taken.is_empty() {
                return taken;
            }
            self.inner.wake.notified().await;
        }
    }
}
