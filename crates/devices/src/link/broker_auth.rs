//! The embedded broker's sign-in check: gateways with their SN and registration key (or a
//! pending rotated key, which then becomes their only key), the portal's own client with its
//! secret; failed sign-ins counted and locked by the [`SignInThrottle`].

use domain::ids::GatewayId;
use std::{
    net::IpAddr,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Instant,
};

use async_trait::async_trait;
use rmqtt::{
    hook::{Handler, HookResult, Parameter, ReturnType},
    types::{AuthResult, ConnectInfo, LastWill},
};
use store::Store;
use tokio::sync::Semaphore;

use super::{PORTAL_USER, acl::Identity, signin::SignInThrottle, takeover::Takeovers};

pub(super) struct Auth {
    pub(super) store: Store,
    pub(super) portal_secret: Arc<str>,
    /// Told of every gateway sign-in, so that a connection it replaces lets go at once.
    pub(super) takeovers: Option<Arc<Takeovers>>,
    /// Failed sign-ins per SN and address, and the locks they earned.
    pub(super) throttle: SignInThrottle,
    /// Turns for the key lookups in the database (see `check`).
    pub(super) lookups: Arc<Semaphore>,
}

/// Key lookups at once: a few, so that ingest's commits always find a database connection.
pub(super) const LOOKUPS: usize = 4;

/// Marks a sign-in's lookup as no longer wanted when its handshake is dropped before the
/// answer came (a lookup already running finishes: cancelling a pool acquire half way is what
/// the task avoids).
#[derive(Default)]
struct Abandoned(Arc<AtomicBool>);

impl Drop for Abandoned {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Auth {
    async fn check(&self, info: &ConnectInfo) -> AuthResult {
        // Without a peer address (never over TCP) failures are counted under an address of
        // their own, so they still lock.
        let ip = info
            .id()
            .remote_addr
            .map_or(IpAddr::from([0, 0, 0, 0]), |a| a.ip());
        let (Some(user), Some(password)) = (info.username(), info.password()) else {
            self.throttle.failed(ip, None, Instant::now());
            return AuthResult::NotAuthorized;
        };
        let user: &str = user;
        let identity = if user == PORTAL_USER {
            // The portal's own client is never locked out (its secret is long and random);
            // guesses at it still count against their address.
            if !same(password, self.portal_secret.as_bytes()) {
                self.throttle.failed(ip, None, Instant::now());
                return AuthResult::BadUsernameOrPassword;
            }
            Identity::Portal
        } else {
            if !super::acl::valid_sn(user) {
                self.throttle.failed(ip, None, Instant::now());
                return AuthResult::BadUsernameOrPassword;
            }
            // A locked sign-in is refused before the key is looked at: it tells nothing.
            if self.throttle.check(ip, Some(user), Instant::now()).is_err() {
                return AuthResult::NotAuthorized;
            }
            // The lookup runs in a task of its own: rmqtt drops this future when a client's
            // handshake times out, and a pool acquire cancelled half way (sqlx issues 2848,
            // 3513) left a PostgreSQL pool timing out with every connection idle when 100
            // gateways signed in at once.
            //
            // At most `LOOKUPS` run at once, and one whose handshake was given up before its
            // turn is skipped: after a restart every gateway signs in together, and lookups
            // left running for handshakes that had timed out filled the database pool, so
            // ingest's commits timed out, those gateways were dropped and signed in again.
            let abandoned = Abandoned::default();
            let lookup = {
                let store = self.store.clone();
                let sn = user.to_string();
                let lookups = self.lookups.clone();
                let gone = abandoned.0.clone();
                tokio::spawn(async move {
                    let _turn = lookups.acquire_owned().await;
                    if gone.load(Ordering::Relaxed) {
                        return Ok(None);
                    }
                    store.gateway_by_sn(&sn).await
                })
            };
            let looked_up = lookup.await;
            drop(abandoned);
            match looked_up {
                Ok(Ok(Some(g))) if same(password, g.reg_key.as_bytes()) => {}
                Ok(Ok(Some(g)))
                    if g.pending_key
                        .as_deref()
                        .is_some_and(|k| same(password, k.as_bytes())) =>
                {
                    // Signing in with the rotated key shows the gateway has taken it: from now
                    // on the old key is refused.
                    if !self.take_key(g.id, password).await {
                        return AuthResult::NotAuthorized;
                    }
                }
                Ok(Ok(_)) => {
                    self.throttle.failed(ip, Some(user), Instant::now());
                    return AuthResult::BadUsernameOrPassword;
                }
                Ok(Err(e)) => {
                    tracing::warn!(%e, sn = user, "gateway sign-in check failed");
                    return AuthResult::NotAuthorized;
                }
                Err(e) => {
                    tracing::warn!(%e, sn = user, "gateway sign-in check stopped");
                    return AuthResult::NotAuthorized;
                }
            }
            // The client id is the SN: another client cannot take over the gateway's session.
            if &**info.client_id() != user {
                tracing::info!(sn = user, client_id = %info.client_id(), "gateway refused: client id is not its SN");
                return AuthResult::NotAuthorized;
            }
            self.throttle.succeeded(ip, user);
            if let Some(takeovers) = &self.takeovers {
                takeovers.signed_in(user, info.id());
            }
            Identity::Gateway(user.to_string())
        };
        if let Some(will) = info.last_will() {
            let topic: &str = match will {
                LastWill::V3(w) => &w.topic,
                LastWill::V5(w) => &w.topic,
            };
            if !identity.may_leave_will(topic) {
                tracing::info!(
                    user,
                    topic,
                    "client refused: last will on a topic it may not use"
                );
                return AuthResult::NotAuthorized;
            }
        }
        AuthResult::Allow(false, None)
    }
}

impl Auth {
    /// Makes a gateway's pending key its only key; `false` when that could not be stored.
    async fn take_key(&self, gateway: GatewayId, key: &[u8]) -> bool {
        let Ok(key) = std::str::from_utf8(key).map(str::to_string) else {
            return false;
        };
        let store = self.store.clone();
        let now = chrono::Utc::now().timestamp_millis();
        // Its own task, like the lookup: rmqtt may drop this future mid-way.
        let taken = tokio::spawn(async move {
            if store.take_pending_gateway_key(gateway, &key, now).await? {
                return Ok(true);
            }
            // Another connection may have taken it first; a newer rotation replaces it.
            let current = store.gateway(gateway).await?;
            Ok::<_, store::StoreError>(current.is_some_and(|g| g.reg_key == key))
        });
        match taken.await {
            Ok(Ok(holds)) => {
                if holds {
                    tracing::info!(
                        %gateway,
                        "gateway signed in with its new key; the old one is retired"
                    );
                }
                holds
            }
            Ok(Err(e)) => {
                tracing::warn!(%e, %gateway, "new gateway key not stored");
                false
            }
            Err(e) => {
                tracing::warn!(%e, %gateway, "new gateway key not stored");
                false
            }
        }
    }
}

/// Compares secrets without stopping at the first difference.
fn same(given: &[u8], expected: &[u8]) -> bool {
    given.len() == expected.len()
        && given
            .iter()
            .zip(expected)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

#[async_trait]
impl Handler for Auth {
    async fn hook(&self, param: &Parameter, acc: Option<HookResult>) -> ReturnType {
        match param {
            Parameter::ClientAuthenticate(info) => {
                let result = self.check(info).await;
                (false, Some(HookResult::AuthResult(result)))
            }
            _ => (true, acc),
        }
    }
}
