//! Live progress of judging, for SSE: workers publish, event streams subscribe. In-process only;
//! across machines (PostgreSQL workers) a stream falls back to re-reading the store.

use serde::Serialize;
use tokio::sync::{broadcast, watch};

use grundy_store::TestRow;

/// What a watcher of a submission sees.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Progress {
    Judging,
    Compiled {
        ok: bool,
    },
    Test(TestRow),
    Done {
        verdict: String,
        score: i64,
        max_score: i64,
    },
}

#[derive(Debug, Clone)]
pub struct Hub {
    sender: broadcast::Sender<(i64, Progress)>,
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
    pub fn publish(&self, submission: i64, progress: Progress) {
        // No subscriber is fine: nobody is watching.
        let _ = self.sender.send((submission, progress));
    }

    pub fn subscribe(&self) -> broadcast::Receiver<(i64, Progress)> {
        self.sender.subscribe()
    }

    pub fn shutdown_token(&self) -> ShutdownToken {
        ShutdownToken(self.stop.clone())
    }

    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.stop.subscribe()
    }
}
