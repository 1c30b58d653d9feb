//! Keeping a claim: while a worker judges, a heartbeat renews its lease on the submission, so
//! other workers leave it alone; if the worker dies, the lease runs out and another judges it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use grundy_store::Store;

use crate::clock::now_ms;
use crate::telemetry::Telemetry;

/// The heartbeat of one claim. It ends when the guard is dropped, on every path.
#[derive(Debug)]
pub(super) struct Lease {
    heartbeat: tokio::task::JoinHandle<()>,
    lost: Arc<AtomicBool>,
}

impl Lease {
    /// Renews `worker`'s lease on submission `id` every third of `length`; each renewal is also
    /// the worker's sign of life in `telemetry`.
    pub(super) fn keep(
        store: Store,
        id: i64,
        worker: String,
        length: Duration,
        telemetry: Telemetry,
    ) -> Lease {
        let lost = Arc::new(AtomicBool::new(false));
        let heartbeat = {
            let lost = lost.clone();
            let every = length / 3;
            let length_ms = length.as_millis() as i64;
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(every).await;
                    match store.heartbeat(id, &worker, now_ms(), length_ms).await {
                        Ok(true) => telemetry.worker_beat(&worker),
                        Ok(false) => {
                            lost.store(true, Ordering::Relaxed);
                            return;
                        }
                        Err(e) => tracing::warn!(submission = id, error = %e, "heartbeat failed"),
                    }
                }
            })
        };
        Lease { heartbeat, lost }
    }

    /// Whether another worker took the submission over (its result will not be written).
    pub(super) fn lost(&self) -> bool {
        self.lost.load(Ordering::Relaxed)
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        self.heartbeat.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn store() -> (Store, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_sqlite(&dir.path().join("grundy.db"))
            .await
            .unwrap();
        (store, dir)
    }

    #[tokio::test]
    async fn a_lease_taken_away_is_noticed() {
        let (store, _dir) = store().await;
        // Nobody holds submission 1: the first heartbeat, a millisecond on, finds it gone.
        let lease = Lease::keep(
            store,
            1,
            "w".into(),
            Duration::from_millis(3),
            Telemetry::off(),
        );
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !lease.lost() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        assert!(lease.lost());
    }

    #[tokio::test]
    async fn the_heartbeat_ends_with_the_guard() {
        let (store, _dir) = store().await;
        let lease = Lease::keep(
            store,
            1,
            "w".into(),
            Duration::from_secs(60),
            Telemetry::off(),
        );
        let heartbeat = lease.heartbeat.abort_handle();
        assert!(!heartbeat.is_finished());
        drop(lease);
        for _ in 0..10_000 {
            if heartbeat.is_finished() {
                break;
            }
            tokio::task::yield_now().await;
        }
        assert!(heartbeat.is_finished());
    }
}
