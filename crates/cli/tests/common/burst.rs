//! A deadline burst, shared by `tests/burst.rs` (a small class, asserting the invariants) and
//! `benches/burst.rs` (200 students × 5, reporting rates): a course with an assignment due
//! shortly, every student submitting programs whose verdicts and scores are known in advance, all
//! within a short window and from many clients at once, to a real `grundy serve` on SQLite
//! (judging in-process), or to `grundy serve --workers 0` with two `grundy worker` processes on
//! PostgreSQL, one of which is killed (SIGKILL) halfway and started again.
//!
//! What is checked once the queue is empty, each against values worked out here rather than read
//! from the code under test:
//! - nothing lost: every submission was answered `201`, the store lists exactly those, each with
//!   the source that was sent;
//! - each ends `done` with its expected verdict and score (known from how its program was written
//!   and from the problem's `problem.toml`) and exactly one result row per test of its problem
//!   (none after a compilation error): no rows left from an attempt cut short, none twice. The
//!   assignment stops a subtask at its first failure: the tests after it still have their rows,
//!   `skipped`, and a program that never ends runs only the first sample and each subtask's first test;
//! - judged once: the store counts claims (`attempts`). It is 1 for every submission, except for
//!   exactly those the killed worker had claimed and not finished, where it is 2 (the lease ran
//!   out and another worker judged it again: a re-run). The workers' logs show one claim
//!   ("judging") per counted attempt, and one "judged" per submission: a worker logs it only when
//!   the store accepted its result, which it does only for the lease's holder;
//! - the gradebook: each student's cells (attempts, nothing pending, no penalty, the best
//!   expected score) and total equal those worked out here;
//! - the queue drains before the timeout.
//!
//! The CPU the sandbox spent is read from the supervisors' cgroups: each supervisor keeps its runs
//! (compiles and tests) under its own `grundy-<pid>` group, whose usage outlives the runs' groups.
//! The groups of this burst's supervisors (children of its `grundy` processes) are sampled while
//! they live, and just before the kill. The tests' share is the sum of the results' `cpu_ms`; the
//! rest is compiling (plus, on PostgreSQL, the runs of the attempts the kill cut short).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

/// The problems of the assignment: one subtask with few tests, two subtasks with many, and two
/// subtasks with large inputs.
const PROBLEMS: [&str; 3] = ["nim", "stones", "wythoff"];
const DEFAULT_POSTGRES: &str = "postgres://postgres@127.0.0.1:5432/postgres";
/// Only the workers' claims and results are logged, besides warnings and errors.
const LOG_FILTER: &str = "warn,grundy_server::worker=info";

/// What a program is expected to score: every subtask, none, or only the one named.
#[derive(Debug, Clone, Copy)]
enum Passes {
    All,
    Nothing,
    Only(&'static str),
}

/// A program with its known outcome.
#[derive(Debug)]
struct Kind {
    name: &'static str,
    problem: &'static str,
    language: &'static str,
    source: &'static str,
    verdict: &'static str,
    passes: Passes,
}

const fn kind(
    name: &'static str,
    problem: &'static str,
    language: &'static str,
    source: &'static str,
    verdict: &'static str,
    passes: Passes,
) -> Kind {
    Kind {
        name,
        problem,
        language,
        source,
        verdict,
        passes,
    }
}

const AC: &str = "accepted";
const WA: &str = "wrong_answer";
const CE: &str = "compilation_error";
const TLE: &str = "time_limit";
const RE: &str = "runtime_error";

/// The ok solutions are the ones the judging tests use.
const NIM_CPP: &str = include_str!("../programs/solutions/nim/ok.cpp");
const NIM_C: &str = include_str!("../programs/solutions/nim/ok.c");
const NIM_PY: &str = include_str!("../programs/solutions/nim/ok.py");
const NIM_RS: &str = include_str!("../programs/solutions/nim/ok.rs");
const NIM_JAVA: &str = include_str!("../programs/solutions/nim/ok.java");
const STONES_CPP: &str = include_str!("../programs/solutions/stones/ok.cpp");
const STONES_C: &str = include_str!("../programs/solutions/stones/ok.c");
const STONES_PY: &str = include_str!("../programs/solutions/stones/ok.py");
const STONES_CRASH_CPP: &str = include_str!("../programs/solutions/stones/crash.cpp");
const WYTHOFF_CPP: &str = include_str!("../programs/solutions/wythoff/ok.cpp");
const WYTHOFF_C: &str = include_str!("../programs/solutions/wythoff/ok.c");
const WYTHOFF_PY: &str = include_str!("../programs/solutions/wythoff/ok.py");
const WYTHOFF_RS: &str = include_str!("../programs/solutions/wythoff/ok.rs");

const NIM_JS: &str = r#"// Matches (Nim): first player wins iff the xor of all piles is non-zero.
const data = require("fs").readFileSync(0, "utf8").split(/\s+/).filter((t) => t.length > 0).map(Number);
const out = [];
for (let i = 0; i < data.length; ) {
  const m = data[i++];
  let x = 0;
  for (let j = 0; j < m; j++) x ^= data[i++];
  out.push(x ? "Yes" : "No");
}
process.stdout.write(out.join("\n") + "\n");
"#;

/// Every line of every test has an answer, and every one is given backwards: each test fails.
const NIM_WA_CPP: &str = r#"// Matches, with the winner backwards.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int m;
    string out;
    while (cin >> m) {
        unsigned x = 0, p;
        for (int i = 0; i < m; i++) { cin >> p; x ^= p; }
        out += x ? "No\n" : "Yes\n";
    }
    cout << out;
}
"#;

const NIM_WA_C: &str = r#"/* Matches, with the winner backwards. */
#include <stdio.h>
int main(void) {
    int m;
    while (scanf("%d", &m) == 1) {
        unsigned x = 0, p;
        for (int i = 0; i < m; i++) { scanf("%u", &p); x ^= p; }
        puts(x ? "No" : "Yes");
    }
    return 0;
}
"#;

const NIM_WA_PY: &str = r#"# Matches, with the winner backwards.
import sys

data = sys.stdin.buffer.read().split()
out = []
i = 0
while i < len(data):
    m = int(data[i])
    x = 0
    for t in data[i + 1:i + 1 + m]:
        x ^= int(t)
    i += 1 + m
    out.append("No" if x else "Yes")
sys.stdout.write("\n".join(out) + "\n")
"#;

const WYTHOFF_WA_CPP: &str = r#"// Two Piles, with the winner backwards.
#include <bits/stdc++.h>
using namespace std;
typedef unsigned long long ull;
static ull isqrt(ull n) {
    ull r = (ull)sqrtl((long double)n);
    while (r * r > n) r--;
    while ((r + 1) * (r + 1) <= n) r++;
    return r;
}
int main() {
    ull a, b;
    string out;
    while (cin >> a >> b) {
        if (a > b) swap(a, b);
        ull k = b - a;
        out += a == (k + isqrt(5 * k * k)) / 2 ? "1\n" : "0\n";
    }
    cout << out;
}
"#;

/// Right while the pile has at most 20 stones (all of subtask "small"), backwards above: the
/// first test of "full" is its largest input (100 000 stones), and a sample has 21.
const STONES_PARTIAL_CPP: &str = r#"// Stones, right only for small piles.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, k;
    if (!(cin >> n >> k)) return 0;
    vector<int> a(n);
    for (auto &x : a) cin >> x;
    vector<char> win(k + 1, 0);
    for (int x = 1; x <= k; x++)
        for (int v : a) {
            if (v > x) break;
            if (!win[x - v]) { win[x] = 1; break; }
        }
    bool first = win[k];
    if (k > 20) first = !first;
    cout << (first ? "First" : "Second") << '\n';
}
"#;

/// Never ends on any input.
const SPIN_CPP: &str = r#"// Waits for a change that never comes.
int main() {
    volatile bool done = false;
    while (!done) {
    }
}
"#;

/// Right, except that it never ends on the one sample (`2 45 45` / `3 3 6 9`): a time limit on a
/// test worth nothing, so the verdict is a time limit and the score full.
const NIM_SAMPLE_SPIN_CPP: &str = r#"// Matches, stuck on one input.
#include <bits/stdc++.h>
using namespace std;
int main() {
    vector<unsigned> t;
    unsigned v;
    while (cin >> v) t.push_back(v);
    if (t == vector<unsigned>{2, 45, 45, 3, 3, 6, 9}) {
        volatile bool done = false;
        while (!done) {
        }
    }
    string out;
    for (size_t i = 0; i < t.size();) {
        unsigned m = t[i++], x = 0;
        for (unsigned j = 0; j < m; j++) x ^= t[i++];
        out += x ? "Yes\n" : "No\n";
    }
    cout << out;
}
"#;

const NIM_SAMPLE_SPIN_C: &str = r#"/* Matches, stuck on one input. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    static const unsigned sample[] = {2, 45, 45, 3, 3, 6, 9};
    size_t n = 0, cap = 1024;
    unsigned *t = malloc(cap * sizeof *t);
    while (scanf("%u", &t[n]) == 1)
        if (++n == cap) t = realloc(t, (cap *= 2) * sizeof *t);
    int same = n == 7;
    for (size_t i = 0; same && i < 7; i++) same = t[i] == sample[i];
    if (same) {
        volatile int done = 0;
        while (!done) {
        }
    }
    for (size_t i = 0; i < n;) {
        unsigned m = t[i++], x = 0;
        for (unsigned j = 0; j < m; j++) x ^= t[i++];
        puts(x ? "Yes" : "No");
    }
    return 0;
}
"#;

const SPIN_PY: &str = "# Waits for a change that never comes.\nwhile True:\n    pass\n";

/// Sources that do not compile: a whole program with a slip at its end, so the compiler has
/// read the headers before it fails, as with a real typo.
const NIM_CE_CPP: &str = concat!(
    include_str!("../programs/solutions/nim/ok.cpp"),
    "\nint unfinished() { return }\n"
);
const STONES_CE_CPP: &str = concat!(
    include_str!("../programs/solutions/stones/ok.cpp"),
    "\nint unfinished() { return }\n"
);
const NIM_CE_C: &str = concat!(
    include_str!("../programs/solutions/nim/ok.c"),
    "\nint unfinished(void) { return }\n"
);
const NIM_CE_PY: &str = concat!(
    include_str!("../programs/solutions/nim/ok.py"),
    "\ndef unfinished(:\n    pass\n"
);

const KINDS: &[Kind] = &[
    kind("cpp nim ok", "nim", "cpp20", NIM_CPP, AC, Passes::All),
    kind(
        "cpp stones ok",
        "stones",
        "cpp20",
        STONES_CPP,
        AC,
        Passes::All,
    ),
    kind(
        "cpp wythoff ok",
        "wythoff",
        "cpp20",
        WYTHOFF_CPP,
        AC,
        Passes::All,
    ),
    kind(
        "cpp nim wrong",
        "nim",
        "cpp20",
        NIM_WA_CPP,
        WA,
        Passes::Nothing,
    ),
    kind(
        "cpp wythoff wrong",
        "wythoff",
        "cpp20",
        WYTHOFF_WA_CPP,
        WA,
        Passes::Nothing,
    ),
    kind(
        "cpp stones partial",
        "stones",
        "cpp20",
        STONES_PARTIAL_CPP,
        WA,
        Passes::Only("small"),
    ),
    kind(
        "cpp nim compile error",
        "nim",
        "cpp20",
        NIM_CE_CPP,
        CE,
        Passes::Nothing,
    ),
    kind(
        "cpp stones compile error",
        "stones",
        "cpp20",
        STONES_CE_CPP,
        CE,
        Passes::Nothing,
    ),
    kind(
        "cpp nim endless",
        "nim",
        "cpp20",
        SPIN_CPP,
        TLE,
        Passes::Nothing,
    ),
    kind(
        "cpp nim stuck on the sample",
        "nim",
        "cpp20",
        NIM_SAMPLE_SPIN_CPP,
        TLE,
        Passes::All,
    ),
    kind(
        "cpp stones crash",
        "stones",
        "cpp20",
        STONES_CRASH_CPP,
        RE,
        Passes::Nothing,
    ),
    kind("python nim ok", "nim", "python3", NIM_PY, AC, Passes::All),
    kind(
        "python stones ok",
        "stones",
        "python3",
        STONES_PY,
        AC,
        Passes::All,
    ),
    kind(
        "python wythoff ok",
        "wythoff",
        "python3",
        WYTHOFF_PY,
        AC,
        Passes::All,
    ),
    kind(
        "python nim wrong",
        "nim",
        "python3",
        NIM_WA_PY,
        WA,
        Passes::Nothing,
    ),
    kind(
        "python nim compile error",
        "nim",
        "python3",
        NIM_CE_PY,
        CE,
        Passes::Nothing,
    ),
    kind(
        "python nim endless",
        "nim",
        "python3",
        SPIN_PY,
        TLE,
        Passes::Nothing,
    ),
    kind(
        "python stones endless",
        "stones",
        "python3",
        SPIN_PY,
        TLE,
        Passes::Nothing,
    ),
    kind(
        "cpp stones endless",
        "stones",
        "cpp20",
        SPIN_CPP,
        TLE,
        Passes::Nothing,
    ),
    kind("c nim ok", "nim", "c", NIM_C, AC, Passes::All),
    kind("c stones ok", "stones", "c", STONES_C, AC, Passes::All),
    kind("c wythoff ok", "wythoff", "c", WYTHOFF_C, AC, Passes::All),
    kind("c nim wrong", "nim", "c", NIM_WA_C, WA, Passes::Nothing),
    kind(
        "c nim compile error",
        "nim",
        "c",
        NIM_CE_C,
        CE,
        Passes::Nothing,
    ),
    kind(
        "c nim stuck on the sample",
        "nim",
        "c",
        NIM_SAMPLE_SPIN_C,
        TLE,
        Passes::All,
    ),
    kind("rust nim ok", "nim", "rust", NIM_RS, AC, Passes::All),
    kind(
        "rust wythoff ok",
        "wythoff",
        "rust",
        WYTHOFF_RS,
        AC,
        Passes::All,
    ),
    kind("java nim ok", "nim", "java17", NIM_JAVA, AC, Passes::All),
    kind(
        "javascript nim ok",
        "nim",
        "javascript",
        NIM_JS,
        AC,
        Passes::All,
    ),
];

/// Which programs the students send, in what proportions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mix {
    /// Mostly C++ and Python, some C, Rust, Java and JavaScript; about a third fail.
    All,
    /// C++ only, in the same proportions of outcomes: for comparing C++ judging rates.
    Cpp,
    /// Cheap to judge (mostly C and Python): for the CI-sized test, which checks behaviour only.
    Light,
    /// A class's deadline as issue 30 describes it: C++, Python and some C, about 12 % programs
    /// that loop on every test (a time limit), 20 % wrong answers, 6 % compile errors, 4 % crashes,
    /// the rest accepted.
    Deadline,
    /// [`Mix::Deadline`] with each looping program replaced by an accepted one of the same
    /// language and problem: the same draws, so the same students send at the same moments.
    DeadlineNoLoops,
}

/// [`Mix::Deadline`]'s weights (out of 100), also [`Mix::DeadlineNoLoops`]'s with each looping kind
/// read as its accepted twin ([`Mix::kind_name`]), so that the plan's draws pick the same entries.
/// Dealt to 80 submissions (largest
/// remainders by entry): 47 accepted, 16 wrong, 5 compile errors, 3 crashes, 9 looping.
const DEADLINE: &[(&str, u32)] = &[
    ("cpp nim ok", 14),
    ("cpp stones ok", 12),
    ("cpp wythoff ok", 10),
    ("python nim ok", 8),
    ("python wythoff ok", 6),
    ("python stones ok", 4),
    ("c nim ok", 2),
    ("c stones ok", 1),
    ("c wythoff ok", 1),
    ("cpp nim wrong", 5),
    ("cpp wythoff wrong", 4),
    ("cpp stones partial", 4),
    ("python nim wrong", 5),
    ("c nim wrong", 2),
    ("cpp nim compile error", 2),
    ("cpp stones compile error", 1),
    ("python nim compile error", 2),
    ("c nim compile error", 1),
    ("cpp stones crash", 4),
    ("cpp nim endless", 4),
    ("cpp stones endless", 4),
    ("python stones endless", 4),
];

impl Mix {
    pub fn parse(text: &str) -> Option<Mix> {
        match text.trim() {
            "all" => Some(Mix::All),
            "cpp" => Some(Mix::Cpp),
            "light" => Some(Mix::Light),
            "deadline" => Some(Mix::Deadline),
            "deadline-no-loops" => Some(Mix::DeadlineNoLoops),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mix::All => "all",
            Mix::Cpp => "cpp",
            Mix::Light => "light",
            Mix::Deadline => "deadline",
            Mix::DeadlineNoLoops => "deadline-no-loops",
        }
    }

    /// Kinds by name with their weights. Programs that loop on every test cost a full time limit
    /// per test, so they are rare.
    fn weights(self) -> &'static [(&'static str, u32)] {
        match self {
            Mix::All => &[
                ("cpp nim ok", 14),
                ("cpp stones ok", 12),
                ("cpp wythoff ok", 10),
                ("cpp nim wrong", 4),
                ("cpp wythoff wrong", 4),
                ("cpp stones partial", 4),
                ("cpp nim compile error", 3),
                ("cpp stones compile error", 3),
                ("cpp nim endless", 1),
                ("cpp nim stuck on the sample", 2),
                ("cpp stones crash", 2),
                ("python nim ok", 8),
                ("python wythoff ok", 6),
                ("python stones ok", 3),
                ("python nim wrong", 3),
                ("python nim compile error", 2),
                ("python nim endless", 1),
                ("c nim ok", 3),
                ("c stones ok", 3),
                ("c wythoff ok", 2),
                ("c nim compile error", 1),
                ("rust nim ok", 1),
                ("rust wythoff ok", 1),
                ("java nim ok", 1),
                ("javascript nim ok", 3),
            ],
            Mix::Cpp => &[
                ("cpp nim ok", 24),
                ("cpp stones ok", 20),
                ("cpp wythoff ok", 18),
                ("cpp nim wrong", 7),
                ("cpp wythoff wrong", 6),
                ("cpp stones partial", 6),
                ("cpp nim compile error", 5),
                ("cpp stones compile error", 5),
                ("cpp nim endless", 1),
                ("cpp nim stuck on the sample", 4),
                ("cpp stones crash", 4),
            ],
            Mix::Light => &[
                ("c nim ok", 12),
                ("c stones ok", 8),
                ("c wythoff ok", 8),
                ("c nim wrong", 8),
                ("c nim compile error", 6),
                ("c nim stuck on the sample", 6),
                ("python nim ok", 12),
                ("python wythoff ok", 10),
                ("python nim wrong", 8),
                ("python nim compile error", 6),
                ("javascript nim ok", 6),
                ("cpp stones partial", 5),
                ("cpp nim ok", 5),
            ],
            Mix::Deadline | Mix::DeadlineNoLoops => DEADLINE,
        }
    }

    /// Whether the kinds are dealt in exact proportions (and shuffled) rather than drawn one by
    /// one: the deadline mixes, whose shares are the figure's premise and whose two variants
    /// must differ only in the looping programs.
    fn exact(self) -> bool {
        matches!(self, Mix::Deadline | Mix::DeadlineNoLoops)
    }

    /// The kind a weight's name stands for in this mix: without loops, a looping program is the
    /// accepted one of the same language and problem.
    fn kind_name(self, name: &'static str) -> std::borrow::Cow<'static, str> {
        match (self, name.strip_suffix(" endless")) {
            (Mix::DeadlineNoLoops, Some(program)) => format!("{program} ok").into(),
            _ => name.into(),
        }
    }

    /// The languages this mix needs.
    pub fn languages(self) -> BTreeSet<&'static str> {
        self.weights()
            .iter()
            .filter_map(|(name, _)| find_kind(&self.kind_name(name)))
            .map(|k| k.language)
            .collect()
    }
}

/// A program that fails every test of its problem by never ending: the kinds expected to time
/// out and score nothing.
fn fails_every_test(kind: &Kind) -> bool {
    kind.verdict == TLE && matches!(kind.passes, Passes::Nothing)
}

fn find_kind(name: &str) -> Option<&'static Kind> {
    KINDS.iter().find(|k| k.name == name)
}

/// The size and shape of one burst.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub students: usize,
    pub per_student: usize,
    /// Every submission is sent within this long of the first.
    pub window: Duration,
    pub mix: Mix,
    /// `--lease-secs` of the judging processes.
    pub lease_secs: u64,
    /// How long the queue may take to drain.
    pub timeout: Duration,
    /// Print how judging goes every half minute.
    pub progress: bool,
    /// Judge one C++ program into the data directory before the service starts, so that the
    /// precompiled header exists as it does on a service past its first C++ compile (it is built
    /// once per compiler and flags, not per burst). Its CPU is not counted.
    pub warm: bool,
}

/// Where the burst goes.
#[derive(Debug)]
pub enum Backend {
    /// `grundy serve` with one judging worker per core, on SQLite in a temporary directory.
    Sqlite,
    /// `grundy serve --workers 0` and two `grundy worker` processes sharing a scratch database;
    /// the first worker is killed once half the submissions are judged, and started again.
    Postgres(PgDatabase),
}

impl Backend {
    fn name(&self) -> String {
        match self {
            Backend::Sqlite => "SQLite, `grundy serve` judging in-process".to_owned(),
            Backend::Postgres(db) => format!(
                "PostgreSQL ({}), `grundy serve --workers 0` and two `grundy worker`, one killed \
                 halfway and restarted",
                db.name
            ),
        }
    }
}

/// A fresh PostgreSQL database for one burst, dropped at the end.
#[derive(Debug)]
pub struct PgDatabase {
    admin_url: String,
    name: String,
    url: String,
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        // A failure only leaves a scratch database behind.
        let _ = psql(
            &self.admin_url,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
    }
}

fn psql(url: &str, sql: &str) -> std::io::Result<std::process::Output> {
    Command::new("psql")
        .args([url, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql])
        .env("PGCONNECT_TIMEOUT", "5")
        .stdin(Stdio::null())
        .output()
}

/// A scratch database at `GRUNDY_TEST_POSTGRES_URL` (default
/// postgres://postgres@127.0.0.1:5432/postgres), or why there is none.
pub fn postgres(label: &str) -> Result<std::result::Result<PgDatabase, String>> {
    let admin_url =
        std::env::var("GRUNDY_TEST_POSTGRES_URL").unwrap_or_else(|_| DEFAULT_POSTGRES.to_owned());
    match psql(&admin_url, "SELECT 1") {
        Err(e) => return Ok(Err(format!("cannot run psql: {e}"))),
        Ok(out) if !out.status.success() => {
            return Ok(Err(format!(
                "no PostgreSQL at {}: {}",
                redact(&admin_url),
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        Ok(_) => {}
    }
    let name = format!("grundy_burst_{label}_{}", std::process::id());
    let prefix = admin_url
        .rsplit_once('/')
        .map(|(prefix, _)| prefix.to_owned())
        .with_context(|| format!("no database name to replace in {}", redact(&admin_url)))?;
    let database = PgDatabase {
        admin_url: admin_url.clone(),
        name: name.clone(),
        url: format!("{prefix}/{name}"),
    };
    let out = psql(&admin_url, &format!("CREATE DATABASE {name}")).context("running psql")?;
    if !out.status.success() {
        bail!(
            "CREATE DATABASE {name}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(Ok(database))
}

/// A database URL fit for printing: no password.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}://…@{}", &url[..scheme], &url[at + 1..])
        }
        _ => url.to_owned(),
    }
}

/// What a burst found: the broken invariants (none, if all is well) and the figures.
#[derive(Debug)]
pub struct Outcome {
    pub backend: String,
    pub failures: Vec<String>,
    pub notes: Vec<String>,
    pub submissions: usize,
    /// From the first submission sent to the last answered.
    pub submit_span: Duration,
    pub submit_latency_ms: (f64, f64),
    /// From the first submission stored to the last judged, by the server's clock.
    pub judge_span: Duration,
    pub by_language: BTreeMap<&'static str, usize>,
    pub by_verdict: BTreeMap<&'static str, usize>,
    /// CPU of the tests' runs, summed from the results.
    pub test_cpu: Duration,
    /// CPU of the runs that explained wrong answers (after their verdicts), from the
    /// explanations.
    pub explain_cpu: Duration,
    /// CPU of every sandboxed run, compiles included, from the supervisors' cgroups.
    pub sandbox_cpu: Option<Duration>,
    /// Busy CPU of the whole machine from the burst's start until the queue drained, and how
    /// long that was.
    pub machine_busy: Option<Duration>,
    pub busy_window: Duration,
    /// Where the machine's busy CPU went outside the sandboxed runs, over the same window.
    pub outside: Option<Outside>,
    pub cores: usize,
    pub judges: usize,
    /// Submissions judged twice because the kill cut their first attempt short.
    pub reruns: usize,
    /// Each submission's expected verdict and its time to verdict (stored to judged, by the
    /// server's clock).
    pub turnaround: Vec<(&'static str, Duration)>,
}

impl Outcome {
    pub fn judged_per_minute(&self) -> f64 {
        self.submissions as f64 * 60.0 / self.judge_span.as_secs_f64().max(1e-9)
    }

    /// Submissions per minute if the cores did nothing but the sandboxed work, without a pause.
    pub fn limit_per_minute(&self) -> Option<f64> {
        let cpu = self.sandbox_cpu?.as_secs_f64();
        (cpu > 0.0).then(|| self.submissions as f64 * 60.0 / (cpu / self.cores as f64))
    }

    /// As [`Outcome::limit_per_minute`], counting only what a verdict needs: compiles and the
    /// tests run (up to each subtask's first failure), not the explanations of wrong answers
    /// that follow their verdicts.
    pub fn needed_limit_per_minute(&self) -> Option<f64> {
        let cpu = self
            .sandbox_cpu?
            .saturating_sub(self.explain_cpu)
            .as_secs_f64();
        (cpu > 0.0).then(|| self.submissions as f64 * 60.0 / (cpu / self.cores as f64))
    }

    pub fn report(&self) -> Vec<String> {
        let mut lines = vec![self.backend.clone()];
        let counts = |map: &BTreeMap<&str, usize>| {
            map.iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        lines.push(format!(
            "  {} submissions ({}) sent in {:.1} s; POST p50 {:.0} ms, p99 {:.0} ms",
            self.submissions,
            counts(&self.by_language),
            self.submit_span.as_secs_f64(),
            self.submit_latency_ms.0,
            self.submit_latency_ms.1,
        ));
        lines.push(format!("  verdicts: {}", counts(&self.by_verdict)));
        lines.push(format!(
            "  judged in {:.1} s by {} judges on {} cores: {:.1} submissions judged per minute",
            self.judge_span.as_secs_f64(),
            self.judges,
            self.cores,
            self.judged_per_minute()
        ));
        match (self.sandbox_cpu, self.limit_per_minute()) {
            (Some(cpu), Some(limit)) => {
                let rest = cpu
                    .saturating_sub(self.test_cpu)
                    .saturating_sub(self.explain_cpu);
                lines.push(format!(
                    "  sandboxed CPU {:.1} s: tests {:.1} s (from the results), explanations {:.1} \
                     s, compiles{} {:.1} s ({:.0} ms per submission)",
                    cpu.as_secs_f64(),
                    self.test_cpu.as_secs_f64(),
                    self.explain_cpu.as_secs_f64(),
                    if self.reruns > 0 {
                        " and cut-short attempts"
                    } else {
                        ""
                    },
                    rest.as_secs_f64(),
                    rest.as_secs_f64() * 1000.0 / self.submissions.max(1) as f64
                ));
                lines.push(format!(
                    "  physical limit (sandboxed CPU / {} cores): {:.1} per minute; judged / \
                     limit = {:.2}",
                    self.cores,
                    limit,
                    self.judged_per_minute() / limit
                ));
                if let Some(needed) = self.needed_limit_per_minute() {
                    lines.push(format!(
                        "  physical limit of what verdicts need (compiles and tests run, not \
                         explanations): {:.1} per minute; judged / limit = {:.2}",
                        needed,
                        self.judged_per_minute() / needed
                    ));
                }
            }
            _ => lines.push(format!(
                "  tests' CPU {:.1} s; the sandbox's cgroups could not be read, so no limit",
                self.test_cpu.as_secs_f64()
            )),
        }
        if let (Some(busy), Some(sandboxed)) = (self.machine_busy, self.sandbox_cpu) {
            lines.push(format!(
                "  the whole machine meanwhile: {:.0} of {:.0} CPU-seconds busy, {:.0} s of them \
                 in the sandboxed runs; the rest went to judging outside the sandbox, the server, \
                 the database, the clients and any other user of the machine",
                busy.as_secs_f64(),
                self.busy_window.as_secs_f64() * self.cores as f64,
                sandboxed.as_secs_f64(),
            ));
        }
        if let Some(outside) = &self.outside {
            lines.push(format!(
                "  outside the sandboxed runs: grundy's own threads {:.1} s (HTTP, judging, checking, \
                 storing), the supervisors {:.1} s (setting up and tearing down each run), this \
                 benchmark's clients {:.1} s",
                outside.grundy.as_secs_f64(),
                outside.supervisors.as_secs_f64(),
                outside.benchmark.as_secs_f64(),
            ));
        }
        if self.reruns > 0 {
            lines.push(format!(
                "  {} submission(s) re-run after the kill",
                self.reruns
            ));
        }
        for note in &self.notes {
            lines.push(format!("  note: {note}"));
        }
        if self.failures.is_empty() {
            lines.push(
                "  invariants hold: nothing lost, expected verdicts and scores, judged once, \
                 gradebook totals right, queue drained"
                    .to_owned(),
            );
        } else {
            lines.push(format!("  {} FAILURES:", self.failures.len()));
            for failure in &self.failures {
                lines.push(format!("    {failure}"));
            }
        }
        lines
    }
}

// ---- the problems, as their files say ---------------------------------------------------------

#[derive(Debug)]
struct Facts {
    /// Points by subtask name.
    points: BTreeMap<String, i64>,
    /// Samples and subtasks' tests.
    tests: usize,
    samples: usize,
}

impl Facts {
    fn read(slug: &str) -> Result<Facts> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../problems")
            .join(slug);
        let text = std::fs::read_to_string(dir.join("problem.toml"))
            .with_context(|| format!("reading {slug}/problem.toml"))?;
        let spec: toml::Table = text
            .parse()
            .with_context(|| format!("{slug}/problem.toml"))?;
        let mut points = BTreeMap::new();
        let mut tests = 0;
        for subtask in spec
            .get("subtasks")
            .and_then(|s| s.as_array())
            .with_context(|| format!("{slug}: no subtasks"))?
        {
            let field = |name: &str| {
                subtask
                    .get(name)
                    .with_context(|| format!("{slug}: a subtask without {name}"))
            };
            let name = field("name")?.as_str().context("subtask name")?;
            points.insert(
                name.to_owned(),
                field("points")?.as_integer().context("points")?,
            );
            tests += usize::try_from(field("tests")?.as_integer().context("tests")?)?;
        }
        let samples = std::fs::read_dir(dir.join("samples"))
            .with_context(|| format!("{slug}/samples"))?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".in"))
            .count();
        Ok(Facts {
            points,
            tests: samples + tests,
            samples,
        })
    }

    fn max_score(&self) -> i64 {
        self.points.values().sum()
    }

    fn score(&self, passes: Passes) -> i64 {
        match passes {
            Passes::All => self.max_score(),
            Passes::Nothing => 0,
            Passes::Only(name) => self.points.get(name).copied().unwrap_or(i64::MIN),
        }
    }
}

// ---- the plan ---------------------------------------------------------------------------------

/// xorshift64*: the same plan on every run.
#[derive(Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[derive(Debug)]
struct Planned {
    student: usize,
    kind: &'static Kind,
    /// When to send it, from the start of the burst.
    at: Duration,
    /// The kind's program under a comment naming the student: classmates' sources differ, a
    /// student sending the same kind again sends the same bytes.
    source: String,
}

fn student_name(student: usize) -> String {
    format!("burst-s{student:03}")
}

fn plan(scenario: &Scenario, available: &BTreeSet<String>) -> Result<(Vec<Planned>, Vec<String>)> {
    let mut notes = Vec::new();
    let mut weights = Vec::new();
    for (name, weight) in scenario.mix.weights() {
        let name = scenario.mix.kind_name(name);
        let kind = find_kind(&name).with_context(|| format!("no kind {name:?}"))?;
        if available.contains(kind.language) {
            weights.push((kind, u64::from(*weight)));
        } else {
            notes.push(format!(
                "{} is not available here: no {:?} submissions",
                kind.language, kind.name
            ));
        }
    }
    notes.dedup();
    let total: u64 = weights.iter().map(|(_, w)| w).sum();
    if total == 0 {
        bail!("none of the mix's languages is available");
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let window_ms = scenario.window.as_millis().max(1) as u64;
    let mut deck = if scenario.mix.exact() {
        dealt(&weights, scenario.students * scenario.per_student, &mut rng)
    } else {
        Vec::new()
    };
    let mut planned = Vec::new();
    for student in 0..scenario.students {
        for _ in 0..scenario.per_student {
            let kind = if scenario.mix.exact() {
                deck.pop().context("a dealt kind")?
            } else {
                let mut pick = rng.below(total);
                weights
                    .iter()
                    .find(|(_, w)| {
                        let hit = pick < *w;
                        pick = pick.saturating_sub(*w);
                        hit
                    })
                    .map(|(k, _)| *k)
                    .context("a weight to pick")?
            };
            let comment = if kind.language == "python3" {
                "#"
            } else {
                "//"
            };
            planned.push(Planned {
                student,
                kind,
                at: Duration::from_millis(rng.below(window_ms)),
                source: format!(
                    "{comment} {} for the burst\n{}",
                    student_name(student),
                    kind.source
                ),
            });
        }
    }
    Ok((planned, notes))
}

/// `n` kinds in the weights' proportions as nearly as whole numbers allow (largest remainders,
/// ties to the earlier entry), shuffled.
fn dealt(weights: &[(&'static Kind, u64)], n: usize, rng: &mut Rng) -> Vec<&'static Kind> {
    let total: u64 = weights.iter().map(|(_, w)| w).sum();
    let n = n as u64;
    let mut counts: Vec<u64> = weights.iter().map(|(_, w)| w * n / total).collect();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(weights[i].1 * n % total));
    let short = n - counts.iter().sum::<u64>();
    for &i in order.iter().take(short as usize) {
        counts[i] += 1;
    }
    let mut deck: Vec<&'static Kind> = weights
        .iter()
        .zip(&counts)
        .flat_map(|((kind, _), &count)| std::iter::repeat_n(*kind, count as usize))
        .collect();
    for i in (1..deck.len()).rev() {
        deck.swap(i, rng.below(i as u64 + 1) as usize);
    }
    deck
}

// ---- processes --------------------------------------------------------------------------------

/// A `grundy` process whose standard error is kept line by line; killed when dropped.
#[derive(Debug)]
struct Proc {
    label: String,
    child: Child,
    log: Arc<Mutex<Vec<String>>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Proc {
    /// Starts `grundy args…` and waits for a line of its standard output for which `ready` says
    /// yes; returns the process and the lines read until then.
    fn start(label: &str, args: &[String], ready: fn(&str) -> bool) -> Result<(Proc, Vec<String>)> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(args)
            .env_remove("GRUNDY_DATABASE_URL")
            .env_remove("GRUNDY_DATA_DIR")
            .env_remove("GRUNDY_LISTEN")
            .env_remove("GRUNDY_WORKERS")
            .env_remove("GRUNDY_PROBLEMS_DIR")
            .env_remove("GRUNDY_SUBMISSION_RATE")
            .env("GRUNDY_LOG", LOG_FILTER)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {label}"))?;
        let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
        let log = Arc::new(Mutex::new(Vec::new()));
        let reader = stderr.map(|stderr| {
            let (log, label) = (log.clone(), label.to_owned());
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines() {
                    let Ok(line) = line else { break };
                    let line = strip_ansi(&line);
                    if line.contains(" WARN ") || line.contains(" ERROR ") {
                        eprintln!("[{label}] {line}");
                    }
                    log.lock().unwrap().push(line);
                }
            })
        });
        // From here the guard owns the child: an early return kills it.
        let proc = Proc {
            label: label.to_owned(),
            child,
            log,
            reader,
        };
        let stdout = stdout.context("standard output")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let _ = tx.send(line);
            }
        });
        let mut lines = Vec::new();
        loop {
            match rx.recv_timeout(Duration::from_secs(120)) {
                Ok(line) => {
                    let done = ready(&line);
                    lines.push(line);
                    if done {
                        return Ok((proc, lines));
                    }
                }
                Err(RecvTimeoutError::Timeout) => bail!("{label} did not start within 120 s"),
                Err(RecvTimeoutError::Disconnected) => {
                    bail!("{label} exited before it was ready; its errors are above")
                }
            }
        }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL, then the whole of what it logged before it died.
    fn kill(&mut self) -> Result<Vec<String>> {
        self.child.kill().context("killing")?;
        self.child
            .wait()
            .context("waiting for the killed process")?;
        // Its supervisor holds the same standard error until it sees the end of its input.
        if let Some(reader) = self.reader.take() {
            let deadline = Instant::now() + Duration::from_secs(30);
            while !reader.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            if !reader.is_finished() {
                bail!(
                    "{}: its log did not end within 30 s of the kill",
                    self.label
                );
            }
            let _ = reader.join();
        }
        Ok(self.log())
    }

    fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ parameters, ended by a letter.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Claims ("judging") and results written ("judged") by submission, from workers' log lines:
/// `… grundy_server::worker[::job]: judging|judged … submission=N …`.
fn worker_events(lines: &[String]) -> (BTreeMap<i64, usize>, BTreeMap<i64, usize>) {
    let (mut claims, mut judged) = (BTreeMap::new(), BTreeMap::new());
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(at) = words
            .iter()
            .position(|w| w.starts_with("grundy_server::worker") && w.ends_with(':'))
        else {
            continue;
        };
        let Some(id) = words[at + 1..]
            .iter()
            .find_map(|w| w.strip_prefix("submission="))
            .and_then(|n| n.parse::<i64>().ok())
        else {
            continue;
        };
        match words.get(at + 1).copied() {
            Some("judging") => *claims.entry(id).or_insert(0) += 1,
            Some("judged") => *judged.entry(id).or_insert(0) += 1,
            _ => {}
        }
    }
    (claims, judged)
}

/// Submissions a worker claimed and never finished, by its log.
fn in_flight(lines: &[String]) -> BTreeSet<i64> {
    let (claims, judged) = worker_events(lines);
    claims
        .keys()
        .filter(|id| !judged.contains_key(id))
        .copied()
        .collect()
}

// ---- the sandbox's CPU ------------------------------------------------------------------------

/// Where a supervisor's group keeps its CPU usage.
#[derive(Debug, Clone)]
enum UsageFile {
    /// `cpuacct.usage` (nanoseconds) under the cpuacct hierarchy.
    V1(PathBuf),
    /// `usage_usec` of `cpu.stat` under the parent the sandbox creates its groups in.
    V2(PathBuf),
}

/// The cgroup CPU of the supervisors started by some processes, sampled while they live.
#[derive(Debug)]
struct SandboxCpu {
    usage: Option<UsageFile>,
    parents: Mutex<BTreeSet<u32>>,
    /// The latest usage seen, in nanoseconds, by supervisor pid.
    seen: Mutex<BTreeMap<u32, u64>>,
}

impl SandboxCpu {
    fn new() -> SandboxCpu {
        let usage = match grundy_sandbox::cgroup::detect(None) {
            Ok(grundy_sandbox::cgroup::Layout::V1 { cpuacct, .. }) => Some(UsageFile::V1(cpuacct)),
            Ok(grundy_sandbox::cgroup::Layout::V2 { parent }) => Some(UsageFile::V2(parent)),
            Err(_) => None,
        };
        SandboxCpu {
            usage,
            parents: Mutex::new(BTreeSet::new()),
            seen: Mutex::new(BTreeMap::new()),
        }
    }

    fn watch(&self, pid: u32) {
        self.parents.lock().unwrap().insert(pid);
    }

    fn read(&self, supervisor: u32) -> Option<u64> {
        let group = format!("grundy-{supervisor}");
        match self.usage.as_ref()? {
            UsageFile::V1(dir) => std::fs::read_to_string(dir.join(group).join("cpuacct.usage"))
                .ok()?
                .trim()
                .parse()
                .ok(),
            UsageFile::V2(dir) => std::fs::read_to_string(dir.join(group).join("cpu.stat"))
                .ok()?
                .lines()
                .find_map(|l| l.strip_prefix("usage_usec "))
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(|us| us * 1000),
        }
    }

    fn sample(&self) {
        let parents = self.parents.lock().unwrap().clone();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return;
        };
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
            let ppid = stat
                .rsplit_once(") ")
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|p| p.parse::<u32>().ok());
            if !ppid.is_some_and(|p| parents.contains(&p)) {
                continue;
            }
            if let Some(ns) = self.read(pid) {
                let mut seen = self.seen.lock().unwrap();
                let slot = seen.entry(pid).or_insert(0);
                *slot = (*slot).max(ns);
            }
        }
    }

    fn total(&self) -> Option<Duration> {
        let seen = self.seen.lock().unwrap();
        (self.usage.is_some() && !seen.is_empty())
            .then(|| Duration::from_nanos(seen.values().sum()))
    }
}

/// Busy CPU of the whole machine since boot, every core: all but idle and I/O wait.
fn machine_busy() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let ticks: Vec<u64> = stat
        .lines()
        .next()?
        .strip_prefix("cpu ")?
        .split_whitespace()
        .filter_map(|v| v.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal; guest time is counted inside user and nice.
    let busy = ticks.iter().take(8).sum::<u64>() - ticks.get(3)? - ticks.get(4)?;
    // USER_HZ: 100 ticks a second on every Linux ABI.
    Some(Duration::from_millis(busy.checked_mul(10)?))
}

/// CPU used outside the sandboxed runs, summed since each process started: grundy's processes
/// (their own threads), their sandbox supervisors (the supervisor itself, not the runs it
/// waits for) and this process.
#[derive(Debug, Default, Clone)]
pub struct Outside {
    pub grundy: Duration,
    pub supervisors: Duration,
    pub benchmark: Duration,
}

impl Outside {
    fn read(judging: &Judging) -> Outside {
        let grundy: Vec<u32> = std::iter::once(judging.serve.pid())
            .chain(judging.workers.iter().map(Proc::pid))
            .collect();
        let mut outside = Outside {
            benchmark: own_cpu("self").unwrap_or_default(),
            ..Outside::default()
        };
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some((ppid, cpu)) = stat_fields(&name) else {
                continue;
            };
            if grundy.iter().any(|&p| p.to_string() == name) {
                outside.grundy += cpu;
            } else if grundy.contains(&ppid) {
                outside.supervisors += cpu;
            }
        }
        outside
    }

    fn since(&self, before: &Outside) -> Outside {
        Outside {
            grundy: self.grundy.saturating_sub(before.grundy),
            supervisors: self.supervisors.saturating_sub(before.supervisors),
            benchmark: self.benchmark.saturating_sub(before.benchmark),
        }
    }
}

/// The parent and the own CPU (user and system, every thread, not the children) of `/proc/<pid>`.
fn stat_fields(pid: &str) -> Option<(u32, Duration)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may hold spaces: the fields follow the last ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ppid = fields.get(1)?.parse().ok()?;
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // USER_HZ: 100 ticks a second on every Linux ABI.
    Some((ppid, Duration::from_millis(ticks * 10)))
}

fn own_cpu(pid: &str) -> Option<Duration> {
    stat_fields(pid).map(|(_, cpu)| cpu)
}

/// Samples every quarter second until dropped.
#[derive(Debug)]
struct Sampler {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Sampler {
    fn start(cpu: Arc<SandboxCpu>) -> Sampler {
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    cpu.sample();
                    std::thread::sleep(Duration::from_millis(250));
                }
            })
        };
        Sampler {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

// ---- the API ----------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct Api {
    client: reqwest::Client,
    base: String,
}

impl Api {
    fn new(base: &str) -> Result<Api> {
        Ok(Api {
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(120))
                .build()
                .context("an HTTP client")?,
            base: base.trim_end_matches('/').to_owned(),
        })
    }

    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        token: &str,
        body: Option<&Value>,
    ) -> Result<(u16, Value)> {
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(token);
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request
            .send()
            .await
            .with_context(|| format!("{path}: no answer"))?;
        let status = response.status().as_u16();
        let text = response.text().await.unwrap_or_default();
        Ok((
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        ))
    }

    async fn get(&self, path: &str, token: &str) -> Result<Value> {
        let (status, doc) = self.call(reqwest::Method::GET, path, token, None).await?;
        if status != 200 {
            bail!("GET {path}: {status} {doc}");
        }
        Ok(doc)
    }

    async fn post(&self, path: &str, token: &str, body: &Value, expect: u16) -> Result<Value> {
        let (status, doc) = self
            .call(reqwest::Method::POST, path, token, Some(body))
            .await?;
        if status != expect {
            bail!("POST {path}: {status} {doc}");
        }
        Ok(doc)
    }

    /// Every submission in the store, newest first (the caller sees all: an admin).
    async fn all_submissions(&self, admin: &str) -> Result<Vec<Value>> {
        let mut all = Vec::new();
        let mut before = String::new();
        loop {
            let doc = self
                .get(&format!("/api/v1/submissions?limit=500{before}"), admin)
                .await?;
            let page = doc["submissions"]
                .as_array()
                .cloned()
                .context("a list of submissions")?;
            let Some(last) = page.last().and_then(|s| s["id"].as_i64()) else {
                break;
            };
            let full = page.len() == 500;
            all.extend(page);
            if !full {
                break;
            }
            before = format!("&before={last}");
        }
        Ok(all)
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// `grundy judge` of an accepted C++ program with the service's data directory as its cache: the
/// precompiled headers the service will use are built, and nothing of the burst's own sources is
/// cached (every student's differs).
fn warm_up(data_dir: &str) -> Result<()> {
    let kind = find_kind("cpp nim ok").context("the warm-up's program")?;
    let source = tempfile::Builder::new()
        .suffix(".cpp")
        .tempfile()
        .context("the warm-up's source")?;
    std::fs::write(source.path(), kind.source).context("the warm-up's source")?;
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "judge",
            "--problem",
            kind.problem,
            "--lang",
            kind.language,
            "--cache-dir",
        ])
        .arg(data_dir)
        .arg(source.path())
        .env("GRUNDY_LOG", "warn")
        .stdin(Stdio::null())
        .output()
        .context("running grundy judge to warm the caches")?;
    if !out.status.success() {
        bail!(
            "warming the caches: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// `grundy admin create-user` for each name, eight at a time; their tokens in order.
fn create_users(data_args: &[String], users: &[(String, &str)]) -> Result<Vec<String>> {
    let one = |name: &str, role: &str| -> Result<String> {
        let mut args: Vec<String> = ["admin", "create-user", "--name", name, "--role", role]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        args.push("--print-token".to_owned());
        args.extend_from_slice(data_args);
        let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(&args)
            .env_remove("GRUNDY_DATABASE_URL")
            .env_remove("GRUNDY_DATA_DIR")
            .env("GRUNDY_LOG", "warn")
            .stdin(Stdio::null())
            .output()
            .context("running grundy admin create-user")?;
        if !out.status.success() {
            bail!(
                "grundy admin create-user {name}: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        let token = stdout.lines().last().unwrap_or("").trim().to_owned();
        if !token.starts_with("grundy_") {
            bail!("grundy admin create-user printed no token last: {stdout:?}");
        }
        Ok(token)
    };
    let threads = 8;
    let mut tokens = vec![String::new(); users.len()];
    std::thread::scope(|scope| -> Result<()> {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || -> Result<Vec<(usize, String)>> {
                    (t..users.len())
                        .step_by(threads)
                        .map(|i| Ok((i, one(&users[i].0, users[i].1)?)))
                        .collect()
                })
            })
            .collect();
        for handle in handles {
            let made = handle
                .join()
                .map_err(|_| anyhow::anyhow!("a thread creating users panicked"))??;
            for (i, token) in made {
                tokens[i] = token;
            }
        }
        Ok(())
    })?;
    Ok(tokens)
}

// ---- one burst --------------------------------------------------------------------------------

/// What one student's client saw of one submission.
#[derive(Debug)]
struct Sent {
    plan: usize,
    result: std::result::Result<i64, String>,
    sent: Instant,
    latency: Duration,
}

/// The judging processes and what is known of the kill.
#[derive(Debug)]
struct Judging {
    serve: Proc,
    workers: Vec<Proc>,
    /// Logs of killed processes, whole.
    dead_logs: Vec<Vec<String>>,
    /// What the killed worker had claimed and not finished when it died.
    cut_short: Option<BTreeSet<i64>>,
    worker_args: Vec<Vec<String>>,
}

impl Judging {
    fn logs(&self) -> Vec<String> {
        let mut all = self.serve.log();
        for w in &self.workers {
            all.extend(w.log());
        }
        for dead in &self.dead_logs {
            all.extend(dead.iter().cloned());
        }
        all
    }
}

pub fn run(backend: &Backend, scenario: &Scenario) -> Result<Outcome> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let data = tempfile::tempdir().context("a data directory")?;
    let data_dir = data
        .path()
        .to_str()
        .context("a UTF-8 data directory")?
        .to_owned();
    let mut data_args = vec!["--data-dir".to_owned(), data_dir.clone()];
    if scenario.warm {
        warm_up(&data_dir)?;
    }
    let lease = scenario.lease_secs.to_string();
    let cpu = Arc::new(SandboxCpu::new());

    let (serve_workers, worker_processes, per_worker) = match backend {
        Backend::Sqlite => (cores, 0, 0),
        Backend::Postgres(db) => {
            data_args.extend(["--database-url".to_owned(), db.url.clone()]);
            (0, 2, (cores / 2).max(1))
        }
    };
    let mut serve_args: Vec<String> = [
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--lease-secs",
        lease.as_str(),
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    serve_args.extend(["--workers".to_owned(), serve_workers.to_string()]);
    serve_args.extend_from_slice(&data_args);
    let (serve, printed) = Proc::start("serve", &serve_args, |l| l.starts_with("listening on "))?;
    cpu.watch(serve.pid());
    let url = printed
        .iter()
        .find_map(|l| l.strip_prefix("listening on "))
        .context("the address")?
        .trim()
        .to_owned();
    let admin = printed
        .iter()
        .find_map(|l| l.split("(shown only now): ").nth(1))
        .context("a fresh database prints the first admin's token")?
        .trim()
        .to_owned();
    let mut judging = Judging {
        serve,
        workers: Vec::new(),
        dead_logs: Vec::new(),
        cut_short: None,
        worker_args: Vec::new(),
    };
    if let Backend::Postgres(db) = backend {
        for n in 1..=worker_processes {
            let args: Vec<String> = [
                "worker",
                "--database-url",
                db.url.as_str(),
                "--data-dir",
                format!("{data_dir}/worker{n}").as_str(),
                "--workers",
                per_worker.to_string().as_str(),
                "--lease-secs",
                lease.as_str(),
            ]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
            let (worker, _) = Proc::start(&format!("worker{n}"), &args, |l| {
                l.starts_with("worker ready")
            })?;
            cpu.watch(worker.pid());
            judging.workers.push(worker);
            judging.worker_args.push(args);
        }
    }
    let judges = serve_workers + worker_processes * per_worker;
    let _sampler = Sampler::start(cpu.clone());

    let mut users = vec![("burst-teacher".to_owned(), "teacher")];
    users.extend((0..scenario.students).map(|s| (student_name(s), "student")));
    let mut tokens = create_users(&data_args, &users)?;
    let teacher = tokens.remove(0);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("a runtime")?;
    let mut outcome = runtime.block_on(burst(
        &url,
        &admin,
        &teacher,
        &tokens,
        scenario,
        &mut judging,
        &cpu,
    ))?;
    cpu.sample();
    outcome.backend = backend.name();
    outcome.cores = cores;
    outcome.judges = judges;
    outcome.sandbox_cpu = cpu.total();
    Ok(outcome)
}

#[allow(clippy::too_many_arguments)]
async fn burst(
    url: &str,
    admin: &str,
    teacher: &str,
    students: &[String],
    scenario: &Scenario,
    judging: &mut Judging,
    cpu: &SandboxCpu,
) -> Result<Outcome> {
    let api = Api::new(url)?;
    let mut facts = BTreeMap::new();
    for slug in PROBLEMS {
        facts.insert(slug, Facts::read(slug)?);
    }
    let nim = api.get("/api/v1/problems/nim", admin).await?;
    let available: BTreeSet<String> = nim["languages"]
        .as_array()
        .context("the languages of a problem")?
        .iter()
        .filter_map(|l| l["id"].as_str().map(str::to_owned))
        .collect();
    let (planned, notes) = plan(scenario, &available)?;

    // The class: a course, everyone joined, an assignment due shortly after the burst.
    let course = api
        .post(
            "/api/v1/courses",
            teacher,
            &json!({ "title": "Deadline burst" }),
            201,
        )
        .await?;
    let course_id = course["id"].as_i64().context("a course id")?;
    let code = course["join_code"].clone();
    let mut joins = tokio::task::JoinSet::new();
    for token in students {
        let (api, token, code) = (api.clone(), token.clone(), code.clone());
        joins.spawn(async move {
            api.post(
                "/api/v1/courses/join",
                &token,
                &json!({ "code": code }),
                200,
            )
            .await
        });
    }
    while let Some(joined) = joins.join_next().await {
        joined.context("a join")??;
    }
    let now = now_ms();
    let due_at = now + scenario.window.as_millis() as i64 + 120_000;
    let assignment = api
        .post(
            &format!("/api/v1/courses/{course_id}/assignments"),
            teacher,
            &json!({
                "title": "Due right after the burst",
                "opens_at": now - 60_000,
                "due_at": due_at,
                "closes_at": due_at + 3_600_000,
                "penalty_percent": 10,
                "penalty_step_ms": 600_000,
                "scoring": "best",
                "feedback": "tests",
                "problems": PROBLEMS,
            }),
            201,
        )
        .await?;
    let assignment_id = assignment["id"].as_i64().context("an assignment id")?;

    // The burst: one client per student, each sending its submissions at their planned times.
    let planned = Arc::new(planned);
    let busy_before = machine_busy();
    let outside_before = Outside::read(judging);
    let start = Instant::now();
    let mut clients = tokio::task::JoinSet::new();
    for (student, token) in students.iter().enumerate() {
        let (api, token, planned) = (Api::new(url)?, token.clone(), planned.clone());
        clients.spawn(async move {
            let mut mine: Vec<usize> = (0..planned.len())
                .filter(|&i| planned[i].student == student)
                .collect();
            mine.sort_by_key(|&i| planned[i].at);
            let mut sent = Vec::new();
            for i in mine {
                tokio::time::sleep_until((start + planned[i].at).into()).await;
                let p = &planned[i];
                let body = json!({
                    "problem": p.kind.problem,
                    "language": p.kind.language,
                    "source": p.source,
                    "assignment": assignment_id,
                });
                let at = Instant::now();
                let result = match api.post("/api/v1/submissions", &token, &body, 201).await {
                    Ok(doc) => doc["id"]
                        .as_i64()
                        .ok_or_else(|| format!("201 without an id: {doc}")),
                    Err(e) => Err(format!("{e:#}")),
                };
                sent.push(Sent {
                    plan: i,
                    result,
                    sent: at,
                    latency: at.elapsed(),
                });
            }
            sent
        });
    }
    let mut sent = Vec::new();
    while let Some(joined) = clients.join_next().await {
        sent.extend(joined.context("a student's client")?);
    }
    sent.sort_by_key(|s| s.plan);

    let mut failures = Vec::new();
    let mut ids: BTreeMap<i64, usize> = BTreeMap::new();
    for s in &sent {
        match &s.result {
            Ok(id) => {
                if ids.insert(*id, s.plan).is_some() {
                    failures.push(format!("submission id {id} was given twice"));
                }
            }
            Err(e) => failures.push(format!(
                "{} ({}) was not accepted: {e}",
                planned[s.plan].kind.name,
                student_name(planned[s.plan].student)
            )),
        }
    }
    let first_sent = sent.iter().map(|s| s.sent).min().unwrap_or(start);
    let last_answered = sent
        .iter()
        .map(|s| s.sent + s.latency)
        .max()
        .unwrap_or(start);
    let mut latencies: Vec<f64> = sent
        .iter()
        .map(|s| s.latency.as_secs_f64() * 1000.0)
        .collect();
    latencies.sort_by(f64::total_cmp);
    let quantile = |q: f64| {
        latencies
            .get(((q * latencies.len() as f64).ceil() as usize).saturating_sub(1))
            .copied()
            .unwrap_or(0.0)
    };

    // Until the queue drains; on PostgreSQL the first worker dies halfway.
    let total = ids.len();
    let deadline = Instant::now() + scenario.timeout;
    let mut last_progress = Instant::now();
    let drained = loop {
        let listed = api.all_submissions(admin).await?;
        let done = listed.iter().filter(|s| s["status"] == "done").count();
        if done == listed.len() && listed.len() >= total {
            break true;
        }
        if Instant::now() > deadline {
            failures.push(format!(
                "the queue did not drain: {done} of {} done after {:?}",
                listed.len(),
                scenario.timeout
            ));
            break false;
        }
        if scenario.progress && last_progress.elapsed() > Duration::from_secs(30) {
            println!(
                "    … {done}/{total} judged after {:.0} s",
                start.elapsed().as_secs_f64()
            );
            last_progress = Instant::now();
        }
        if !judging.workers.is_empty() && judging.cut_short.is_none() && done * 2 >= total {
            kill_and_restart(judging, cpu)?;
            continue;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    let busy_after = machine_busy();
    let outside = Outside::read(judging).since(&outside_before);
    let busy_window = start.elapsed();

    let mut outcome = Outcome {
        backend: String::new(),
        failures,
        notes,
        submissions: total,
        submit_span: last_answered.duration_since(first_sent),
        submit_latency_ms: (quantile(0.5), quantile(0.99)),
        judge_span: Duration::ZERO,
        by_language: BTreeMap::new(),
        by_verdict: BTreeMap::new(),
        test_cpu: Duration::ZERO,
        explain_cpu: Duration::ZERO,
        sandbox_cpu: None,
        machine_busy: busy_after
            .zip(busy_before)
            .map(|(a, b)| a.saturating_sub(b)),
        busy_window,
        outside: Some(outside),
        cores: 0,
        judges: 0,
        reruns: 0,
        turnaround: Vec::new(),
    };
    for &plan in ids.values() {
        *outcome
            .by_language
            .entry(planned[plan].kind.language)
            .or_insert(0) += 1;
        *outcome
            .by_verdict
            .entry(planned[plan].kind.verdict)
            .or_insert(0) += 1;
    }
    if !drained {
        return Ok(outcome);
    }
    check(
        &api,
        admin,
        teacher,
        assignment_id,
        due_at,
        &planned,
        &ids,
        &facts,
        judging,
        &mut outcome,
    )
    .await?;
    Ok(outcome)
}

/// Kills the first worker once it holds a claim (its log shows one not finished), keeps what it
/// had claimed, and starts it again on the same data directory, as a supervisor would.
fn kill_and_restart(judging: &mut Judging, cpu: &SandboxCpu) -> Result<()> {
    let deadline = Instant::now() + Duration::from_secs(120);
    while in_flight(&judging.workers[0].log()).is_empty() {
        if Instant::now() > deadline {
            bail!("the first worker claimed nothing for 120 s after half the queue was judged");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    // The dead supervisor's group is swept by the next supervisor: its CPU is read first.
    cpu.sample();
    let mut worker = judging.workers.remove(0);
    let log = worker.kill()?;
    judging.cut_short = Some(in_flight(&log));
    judging.dead_logs.push(log);
    let args = judging.worker_args[0].clone();
    let (restarted, _) = Proc::start("worker1 (restarted)", &args, |l| {
        l.starts_with("worker ready")
    })?;
    cpu.watch(restarted.pid());
    judging.workers.insert(0, restarted);
    Ok(())
}

#[allow(clippy::too_many_arguments)]
async fn check(
    api: &Api,
    admin: &str,
    teacher: &str,
    assignment_id: i64,
    due_at: i64,
    planned: &[Planned],
    ids: &BTreeMap<i64, usize>,
    facts: &BTreeMap<&str, Facts>,
    judging: &Judging,
    outcome: &mut Outcome,
) -> Result<()> {
    let failures = &mut outcome.failures;

    // Nothing lost, nothing added.
    let listed: BTreeSet<i64> = api
        .all_submissions(admin)
        .await?
        .iter()
        .filter_map(|s| s["id"].as_i64())
        .collect();
    let sent: BTreeSet<i64> = ids.keys().copied().collect();
    for id in sent.difference(&listed) {
        failures.push(format!(
            "submission {id} was accepted but is not in the store"
        ));
    }
    for id in listed.difference(&sent) {
        failures.push(format!(
            "submission {id} is in the store but was never sent"
        ));
    }

    // Each one's record, fetched by several clients at once.
    let mut fetches = tokio::task::JoinSet::new();
    let all: Arc<Vec<i64>> = Arc::new(sent.iter().copied().collect());
    for part in 0..16 {
        let (api, admin, all) = (api.clone(), admin.to_owned(), all.clone());
        fetches.spawn(async move {
            let mut docs = Vec::new();
            for id in all.iter().skip(part).step_by(16) {
                docs.push((
                    *id,
                    api.get(&format!("/api/v1/submissions/{id}"), &admin)
                        .await?,
                ));
            }
            anyhow::Ok(docs)
        });
    }
    let mut docs = BTreeMap::new();
    while let Some(joined) = fetches.join_next().await {
        docs.extend(joined.context("fetching submissions")??);
    }

    let (claims, judged) = worker_events(&judging.logs());
    let cut_short = judging.cut_short.clone().unwrap_or_default();
    if judging.cut_short.is_some() && cut_short.is_empty() {
        failures.push("the killed worker had no claim in flight when it died".to_owned());
    }
    let mut test_cpu_ms = 0;
    let mut explain_cpu_ms = 0;
    let mut outcome_turnaround = Vec::new();
    let (mut first_created, mut last_judged) = (i64::MAX, i64::MIN);
    let mut expected_cells: BTreeMap<(usize, &str), (i64, i64)> = BTreeMap::new();
    for (id, doc) in &docs {
        let p = &planned[ids[id]];
        let fact = &facts[p.kind.problem];
        let score = fact.score(p.kind.passes);
        let cell = expected_cells
            .entry((p.student, p.kind.problem))
            .or_insert((0, i64::MIN));
        cell.0 += 1;
        cell.1 = cell.1.max(score);
        let what = format!(
            "submission {id} ({}, {})",
            p.kind.name,
            student_name(p.student)
        );
        let found = (
            doc["status"].as_str(),
            doc["verdict"].as_str(),
            doc["score"].as_i64(),
            doc["max_score"].as_i64(),
        );
        let expected = (
            Some("done"),
            Some(p.kind.verdict),
            Some(score),
            Some(fact.max_score()),
        );
        if found != expected {
            failures.push(format!(
                "{what}: (status, verdict, score, max) {found:?}, expected {expected:?}"
            ));
        }
        if doc["source"].as_str() != Some(p.source.as_str()) {
            failures.push(format!(
                "{what}: the stored source differs from the one sent"
            ));
        }
        let tests = doc["tests"].as_array().cloned().unwrap_or_default();
        let expected_tests = if p.kind.verdict == CE { 0 } else { fact.tests };
        let positions: BTreeSet<i64> = tests
            .iter()
            .filter_map(|t| t["position"].as_i64())
            .collect();
        if tests.len() != expected_tests || positions.len() != tests.len() {
            failures.push(format!(
                "{what}: {} result rows ({} distinct positions), expected one per test: {expected_tests}",
                tests.len(),
                positions.len()
            ));
        }
        // A program that runs out of time on every test is stopped at the first sample and at
        // each subtask's first test (the assignment does not run every test): the rest of its
        // rows say `skipped`.
        if fails_every_test(p.kind) {
            let ran = tests.iter().filter(|t| t["verdict"] != "skipped").count();
            let expected_ran = fact.samples.min(1) + fact.points.len();
            if ran != expected_ran {
                failures.push(format!(
                    "{what}: {ran} tests run, expected {expected_ran} (the first sample and \
                     each subtask's first), the rest skipped"
                ));
            }
        }
        test_cpu_ms += tests
            .iter()
            .filter_map(|t| t["cpu_ms"].as_i64())
            .sum::<i64>();
        explain_cpu_ms += doc["explanation"]["cpu_ms"].as_i64().unwrap_or(0);
        let created = doc["created_at"].as_i64().unwrap_or(i64::MAX);
        if let Some(judged_at) = doc["judged_at"].as_i64()
            && judged_at >= created
        {
            outcome_turnaround.push((
                p.kind.verdict,
                Duration::from_millis((judged_at - created) as u64),
            ));
        }
        if created > due_at {
            failures.push(format!(
                "{what}: made after the due time, so its expected score is wrong"
            ));
        }
        first_created = first_created.min(created);
        last_judged = last_judged.max(doc["judged_at"].as_i64().unwrap_or(i64::MIN));

        // Judged once: claims counted by the store and seen in the logs, one result written.
        let attempts = doc["attempts"].as_i64().unwrap_or(-1);
        let expected_attempts = if cut_short.contains(id) { 2 } else { 1 };
        if attempts != expected_attempts {
            failures.push(format!(
                "{what}: {attempts} attempts, expected {expected_attempts}{}",
                if cut_short.contains(id) {
                    " (the killed worker had claimed it)"
                } else {
                    ""
                }
            ));
        }
        let logged_claims = claims.get(id).copied().unwrap_or(0);
        if i64::try_from(logged_claims).ok() != Some(attempts) {
            failures.push(format!(
                "{what}: {logged_claims} claims logged, {attempts} attempts stored"
            ));
        }
        let written = judged.get(id).copied().unwrap_or(0);
        if written != 1 {
            failures.push(format!("{what}: its result was written {written} times"));
        }
    }
    outcome.reruns = cut_short.len();
    outcome.turnaround = outcome_turnaround;
    outcome.explain_cpu = Duration::from_millis(u64::try_from(explain_cpu_ms).unwrap_or(0));
    outcome.test_cpu = Duration::from_millis(u64::try_from(test_cpu_ms).unwrap_or(0));
    if last_judged > first_created {
        outcome.judge_span = Duration::from_millis((last_judged - first_created) as u64);
    }

    // The gradebook, against the expected best score of each student's problems.
    let book = api
        .get(
            &format!("/api/v1/assignments/{assignment_id}/gradebook"),
            teacher,
        )
        .await?;
    let rows = book["rows"].as_array().cloned().unwrap_or_default();
    let students: BTreeSet<usize> = planned.iter().map(|p| p.student).collect();
    if rows.len() != students.len() {
        failures.push(format!(
            "the gradebook has {} rows for {} students",
            rows.len(),
            students.len()
        ));
    }
    for row in &rows {
        let name = row["name"].as_str().unwrap_or("");
        let Some(student) = students.iter().copied().find(|&s| student_name(s) == name) else {
            failures.push(format!(
                "the gradebook has a row for {name:?}, who is not a student"
            ));
            continue;
        };
        let mut total = 0;
        for (i, slug) in PROBLEMS.iter().enumerate() {
            let cell = &row["cells"][i];
            let (attempts, best) = expected_cells
                .get(&(student, *slug))
                .copied()
                .unwrap_or((0, i64::MIN));
            let expected_score = (attempts > 0).then_some(best as f64);
            total += expected_score.map_or(0, |_| best);
            let found = (
                cell["problem"].as_str(),
                cell["attempts"].as_i64(),
                cell["pending"].as_i64(),
                cell["penalty_percent"].as_i64(),
                cell["score"].as_f64(),
            );
            let expected = (
                Some(*slug),
                Some(attempts),
                Some(0),
                Some(0),
                expected_score,
            );
            if found != expected {
                failures.push(format!(
                    "gradebook {name} {slug}: (problem, attempts, pending, penalty, score) {found:?}, expected {expected:?}"
                ));
            }
        }
        if row["total"].as_f64() != Some(total as f64) {
            failures.push(format!(
                "gradebook {name}: total {}, expected {total}",
                row["total"]
            ));
        }
    }
    Ok(())
}

// ---- a service for smaller scenarios ----------------------------------------------------------

/// `grundy serve` on SQLite in a temporary directory with a given number of judges, its
/// sandbox's CPU sampled, driven one request at a time: for the benchmark's scenarios that
/// follow single submissions rather than a burst.
#[derive(Debug)]
pub struct Service {
    runtime: tokio::runtime::Runtime,
    api: Api,
    admin: String,
    data_args: Vec<String>,
    cpu: Arc<SandboxCpu>,
    _sampler: Sampler,
    _serve: Proc,
    _data: tempfile::TempDir,
}

/// What was seen of one submission followed until done.
#[derive(Debug)]
pub struct Followed {
    pub doc: Value,
    /// When it was first seen claimed (`judging`, or already `done`) and first seen `done`, by
    /// polling every 50 ms.
    pub claimed: Instant,
    pub done: Instant,
    /// Stored to judged, by the server's clock.
    pub to_verdict: Duration,
}

impl Followed {
    pub fn verdict(&self) -> &str {
        self.doc["verdict"].as_str().unwrap_or("?")
    }

    /// The tests' CPU from the results, and how many tests were run (not skipped) of how many.
    pub fn tests(&self) -> (Duration, usize, usize) {
        let tests = self.doc["tests"].as_array().cloned().unwrap_or_default();
        let cpu: i64 = tests.iter().filter_map(|t| t["cpu_ms"].as_i64()).sum();
        let ran = tests.iter().filter(|t| t["verdict"] != "skipped").count();
        (
            Duration::from_millis(u64::try_from(cpu).unwrap_or(0)),
            ran,
            tests.len(),
        )
    }
}

impl Service {
    pub fn start(judges: usize) -> Result<Service> {
        let data = tempfile::tempdir().context("a data directory")?;
        let data_dir = data
            .path()
            .to_str()
            .context("a UTF-8 data directory")?
            .to_owned();
        let data_args = vec!["--data-dir".to_owned(), data_dir];
        let mut args: Vec<String> = ["serve", "--listen", "127.0.0.1:0", "--workers"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        args.push(judges.to_string());
        args.extend_from_slice(&data_args);
        let (serve, printed) = Proc::start("serve", &args, |l| l.starts_with("listening on "))?;
        let cpu = Arc::new(SandboxCpu::new());
        cpu.watch(serve.pid());
        let url = printed
            .iter()
            .find_map(|l| l.strip_prefix("listening on "))
            .context("the address")?
            .trim()
            .to_owned();
        let admin = printed
            .iter()
            .find_map(|l| l.split("(shown only now): ").nth(1))
            .context("a fresh database prints the first admin's token")?
            .trim()
            .to_owned();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .context("a runtime")?;
        Ok(Service {
            runtime,
            api: Api::new(&url)?,
            admin,
            data_args,
            _sampler: Sampler::start(cpu.clone()),
            cpu,
            _serve: serve,
            _data: data,
        })
    }

    /// A teacher and the named students, joined to a new course; the teacher's token, then the
    /// students'.
    pub fn class(&self, students: &[String]) -> Result<(String, i64, Vec<String>)> {
        let mut users = vec![("class-teacher".to_owned(), "teacher")];
        users.extend(students.iter().map(|s| (s.clone(), "student")));
        let mut tokens = create_users(&self.data_args, &users)?;
        let teacher = tokens.remove(0);
        let course = self.runtime.block_on(self.api.post(
            "/api/v1/courses",
            &teacher,
            &json!({ "title": "A class's load" }),
            201,
        ))?;
        let course_id = course["id"].as_i64().context("a course id")?;
        for token in &tokens {
            self.runtime.block_on(self.api.post(
                "/api/v1/courses/join",
                token,
                &json!({ "code": course["join_code"] }),
                200,
            ))?;
        }
        Ok((teacher, course_id, tokens))
    }

    /// An assignment of the course open now and due in an hour, with every problem of the burst;
    /// `run_every_test` as given.
    pub fn assignment(&self, teacher: &str, course: i64, run_every_test: bool) -> Result<i64> {
        let now = now_ms();
        let doc = self.runtime.block_on(self.api.post(
            &format!("/api/v1/courses/{course}/assignments"),
            teacher,
            &json!({
                "title": if run_every_test { "Every test run" } else { "Stopped at a failure" },
                "opens_at": now - 60_000,
                "due_at": now + 3_600_000,
                "closes_at": now + 7_200_000,
                "scoring": "best",
                "feedback": "tests",
                "run_every_test": run_every_test,
                "problems": PROBLEMS,
            }),
            201,
        ))?;
        doc["id"].as_i64().context("an assignment id")
    }

    /// Sends the kind named (see `KINDS`) for the assignment (none: practice), under a comment
    /// naming `tag`; its id.
    pub fn submit(
        &self,
        token: &str,
        assignment: Option<i64>,
        kind: &str,
        tag: &str,
    ) -> Result<i64> {
        let kind = find_kind(kind).with_context(|| format!("no kind {kind:?}"))?;
        let comment = if kind.language == "python3" {
            "#"
        } else {
            "//"
        };
        let mut body = json!({
            "problem": kind.problem,
            "language": kind.language,
            "source": format!("{comment} {tag}\n{}", kind.source),
        });
        if let Some(assignment) = assignment {
            body["assignment"] = json!(assignment);
        }
        let doc = self
            .runtime
            .block_on(self.api.post("/api/v1/submissions", token, &body, 201))?;
        doc["id"].as_i64().context("a submission id")
    }

    /// The expected verdict of the kind named.
    pub fn expected_verdict(kind: &str) -> Option<&'static str> {
        find_kind(kind).map(|k| k.verdict)
    }

    /// Judges one accepted C++ program, sent by the admin for practice, and waits for it: the
    /// first C++ compile builds the precompiled headers, which a service past its first compile
    /// has. Not counted, and nobody's in the class.
    pub fn warm_up(&self) -> Result<()> {
        let id = self.submit(&self.admin, None, "cpp nim ok", "warm-up")?;
        let seen = self.follow(&[id], Duration::from_secs(600))?;
        match seen[0].doc["verdict"].as_str() {
            Some(AC) => Ok(()),
            other => bail!("the warm-up was judged {other:?}"),
        }
    }

    pub fn submission(&self, id: i64) -> Result<Value> {
        self.runtime.block_on(
            self.api
                .get(&format!("/api/v1/submissions/{id}"), &self.admin),
        )
    }

    /// Polls each submission until all are done; what was seen of each, in the order given.
    pub fn follow(&self, ids: &[i64], timeout: Duration) -> Result<Vec<Followed>> {
        let deadline = Instant::now() + timeout;
        let mut claimed: BTreeMap<i64, Instant> = BTreeMap::new();
        let mut done: BTreeMap<i64, (Instant, Value)> = BTreeMap::new();
        while done.len() < ids.len() {
            if Instant::now() > deadline {
                bail!(
                    "{} of {} submissions done after {timeout:?}",
                    done.len(),
                    ids.len()
                );
            }
            for &id in ids {
                if done.contains_key(&id) {
                    continue;
                }
                let doc = self.submission(id)?;
                let now = Instant::now();
                match doc["status"].as_str() {
                    Some("judging") => {
                        claimed.entry(id).or_insert(now);
                    }
                    Some("done") => {
                        claimed.entry(id).or_insert(now);
                        done.insert(id, (now, doc));
                    }
                    _ => {}
                }
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        ids.iter()
            .map(|id| {
                let (at, doc) = done.remove(id).context("followed")?;
                let to_verdict = match (doc["created_at"].as_i64(), doc["judged_at"].as_i64()) {
                    (Some(c), Some(j)) if j >= c => Duration::from_millis((j - c) as u64),
                    _ => bail!("submission {id}: no judged_at"),
                };
                Ok(Followed {
                    claimed: claimed[id],
                    done: at,
                    to_verdict,
                    doc,
                })
            })
            .collect()
    }

    /// The CPU the sandbox has spent so far (compiles and runs), from the supervisors' cgroups.
    pub fn sandbox_cpu(&self) -> Option<Duration> {
        self.cpu.sample();
        self.cpu.total()
    }
}
