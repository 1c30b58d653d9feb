//! News of judging, for those following a submission: a worker says "submission N changed",
//! and each follower re-reads the store, which is the truth. In-process only; a follower of a
//! worker on another machine re-reads the store every second instead. Each user may follow only
//! a few submissions at once ([`StreamSlots`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::{broadcast, watch};

/// Carries the ids of submissions that changed.
#[derive(Debug, Clone)]
pub struct Hub {
    sender: broadcast::Sender<i64>,
    stop: watch::Sender<bool>,
}

impl Default for Hub {
    fn default() -> Self {
        let (sender, _) = broadcast::channel(4096);
        let (stop, _) = watch::channel(false);
        Hub { sender, stop }
    }
}

/// Ends every open stream when cancelled (open SSE streams otherwise hold up graceful shutdown).
#[derive(Debug, Clone)]
pub struct ShutdownToken(watch::Sender<bool>);

impl ShutdownToken {
    pub fn cancel(&self) {
        let _ = self.0.send(true);
    }
}

impl Hub {
    /// Submission `id` was claimed, has a new test result, or is done.
    pub fn publish(&self, id: i64) {
        // No subscriber is fine: nobody is watching.
        let _ = self.sender.send(id);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<i64> {
        self.sender.subscribe()
    }

    pub fn shutdown_token(&self) -> ShutdownToken {
        ShutdownToken(self.stop.clone())
    }

    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.stop.subscribe()
    }
}

/// The event streams each user has open, up to a cap: a stream holds a task and a database
/// reader busy, and a browser would otherwise open them without end, one per tab.
#[derive(Debug, Clone)]
pub struct StreamSlots {
    /// At most this many streams per user; 0 for no limit.
    per_user: usize,
    open: Arc<Mutex<HashMap<i64, usize>>>,
}

/// One open stream of a user's; the slot is free again when this is dropped.
#[derive(Debug)]
pub struct StreamSlot {
    open: Arc<Mutex<HashMap<i64, usize>>>,
    user: i64,
}

impl StreamSlots {
    pub fn new(per_user: usize) -> StreamSlots {
        StreamSlots {
            per_user,
            open: Arc::default(),
        }
    }

    /// A slot for one more stream of `user`'s, unless they have as many open as allowed.
    pub fn take(&self, user: i64) -> Option<StreamSlot> {
        let mut open = lock(&self.open);
        let count = open.entry(user).or_default();
        if self.per_user != 0 && *count >= self.per_user {
            return None;
        }
        *count += 1;
        Some(StreamSlot {
            open: self.open.clone(),
            user,
        })
    }

    /// Streams open now, everyone's.
    #[cfg(test)]
    fn open(&self) -> usize {
        lock(&self.open).values().sum()
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = lock(&self.open);
        if let Some(count) = open.get_mut(&self.user) {
            *count -= 1;
            // Only users with streams open are kept.
            if *count == 0 {
                open.remove(&self.user);
            }
        }
    }
}

/// Counts stay right whatever a panicking holder was doing: each change is one statement.
fn lock(open: &Mutex<HashMap<i64, usize>>) -> MutexGuard<'_, HashMap<i64, usize>> {
    open.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_user_has_their_own_few_streams_and_gets_them_back() {
        let slots = StreamSlots::new(2);
        let first = slots.take(1).unwrap();
        let second = slots.take(1).unwrap();
        assert!(slots.take(1).is_none(), "a third at once is refused");
        let others = slots.take(2).unwrap();
        drop(first);
        let again = slots.take(1).expect("a closed stream's slot is free again");
        assert!(slots.take(1).is_none());
        drop((second, again, others));
        assert_eq!(slots.open(), 0);
        assert!(
            lock(&slots.open).is_empty(),
            "nobody's count is kept at zero"
        );
    }

    #[test]
    fn no_cap_means_no_refusal() {
        let slots = StreamSlots::new(0);
        let held: Vec<_> = (0..100).map(|_| slots.take(7).unwrap()).collect();
        assert_eq!(slots.open(), 100);
        drop(held);
        assert_eq!(slots.open(), 0);
    }
}
