//! News of judging, for those following a submission: a worker says "submission N changed",
//! and each follower re-reads the store, which is the truth. In-process only; a follower of a
//! worker on another machine re-reads the store every second instead.

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
