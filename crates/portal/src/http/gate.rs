//! Who may hold an HTTP connection, counted at accept: at most `per_address` connections per
//! source address (an IPv4 address, or an IPv6 /64, as the device broker's gate counts them)
//! and at most `total` in all. A refused connection is closed at once, before anything is read
//! from it, and counted in `portal_http_connections_refused_total{listener,reason}`; the
//! connections held are the gauge `portal_http_connections{listener}` (`public` or `metrics`).
//!
//! The accept loop asks [`Gate::admit`] under one short lock and never waits; the [`Permit`]
//! travels with the connection and gives its place back when dropped, however it ends.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use devices::link::gate::address_key;

/// Why a connection was refused at accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Its address already holds `per_address` connections.
    PerAddress,
    /// The portal already holds `total` connections.
    Total,
}

impl Refusal {
    pub fn label(self) -> &'static str {
        match self {
            Refusal::PerAddress => "per_address",
            Refusal::Total => "total",
        }
    }
}

/// Refusals are logged at most this often (with the number since the last line): a peer that
/// opens connections in a loop must not flood the log.
const LOG_EVERY: Duration = Duration::from_secs(60);

#[derive(Debug)]
pub struct Gate {
    /// Which listener this gate admits to, as its metrics' label.
    listener: &'static str,
    per_address: u32,
    total: u32,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    by_address: HashMap<IpAddr, u32>,
    total: u32,
    refused_since_log: u64,
    logged_at: Option<Instant>,
}

/// A connection's place at the gate, given back when dropped.
#[derive(Debug)]
pub struct Permit {
    gate: Arc<Gate>,
    key: IpAddr,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut state = self.gate.lock();
        state.total = state.total.saturating_sub(1);
        if let Some(n) = state.by_address.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                state.by_address.remove(&self.key);
            }
        }
        metrics::gauge!("portal_http_connections", "listener" => self.gate.listener)
            .set(f64::from(state.total));
    }
}

impl Gate {
    pub fn new(listener: &'static str, per_address: u32, total: u32) -> Arc<Gate> {
        Arc::new(Gate {
            listener,
            per_address,
            total,
            state: Mutex::default(),
        })
    }

    /// Admits a new connection from `ip`, or refuses it.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Permit, Refusal> {
        let key = address_key(ip);
        let mut state = self.lock();
        let of_address = state.by_address.get(&key).copied().unwrap_or(0);
        let refusal = if of_address >= self.per_address {
            Some(Refusal::PerAddress)
        } else if state.total >= self.total {
            Some(Refusal::Total)
        } else {
            None
        };
        if let Some(refusal) = refusal {
            metrics::counter!(
                "portal_http_connections_refused_total",
                "listener" => self.listener,
                "reason" => refusal.label()
            )
            .increment(1);
            state.refused_since_log += 1;
            if state.logged_at.is_none_or(|at| at.elapsed() >= LOG_EVERY) {
                tracing::warn!(
                    listener = self.listener,
                    address = %key,
                    reason = refusal.label(),
                    refused = state.refused_since_log,
                    "HTTP connections refused at accept (count since the last such line)"
                );
                state.refused_since_log = 0;
                state.logged_at = Some(Instant::now());
            }
            return Err(refusal);
        }
        *state.by_address.entry(key).or_default() += 1;
        state.total += 1;
        metrics::gauge!("portal_http_connections", "listener" => self.listener)
            .set(f64::from(state.total));
        Ok(Permit {
            gate: self.clone(),
            key,
        })
    }

    /// Connections held by `ip`'s address (its /64 for IPv6), and in all.
    #[cfg(test)]
    fn held(&self, ip: IpAddr) -> (u32, u32) {
        let state = self.lock();
        let of = state.by_address.get(&address_key(ip)).copied();
        (of.unwrap_or(0), state.total)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // The state stays consistent between statements, so a panic elsewhere leaves it usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))
    }

    #[test]
    fn an_address_holds_at_most_its_bound_and_others_are_not_affected() {
        let g = Gate::new("test", 2, 100);
        let a = g.admit(ip("10.0.0.1"));
        let b = g.admit(ip("10.0.0.1"));
        assert!(a.is_ok() && b.is_ok());
        assert_eq!(g.admit(ip("10.0.0.1")).err(), Some(Refusal::PerAddress));
        assert!(g.admit(ip("10.0.0.2")).is_ok());
        drop(a);
        let c = g.admit(ip("10.0.0.1"));
        assert!(c.is_ok(), "a place came back");
        assert_eq!(g.held(ip("10.0.0.1")), (2, 2));
    }

    #[test]
    fn the_total_bound_holds_over_all_addresses_and_places_come_back() {
        let g = Gate::new("test", 10, 3);
        let held: Vec<_> = (1..=3)
            .map(|i| g.admit(IpAddr::from([10, 0, 0, i])))
            .collect();
        assert!(held.iter().all(Result::is_ok));
        assert_eq!(g.admit(ip("10.0.0.9")).err(), Some(Refusal::Total));
        drop(held);
        assert_eq!(g.held(ip("10.0.0.1")), (0, 0));
        assert!(g.lock().by_address.is_empty());
        assert!(g.admit(ip("10.0.0.9")).is_ok());
    }

    #[test]
    fn ipv6_peers_count_by_their_64_and_mapped_ipv4_as_ipv4() {
        let g = Gate::new("test", 1, 10);
        let first = g.admit(ip("2001:db8:1:2::1"));
        assert!(first.is_ok());
        assert_eq!(
            g.admit(ip("2001:db8:1:2:ffff::9")).err(),
            Some(Refusal::PerAddress)
        );
        assert!(g.admit(ip("2001:db8:1:3::1")).is_ok());
        let v4 = g.admit(ip("192.0.2.7"));
        assert!(v4.is_ok());
        assert_eq!(
            g.admit(ip("::ffff:192.0.2.7")).err(),
            Some(Refusal::PerAddress)
        );
    }
}
