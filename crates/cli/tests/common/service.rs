//! `grundy serve` as a real process on port 0, accounts made with `grundy admin`, and problem
//! packages to upload: shared by the service and browser tests.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A `grundy` process that is killed when the test ends, however it ends.
pub struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn grundy_command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .args(args)
        .env_remove("GRUNDY_DATABASE_URL")
        .env_remove("GRUNDY_DATA_DIR")
        .env("GRUNDY_LOG", "warn");
    command
}

/// Starts `grundy serve` on port 0; returns it, its URL and the first admin's token (printed
/// when the database has no users yet).
pub fn serve(extra: &[&str], data_dir: &Path) -> (Process, String, Option<String>) {
    let started = start_serve(extra, data_dir);
    (started.process, started.url, started.token)
}

/// A `grundy serve` started by [`start_serve`].
pub struct Served {
    pub process: Process,
    pub url: String,
    /// The first admin's token, on a database without users.
    pub token: Option<String>,
    /// Where it serves `/metrics`, when started with `--metrics-listen`.
    pub metrics: Option<String>,
}

/// Starts `grundy serve` on port 0 with `extra` arguments, reading what it prints until its
/// address.
pub fn start_serve(extra: &[&str], data_dir: &Path) -> Served {
    let mut args = vec![
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--data-dir",
        data_dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let mut child = grundy_command(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let (mut url, mut token, mut metrics) = (None, None, None);
    while url.is_none() {
        let line = lines.next().expect("serve printed its address").unwrap();
        if let Some(t) = line.split("(shown only now): ").nth(1) {
            token = Some(t.to_owned());
        }
        if let Some(m) = line.strip_prefix("metrics on ") {
            metrics = Some(m.to_owned());
        }
        if let Some(u) = line.strip_prefix("listening on ") {
            url = Some(u.to_owned());
        }
    }
    std::thread::spawn(move || for _ in lines {}); // keep the pipe drained
    Served {
        process: Process(child),
        url: url.unwrap(),
        token,
        metrics,
    }
}

pub fn admin_create(data: &[&str], name: &str, role: &str) -> String {
    let mut args = vec![
        "admin",
        "create-user",
        "--name",
        name,
        "--role",
        role,
        "--print-token",
    ];
    args.extend_from_slice(data);
    let out = grundy_command(&args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_owned()
}

pub fn zip_of(files: &[(&str, &str)]) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (path, text) in files {
        zip.start_file(*path, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// "Take pebbles": First wins when n is odd. With `validator`, answers are judged by a Python
/// output validator that also takes the initial alone ("F" for "First").
pub fn pebbles(slug: &str, validator: bool) -> Vec<u8> {
    let yaml = format!(
        "name: Pebbles\nlimits:\n  time_limit: 2\n  memory: 256\n{}grundy:\n  slug: {slug}\n",
        if validator {
            "validation: custom\n"
        } else {
            ""
        }
    );
    let mut files = vec![
        ("problem.yaml", yaml.as_str()),
        (
            "statement/problem.en.md",
            "# Pebbles\n\nWho wins with $n$ pebbles?\n",
        ),
        ("data/sample/1.in", "3\n"),
        ("data/sample/1.ans", "First\n"),
        ("data/secret/a.in", "4\n"),
        ("data/secret/a.ans", "Second\n"),
        ("data/secret/b.in", "7\n"),
        ("data/secret/b.ans", "First\n"),
    ];
    if validator {
        files.push((
            "output_validators/anycase/validate.py",
            "import sys\n\
             answer = open(sys.argv[2]).read().split()\n\
             output = sys.stdin.read().split()\n\
             ok = len(output) == 1 and answer[0].lower().startswith(output[0].lower())\n\
             sys.exit(42 if ok else 43)\n",
        ));
    }
    zip_of(&files)
}

/// "Guess the number", a Kattis interactive package: find a number in 1..=n within 20 guesses
/// (the validator flag), against `interactor` (the C source of its output validator, see
/// tests/programs/kattis/interactor.c); one sample, three secret tests. The legacy form of an
/// interactive problem.
pub fn guess(slug: &str, interactor: &str) -> Vec<u8> {
    let yaml = format!(
        "name: Guess the number\nvalidation: custom interactive\nvalidator_flags: 20\n\
         limits:\n  time_limit: 1\n  memory: 256\ngrundy:\n  slug: {slug}\n"
    );
    zip_of(&[
        ("guess/problem.yaml", yaml.as_str()),
        (
            "guess/problem_statement/problem.en.md",
            "Find the number in at most 20 guesses.\n",
        ),
        ("guess/data/sample/1.in", "100 37\n"),
        ("guess/data/sample/1.ans", "37\n"),
        ("guess/data/secret/a.in", "1000000 1\n"),
        ("guess/data/secret/a.ans", "1\n"),
        ("guess/data/secret/b.in", "1000000 999999\n"),
        ("guess/data/secret/b.ans", "999999\n"),
        ("guess/data/secret/c.in", "1000000 524288\n"),
        ("guess/data/secret/c.ans", "524288\n"),
        ("guess/output_validators/guess/interactor.c", interactor),
    ])
}
