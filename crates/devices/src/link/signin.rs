//! Failed gateway sign-ins, counted in memory, and the locks they earn (security review: 27,284
//! wrong keys in 10 s were answered without a pause or a log line).
//!
//! Every failed CONNECT is counted three ways, each within [`SignInPolicy::window`] of its
//! first failure:
//! - the (address, SN) pair: one source guessing one gateway's key. Locks soonest and longest,
//!   and touches nobody else: a misconfigured gateway behind a NAT locks only itself.
//! - the address, over any SNs: one source trying many gateways (or many keys spread over
//!   SNs). Locks later, as long as the pair.
//! - the SN, from any address: many sources guessing one gateway. Locks briefly, and never the
//!   address that last signed in as this SN successfully: an attacker must not keep the real
//!   gateway out for long (see docs/security.md).
//!
//! While a lock holds, a sign-in is refused without looking at the key at all, so a locked
//! attempt tells nothing about the key. Each lock of the same key lasts twice the last one, up
//! to a ceiling; a key idle for [`SignInPolicy::forget_after`] is forgotten. The tables are
//! bounded: at their cap, forgotten keys go first, then the least recently failing half.
//! Addresses count as in `gate.rs` (IPv4, IPv6 by /64).

use std::{
    collections::HashMap,
    hash::Hash,
    net::IpAddr,
    sync::Mutex,
    time::{Duration, Instant},
};

use super::gate::address_key;

/// When a count locks, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Failures within the window that start a lock.
    pub failures: u32,
    /// The first lock; each following one doubles, up to `longest`.
    pub first_lock: Duration,
    pub longest: Duration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignInPolicy {
    pub pair: Rule,
    pub address: Rule,
    pub sn: Rule,
    pub window: Duration,
    /// A key with no failure and no lock for this long is forgotten (its doubling starts over).
    pub forget_after: Duration,
    /// Keys kept per table.
    pub capacity: usize,
    /// Count pairs and addresses at all. Off behind a TLS proxy: every gateway then has the
    /// proxy's address, and an address count would let anyone lock every gateway out.
    pub per_address: bool,
}

impl Default for SignInPolicy {
    /// A gateway with the right key signs in at its first attempt; five wrong keys from one
    /// place are a configuration error or a guess, either way worth a pause. An address gets
    /// more room over many SNs (a NAT of many gateways, one or two misconfigured), an SN from
    /// everywhere more still but only briefly (see the module documentation).
    fn default() -> Self {
        SignInPolicy {
            pair: Rule {
                failures: 5,
                first_lock: Duration::from_secs(60),
                longest: Duration::from_secs(3600),
            },
            address: Rule {
                failures: 50,
                first_lock: Duration::from_secs(60),
                longest: Duration::from_secs(3600),
            },
            sn: Rule {
                failures: 20,
                first_lock: Duration::from_secs(5),
                longest: Duration::from_secs(60),
            },
            window: Duration::from_secs(600),
            forget_after: Duration::from_secs(2 * 3600),
            capacity: 100_000,
            per_address: true,
        }
    }
}

/// Which count refused a sign-in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Pair,
    Address,
    Sn,
}

impl Scope {
    pub fn label(self) -> &'static str {
        match self {
            Scope::Pair => "pair",
            Scope::Address => "address",
            Scope::Sn => "sn",
        }
    }
}

/// Log lines about failures and refusals are written at most this often, each with the counts
/// since the previous one: the first event of a burst is always logged, the rest summed up.
const LOG_EVERY: Duration = Duration::from_secs(10);

#[derive(Debug)]
pub struct SignInThrottle {
    policy: SignInPolicy,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    pairs: Table<(IpAddr, String)>,
    addresses: Table<IpAddr>,
    sns: Table<String>,
    /// The address each gateway last signed in from, which its SN's lock does not apply to.
    known: HashMap<String, IpAddr>,
    log: LogState,
}

#[derive(Debug, Default)]
struct LogState {
    at: Option<Instant>,
    failures: u64,
    refused: u64,
    locks: u64,
}

#[derive(Debug, Clone)]
struct Entry {
    window_start: Instant,
    failures: u32,
    locked_until: Option<Instant>,
    locks: u32,
    last: Instant,
}

impl Entry {
    fn new(now: Instant) -> Entry {
        Entry {
            window_start: now,
            failures: 0,
            locked_until: None,
            locks: 0,
            last: now,
        }
    }

    fn locked(&self, now: Instant) -> bool {
        self.locked_until.is_some_and(|until| now < until)
    }

    /// Counts a failure; `true` when it started a lock.
    fn fail(&mut self, rule: Rule, window: Duration, now: Instant) -> bool {
        self.last = now;
        if self.locked(now) {
            return false;
        }
        if now.duration_since(self.window_start) >= window {
            self.window_start = now;
            self.failures = 0;
        }
        self.failures += 1;
        if self.failures < rule.failures.max(1) {
            return false;
        }
        let doubled = rule
            .first_lock
            .saturating_mul(1u32 << self.locks.min(16))
            .min(rule.longest);
        self.locks = self.locks.saturating_add(1);
        self.locked_until = Some(now + doubled);
        self.failures = 0;
        self.window_start = now;
        true
    }
}

#[derive(Debug)]
struct Table<K> {
    entries: HashMap<K, Entry>,
}

impl<K> Default for Table<K> {
    fn default() -> Self {
        Table {
            entries: HashMap::new(),
        }
    }
}

impl<K: Hash + Eq + Clone> Table<K> {
    fn locked(&self, key: &K, now: Instant) -> bool {
        self.entries.get(key).is_some_and(|e| e.locked(now))
    }

    fn entry(&mut self, key: &K, policy: &SignInPolicy, now: Instant) -> &mut Entry {
        if !self.entries.contains_key(key) && self.entries.len() >= policy.capacity.max(2) {
            self.make_room(policy, now);
        }
        self.entries
            .entry(key.clone())
            .or_insert_with(|| Entry::new(now))
    }

    /// Forgets idle keys, and if the table is still full, the least recently failing half; at
    /// most once per half a table of new keys, so the cost per sign-in stays constant.
    fn make_room(&mut self, policy: &SignInPolicy, now: Instant) {
        let idle = policy.forget_after;
        self.entries
            .retain(|_, e| e.locked(now) || now.duration_since(e.last) < idle);
        if self.entries.len() < policy.capacity.max(2) {
            return;
        }
        let mut lasts: Vec<Instant> = self.entries.values().map(|e| e.last).collect();
        let middle = lasts.len() / 2;
        let (_, cut, _) = lasts.select_nth_unstable(middle);
        let cut = *cut;
        self.entries.retain(|_, e| e.last > cut);
    }

    fn forget(&mut self, key: &K) {
        self.entries.remove(key);
    }

    fn len(&self) -> usize {
        self.entries.len()
    }
}

impl SignInThrottle {
    pub fn new(policy: SignInPolicy) -> SignInThrottle {
        SignInThrottle {
            policy,
            state: Mutex::default(),
        }
    }

    /// Whether a sign-in from `ip` (as gateway `sn`, when the name is one) may be checked at
    /// all; `Err` names the lock that refuses it.
    pub fn check(&self, ip: IpAddr, sn: Option<&str>, now: Instant) -> Result<(), Scope> {
        let ip = address_key(ip);
        let per_address = self.policy.per_address;
        let mut state = self.lock();
        let refusal = if per_address && state.addresses.locked(&ip, now) {
            Some(Scope::Address)
        } else if let Some(sn) = sn {
            if per_address && state.pairs.locked(&(ip, sn.to_string()), now) {
                Some(Scope::Pair)
            } else if state.sns.locked(&sn.to_string(), now)
                && !(per_address && state.known.get(sn) == Some(&ip))
            {
                Some(Scope::Sn)
            } else {
                None
            }
        } else {
            None
        };
        let Some(scope) = refusal else {
            return Ok(());
        };
        metrics::counter!("portal_mqtt_signin_refused_total", "scope" => scope.label())
            .increment(1);
        state.log.refused += 1;
        log(&mut state.log, ip, sn, now);
        Err(scope)
    }

    /// A sign-in from `ip` failed (wrong key, unknown SN, a name that is no SN: `sn` `None`).
    pub fn failed(&self, ip: IpAddr, sn: Option<&str>, now: Instant) {
        let ip = address_key(ip);
        let policy = self.policy;
        let mut state = self.lock();
        let mut locked = Vec::new();
        if policy.per_address
            && state
                .addresses
                .entry(&ip, &policy, now)
                .fail(policy.address, policy.window, now)
        {
            locked.push(Scope::Address);
        }
        if let Some(sn) = sn {
            if policy.per_address
                && state.pairs.entry(&(ip, sn.to_string()), &policy, now).fail(
                    policy.pair,
                    policy.window,
                    now,
                )
            {
                locked.push(Scope::Pair);
            }
            if state
                .sns
                .entry(&sn.to_string(), &policy, now)
                .fail(policy.sn, policy.window, now)
            {
                locked.push(Scope::Sn);
            }
        }
        metrics::counter!("portal_mqtt_signin_failures_total").increment(1);
        for scope in &locked {
            metrics::counter!("portal_mqtt_signin_locks_total", "scope" => scope.label())
                .increment(1);
        }
        state.log.failures += 1;
        state.log.locks += locked.len() as u64;
        log(&mut state.log, ip, sn, now);
    }

    /// Gateway `sn` signed in from `ip`: its pair starts over, and the SN's lock will not
    /// apply to this address.
    pub fn succeeded(&self, ip: IpAddr, sn: &str) {
        let ip = address_key(ip);
        let capacity = self.policy.capacity.max(2);
        let mut state = self.lock();
        state.pairs.forget(&(ip, sn.to_string()));
        if state.known.get(sn) == Some(&ip) {
            return;
        }
        if state.known.len() >= capacity {
            // Any half: a gateway forgotten here only loses its exemption from a short lock.
            let mut keep = false;
            state.known.retain(|_, _| {
                keep = !keep;
                keep
            });
        }
        state.known.insert(sn.to_string(), ip);
    }

    /// Keys held now (pairs, addresses, SNs, known addresses of SNs).
    pub fn sizes(&self) -> [usize; 4] {
        let state = self.lock();
        [
            state.pairs.len(),
            state.addresses.len(),
            state.sns.len(),
            state.known.len(),
        ]
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // Every statement leaves the tables consistent, so a panic elsewhere leaves them usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn log(log: &mut LogState, ip: IpAddr, sn: Option<&str>, now: Instant) {
    if log.at.is_some_and(|at| now.duration_since(at) < LOG_EVERY) {
        return;
    }
    tracing::warn!(
        address = %ip,
        sn = sn.unwrap_or("-"),
        failures = log.failures,
        refused = log.refused,
        locks = log.locks,
        "MQTT sign-ins failed or refused while locked (counts since the last such line; this one the latest)"
    );
    *log = LogState {
        at: Some(now),
        ..LogState::default()
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))
    }

    fn small() -> SignInPolicy {
        SignInPolicy {
            pair: Rule {
                failures: 3,
                first_lock: Duration::from_secs(10),
                longest: Duration::from_secs(35),
            },
            address: Rule {
                failures: 10,
                first_lock: Duration::from_secs(10),
                longest: Duration::from_secs(100),
            },
            sn: Rule {
                failures: 5,
                first_lock: Duration::from_secs(2),
                longest: Duration::from_secs(4),
            },
            window: Duration::from_secs(60),
            forget_after: Duration::from_secs(300),
            capacity: 8,
            per_address: true,
        }
    }

    #[test]
    fn a_pair_locks_after_its_failures_and_the_next_lock_lasts_twice_as_long() {
        let t = SignInThrottle::new(small());
        let start = Instant::now();
        let a = ip("10.0.0.1");
        for _ in 0..3 {
            assert_eq!(t.check(a, Some("GW1"), start), Ok(()));
            t.failed(a, Some("GW1"), start);
        }
        assert_eq!(t.check(a, Some("GW1"), start), Err(Scope::Pair));
        assert_eq!(t.check(a, Some("GW2"), start), Ok(()), "other SNs pass");
        assert_eq!(t.check(ip("10.0.0.2"), Some("GW1"), start), Ok(()));
        let later = start + Duration::from_secs(10);
        assert_eq!(t.check(a, Some("GW1"), later), Ok(()));
        for _ in 0..3 {
            t.failed(a, Some("GW1"), later);
        }
        assert_eq!(
            t.check(a, Some("GW1"), later + Duration::from_secs(19)),
            Err(Scope::Pair)
        );
        assert_eq!(
            t.check(a, Some("GW1"), later + Duration::from_secs(20)),
            Ok(())
        );
    }

    #[test]
    fn failures_outside_the_window_start_a_new_count() {
        let t = SignInThrottle::new(small());
        let start = Instant::now();
        let a = ip("10.0.0.1");
        t.failed(a, Some("GW1"), start);
        t.failed(a, Some("GW1"), start);
        let later = start + Duration::from_secs(61);
        t.failed(a, Some("GW1"), later);
        assert_eq!(t.check(a, Some("GW1"), later), Ok(()));
    }

    #[test]
    fn an_address_locks_over_many_sns_and_ipv6_counts_by_its_64() {
        let t = SignInThrottle::new(small());
        let now = Instant::now();
        for i in 0..10 {
            t.failed(
                ip(&format!("2001:db8:0:1::{i}")),
                Some(&format!("GW{i}")),
                now,
            );
        }
        assert_eq!(
            t.check(ip("2001:db8:0:1::ff"), Some("OTHER"), now),
            Err(Scope::Address)
        );
        assert_eq!(t.check(ip("2001:db8:0:2::1"), Some("OTHER"), now), Ok(()));
    }

    #[test]
    fn an_sn_lock_is_short_and_spares_the_address_it_last_signed_in_from() {
        let t = SignInThrottle::new(small());
        let now = Instant::now();
        t.succeeded(ip("192.0.2.1"), "GW1");
        for i in 0..5 {
            t.failed(ip(&format!("10.0.1.{i}")), Some("GW1"), now);
        }
        assert_eq!(t.check(ip("10.0.2.1"), Some("GW1"), now), Err(Scope::Sn));
        assert_eq!(t.check(ip("192.0.2.1"), Some("GW1"), now), Ok(()));
        assert_eq!(
            t.check(ip("10.0.2.1"), Some("GW1"), now + Duration::from_secs(2)),
            Ok(())
        );
    }

    #[test]
    fn success_clears_its_pair_only() {
        let t = SignInThrottle::new(small());
        let now = Instant::now();
        let a = ip("10.0.0.1");
        t.failed(a, Some("GW1"), now);
        t.failed(a, Some("GW1"), now);
        t.succeeded(a, "GW1");
        t.failed(a, Some("GW1"), now);
        assert_eq!(t.check(a, Some("GW1"), now), Ok(()));
    }

    #[test]
    fn without_per_address_counting_only_the_sn_locks_and_spares_no_address() {
        let t = SignInThrottle::new(SignInPolicy {
            per_address: false,
            ..small()
        });
        let now = Instant::now();
        let proxy = ip("127.0.0.1");
        t.succeeded(proxy, "GW1");
        for i in 0..20 {
            t.failed(proxy, Some(&format!("GW{}", i + 2)), now);
        }
        assert_eq!(t.check(proxy, Some("GW1"), now), Ok(()), "no address lock");
        for _ in 0..5 {
            t.failed(proxy, Some("GW1"), now);
        }
        assert_eq!(t.check(proxy, Some("GW1"), now), Err(Scope::Sn));
        assert_eq!(t.sizes()[..2], [0, 0]);
    }

    #[test]
    fn the_tables_stay_within_their_cap_under_many_sources() {
        let t = SignInThrottle::new(small());
        let now = Instant::now();
        for i in 0..1000u32 {
            let at = now + Duration::from_millis(u64::from(i));
            let a = IpAddr::from(i.to_be_bytes());
            t.failed(a, Some(&format!("SN{i}")), at);
            t.succeeded(a, &format!("OK{i}"));
        }
        let sizes = t.sizes();
        assert!(sizes.iter().all(|&n| n <= 8), "{sizes:?}");
    }
}
