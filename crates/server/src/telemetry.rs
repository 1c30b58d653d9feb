//! The operator's figures in Prometheus's text format: the queue per priority class, what the
//! workers of this process judged, whether they are alive, and the HTTP requests by route.
//!
//! Figures go through the `metrics` facade into a recorder that this [`Telemetry`] holds, never
//! into the process-global one: each service (and each test's) keeps its own, set for the
//! duration of one recording with [`metrics::with_local_recorder`], so two servers in one process
//! never mix their counts. `metrics-exporter-prometheus` renders them. The queue lives in the
//! database, shared by every process, so its gauges are read from the store when `/metrics` is
//! scraped rather than kept up to date as submissions come and go.
//!
//! There is no table of workers: a process knows its own. Each worker beats when it looks for
//! work (at least every poll interval) and with each heartbeat of its lease while it judges; one
//! counts as alive while it runs and has beaten within its lease's length (longer, and the claim
//! it holds would pass to another worker). A process that is gone is seen by Prometheus itself:
//! its scrape fails.
//!
//! Served on a listener of its own ([`serve_metrics`], `--metrics-listen`), never beside the API,
//! so that it is not public by accident.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use grundy_judge::{Build, Verdict};
use grundy_store::{Store, StoreError, priority};
use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};
use metrics_exporter_prometheus::{
    Matcher, PrometheusBuilder, PrometheusHandle, PrometheusRecorder,
};
use tokio::net::TcpListener;

use crate::clock::{Clock, now_ms};

/// The figures' names, as `/metrics` shows them (`grundy admin status` reads them back).
pub mod names {
    pub const QUEUE_DEPTH: &str = "grundy_queue_depth";
    pub const QUEUE_OLDEST_AGE: &str = "grundy_queue_oldest_age_seconds";
    pub const TIME_TO_VERDICT: &str = "grundy_time_to_verdict_seconds";
    pub const VERDICTS: &str = "grundy_verdicts_total";
    pub const TESTS_RUN: &str = "grundy_tests_run_total";
    pub const TESTS_SKIPPED: &str = "grundy_tests_skipped_total";
    pub const COMPILATIONS: &str = "grundy_compilations_total";
    pub const WORKERS_ALIVE: &str = "grundy_workers_alive";
    pub const WORKER_HEARTBEAT: &str = "grundy_worker_heartbeat_timestamp_seconds";
    pub const HTTP_REQUESTS: &str = "grundy_http_requests_total";
}

use names::*;

/// The upper bounds of the time-to-verdict buckets, in seconds: from a sample judged at once to
/// a deadline's backlog.
const VERDICT_BUCKETS: [f64; 12] = [
    0.5, 1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0,
];

/// The route of a request that matched none (never its raw path: paths are unbounded).
pub const UNMATCHED_ROUTE: &str = "unmatched";

/// The figures of one service or worker process; off (recording nothing) unless made by
/// [`Telemetry::prometheus`]. Clones share the figures.
#[derive(Debug, Clone, Default)]
pub struct Telemetry(Option<Arc<Figures>>);

#[derive(Debug)]
struct Figures {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    workers: Mutex<BTreeMap<String, Liveness>>,
}

#[derive(Debug, Clone, Copy)]
struct Liveness {
    /// When it last beat, in Unix milliseconds.
    beat_ms: i64,
    /// How long it may stay silent and still count as alive: its lease.
    within_ms: i64,
    running: bool,
}

impl Telemetry {
    /// Records nothing; `/metrics` is not served.
    pub fn off() -> Telemetry {
        Telemetry(None)
    }

    /// A recorder of its own, every figure described.
    pub fn prometheus() -> Telemetry {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full(TIME_TO_VERDICT.into()), &VERDICT_BUCKETS)
            .expect("the buckets are not empty")
            .build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || {
            describe_gauge!(
                QUEUE_DEPTH,
                "Submissions waiting to be judged, by priority class."
            );
            describe_gauge!(
                QUEUE_OLDEST_AGE,
                "How long the submission that has waited longest in each class has waited (0 when none waits)."
            );
            describe_histogram!(
                TIME_TO_VERDICT,
                "From joining the queue to the stored verdict, for submissions this process's workers judged, by class."
            );
            describe_counter!(
                VERDICTS,
                "Verdicts this process's workers stored, by verdict."
            );
            describe_counter!(
                TESTS_RUN,
                "Tests this process's workers ran, by their verdict."
            );
            describe_counter!(
                TESTS_SKIPPED,
                "Tests not run because an earlier test of their subtask failed."
            );
            describe_counter!(
                COMPILATIONS,
                "Programs built for judging: taken from the compile cache (hit) or compiled (miss)."
            );
            describe_gauge!(
                WORKERS_ALIVE,
                "Workers of this process that run and have beaten within their lease."
            );
            describe_gauge!(
                WORKER_HEARTBEAT,
                "When each worker of this process last showed it was alive (Unix time)."
            );
            describe_counter!(
                HTTP_REQUESTS,
                "HTTP requests answered, by route template, method and status."
            );
            // Present from the start, so that a rate over them is never over a missing series.
            for verdict in Verdict::ALL {
                counter!(VERDICTS, "verdict" => verdict.as_str()).absolute(0);
            }
            for cache in ["hit", "miss"] {
                counter!(COMPILATIONS, "cache" => cache).absolute(0);
            }
            counter!(TESTS_SKIPPED).absolute(0);
        });
        Telemetry(Some(Arc::new(Figures {
            recorder,
            handle,
            workers: Mutex::new(BTreeMap::new()),
        })))
    }

    pub fn is_on(&self) -> bool {
        self.0.is_some()
    }

    /// Runs `record` with this telemetry's recorder as the thread's, if it is on.
    fn record(&self, record: impl FnOnce()) {
        if let Some(figures) = &self.0 {
            metrics::with_local_recorder(&figures.recorder, record);
        }
    }

    /// One answered request: `route` is the template the router matched (`None` for none).
    pub(crate) fn http_request(&self, route: Option<&str>, method: &Method, status: StatusCode) {
        self.record(|| {
            counter!(
                HTTP_REQUESTS,
                "route" => route.unwrap_or(UNMATCHED_ROUTE).to_owned(),
                "method" => method_label(method),
                "status" => status.as_str().to_owned()
            )
            .increment(1);
        });
    }

    /// A verdict stored for a submission of `class` that had waited `waited_ms` since it was
    /// queued.
    pub(crate) fn judged(&self, verdict: Verdict, class: i64, waited_ms: i64) {
        self.record(|| {
            counter!(VERDICTS, "verdict" => verdict.as_str()).increment(1);
            histogram!(TIME_TO_VERDICT, "class" => class_label(class))
                .record(waited_ms.max(0) as f64 / 1000.0);
        });
        // Folds the new sample into its buckets, so that samples never pile up between scrapes.
        if let Some(figures) = &self.0 {
            figures.handle.run_upkeep();
        }
    }

    /// One test's result.
    pub(crate) fn tested(&self, verdict: Verdict) {
        self.record(|| {
            if verdict == Verdict::Skipped {
                counter!(TESTS_SKIPPED).increment(1);
            } else {
                counter!(TESTS_RUN, "verdict" => verdict.as_str()).increment(1);
            }
        });
    }

    /// A program made ready to judge.
    pub(crate) fn built(&self, build: Build) {
        let cache = match build {
            Build::Nothing => return,
            Build::Cached => "hit",
            Build::Compiled => "miss",
        };
        self.record(|| counter!(COMPILATIONS, "cache" => cache).increment(1));
    }

    /// A worker starts judging, with claims held for `lease`; it counts as stopped once the
    /// guard is dropped.
    pub(crate) fn worker_started(&self, name: &str, lease: Duration) -> WorkerWatch {
        if let Some(figures) = &self.0 {
            lock(&figures.workers).insert(
                name.to_owned(),
                Liveness {
                    beat_ms: now_ms(),
                    within_ms: lease.as_millis() as i64,
                    running: true,
                },
            );
        }
        WorkerWatch {
            telemetry: self.clone(),
            name: name.to_owned(),
        }
    }

    /// A sign of life from worker `name`.
    pub(crate) fn worker_beat(&self, name: &str) {
        if let Some(figures) = &self.0
            && let Some(worker) = lock(&figures.workers).get_mut(name)
        {
            worker.beat_ms = now_ms();
        }
    }

    /// The exposition, its queue figures read from `store` now.
    pub async fn render(&self, store: &Store, clock: &Clock) -> Result<String, StoreError> {
        let Some(figures) = &self.0 else {
            return Ok(String::new());
        };
        let classes = store.queue_depth().await?;
        let now = clock.now();
        let workers = lock(&figures.workers).clone();
        let beat_now = now_ms();
        self.record(|| {
            // Every class, so that one emptied since the last scrape reads 0, not its old figure.
            for (class, name) in priority::CLASSES {
                let found = classes.iter().find(|c| c.priority == class);
                let queued = found.map_or(0, |c| c.queued);
                let age_ms = found.map_or(0, |c| (now - c.oldest_queued_at).max(0));
                gauge!(QUEUE_DEPTH, "class" => name).set(queued as f64);
                gauge!(QUEUE_OLDEST_AGE, "class" => name).set(age_ms as f64 / 1000.0);
            }
            let alive = workers
                .values()
                .filter(|w| w.running && beat_now - w.beat_ms <= w.within_ms)
                .count();
            gauge!(WORKERS_ALIVE).set(alive as f64);
            for (name, worker) in &workers {
                gauge!(WORKER_HEARTBEAT, "worker" => name.clone())
                    .set(worker.beat_ms as f64 / 1000.0);
            }
        });
        Ok(figures.handle.render())
    }
}

/// Marks its worker stopped when dropped, whichever way the worker ends.
#[derive(Debug)]
pub(crate) struct WorkerWatch {
    telemetry: Telemetry,
    name: String,
}

impl Drop for WorkerWatch {
    fn drop(&mut self) {
        if let Some(figures) = &self.telemetry.0
            && let Some(worker) = lock(&figures.workers).get_mut(&self.name)
        {
            worker.running = false;
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // The map is consistent after any panic: each change is a single assignment.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A priority class by name; `other` for a value no class has (never stored by this service).
fn class_label(priority: i64) -> &'static str {
    priority::name(priority).unwrap_or("other")
}

/// The standard methods by name; any other is `other`, since a client may send any token there.
fn method_label(method: &Method) -> &'static str {
    const KNOWN: [Method; 9] = [
        Method::GET,
        Method::HEAD,
        Method::POST,
        Method::PUT,
        Method::DELETE,
        Method::PATCH,
        Method::OPTIONS,
        Method::CONNECT,
        Method::TRACE,
    ];
    KNOWN
        .iter()
        .find(|m| *m == method)
        .map_or("other", |m| m.as_str())
}

/// Serves `GET /metrics` on `listener` until `shutdown` completes: `telemetry`'s figures, the
/// queue's read from `store` at each scrape and aged by `clock`.
pub async fn serve_metrics(
    telemetry: Telemetry,
    store: Store,
    clock: Clock,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = Router::new()
        .route("/metrics", axum::routing::get(scrape))
        .with_state((telemetry, store, clock));
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}

async fn scrape(State((telemetry, store, clock)): State<(Telemetry, Store, Clock)>) -> Response {
    match telemetry.render(&store, &clock).await {
        Ok(text) => (
            [(
                header::CONTENT_TYPE,
                "text/plain; version=0.0.4; charset=utf-8",
            )],
            text,
        )
            .into_response(),
        Err(e) => {
            // A failed scrape, rather than a queue figure that is no longer true.
            tracing::error!(error = %e, "reading the queue for /metrics");
            StatusCode::SERVICE_UNAVAILABLE.into_response()
        }
    }
}

/// One line of an exposition: a series and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub name: String,
    pub labels: BTreeMap<String, String>,
    pub value: f64,
}

impl Sample {
    pub fn label(&self, name: &str) -> &str {
        self.labels.get(name).map_or("", String::as_str)
    }
}

/// The samples of an exposition in Prometheus's text format (comments skipped); `None` at the
/// first line that is not one.
pub fn parse_exposition(text: &str) -> Option<Vec<Sample>> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(parse_sample)
        .collect()
}

fn parse_sample(line: &str) -> Option<Sample> {
    let name_end = line.find(['{', ' '])?;
    let name = line[..name_end].to_owned();
    let mut rest = &line[name_end..];
    let mut labels = BTreeMap::new();
    if let Some(mut inner) = rest.strip_prefix('{') {
        loop {
            inner = inner.trim_start_matches([',', ' ']);
            if let Some(after) = inner.strip_prefix('}') {
                rest = after;
                break;
            }
            let (key, after) = inner.split_once("=\"")?;
            // A value runs to the first quote that no backslash escapes.
            let mut value = String::new();
            let mut chars = after.char_indices();
            let end = loop {
                match chars.next()? {
                    (i, '"') => break i,
                    (_, '\\') => match chars.next()?.1 {
                        'n' => value.push('\n'),
                        c => value.push(c),
                    },
                    (_, c) => value.push(c),
                }
            };
            labels.insert(key.trim().to_owned(), value);
            inner = &after[end + 1..];
        }
    }
    // A timestamp may follow the value.
    let value = match rest.split_whitespace().next()? {
        "+Inf" => f64::INFINITY,
        "-Inf" => f64::NEG_INFINITY,
        "NaN" => f64::NAN,
        v => v.parse().ok()?,
    };
    Some(Sample {
        name,
        labels,
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_stay_with_their_own_telemetry() {
        let (one, two) = (Telemetry::prometheus(), Telemetry::prometheus());
        one.tested(Verdict::Accepted);
        one.tested(Verdict::Accepted);
        two.tested(Verdict::WrongAnswer);
        let line = |t: &Telemetry, verdict: &str| {
            let text = t.0.as_ref().unwrap().handle.render();
            text.lines()
                .find(|l| l.starts_with(&format!("{TESTS_RUN}{{verdict=\"{verdict}\"}}")))
                .map(|l| l.rsplit(' ').next().unwrap().to_owned())
        };
        assert_eq!(line(&one, "accepted").as_deref(), Some("2"));
        assert_eq!(line(&one, "wrong_answer"), None);
        assert_eq!(line(&two, "wrong_answer").as_deref(), Some("1"));
        assert_eq!(line(&two, "accepted"), None);
    }

    async fn store() -> (Store, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_sqlite(&dir.path().join("grundy.db"))
            .await
            .unwrap();
        (store, dir)
    }

    fn figure(text: &str, series: &str) -> Option<f64> {
        text.lines()
            .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
            .map(|v| v.parse().unwrap())
    }

    #[tokio::test]
    async fn a_worker_is_alive_while_it_runs_and_beats_within_its_lease() {
        let (store, _dir) = store().await;
        let telemetry = Telemetry::prometheus();
        let long = telemetry.worker_started("long", Duration::from_secs(3600));
        let _silent = telemetry.worker_started("silent", Duration::from_secs(60));
        // Silent for two minutes, longer than its lease.
        let figures = telemetry.0.as_ref().unwrap();
        lock(&figures.workers).get_mut("silent").unwrap().beat_ms -= 120_000;
        let text = telemetry.render(&store, &Clock::system()).await.unwrap();
        assert_eq!(figure(&text, WORKERS_ALIVE), Some(1.0), "{text}");
        let silent = figure(&text, &format!("{WORKER_HEARTBEAT}{{worker=\"silent\"}}")).unwrap();
        let long_beat = figure(&text, &format!("{WORKER_HEARTBEAT}{{worker=\"long\"}}")).unwrap();
        assert!(long_beat - silent >= 120.0, "{text}");

        drop(long);
        let text = telemetry.render(&store, &Clock::system()).await.unwrap();
        assert_eq!(figure(&text, WORKERS_ALIVE), Some(0.0), "{text}");
        // Its last sign of life stays in view.
        assert!(figure(&text, &format!("{WORKER_HEARTBEAT}{{worker=\"long\"}}")).is_some());
        store.close().await;
    }

    #[test]
    fn an_exposition_reads_back() {
        let text = "# HELP x_total Things.\n# TYPE x_total counter\n\
                    x_total{route=\"/a/{id}\",q=\"say \\\"hi\\\"\"} 3\n\
                    y_bucket{le=\"+Inf\"} 2 1700000000\nz 0.5\n";
        let samples = parse_exposition(text).unwrap();
        assert_eq!(samples.len(), 3);
        assert_eq!(samples[0].name, "x_total");
        assert_eq!(samples[0].label("route"), "/a/{id}");
        assert_eq!(samples[0].label("q"), "say \"hi\"");
        assert_eq!(samples[0].value, 3.0);
        assert_eq!((samples[1].label("le"), samples[1].value), ("+Inf", 2.0));
        assert_eq!((samples[2].name.as_str(), samples[2].value), ("z", 0.5));
        assert!(parse_exposition("x{a=\"1\" 3").is_none());
        assert!(parse_exposition("x three").is_none());
    }

    #[test]
    fn unknown_methods_are_one_label() {
        assert_eq!(method_label(&Method::GET), "GET");
        assert_eq!(method_label(&Method::from_bytes(b"BREW").unwrap()), "other");
    }
}
