//! What stored packages cost the server in memory, measured side by side in one run: the
//! resident memory of a process that loaded the built-in catalogue and `--packages` stored
//! packages (default 30), each a zip of some 60 KiB that unpacks to `--mib` MiB (default 60, just
//! under the 64 MiB cap), held
//! - as the registry held them before: tests read into memory (`read_zip`), and
//! - as the registry holds them now: `Problems::load`, tests unpacked to disk.
//!
//! Each way runs in a child process of its own, so that neither inherits the other's heap; each
//! child prints its resident memory (`VmRSS`), and the parent prints them with their ratio and
//! a baseline child that loads no packages.
//!
//! `cargo bench -p grundy-server --bench packages [-- --packages 30 --mib 60]`

use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use grundy_problems::{Catalogue, Problem, read_zip};
use grundy_server::registry::{Problems, package_limits};
use grundy_store::{NewCustomProblem, Store};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// How the packages are held.
#[derive(Clone, Copy)]
enum Way {
    /// Nothing: the catalogue and the store alone.
    Baseline,
    InMemory,
    OnDisk,
}

impl Way {
    fn name(self) -> &'static str {
        match self {
            Way::Baseline => "baseline",
            Way::InMemory => "in-memory",
            Way::OnDisk => "on-disk",
        }
    }

    fn parse(name: &str) -> Option<Way> {
        [Way::Baseline, Way::InMemory, Way::OnDisk]
            .into_iter()
            .find(|w| w.name() == name)
    }
}

/// A package whose one secret input is `mib` MiB of digits: it deflates a thousandfold.
fn bomb(slug: &str, mib: usize) -> Vec<u8> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    let yaml = format!("name: Bomb {slug}\ngrundy:\n  slug: {slug}\n");
    let zeros = vec![b'0'; mib << 20];
    for (path, data) in [
        ("p/problem.yaml", yaml.as_bytes()),
        ("p/statement/problem.en.md", b"Count the zeros.\n"),
        ("p/data/sample/1.in", b"0\n"),
        ("p/data/sample/1.ans", b"1\n"),
        ("p/data/secret/1.in", &zeros),
        ("p/data/secret/1.ans", b"1\n"),
    ] {
        zip.start_file(path, options).unwrap();
        zip.write_all(data).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// This process's resident memory, in KiB.
fn resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/self/status")
}

/// A child: loads the stored packages `way`'s way and prints its resident memory.
async fn child(way: Way, dir: &Path) {
    let store = Store::open_sqlite(&dir.join("grundy.db")).await.unwrap();
    let problems = Problems::new(Catalogue::builtin().unwrap());
    // Kept alive until the measure.
    let mut held: Vec<Problem> = Vec::new();
    match way {
        Way::Baseline => {}
        // What the registry did before: every package read with its tests into memory.
        Way::InMemory => {
            for info in store.custom_problem_infos().await.unwrap() {
                let custom = store.custom_problem(&info.slug).await.unwrap().unwrap();
                held.push(read_zip(&custom.content, &package_limits()).unwrap());
            }
        }
        Way::OnDisk => {
            let loaded = problems
                .load(
                    &store,
                    &dir.join(format!("packages-{}", std::process::id())),
                )
                .await
                .unwrap();
            assert!(loaded > 0);
        }
    }
    println!("{}", resident_kib());
    drop(held);
    store.close().await;
}

/// Runs a child for `way` and reads what it printed.
fn measure(way: Way, dir: &Path) -> u64 {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--child", way.name(), dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

fn flag(args: &[String], name: &str, default: usize) -> usize {
    args.windows(2)
        .find(|w| w[0] == name)
        .map_or(default, |w| w[1].parse().expect("a number"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    if let Some(at) = args.iter().position(|a| a == "--child") {
        let way = Way::parse(&args[at + 1]).expect("a way");
        runtime.block_on(child(way, &PathBuf::from(&args[at + 2])));
        return;
    }
    let packages = flag(&args, "--packages", 30);
    let mib = flag(&args, "--mib", 60);
    let dir = tempfile::tempdir().unwrap();
    let zipped = runtime.block_on(async {
        let store = Store::open_sqlite(&dir.path().join("grundy.db"))
            .await
            .unwrap();
        let owner = store
            .create_user("tom", grundy_store::Role::Teacher, None, 0)
            .await
            .unwrap()
            .id;
        let mut zipped = 0;
        for i in 0..packages {
            let slug = format!("bomb-{i}");
            let zip = bomb(&slug, mib);
            zipped = zip.len();
            let new = NewCustomProblem {
                slug: &slug,
                origin: "package",
                owner,
                content: &zip,
                unpacked_bytes: (mib << 20) as i64,
                now: 0,
            };
            store.put_custom_problem(&new, None).await.unwrap();
        }
        store.close().await;
        zipped
    });
    println!(
        "{packages} stored packages, each {} KiB zipped and {mib} MiB unpacked",
        zipped >> 10
    );
    let mib_of = |kib: u64| kib as f64 / 1024.0;
    let baseline = measure(Way::Baseline, dir.path());
    let in_memory = measure(Way::InMemory, dir.path());
    let on_disk = measure(Way::OnDisk, dir.path());
    println!(
        "resident memory: baseline (catalogue, no packages) {:.0} MiB; tests in memory {:.0} MiB; \
         tests on disk {:.0} MiB",
        mib_of(baseline),
        mib_of(in_memory),
        mib_of(on_disk)
    );
    println!(
        "in memory / on disk: {:.1}× resident, {:.0}× above the baseline",
        in_memory as f64 / on_disk as f64,
        in_memory.saturating_sub(baseline) as f64 / on_disk.saturating_sub(baseline).max(1) as f64
    );
}
