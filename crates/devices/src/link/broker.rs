//! The embedded MQTT broker (rmqtt as a library): gateways sign in with their SN and
//! registration key, the portal's own client with a secret from the database; every publish,
//! subscribe and last will is checked against [`acl::Identity`]. See docs/decisions.md.
//!
//! Started by [`super::Link`], the broker also takes gateways' uplink messages in itself (see
//! `uplink.rs`): its publish check hook hands each one to ingest and returns only after the
//! commit, and rmqtt sends the PUBACK only after that hook returns. A message that could not be
//! committed gets no PUBACK: the broker closes the gateway's connection, and the gateway sends
//! the message again after it reconnects.
//!
//! Connections are admitted at accept by the [`Gate`] (per-address bounds), and one that has
//! not completed its CONNECT within `connect_timeout` of being accepted is closed; both need
//! the patched rmqtt-net in `vendor/` (see its PATCHES.md).

use std::{net::SocketAddr, num::NonZeroU16, sync::Arc, time::Duration};

use async_trait::async_trait;
use rmqtt::{
    codec::v5::{PublishAckReason, SubscribeAckReason},
    context::ServerContext,
    hook::{Handler, HookResult, Parameter, ReturnType, Type},
    net::{Admission, Builder, Permit},
    retain::DefaultRetainStorage,
    server::MqttServer,
    session::Session,
    types::{FromType, Id, PublishAclResult, PublishResult, SubscribeAclResult},
};
use store::Store;
use tokio::task::JoinHandle;

use super::{
    PORTAL_USER,
    acl::Identity,
    broker_auth::Auth,
    broker_extensions::{AnyMember, MemoryRetain},
    gate::{Counts, Gate, Limits},
    heard::Heard,
    signin::{SignInPolicy, SignInThrottle},
    uplink::{Outcome, Uplink},
};

/// How long a connection may take from accept to a completed CONNECT by default: a gateway
/// sends its CONNECT right after the TCP handshake, so this is a round trip or two even on a
/// poor mobile link, plus the sign-in check.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// How the embedded broker listens.
#[derive(Debug, Clone)]
pub struct BrokerConfig {
    pub addr: SocketAddr,
    /// When `addr` is taken, try the next ten ports and then any free port instead of failing.
    pub fallback: bool,
    /// Larger packets close the connection (payloads over `report::MAX_PAYLOAD_BYTES` but under
    /// this reach the portal, which drops and counts them).
    pub max_packet_size: u32,
    /// Unacknowledged QoS 1 messages the broker keeps in flight per client (towards the
    /// portal's client with an ingesting broker only commands, towards gateways commands).
    pub max_inflight: u16,
    /// How long a gateway's message waits for its commit before the broker gives up on it (no
    /// PUBACK, connection closed, the gateway sends it again).
    pub commit_timeout: Duration,
    /// A connection that has not completed its CONNECT (and sign-in) this long after it was
    /// accepted is closed.
    pub connect_timeout: Duration,
    /// Connections per source address, in their handshake and in all (see `gate.rs`).
    pub limits: Limits,
    /// When failed sign-ins lock a gateway, an address or both (see `signin.rs`).
    pub signin: SignInPolicy,
}

impl BrokerConfig {
    pub fn new(addr: SocketAddr) -> BrokerConfig {
        BrokerConfig {
            addr,
            fallback: false,
            max_packet_size: 1024 * 1024,
            max_inflight: 1024,
            commit_timeout: Duration::from_secs(30),
            connect_timeout: CONNECT_TIMEOUT,
            limits: Limits::default(),
            signin: SignInPolicy::default(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum BrokerError {
    #[error(
        "cannot listen for MQTT on {addr} ({reason}). Another broker (Mosquitto?) may be using it: \
         set PORTAL_MQTT_ADDR to a free address, or PORTAL_MQTT_EMBEDDED=false and \
         PORTAL_MQTT_URL to use that broker"
    )]
    Bind {
        addr: SocketAddr,
        // Shown in the message; not chained, so it is not printed twice.
        reason: String,
    },
}

/// A running embedded broker; stops when dropped.
pub struct Broker {
    local_addr: SocketAddr,
    task: JoinHandle<()>,
    uplink: Option<Arc<Uplink>>,
    gate: Arc<Gate>,
}

impl Broker {
    /// Binds the listener (so a taken port is reported now, not later) and starts serving. This
    /// broker only routes: gateways' messages reach whoever subscribes to them, and the broker
    /// acknowledges them on receipt. [`super::Link`] starts one that ingests them itself.
    pub async fn start(
        store: Store,
        portal_secret: String,
        config: &BrokerConfig,
    ) -> Result<Broker, BrokerError> {
        Broker::serve(store, portal_secret, config, None).await
    }

    /// A broker that hands gateways' uplink messages to ingest in its publish hook and
    /// acknowledges each one only after its commit.
    pub(crate) async fn start_ingesting(
        store: Store,
        portal_secret: String,
        config: &BrokerConfig,
        uplink: Uplink,
    ) -> Result<Broker, BrokerError> {
        Broker::serve(store, portal_secret, config, Some(Arc::new(uplink))).await
    }

    async fn serve(
        store: Store,
        portal_secret: String,
        config: &BrokerConfig,
        uplink: Option<Arc<Uplink>>,
    ) -> Result<Broker, BrokerError> {
        let gate = Gate::new(config.limits);
        let (listener, local_addr) = bind(config, &gate)?;
        let scx = ServerContext::new().build().await;
        *scx.extends.retain.write().await = Box::new(MemoryRetain(DefaultRetainStorage::new()));
        *scx.extends.shared_subscription.write().await = Box::new(AnyMember);
        let register = scx.extends.hook_mgr().register();
        let auth = Auth {
            store,
            portal_secret: Arc::from(portal_secret),
            takeovers: uplink.as_ref().map(|u| u.takeovers.clone()),
            throttle: SignInThrottle::new(config.signin),
            lookups: Arc::new(tokio::sync::Semaphore::new(super::broker_auth::LOOKUPS)),
        };
        register.add(Type::ClientAuthenticate, Box::new(auth)).await;
        register
            .add(
                Type::ClientSubscribeCheckAcl,
                Box::new(Acl { uplink: None }),
            )
            .await;
        register
            .add(
                Type::MessagePublishCheckAcl,
                Box::new(Acl {
                    uplink: uplink.clone(),
                }),
            )
            .await;
        register
            .add(
                Type::ClientConnected,
                Box::new(SignIns {
                    gate: gate.clone(),
                    heard: uplink.as_ref().map(|u| u.heard.clone()),
                }),
            )
            .await;
        if let Some(uplink) = uplink.clone() {
            // Last wills do not pass the publish check (they were checked at connect).
            register
                .add(Type::MessagePublish, Box::new(Wills { uplink }))
                .await;
        }
        register.start().await;
        let server = MqttServer::new(scx).listener_by_id(listener, 1).build();
        let task = tokio::spawn(async move {
            if let Err(e) = server.run().await {
                tracing::error!(%e, "embedded MQTT broker stopped");
            }
        });
        tracing::info!(%local_addr, "embedded MQTT broker listening");
        Ok(Broker {
            local_addr,
            task,
            uplink,
            gate,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Connections open now, in their handshake and signed in.
    pub fn connections(&self) -> Counts {
        self.gate.total()
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        if let Some(uplink) = &self.uplink {
            uplink.close();
        }
        self.task.abort();
    }
}

fn bind(
    config: &BrokerConfig,
    gate: &Arc<Gate>,
) -> Result<(rmqtt::net::Listener, SocketAddr), BrokerError> {
    let admission = {
        let gate = gate.clone();
        Admission::new(move |peer| gate.admit(peer).ok().map(|p| Box::new(p) as Permit))
    };
    let builder = |addr: SocketAddr| {
        Builder::new()
            .name("mqtt")
            .laddr(addr)
            .allow_anonymous(false)
            .max_packet_size(config.max_packet_size)
            .max_inflight(NonZeroU16::new(config.max_inflight).unwrap_or(NonZeroU16::MIN))
            .max_mqueue_len(10_000)
            .session_expiry_interval(Duration::from_secs(2 * 3600))
            .message_expiry_interval(Duration::from_secs(24 * 3600))
            .reuseaddr(Some(true))
            .handshake_timeout(config.connect_timeout)
            .admission(admission.clone())
    };
    let first = builder(config.addr).bind().and_then(|l| l.tcp());
    let err = match first {
        Ok(l) => return Ok(with_addr(l, config.addr)),
        Err(e) => e,
    };
    if !config.fallback {
        return Err(BrokerError::Bind {
            addr: config.addr,
            reason: err.to_string(),
        });
    }
    let base = config.addr.port();
    let candidates = (1..=10)
        .filter_map(|i| base.checked_add(i))
        .chain(std::iter::once(0));
    for port in candidates {
        let addr = SocketAddr::new(config.addr.ip(), port);
        if let Ok(l) = builder(addr).bind().and_then(|l| l.tcp()) {
            let (l, bound) = with_addr(l, addr);
            tracing::warn!(wanted = %config.addr, %bound, %err, "MQTT address taken: listening elsewhere (set PORTAL_MQTT_ADDR to choose)");
            return Ok((l, bound));
        }
    }
    Err(BrokerError::Bind {
        addr: config.addr,
        reason: err.to_string(),
    })
}

fn with_addr(l: rmqtt::net::Listener, wanted: SocketAddr) -> (rmqtt::net::Listener, SocketAddr) {
    let addr = l.local_addr().unwrap_or(wanted);
    (l, addr)
}

/// The identity of an authenticated session (anonymous sessions are refused at connect).
fn identity(id: &Id) -> Option<Identity> {
    match id.username.as_deref() {
        Some(PORTAL_USER) => Some(Identity::Portal),
        Some(sn) => Some(Identity::Gateway(sn.to_string())),
        None => None,
    }
}

/// The ACL, and with an ingesting broker the place where a gateway's message is committed
/// before rmqtt acknowledges it.
struct Acl {
    uplink: Option<Arc<Uplink>>,
}

#[async_trait]
impl Handler for Acl {
    async fn hook(&self, param: &Parameter, acc: Option<HookResult>) -> ReturnType {
        match param {
            Parameter::ClientSubscribeCheckAcl(s, sub) => {
                let allowed = identity(&s.id).is_some_and(|i| i.may_subscribe(&sub.topic_filter));
                if allowed {
                    (true, acc)
                } else {
                    refused(s, "subscribe", &sub.topic_filter);
                    let r = SubscribeAclResult::new_failure(SubscribeAckReason::NotAuthorized);
                    (false, Some(HookResult::SubscribeAclResult(r)))
                }
            }
            Parameter::MessagePublishCheckAcl(s, p) => {
                let identity = identity(&s.id).filter(|i| i.may_publish(&p.topic));
                match (identity, &self.uplink) {
                    (None, _) => {
                        refused(s, "publish", &p.topic);
                        let r = PublishAclResult::rejected(false, None);
                        (false, Some(HookResult::PublishAclResult(r)))
                    }
                    (Some(Identity::Gateway(_)), Some(uplink)) => {
                        match uplink.take(&p.topic, &p.payload, false).await {
                            Outcome::Committed | Outcome::Dropped(_) => (true, acc),
                            Outcome::NotCommitted(_) => {
                                // No PUBACK: rmqtt closes the connection instead (an MQTT 5
                                // gateway gets a DISCONNECT with reason 0x80) and the gateway
                                // sends the message again after reconnecting. A negative PUBACK
                                // would end the exchange (MQTT 5) or read as success (3.1.1).
                                let r = PublishAclResult(PublishResult::reason_code(
                                    PublishAckReason::UnspecifiedError,
                                    Some("not committed, send it again".into()),
                                    true,
                                ));
                                (false, Some(HookResult::PublishAclResult(r)))
                            }
                        }
                    }
                    (Some(_), _) => (true, acc),
                }
            }
            _ => (true, acc),
        }
    }
}

/// Tells the gate when a connection has signed in, so it counts as established from then on,
/// and notes a gateway's sign-in time (with an ingesting broker), which tells a restart that
/// the gateway is back.
struct SignIns {
    gate: Arc<Gate>,
    heard: Option<Arc<Heard>>,
}

#[async_trait]
impl Handler for SignIns {
    async fn hook(&self, param: &Parameter, acc: Option<HookResult>) -> ReturnType {
        if let Parameter::ClientConnected(s) = param {
            if let Some(peer) = s.id.remote_addr {
                self.gate.signed_in(peer);
            }
            if let (Some(heard), Some(Identity::Gateway(sn))) = (&self.heard, identity(&s.id)) {
                heard.signed_in(&sn, super::now_ms());
            }
        }
        (true, acc)
    }
}

/// A gateway's last will (its offline status) is ingested too, as the broker publishes it;
/// except the will of a connection that a newer connection of the gateway has replaced (see
/// `takeover.rs`): rmqtt publishes it as the old connection ends, which can be after the new
/// one announced itself online, and it would then mark a connected gateway offline.
struct Wills {
    uplink: Arc<Uplink>,
}

#[async_trait]
impl Handler for Wills {
    async fn hook(&self, param: &Parameter, acc: Option<HookResult>) -> ReturnType {
        if let Parameter::MessagePublish(_, from, p) = param
            && matches!(from.typ(), FromType::LastWill)
            && identity(&from.id).is_some_and(|i| i.may_leave_will(&p.topic))
        {
            if self.uplink.takeovers.replaced(&from.id.client_id, &from.id) {
                metrics::counter!("portal_mqtt_replaced_wills_total").increment(1);
                tracing::info!(client = %from.id.client_id, "last will of a replaced connection ignored");
                return (true, acc);
            }
            // Nobody waits for a PUBACK here; a failure is counted and logged by `take`.
            let _ = self.uplink.take(&p.topic, &p.payload, true).await;
        }
        (true, acc)
    }
}

fn refused(s: &Session, what: &'static str, topic: &str) {
    metrics::counter!("portal_mqtt_acl_refused_total", "action" => what).increment(1);
    tracing::info!(client = %s.id.client_id, what, topic, "MQTT ACL refused");
}
