//! Backoff at the doors where names and passwords are guessed (logging in, registering, the
//! current password asked for a new one, which counts with the logins of its account's name):
//! after a few failed attempts for one account name, or from one client address, each further
//! attempt has to wait twice as long as the one before, up to a cap.
//!
//! An attempt counts as failed from the moment it starts and is forgiven only when it succeeds,
//! so a burst of parallel guesses is counted in full before any of them is checked, and a guess
//! whose client hangs up halfway still counts. A success clears its name's record and takes back
//! its own count from its address, but not the address's earlier failures: someone guessing
//! from an address where they also have an account could otherwise wipe the record of their
//! guesses by signing in between them. A refused attempt checks nothing and counts nothing.
//!
//! Every name is counted, existing or not, so a wait says nothing about whether a name exists.
//! Names are kept as digests (a long name costs no more memory than a short one), IPv6
//! addresses by their /64 (one host usually holds a whole /64). The table holds at most
//! `capacity` records: when it is full, records whose wait and memory have both passed go first,
//! then the older half of the rest.
//!
//! Governor (GCRA rate limiting) was considered: it spaces requests evenly whether they fail or
//! not, where this needs failures counted, backoff growing with them and success forgiving them.

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};

use sha2::{Digest, Sha256};

use crate::clock::Clock;
use crate::domain::Error;

/// How failures for one name or one address are paced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// Failures allowed before any wait.
    pub free_failures: u32,
    /// The wait after the first failure beyond the free ones, in milliseconds; each further
    /// failure doubles it.
    pub first_wait_ms: i64,
    pub max_wait_ms: i64,
    /// Failures are forgotten after this long without another.
    pub forget_after_ms: i64,
}

impl Backoff {
    /// The wait after the `failures`th failure.
    fn wait_after(&self, failures: u32) -> i64 {
        match failures.checked_sub(self.free_failures) {
            None | Some(0) => 0,
            Some(beyond) => {
                let doublings = (beyond - 1).min(62);
                self.first_wait_ms
                    .saturating_mul(1 << doublings)
                    .min(self.max_wait_ms)
            }
        }
    }
}

/// What a [`Throttle`] allows, and how much it remembers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThrottleLimits {
    pub per_name: Backoff,
    /// Looser than per name: a classroom behind one NAT address shares it.
    pub per_address: Backoff,
    /// Records kept at most (names and addresses together).
    pub capacity: usize,
}

const SECOND_MS: i64 = 1000;
const MINUTE_MS: i64 = 60 * SECOND_MS;

impl Default for ThrottleLimits {
    fn default() -> Self {
        let backoff = |free_failures| Backoff {
            free_failures,
            first_wait_ms: SECOND_MS,
            max_wait_ms: 15 * MINUTE_MS,
            forget_after_ms: 60 * MINUTE_MS,
        };
        ThrottleLimits {
            per_name: backoff(5),
            per_address: backoff(20),
            capacity: 100_000,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Name([u8; 32]),
    Address(IpAddr),
}

impl Key {
    /// By the account the name signs in to: "Ana" and "ana" share one record, or every
    /// spelling of a name would get attempts of its own.
    fn name(name: &str) -> Key {
        Key::Name(Sha256::digest(grundy_store::name_key(name).as_bytes()).into())
    }

    /// IPv4 as it is (also when mapped into IPv6), IPv6 by its /64.
    fn address(address: IpAddr) -> Key {
        let address = match address {
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => {
                    let mut segments = v6.segments();
                    segments[4..].fill(0);
                    IpAddr::from(segments)
                }
            },
            v4 => v4,
        };
        Key::Address(address)
    }
}

#[derive(Debug, Clone, Copy)]
struct Record {
    failures: u32,
    last_failure: i64,
    blocked_until: i64,
}

/// Failed attempts per account name and per client address, with the waits they have earned.
pub struct Throttle {
    limits: ThrottleLimits,
    clock: Clock,
    records: Mutex<HashMap<Key, Record>>,
}

impl std::fmt::Debug for Throttle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Throttle")
            .field("limits", &self.limits)
            .field("records", &self.records().len())
            .finish()
    }
}

/// Refused until later: try again after this many seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wait {
    pub retry_after_secs: u64,
}

impl From<Wait> for Error {
    fn from(wait: Wait) -> Error {
        Error::Throttled {
            what: "too many failed attempts for this name or from this address",
            retry_after_secs: wait.retry_after_secs,
        }
    }
}

/// An attempt under way, already counted as a failure; [`Attempt::succeeded`] forgives it.
#[derive(Debug)]
#[must_use = "an attempt that is not marked as succeeded stays counted as a failure"]
pub struct Attempt<'a> {
    throttle: &'a Throttle,
    name: Key,
    address: Option<Key>,
}

impl Throttle {
    pub fn new(limits: ThrottleLimits, clock: Clock) -> Throttle {
        Throttle {
            limits,
            clock,
            records: Mutex::new(HashMap::new()),
        }
    }

    /// Starts an attempt for `name` from `address` (unknown when the server was not told
    /// peers' addresses: then only the name is counted), or says how long to wait first.
    pub fn attempt(&self, name: &str, address: Option<IpAddr>) -> Result<Attempt<'_>, Wait> {
        let now = self.clock.now();
        let name = Key::name(name);
        let address = address.map(Key::address);
        let keys = std::iter::once(&name).chain(address.as_ref());
        let mut records = self.records();
        let blocked_until = keys
            .clone()
            .filter_map(|key| records.get(key))
            .map(|record| record.blocked_until)
            .max()
            .unwrap_or(0);
        if blocked_until > now {
            let wait_ms = (blocked_until - now) as u64;
            return Err(Wait {
                retry_after_secs: wait_ms.div_ceil(1000),
            });
        }
        self.make_room(&mut records, now, 1 + usize::from(address.is_some()));
        for key in keys {
            let backoff = self.backoff(key);
            let record = records.entry(key.clone()).or_insert(Record {
                failures: 0,
                last_failure: now,
                blocked_until: 0,
            });
            if forgotten(record, backoff, now) {
                record.failures = 0;
            }
            record.failures = record.failures.saturating_add(1);
            record.last_failure = now;
            let wait = backoff.wait_after(record.failures);
            if wait > 0 {
                record.blocked_until = now.saturating_add(wait);
            }
        }
        Ok(Attempt {
            throttle: self,
            name,
            address,
        })
    }

    /// Runs `operation` as an attempt for `name` from `address`, unless they must wait first
    /// ([`Error::Throttled`]); a success is forgiven.
    pub async fn guard<T>(
        &self,
        name: &str,
        address: Option<IpAddr>,
        operation: impl Future<Output = Result<T, Error>>,
    ) -> Result<T, Error> {
        let attempt = self.attempt(name, address)?;
        let outcome = operation.await;
        if outcome.is_ok() {
            attempt.succeeded();
        }
        outcome
    }

    fn backoff(&self, key: &Key) -> &Backoff {
        match key {
            Key::Name(_) => &self.limits.per_name,
            Key::Address(_) => &self.limits.per_address,
        }
    }

    /// Keeps the table under its capacity with `incoming` more records: forgotten records go
    /// first, then the older half of the rest.
    fn make_room(&self, records: &mut HashMap<Key, Record>, now: i64, incoming: usize) {
        if records.len() + incoming <= self.limits.capacity {
            return;
        }
        records.retain(|key, record| !forgotten(record, self.backoff(key), now));
        if records.len() + incoming <= self.limits.capacity {
            return;
        }
        let mut by_age: Vec<(i64, Key)> = records
            .iter()
            .map(|(key, record)| (record.last_failure, key.clone()))
            .collect();
        let older = by_age.len() / 2 + incoming;
        let older = older.min(by_age.len());
        if older < by_age.len() {
            by_age.select_nth_unstable_by_key(older, |(last, _)| *last);
        }
        for (_, key) in &by_age[..older] {
            records.remove(key);
        }
    }

    fn records(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Record>> {
        // The table stays consistent whatever a panicking holder was doing: every change to a
        // record is complete before the next begins.
        self.records.lock().unwrap_or_else(PoisonError::into_inner)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.records().len()
    }
}

/// A record whose wait is over and whose last failure is long enough ago.
fn forgotten(record: &Record, backoff: &Backoff, now: i64) -> bool {
    record.blocked_until <= now
        && now.saturating_sub(record.last_failure) >= backoff.forget_after_ms
}

impl Attempt<'_> {
    /// The attempt succeeded: its name starts afresh, and its address gets back this attempt's
    /// count (with the wait it brought, if the address is within its free failures again).
    pub fn succeeded(self) {
        let mut records = self.throttle.records();
        records.remove(&self.name);
        let Some(address) = &self.address else {
            return;
        };
        let free = self.throttle.backoff(address).free_failures;
        if let Some(record) = records.get_mut(address) {
            record.failures = record.failures.saturating_sub(1);
            if record.failures <= free {
                record.blocked_until = 0;
            }
        }
    }
}

/// What [`Registrations`] refuses with.
pub const TOO_MANY_REGISTRATIONS: &str = "too many accounts registered from this address";

/// Accounts registered per client address in the last hour, while anyone may register: what a
/// script creating accounts in bulk meets (the failures that [`Throttle`] counts do not stop it,
/// since every registration of a new name succeeds). A class behind one NAT address registers
/// with an invitation code or is imported by its teacher, which this does not count.
///
/// A registration counts from the moment it starts and is taken back if it fails, so parallel
/// requests cannot all pass the check before any is counted.
pub struct Registrations {
    per_hour: u32,
    clock: Clock,
    /// The start of each registration in the last hour, oldest first, per address.
    starts: Mutex<HashMap<Key, std::collections::VecDeque<i64>>>,
    capacity: usize,
}

impl std::fmt::Debug for Registrations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registrations")
            .field("per_hour", &self.per_hour)
            .finish_non_exhaustive()
    }
}

const HOUR_MS: i64 = 60 * MINUTE_MS;

impl Registrations {
    /// At most `per_hour` registrations from one address in any hour (0: no limit), remembering
    /// at most `capacity` addresses.
    pub fn new(per_hour: u32, capacity: usize, clock: Clock) -> Registrations {
        Registrations {
            per_hour,
            clock,
            starts: Mutex::new(HashMap::new()),
            capacity,
        }
    }

    /// Runs `registration` from `address`, unless the address has had its share this hour
    /// ([`Error::Throttled`], with the wait until its oldest registration is an hour old). An
    /// unknown address (the server was not told peers' addresses) is not limited.
    pub async fn guard<T>(
        &self,
        address: Option<IpAddr>,
        registration: impl Future<Output = Result<T, Error>>,
    ) -> Result<T, Error> {
        let Some(address) = address.filter(|_| self.per_hour > 0) else {
            return registration.await;
        };
        let key = Key::address(address);
        let started = self.start(&key)?;
        let outcome = registration.await;
        if outcome.is_err() {
            self.take_back(&key, started);
        }
        outcome
    }

    fn start(&self, key: &Key) -> Result<i64, Error> {
        let now = self.clock.now();
        let mut starts = self.starts();
        if !starts.contains_key(key) && starts.len() >= self.capacity {
            starts.retain(|_, times| times.back().is_some_and(|&last| now - last < HOUR_MS));
            if starts.len() >= self.capacity {
                // Every remembered address registered within the hour: the table is full of
                // recent ones, and a new address waits rather than push one of them out.
                return Err(Wait {
                    retry_after_secs: 60,
                }
                .registrations());
            }
        }
        let times = starts.entry(key.clone()).or_default();
        while times.front().is_some_and(|&first| now - first >= HOUR_MS) {
            times.pop_front();
        }
        if times.len() >= self.per_hour as usize {
            let oldest = times.front().copied().unwrap_or(now);
            let wait_ms = (oldest + HOUR_MS - now).max(1) as u64;
            return Err(Wait {
                retry_after_secs: wait_ms.div_ceil(1000),
            }
            .registrations());
        }
        times.push_back(now);
        Ok(now)
    }

    fn take_back(&self, key: &Key, started: i64) {
        let mut starts = self.starts();
        if let Some(times) = starts.get_mut(key)
            && let Some(at) = times.iter().rposition(|&t| t == started)
        {
            times.remove(at);
        }
    }

    fn starts(&self) -> std::sync::MutexGuard<'_, HashMap<Key, std::collections::VecDeque<i64>>> {
        // Each change to an address's list is complete before the next begins.
        self.starts.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Wait {
    fn registrations(self) -> Error {
        Error::Throttled {
            what: TOO_MANY_REGISTRATIONS,
            retry_after_secs: self.retry_after_secs,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicI64, Ordering};

    use super::*;

    /// A throttle on a clock the test moves.
    fn on_clock(limits: ThrottleLimits) -> (Throttle, Arc<AtomicI64>) {
        let now = Arc::new(AtomicI64::new(1_000_000));
        let read = now.clone();
        let clock = Clock::from_fn(move || read.load(Ordering::SeqCst));
        (Throttle::new(limits, clock), now)
    }

    fn backoff(free_failures: u32) -> Backoff {
        Backoff {
            free_failures,
            first_wait_ms: 1000,
            max_wait_ms: 8000,
            forget_after_ms: 60_000,
        }
    }

    fn limits(per_name: u32, per_address: u32) -> ThrottleLimits {
        ThrottleLimits {
            per_name: backoff(per_name),
            per_address: backoff(per_address),
            capacity: 1000,
        }
    }

    const HOME: Option<IpAddr> = Some(IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1)));

    fn fail(throttle: &Throttle, name: &str, from: Option<IpAddr>) -> Result<(), Wait> {
        throttle.attempt(name, from).map(drop)
    }

    #[test]
    fn waits_double_after_the_free_failures_up_to_the_cap() {
        let (throttle, now) = on_clock(limits(2, 100));
        let mut waits = Vec::new();
        for _ in 0..7 {
            fail(&throttle, "ana", HOME).unwrap();
            match fail(&throttle, "ana", HOME) {
                Ok(()) => waits.push(0),
                Err(wait) => {
                    waits.push(wait.retry_after_secs);
                    now.fetch_add(wait.retry_after_secs as i64 * 1000, Ordering::SeqCst);
                }
            }
        }
        // Two free failures, a third free attempt that earns the first wait; then each refusal
        // comes after one more failure.
        assert_eq!(waits, [0, 1, 2, 4, 8, 8, 8]);
    }

    #[test]
    fn a_wait_ends_on_time_and_a_refusal_counts_nothing() {
        let (throttle, now) = on_clock(limits(1, 100));
        fail(&throttle, "ana", HOME).unwrap();
        fail(&throttle, "ana", HOME).unwrap();
        for _ in 0..5 {
            assert_eq!(
                fail(&throttle, "ana", HOME),
                Err(Wait {
                    retry_after_secs: 1
                })
            );
        }
        now.fetch_add(999, Ordering::SeqCst);
        assert!(fail(&throttle, "ana", HOME).is_err());
        now.fetch_add(1, Ordering::SeqCst);
        fail(&throttle, "ana", HOME).unwrap();
        assert_eq!(
            fail(&throttle, "ana", HOME),
            Err(Wait {
                retry_after_secs: 2
            }),
            "the refusals in between did not count"
        );
    }

    #[test]
    fn success_forgives_the_name_but_not_the_addresses_earlier_failures() {
        let (throttle, _) = on_clock(limits(2, 3));
        for name in ["bob", "cy", "dee"] {
            fail(&throttle, name, HOME).unwrap();
        }
        // The guesser signs in to their own account between guesses: no fresh start.
        throttle.attempt("eve", HOME).unwrap().succeeded();
        fail(&throttle, "fay", HOME).unwrap();
        assert!(fail(&throttle, "gus", HOME).is_err());

        let (throttle, _) = on_clock(limits(2, 100));
        fail(&throttle, "ana", HOME).unwrap();
        fail(&throttle, "ana", HOME).unwrap();
        throttle.attempt("ana", HOME).unwrap().succeeded();
        for _ in 0..3 {
            fail(&throttle, "ana", HOME).unwrap_or_else(|w| panic!("{w:?} after a success"));
        }
    }

    #[test]
    fn successes_from_one_address_never_add_up() {
        let (throttle, _) = on_clock(limits(2, 2));
        for i in 0..50 {
            throttle
                .attempt(&format!("student{i}"), HOME)
                .unwrap()
                .succeeded();
        }
        // Three at once from one classroom: the third earned a wait, which the success takes
        // back.
        let (a, b, c) = (
            throttle.attempt("a", HOME).unwrap(),
            throttle.attempt("b", HOME).unwrap(),
            throttle.attempt("c", HOME).unwrap(),
        );
        a.succeeded();
        b.succeeded();
        c.succeeded();
        throttle.attempt("d", HOME).unwrap().succeeded();
    }

    #[test]
    fn parallel_guesses_count_before_any_is_checked() {
        let (throttle, _) = on_clock(limits(3, 100));
        let started: Vec<_> = (0..4).map(|_| throttle.attempt("ana", HOME)).collect();
        assert!(started.iter().all(Result::is_ok));
        assert!(throttle.attempt("ana", HOME).is_err());
    }

    #[test]
    fn names_and_addresses_are_counted_apart() {
        let (throttle, _) = on_clock(limits(1, 1));
        let other = Some("198.51.100.7".parse().unwrap());
        fail(&throttle, "ana", HOME).unwrap();
        fail(&throttle, "ana", HOME).unwrap();
        // Ana is locked from anywhere; home is locked for any name.
        assert!(fail(&throttle, "ana", other).is_err());
        assert!(fail(&throttle, "bob", HOME).is_err());
        fail(&throttle, "bob", other).unwrap();
        // Without an address, only the name counts.
        fail(&throttle, "cy", None).unwrap();
        fail(&throttle, "cy", None).unwrap();
        assert!(fail(&throttle, "cy", None).is_err());
        fail(&throttle, "dee", None).unwrap();
    }

    #[test]
    fn an_ipv6_host_is_one_address_across_its_64() {
        let (throttle, _) = on_clock(limits(100, 1));
        let a = "2001:db8:1:2::1".parse().ok();
        let b = "2001:db8:1:2:ffff:ffff:ffff:ffff".parse().ok();
        let c = "2001:db8:1:3::1".parse().ok();
        fail(&throttle, "x", a).unwrap();
        fail(&throttle, "y", b).unwrap();
        assert!(fail(&throttle, "z", a).is_err());
        fail(&throttle, "z", c).unwrap();
        fail(&throttle, "v", HOME).unwrap();
        fail(&throttle, "w", "::ffff:192.0.2.1".parse().ok()).unwrap();
        assert!(fail(&throttle, "u", HOME).is_err(), "mapped IPv4 is IPv4");
    }

    #[test]
    fn forgotten_after_a_quiet_hour() {
        let (throttle, now) = on_clock(limits(1, 100));
        fail(&throttle, "ana", HOME).unwrap();
        fail(&throttle, "ana", HOME).unwrap();
        now.fetch_add(59_999, Ordering::SeqCst);
        fail(&throttle, "ana", HOME).unwrap();
        assert!(fail(&throttle, "ana", HOME).is_err(), "not yet forgotten");
        now.fetch_add(60_000, Ordering::SeqCst);
        fail(&throttle, "ana", HOME).unwrap();
        fail(&throttle, "ana", HOME).unwrap();
        assert!(fail(&throttle, "ana", HOME).is_err());
    }

    #[test]
    fn the_table_stays_bounded_however_many_names_are_tried() {
        let capacity = 64;
        let (throttle, now) = on_clock(ThrottleLimits {
            capacity,
            ..limits(1, 1_000_000)
        });
        for i in 0..10_000 {
            now.fetch_add(1, Ordering::SeqCst);
            fail(&throttle, &format!("sprayed-{i}"), HOME).unwrap();
            assert!(throttle.len() <= capacity, "{} records", throttle.len());
        }
    }

    fn lock(throttle: &Throttle, name: &str) {
        fail(throttle, name, None).unwrap();
        fail(throttle, name, None).unwrap();
        assert!(fail(throttle, name, None).is_err());
    }

    #[test]
    fn every_spelling_of_a_name_shares_its_record() {
        let (throttle, _) = on_clock(limits(1, 1_000_000));
        lock(&throttle, "đức");
        // Upper case, and "ứ" as "u" with a horn and an acute, as some keyboards send it.
        for spelling in ["ĐỨC", "\u{111}u\u{31b}\u{301}c"] {
            assert!(fail(&throttle, spelling, None).is_err(), "{spelling:?}");
        }
    }

    #[test]
    fn forgotten_records_make_room_before_live_ones() {
        let capacity = 64;
        let (throttle, now) = on_clock(ThrottleLimits {
            capacity,
            ..limits(1, 1_000_000)
        });
        for i in 0..capacity {
            fail(&throttle, &format!("old-{i}"), None).unwrap();
        }
        now.fetch_add(60_000, Ordering::SeqCst);
        lock(&throttle, "ana");
        for i in 0..capacity - 1 {
            fail(&throttle, &format!("new-{i}"), None).unwrap();
        }
        assert_eq!(throttle.len(), capacity);
        assert!(
            fail(&throttle, "ana", None).is_err(),
            "only the forgotten went"
        );
    }

    #[test]
    fn a_table_full_of_live_records_drops_its_older_half() {
        let capacity = 64;
        let (throttle, now) = on_clock(ThrottleLimits {
            capacity,
            ..limits(1, 1_000_000)
        });
        lock(&throttle, "ann");
        for i in 0..capacity - 3 {
            now.fetch_add(1, Ordering::SeqCst);
            fail(&throttle, &format!("live-{i}"), None).unwrap();
        }
        now.fetch_add(1, Ordering::SeqCst);
        lock(&throttle, "bea");
        now.fetch_add(1, Ordering::SeqCst);
        fail(&throttle, "last", None).unwrap();
        assert_eq!(throttle.len(), capacity);
        now.fetch_add(1, Ordering::SeqCst);
        fail(&throttle, "one-too-many", None).unwrap();
        assert!(throttle.len() <= capacity / 2 + 1);
        assert!(fail(&throttle, "bea", None).is_err(), "a recent lock stays");
        fail(&throttle, "ann", None).expect("the oldest lock went, though its wait was not over");
    }

    #[tokio::test]
    async fn registrations_from_one_address_are_limited_per_hour_and_failures_give_back() {
        let now = Arc::new(AtomicI64::new(1_000_000));
        let read = now.clone();
        let registrations =
            Registrations::new(3, 100, Clock::from_fn(move || read.load(Ordering::SeqCst)));
        let ok = || async { Ok::<(), Error>(()) };
        let fails = || async {
            Err::<(), Error>(Error::Conflict(
                "a user with this name already exists".into(),
            ))
        };
        for _ in 0..2 {
            registrations.guard(HOME, ok()).await.unwrap();
        }
        // A failed registration (a name taken, a wrong code) does not use up the address's share.
        assert!(matches!(
            registrations.guard(HOME, fails()).await,
            Err(Error::Conflict(_))
        ));
        registrations.guard(HOME, ok()).await.unwrap();
        now.fetch_add(10 * 60_000, Ordering::SeqCst);
        match registrations.guard(HOME, ok()).await {
            Err(Error::Throttled {
                what,
                retry_after_secs,
            }) => {
                assert_eq!(what, TOO_MANY_REGISTRATIONS);
                assert_eq!(retry_after_secs, 50 * 60);
            }
            other => panic!("{other:?}"),
        }
        // Another address, and an unknown one, are not held back by this one.
        let other = Some(IpAddr::V4(std::net::Ipv4Addr::new(198, 51, 100, 7)));
        registrations.guard(other, ok()).await.unwrap();
        registrations.guard(None, ok()).await.unwrap();
        // An hour after the first three, three more.
        now.fetch_add(50 * 60_000, Ordering::SeqCst);
        for _ in 0..3 {
            registrations.guard(HOME, ok()).await.unwrap();
        }
        assert!(registrations.guard(HOME, ok()).await.is_err());
    }
}
