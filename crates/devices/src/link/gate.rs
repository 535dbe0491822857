//! Who may hold a connection to the embedded broker, counted per source address at accept.
//!
//! A connection is *in its handshake* from accept until it has signed in (CONNECT accepted),
//! then *established* until it closes. Per source address (an IPv4 address, or an IPv6 /64, the
//! block one subscriber gets) the gate admits at most `handshakes_per_address` connections in
//! their handshake, a strict bound (a gateway signs in within a round trip or two, and the
//! broker closes a connection that has not done so by its CONNECT deadline), and at most
//! `connections_per_address` in all, a loose one: many genuine gateways can share one public
//! address behind carrier-grade NAT. A refused connection is closed at once, before anything is
//! read from it, and counted in `portal_mqtt_connections_refused_total{reason}`.
//!
//! The broker's listener calls [`Gate::admit`] inside its accept loop, so the gate decides
//! under one short lock and never waits. The [`Permit`] it hands out travels with the
//! connection and gives its place back when dropped, however the connection ends.

use std::{
    collections::HashMap,
    net::{IpAddr, Ipv6Addr, SocketAddr},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

/// Per-address bounds; see the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub handshakes_per_address: u32,
    pub connections_per_address: u32,
}

impl Default for Limits {
    /// 64 in their handshake: a handshake lasts a round trip or two, and carrier-grade NAT
    /// commonly puts a few dozen subscribers on one public address, so even all of them
    /// reconnecting at once rarely meet it (and a refused gateway retries). 5000 in all: a large
    /// site or a NAT with thousands of gateways behind one address.
    fn default() -> Self {
        Limits {
            handshakes_per_address: 64,
            connections_per_address: 5000,
        }
    }
}

/// Connections of one address, or of all, by phase.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub handshaking: u32,
    pub established: u32,
}

/// Why a connection was refused at accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Its address already has `handshakes_per_address` connections in their handshake.
    Handshakes,
    /// Its address already has `connections_per_address` connections.
    Connections,
}

impl Refusal {
    pub fn label(self) -> &'static str {
        match self {
            Refusal::Handshakes => "handshakes_per_address",
            Refusal::Connections => "connections_per_address",
        }
    }
}

/// Refusals are logged at most this often (with the number since the last line): a peer that
/// opens connections in a loop must not flood the log.
const LOG_EVERY: Duration = Duration::from_secs(60);

#[derive(Debug)]
pub struct Gate {
    limits: Limits,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    by_address: HashMap<IpAddr, Counts>,
    /// The connection behind each peer socket address, so that sign-in (which knows only the
    /// address) finds its permit's slot.
    slots: HashMap<SocketAddr, Arc<Slot>>,
    refused_since_log: u64,
    logged_at: Option<Instant>,
}

/// One connection's phase. Changed only under the gate's lock.
#[derive(Debug, Default)]
struct Slot {
    established: AtomicBool,
}

/// A connection's place at the gate, given back when dropped.
#[derive(Debug)]
pub struct Permit {
    gate: Arc<Gate>,
    peer: SocketAddr,
    slot: Arc<Slot>,
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.gate.release(self);
    }
}

impl Gate {
    pub fn new(limits: Limits) -> Arc<Gate> {
        Arc::new(Gate {
            limits,
            state: Mutex::default(),
        })
    }

    /// Admits a new connection from `peer` in its handshake, or refuses it.
    pub fn admit(self: &Arc<Self>, peer: SocketAddr) -> Result<Permit, Refusal> {
        let mut state = self.lock();
        let key = address_key(peer.ip());
        let counts = state.by_address.get(&key).copied().unwrap_or_default();
        let refusal = if counts.handshaking >= self.limits.handshakes_per_address {
            Some(Refusal::Handshakes)
        } else if counts.handshaking + counts.established >= self.limits.connections_per_address {
            Some(Refusal::Connections)
        } else {
            None
        };
        if let Some(refusal) = refusal {
            metrics::counter!("portal_mqtt_connections_refused_total", "reason" => refusal.label())
                .increment(1);
            state.refused_since_log += 1;
            if state.logged_at.is_none_or(|at| at.elapsed() >= LOG_EVERY) {
                tracing::warn!(
                    address = %key,
                    reason = refusal.label(),
                    refused = state.refused_since_log,
                    "MQTT connections refused at accept (count since the last such line)"
                );
                state.refused_since_log = 0;
                state.logged_at = Some(Instant::now());
            }
            return Err(refusal);
        }
        state.by_address.entry(key).or_default().handshaking += 1;
        let slot = Arc::new(Slot::default());
        // A second live connection from the same socket address (to another local address of
        // a wildcard listener) takes the entry; each permit still counts by its own slot.
        state.slots.insert(peer, slot.clone());
        Ok(Permit {
            gate: self.clone(),
            peer,
            slot,
        })
    }

    /// The connection from `peer` has signed in: it no longer counts as in its handshake.
    pub fn signed_in(&self, peer: SocketAddr) {
        let mut state = self.lock();
        let Some(slot) = state.slots.get(&peer).cloned() else {
            return;
        };
        if slot.established.swap(true, Ordering::Relaxed) {
            return;
        }
        let counts = state.by_address.entry(address_key(peer.ip())).or_default();
        counts.handshaking = counts.handshaking.saturating_sub(1);
        counts.established += 1;
    }

    /// Connections of every address.
    pub fn total(&self) -> Counts {
        let state = self.lock();
        state
            .by_address
            .values()
            .fold(Counts::default(), |sum, c| Counts {
                handshaking: sum.handshaking + c.handshaking,
                established: sum.established + c.established,
            })
    }

    /// Connections of `ip`'s address (its /64 for IPv6).
    pub fn of(&self, ip: IpAddr) -> Counts {
        let state = self.lock();
        state
            .by_address
            .get(&address_key(ip))
            .copied()
            .unwrap_or_default()
    }

    fn release(&self, permit: &Permit) {
        let mut state = self.lock();
        if state
            .slots
            .get(&permit.peer)
            .is_some_and(|s| Arc::ptr_eq(s, &permit.slot))
        {
            state.slots.remove(&permit.peer);
        }
        let key = address_key(permit.peer.ip());
        let Some(counts) = state.by_address.get_mut(&key) else {
            return;
        };
        if permit.slot.established.load(Ordering::Relaxed) {
            counts.established = counts.established.saturating_sub(1);
        } else {
            counts.handshaking = counts.handshaking.saturating_sub(1);
        }
        if *counts == Counts::default() {
            state.by_address.remove(&key);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // The state stays consistent between statements, so a panic elsewhere leaves it usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The address connections are counted under: IPv4 (also when mapped into IPv6) as is, IPv6 by
/// its /64 network, since one subscriber gets a whole /64 and could pick any address in it.
pub(crate) fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(handshakes: u32, connections: u32) -> Arc<Gate> {
        Gate::new(Limits {
            handshakes_per_address: handshakes,
            connections_per_address: connections,
        })
    }

    fn peer(addr: &str) -> SocketAddr {
        addr.parse()
            .unwrap_or_else(|_| SocketAddr::from(([0, 0, 0, 0], 0)))
    }

    #[test]
    fn an_address_holds_at_most_its_bound_of_handshakes_and_others_are_not_affected() {
        let g = gate(2, 100);
        let a = g.admit(peer("10.0.0.1:1000"));
        let b = g.admit(peer("10.0.0.1:1001"));
        assert!(a.is_ok() && b.is_ok());
        assert_eq!(
            g.admit(peer("10.0.0.1:1002")).err(),
            Some(Refusal::Handshakes)
        );
        assert!(g.admit(peer("10.0.0.2:1000")).is_ok());
        drop(a);
        assert!(g.admit(peer("10.0.0.1:1003")).is_ok(), "a place came back");
    }

    #[test]
    fn signed_in_connections_leave_room_for_handshakes_up_to_the_looser_bound() {
        let g = gate(2, 3);
        let mut held = Vec::new();
        for port in 1..=3u16 {
            let p = SocketAddr::from(([10, 0, 0, 1], port));
            held.push(g.admit(p));
            g.signed_in(p);
        }
        assert!(held.iter().all(Result::is_ok));
        assert_eq!(
            g.of(peer("10.0.0.1:0").ip()),
            Counts {
                handshaking: 0,
                established: 3
            }
        );
        assert_eq!(
            g.admit(peer("10.0.0.1:9")).err(),
            Some(Refusal::Connections)
        );
        held.pop();
        assert!(g.admit(peer("10.0.0.1:9")).is_ok());
    }

    #[test]
    fn dropped_permits_give_back_their_place_whatever_their_phase() {
        let g = gate(10, 10);
        let a = g.admit(peer("10.0.0.1:1"));
        let b = g.admit(peer("10.0.0.1:2"));
        g.signed_in(peer("10.0.0.1:2"));
        g.signed_in(peer("10.0.0.1:2"));
        assert_eq!(
            g.total(),
            Counts {
                handshaking: 1,
                established: 1
            }
        );
        drop(a);
        drop(b);
        assert_eq!(g.total(), Counts::default());
        assert!(g.lock().by_address.is_empty() && g.lock().slots.is_empty());
        // Signing in after the connection ended changes nothing.
        g.signed_in(peer("10.0.0.1:2"));
        assert_eq!(g.total(), Counts::default());
    }

    #[test]
    fn ipv6_peers_count_by_their_64_and_mapped_ipv4_as_ipv4() {
        let g = gate(1, 10);
        let first = g.admit(peer("[2001:db8:1:2::1]:1"));
        assert!(first.is_ok());
        assert_eq!(
            g.admit(peer("[2001:db8:1:2:ffff::9]:1")).err(),
            Some(Refusal::Handshakes)
        );
        assert!(g.admit(peer("[2001:db8:1:3::1]:1")).is_ok());
        let v4 = g.admit(peer("192.0.2.7:1"));
        assert!(v4.is_ok());
        assert_eq!(
            g.admit(peer("[::ffff:192.0.2.7]:2")).err(),
            Some(Refusal::Handshakes)
        );
    }
}
