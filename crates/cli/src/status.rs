//! `grundy admin status`: the figures a process shows on its `--metrics-listen` address, read
//! back from there and printed as tables, so the operator's terminal and Prometheus see the same.

use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use comfy_table::{Table, presets::UTF8_FULL_CONDENSED};
use grundy_server::telemetry::{Sample, names, parse_exposition};

use crate::setup::runtime;

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Where a `grundy serve` or `grundy worker` serves its figures (its `--metrics-listen`),
    /// such as `http://127.0.0.1:9464`.
    #[arg(long, env = "GRUNDY_METRICS_URL")]
    pub metrics_url: String,
}

pub fn status(args: StatusArgs) -> Result<ExitCode> {
    let base = args.metrics_url.trim_end_matches('/');
    let url = if base.ends_with("/metrics") {
        base.to_owned()
    } else {
        format!("{base}/metrics")
    };
    let text = runtime()?.block_on(async {
        reqwest::get(&url)
            .await
            .with_context(|| format!("reaching {url}"))?
            .error_for_status()
            .with_context(|| format!("reading {url}"))?
            .text()
            .await
            .with_context(|| format!("reading {url}"))
    })?;
    let samples = parse_exposition(&text)
        .with_context(|| format!("{url} did not answer in Prometheus's text format"))?;
    print!("{}", report(&samples, &url));
    Ok(ExitCode::SUCCESS)
}

/// The tables: the queue (every process reads it from the database), then what this process did.
fn report(samples: &[Sample], url: &str) -> String {
    let mut out = String::new();

    let mut queue = table(["class", "waiting", "oldest waited (s)"]);
    for depth in series(samples, names::QUEUE_DEPTH) {
        let class = depth.label("class");
        let age = series(samples, names::QUEUE_OLDEST_AGE)
            .find(|s| s.label("class") == class)
            .map_or(0.0, |s| s.value);
        queue.add_row([class.to_owned(), number(depth.value), format!("{age:.1}")]);
    }
    out += &format!("Queue (all processes)\n{queue}\n");

    let mut verdicts = table(["class", "verdicts", "mean (s)", "median ≤ (s)", "95% ≤ (s)"]);
    let (count_of, sum_of, bucket_of) = (
        format!("{}_count", names::TIME_TO_VERDICT),
        format!("{}_sum", names::TIME_TO_VERDICT),
        format!("{}_bucket", names::TIME_TO_VERDICT),
    );
    for count in series(samples, &count_of) {
        let class = count.label("class");
        let sum = series(samples, &sum_of)
            .find(|s| s.label("class") == class)
            .map_or(0.0, |s| s.value);
        let buckets: Vec<(f64, f64)> = series(samples, &bucket_of)
            .filter(|s| s.label("class") == class)
            .filter_map(|s| Some((bound(s.label("le"))?, s.value)))
            .collect();
        let mean = if count.value > 0.0 {
            format!("{:.1}", sum / count.value)
        } else {
            "-".to_owned()
        };
        verdicts.add_row([
            class.to_owned(),
            number(count.value),
            mean,
            quantile_bound(&buckets, count.value, 0.5),
            quantile_bound(&buckets, count.value, 0.95),
        ]);
    }
    out += &format!("\nTime to verdict (this process)\n{verdicts}\n");

    let mut judged = table(["figure", "count"]);
    for verdict in series(samples, names::VERDICTS).filter(|s| s.value > 0.0) {
        judged.add_row([
            format!("verdict {}", verdict.label("verdict")),
            number(verdict.value),
        ]);
    }
    for test in series(samples, names::TESTS_RUN) {
        judged.add_row([
            format!("tests run, {}", test.label("verdict")),
            number(test.value),
        ]);
    }
    for skipped in series(samples, names::TESTS_SKIPPED) {
        judged.add_row(["tests skipped".to_owned(), number(skipped.value)]);
    }
    for compiled in series(samples, names::COMPILATIONS) {
        judged.add_row([
            format!("compile cache {}", compiled.label("cache")),
            number(compiled.value),
        ]);
    }
    out += &format!("\nJudged (this process)\n{judged}\n");

    let alive = series(samples, names::WORKERS_ALIVE)
        .next()
        .map_or(0.0, |s| s.value);
    let mut workers = table(["worker", "last heartbeat (Unix s)"]);
    for worker in series(samples, names::WORKER_HEARTBEAT) {
        workers.add_row([
            worker.label("worker").to_owned(),
            format!("{:.3}", worker.value),
        ]);
    }
    out += &format!(
        "\nWorkers (this process): {} alive\n{workers}\n",
        number(alive)
    );

    let mut requests = table(["route", "method", "status", "requests"]);
    for request in series(samples, names::HTTP_REQUESTS) {
        requests.add_row([
            request.label("route").to_owned(),
            request.label("method").to_owned(),
            request.label("status").to_owned(),
            number(request.value),
        ]);
    }
    out += &format!("\nHTTP requests (this process)\n{requests}\n");
    out += &format!("(from {url})\n");
    out
}

/// The samples of the series `name`, in the order shown.
fn series<'a>(samples: &'a [Sample], name: &'a str) -> impl Iterator<Item = &'a Sample> {
    samples.iter().filter(move |s| s.name == name)
}

fn table<const N: usize>(header: [&str; N]) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED).set_header(header);
    table
}

/// A count as people write it (counters and gauges of counts are whole).
fn number(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value}")
    }
}

fn bound(le: &str) -> Option<f64> {
    match le {
        "+Inf" => Some(f64::INFINITY),
        le => le.parse().ok(),
    }
}

/// The smallest bucket bound under which a share `q` of the `count` samples fall: what the
/// buckets can tell of a quantile, no more.
fn quantile_bound(buckets: &[(f64, f64)], count: f64, q: f64) -> String {
    if count == 0.0 {
        return "-".to_owned();
    }
    let mut sorted = buckets.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    match sorted.iter().find(|(_, below)| *below >= q * count) {
        Some((le, _)) if le.is_finite() => number(*le),
        _ => "more".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quantile_is_bounded_by_the_first_bucket_holding_it() {
        let buckets = [(1.0, 1.0), (5.0, 3.0), (10.0, 4.0), (f64::INFINITY, 4.0)];
        assert_eq!(quantile_bound(&buckets, 4.0, 0.5), "5");
        assert_eq!(quantile_bound(&buckets, 4.0, 0.95), "10");
        assert_eq!(quantile_bound(&buckets, 0.0, 0.5), "-");
        let beyond = [(1.0, 0.0), (f64::INFINITY, 2.0)];
        assert_eq!(quantile_bound(&beyond, 2.0, 0.5), "more");
    }
}
