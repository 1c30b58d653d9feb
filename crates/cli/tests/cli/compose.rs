//! The deployment files, checked without Docker (which cannot run on the development machines).
//!
//! `docker-compose.yml` must have the services a deployment needs and wire them to each other:
//! the port `serve` listens on is the one it publishes, every node uses one database URL that
//! matches the PostgreSQL service, data directories sit on declared volumes, nodes start once the
//! database is healthy, and the workers get what the sandbox needs. Every `--flag` and `GRUNDY_*`
//! variable it passes must be one the binary really reads: `grundy <subcommand> --help` lists each
//! flag, with `[env: NAME=…]` beside those that read a variable. The `Dockerfile` must build the
//! binary, run it as the entrypoint of its runtime stage, expose the port `serve` listens on and
//! install the judge's compilers.

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(root().join(name)).unwrap_or_else(|e| panic!("reading {name}: {e}"))
}

// ---- docker-compose.yml, as far as these checks read it ----------------------------------------

#[derive(Debug, Deserialize)]
struct Compose {
    services: BTreeMap<String, Service>,
    #[serde(default)]
    volumes: BTreeMap<String, Option<serde::de::IgnoredAny>>,
}

#[derive(Debug, Deserialize)]
struct Service {
    image: Option<String>,
    build: Option<Build>,
    entrypoint: Option<Words>,
    command: Option<Words>,
    environment: Option<Environment>,
    #[serde(default)]
    ports: Vec<Port>,
    depends_on: Option<DependsOn>,
    privileged: Option<bool>,
    #[serde(default)]
    cap_add: Vec<String>,
    #[serde(default)]
    security_opt: Vec<String>,
    cgroup: Option<String>,
    #[serde(default)]
    volumes: Vec<Volume>,
    healthcheck: Option<Healthcheck>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Build {
    Context(String),
    Detailed {
        context: Option<String>,
        dockerfile: Option<String>,
    },
}

/// `command` and `entrypoint`: a string (split like a shell would; these files quote nothing
/// inside one) or a list.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Words {
    Line(String),
    List(Vec<String>),
}

impl Words {
    fn words(&self) -> Vec<String> {
        match self {
            Words::Line(line) => line.split_whitespace().map(str::to_owned).collect(),
            Words::List(list) => list.clone(),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Scalar {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
}

impl Scalar {
    fn text(&self) -> String {
        match self {
            Scalar::Bool(b) => b.to_string(),
            Scalar::Int(i) => i.to_string(),
            Scalar::Float(f) => f.to_string(),
            Scalar::Str(s) => s.clone(),
        }
    }
}

/// `environment`: a map (a null value passes the host's variable through) or a list of `K=V`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Environment {
    Map(BTreeMap<String, Option<Scalar>>),
    List(Vec<String>),
}

impl Environment {
    /// Name → interpolated value; `None` for a variable passed through from the host.
    fn vars(&self) -> BTreeMap<String, Option<String>> {
        match self {
            Environment::Map(map) => map
                .iter()
                .map(|(name, value)| (name.clone(), value.as_ref().map(|v| interpolate(&v.text()))))
                .collect(),
            Environment::List(list) => list
                .iter()
                .map(|item| match item.split_once('=') {
                    Some((name, value)) => (name.to_owned(), Some(interpolate(value))),
                    None => (item.clone(), None),
                })
                .collect(),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Port {
    Short(Scalar),
    Long {
        target: u16,
        published: Option<Scalar>,
    },
}

impl Port {
    /// (the host port, if published; the container port).
    fn mapping(&self) -> (Option<u16>, u16) {
        fn number(text: &str) -> u16 {
            text.parse()
                .unwrap_or_else(|e| panic!("port {text:?}: {e} (ranges are not supported here)"))
        }
        match self {
            Port::Short(spec) => {
                let spec = interpolate(&spec.text());
                let spec = spec.split('/').next().unwrap_or_default();
                // [ip:][host:]container, the ip possibly `[::1]`: split from the right.
                let parts: Vec<&str> = spec.rsplitn(3, ':').collect();
                (parts.get(1).copied().map(number), number(parts[0]))
            }
            Port::Long { target, published } => (
                published.as_ref().map(|p| number(&interpolate(&p.text()))),
                *target,
            ),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Volume {
    Short(String),
    Long {
        source: Option<String>,
        target: String,
    },
}

impl Volume {
    /// (the source: a volume name or a host path, none for an anonymous volume; the target).
    fn mount(&self) -> (Option<String>, String) {
        match self {
            Volume::Short(spec) => {
                let parts: Vec<&str> = spec.split(':').collect();
                match parts.as_slice() {
                    [target] => (None, (*target).to_owned()),
                    [source, target, ..] => (Some((*source).to_owned()), (*target).to_owned()),
                    [] => panic!("an empty volume"),
                }
            }
            Volume::Long { source, target } => (source.clone(), target.clone()),
        }
    }
}

/// A volume name rather than a host path.
fn is_named(source: &str) -> bool {
    !(source.starts_with('/')
        || source.starts_with('.')
        || source.starts_with('~')
        || source.starts_with('$'))
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum DependsOn {
    List(Vec<String>),
    Map(BTreeMap<String, Dependency>),
}

#[derive(Debug, Deserialize)]
struct Dependency {
    condition: Option<String>,
}

impl DependsOn {
    /// The condition on `service`, if this depends on it (`service_started` when unstated).
    fn condition(&self, service: &str) -> Option<String> {
        let started = || "service_started".to_owned();
        match self {
            DependsOn::List(list) => list.iter().any(|s| s == service).then(started),
            DependsOn::Map(map) => map
                .get(service)
                .map(|d| d.condition.clone().unwrap_or_else(started)),
        }
    }
}

#[derive(Debug, Deserialize)]
struct Healthcheck {
    test: Option<Words>,
    disable: Option<bool>,
}

impl Healthcheck {
    fn disabled(&self) -> bool {
        self.disable == Some(true)
            || self
                .test
                .as_ref()
                .is_some_and(|t| t.words().first().is_some_and(|w| w == "NONE"))
    }

    fn test_line(&self) -> String {
        self.test
            .as_ref()
            .map(Words::words)
            .unwrap_or_default()
            .join(" ")
    }
}

impl Service {
    /// Runs the `grundy` binary: built from this repository, or an image named for it.
    fn is_grundy(&self) -> bool {
        self.build.is_some() || self.image.as_deref().is_some_and(|i| i.contains("grundy"))
    }

    /// The arguments `grundy` receives: those after the `grundy` word of an entrypoint that
    /// overrides the image's (which is `grundy` itself), then the command.
    fn grundy_args(&self, name: &str) -> Vec<String> {
        let mut args = Vec::new();
        if let Some(entrypoint) = &self.entrypoint {
            let words = entrypoint.words();
            let at = words
                .iter()
                .position(|w| w == "grundy" || w.ends_with("/grundy"))
                .unwrap_or_else(|| panic!("{name}: the entrypoint {words:?} never runs grundy"));
            args.extend_from_slice(&words[at + 1..]);
        }
        let command = self.command.as_ref().unwrap_or_else(|| {
            panic!("{name}: no command (name the subcommand, serve or worker, explicitly)")
        });
        args.extend(command.words());
        args
    }

    fn subcommand(&self, name: &str) -> String {
        self.grundy_args(name)
            .into_iter()
            .find(|a| !a.starts_with('-'))
            .unwrap_or_else(|| panic!("{name}: the command names no grundy subcommand"))
    }

    fn env(&self) -> BTreeMap<String, Option<String>> {
        self.environment
            .as_ref()
            .map(Environment::vars)
            .unwrap_or_default()
    }

    /// A setting given as `--flag value`, `--flag=value` or by the variable, interpolated.
    fn setting(&self, name: &str, flag: &str, var: &str) -> Option<String> {
        let args = self.grundy_args(name);
        for (i, arg) in args.iter().enumerate() {
            if arg == flag {
                let value = args
                    .get(i + 1)
                    .unwrap_or_else(|| panic!("{name}: {flag} without a value"));
                return Some(interpolate(value));
            }
            if let Some(value) = arg.strip_prefix(flag).and_then(|v| v.strip_prefix('=')) {
                return Some(interpolate(value));
            }
        }
        self.env().get(var).cloned().flatten()
    }

    /// Whether a switch is on, as a flag or by its variable.
    fn mentions(&self, name: &str, flag: &str, var: &str) -> bool {
        self.grundy_args(name)
            .iter()
            .any(|a| a == flag || a.starts_with(&format!("{flag}=")))
            || self.env().contains_key(var)
    }
}

/// Compose's interpolation on a machine where no variable is set: `${VAR:-default}` and
/// `${VAR-default}` give the default, `${VAR:+x}` nothing, and a variable without a default stays
/// as `<VAR>`, so values built from it still compare equal. `$$` is a literal `$`.
fn interpolate(text: &str) -> String {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        rest = &rest[at + 1..];
        if let Some(after) = rest.strip_prefix('$') {
            out.push('$');
            rest = after;
        } else if let Some(inner) = rest.strip_prefix('{') {
            // The matching brace: a default may hold `${…}` itself.
            let mut depth = 1;
            let mut end = None;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(i);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let end = end.unwrap_or_else(|| panic!("an unclosed ${{ in {text:?}"));
            let expression = &inner[..end];
            rest = &inner[end + 1..];
            let name_end = expression
                .find(|c: char| !is_name(c))
                .unwrap_or(expression.len());
            let (name, modifier) = expression.split_at(name_end);
            if let Some(default) = modifier
                .strip_prefix(":-")
                .or_else(|| modifier.strip_prefix('-'))
            {
                out.push_str(&interpolate(default));
            } else if !(modifier.starts_with(":+") || modifier.starts_with('+')) {
                out.push_str(&format!("<{name}>"));
            }
        } else {
            let name_end = rest.find(|c: char| !is_name(c)).unwrap_or(rest.len());
            let (name, after) = rest.split_at(name_end);
            out.push_str(&format!("<{name}>"));
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

fn compose() -> Compose {
    serde_saphyr::from_str::<Compose>(&read("docker-compose.yml"))
        .unwrap_or_else(|e| panic!("docker-compose.yml: {e}"))
}

fn grundy_services(compose: &Compose) -> Vec<(&str, &Service)> {
    compose
        .services
        .iter()
        .filter(|(_, s)| s.is_grundy())
        .map(|(n, s)| (n.as_str(), s))
        .collect()
}

fn workers(compose: &Compose) -> Vec<(&str, &Service)> {
    grundy_services(compose)
        .into_iter()
        .filter(|(name, s)| s.subcommand(name) == "worker")
        .collect()
}

fn service<'a>(compose: &'a Compose, name: &str) -> &'a Service {
    compose
        .services
        .get(name)
        .unwrap_or_else(|| panic!("docker-compose.yml has no `{name}` service"))
}

// ---- what the binary reads ------------------------------------------------------------------------

/// `grundy <subcommand> --help` with a clean environment, whitespace collapsed (clap may wrap).
fn help(subcommand: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([subcommand, "--help"])
        .env_clear()
        .env("NO_COLOR", "1")
        .output()
        .expect("grundy runs");
    assert!(
        output.status.success(),
        "`grundy {subcommand} --help` failed (is {subcommand} a subcommand?): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The help lists this flag (`--name <VALUE>`, or `-s, --name`).
fn reads_flag(help: &str, flag: &str) -> bool {
    help.split(|c: char| c.is_whitespace() || c == ',')
        .any(|word| word == flag)
}

/// The help shows this variable beside a flag: `[env: NAME=value]`, or `[env: NAME]` when its
/// value is hidden.
fn reads_var(help: &str, var: &str) -> bool {
    help.contains(&format!("[env: {var}=")) || help.contains(&format!("[env: {var}]"))
}

/// Checks every flag in `args` and every `GRUNDY_*` name in `vars` against the subcommand's help.
fn assert_read_by_grundy<'a>(
    what: &str,
    args: &[String],
    vars: impl IntoIterator<Item = &'a String>,
) -> usize {
    let subcommand = args
        .iter()
        .find(|a| !a.starts_with('-'))
        .unwrap_or_else(|| panic!("{what}: no grundy subcommand in {args:?}"));
    let help = help(subcommand);
    let mut checked = 0;
    for arg in args.iter().filter(|a| a.starts_with('-')) {
        let flag = arg.split('=').next().unwrap_or_default();
        assert!(
            reads_flag(&help, flag),
            "{what}: `grundy {subcommand}` has no {flag} (see `grundy {subcommand} --help`)"
        );
        checked += 1;
    }
    for var in vars.into_iter().filter(|v| v.starts_with("GRUNDY_")) {
        assert!(
            reads_var(&help, var),
            "{what}: `grundy {subcommand}` reads no {var} (no flag of `grundy {subcommand} --help` shows [env: {var}])"
        );
        checked += 1;
    }
    checked
}

/// A health check command that requests `…:<port>/api/v1/health` (that path exactly).
fn asks_health(check: &str, port: u16) -> bool {
    let url = format!(":{port}/api/v1/health");
    check.match_indices(&url).any(|(at, _)| {
        check[at + url.len()..]
            .chars()
            .next()
            .is_none_or(|c| c.is_whitespace() || c == '"' || c == '\'' || c == '?')
    })
}

// ---- the Dockerfile, lightly ----------------------------------------------------------------------

#[derive(Debug)]
struct Instruction {
    /// Upper case.
    keyword: String,
    /// Continuation lines joined.
    args: String,
    /// The bodies of its here-documents, in order.
    heredocs: Vec<String>,
}

#[derive(Debug)]
struct Stage {
    image: String,
    name: Option<String>,
    instructions: Vec<Instruction>,
}

impl Stage {
    fn all(&self, keyword: &str) -> Vec<&Instruction> {
        self.instructions
            .iter()
            .filter(|i| i.keyword == keyword)
            .collect()
    }

    /// The instruction that takes effect (the last of its kind).
    fn last(&self, keyword: &str) -> Option<&Instruction> {
        self.all(keyword).last().copied()
    }

    /// `ENV` settings, in both `ENV K=V …` and `ENV K V` forms.
    fn env(&self) -> BTreeMap<String, String> {
        let mut vars = BTreeMap::new();
        for instruction in self.all("ENV") {
            let args = instruction.args.as_str();
            let first = args.split_whitespace().next().unwrap_or_default();
            if first.contains('=') {
                for pair in args.split_whitespace() {
                    if let Some((k, v)) = pair.split_once('=') {
                        vars.insert(k.to_owned(), v.trim_matches('"').to_owned());
                    }
                }
            } else {
                let value = args[first.len()..].trim();
                vars.insert(first.to_owned(), value.trim_matches('"').to_owned());
            }
        }
        vars
    }

    /// A file the stage writes from a here-document (`COPY <<EOF /path`).
    fn heredoc_file(&self, path: &str) -> Option<&str> {
        self.all("COPY").into_iter().find_map(|i| {
            let dest = i.args.split_whitespace().next_back()?;
            (dest == path && !i.heredocs.is_empty()).then(|| i.heredocs[0].as_str())
        })
    }
}

/// Exec form (`["a", "b"]`) as words.
fn exec_form(what: &str, args: &str) -> Vec<String> {
    serde_json::from_str(args)
        .unwrap_or_else(|e| panic!("{what} {args}: not the exec form [\"…\"]: {e}"))
}

/// The delimiters of the here-documents an instruction opens (`<<EOF`, `<<-"EOF"`, `<<'EOF'`).
fn heredoc_delimiters(args: &str) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    let mut rest = args;
    while let Some(at) = rest.find("<<") {
        let after = &rest[at + 2..];
        let (strip_tabs, after) = match after.strip_prefix('-') {
            Some(a) => (true, a),
            None => (false, after),
        };
        let word_len = after.find(char::is_whitespace).unwrap_or(after.len());
        let name = after[..word_len].trim_matches(|c| c == '"' || c == '\'');
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            found.push((name.to_owned(), strip_tabs));
        }
        rest = &after[word_len..];
    }
    found
}

fn parse_dockerfile(text: &str) -> Vec<Instruction> {
    let mut instructions = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        // Join continuation lines (comment lines inside a continuation are dropped).
        let mut logical = String::new();
        let mut current = line.trim_end().to_owned();
        while let Some(head) = current.strip_suffix('\\') {
            logical.push_str(head);
            logical.push(' ');
            current = String::new();
            for next in lines.by_ref() {
                if !(next.trim_start().starts_with('#') || next.trim().is_empty()) {
                    current = next.trim_end().to_owned();
                    break;
                }
            }
        }
        logical.push_str(&current);
        let logical = logical.trim();
        let (keyword, args) = logical
            .split_once(char::is_whitespace)
            .unwrap_or((logical, ""));
        let mut heredocs = Vec::new();
        for (delimiter, strip_tabs) in heredoc_delimiters(args) {
            let mut body = String::new();
            for line in lines.by_ref() {
                let end = if strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    line
                };
                if end == delimiter {
                    break;
                }
                body.push_str(line);
                body.push('\n');
            }
            heredocs.push(body);
        }
        instructions.push(Instruction {
            keyword: keyword.to_ascii_uppercase(),
            args: args.trim().to_owned(),
            heredocs,
        });
    }
    instructions
}

/// The stages, each from its `FROM` (anything before the first, global `ARG`s, is dropped).
fn dockerfile() -> Vec<Stage> {
    let mut stages: Vec<Stage> = Vec::new();
    for instruction in parse_dockerfile(&read("Dockerfile")) {
        if instruction.keyword == "FROM" {
            let words: Vec<&str> = instruction
                .args
                .split_whitespace()
                .filter(|w| !w.starts_with("--"))
                .collect();
            let name = match words.as_slice() {
                [_, as_, name] if as_.eq_ignore_ascii_case("as") => Some((*name).to_owned()),
                _ => None,
            };
            stages.push(Stage {
                image: words.first().copied().unwrap_or_default().to_owned(),
                name,
                instructions: Vec::new(),
            });
        } else if let Some(stage) = stages.last_mut() {
            stage.instructions.push(instruction);
        }
    }
    assert!(
        stages.len() >= 2,
        "the Dockerfile has a build stage and a runtime stage"
    );
    stages
}

// ---- percent-encoded URLs -------------------------------------------------------------------------

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%' && i + 2 < bytes.len())
            .then(|| std::str::from_utf8(&bytes[i + 1..i + 3]).ok())
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[derive(Debug, PartialEq)]
struct PgUrl {
    user: String,
    password: Option<String>,
    host: String,
    port: u16,
    database: String,
}

fn parse_pg_url(url: &str) -> Result<PgUrl, String> {
    let rest = url
        .strip_prefix("postgres://")
        .or_else(|| url.strip_prefix("postgresql://"))
        .ok_or_else(|| format!("{url:?} is not a postgres:// URL"))?;
    let (userinfo, rest) = rest
        .rsplit_once('@')
        .ok_or_else(|| format!("{url:?} names no user"))?;
    let (user, password) = match userinfo.split_once(':') {
        Some((user, password)) => (user, Some(percent_decode(password))),
        None => (userinfo, None),
    };
    let (hostport, path) = rest
        .split_once('/')
        .ok_or_else(|| format!("{url:?} names no database"))?;
    let (host, port) = match hostport.rsplit_once(':') {
        Some((host, port)) => (
            host,
            port.parse::<u16>()
                .map_err(|e| format!("{url:?}: port {port:?}: {e}"))?,
        ),
        None => (hostport, 5432),
    };
    Ok(PgUrl {
        user: percent_decode(user),
        password,
        host: host.to_owned(),
        port,
        database: percent_decode(path.split('?').next().unwrap_or_default()),
    })
}

// ---- the checks -----------------------------------------------------------------------------------

#[test]
fn the_helpers_can_tell_right_from_wrong() {
    // The help-text check must be able to fail, or the checks below prove nothing.
    let serve = help("serve");
    assert!(reads_flag(&serve, "--listen") && reads_var(&serve, "GRUNDY_LISTEN"));
    assert!(!reads_flag(&serve, "--no-such-flag") && !reads_var(&serve, "GRUNDY_NO_SUCH"));
    assert!(!reads_flag(&serve, "--list"), "a prefix is not a flag");
    assert!(
        !reads_var(&help("submit"), "GRUNDY_LISTEN"),
        "submit does not listen"
    );
    assert_eq!(
        interpolate("a:${P:-x${Q}y}@h $$ ${R} ${S:+t}$T."),
        "a:x<Q>y@h $ <R> <T>."
    );
    assert_eq!(
        parse_pg_url("postgres://u:p%40ss@db:6000/name?sslmode=disable"),
        Ok(PgUrl {
            user: "u".into(),
            password: Some("p@ss".into()),
            host: "db".into(),
            port: 6000,
            database: "name".into(),
        })
    );
    assert!(parse_pg_url("sqlite:grundy.db").is_err());
    assert!(asks_health(
        "curl -f http://127.0.0.1:8080/api/v1/health || exit 1",
        8080
    ));
    assert!(!asks_health(
        "curl -f http://127.0.0.1:8080/api/v1/healthz",
        8080
    ));
    assert!(!asks_health(
        "curl -f http://127.0.0.1:9090/api/v1/health",
        8080
    ));
    let ports: Compose = serde_saphyr::from_str(
        "services:\n  a:\n    image: x\n    ports: [\"127.0.0.1:80:8080/tcp\", 9000, {target: 1, published: \"2\"}]\n",
    )
    .unwrap();
    let mappings: Vec<_> = ports.services["a"]
        .ports
        .iter()
        .map(Port::mapping)
        .collect();
    assert_eq!(mappings, [(Some(80), 8080), (None, 9000), (Some(2), 1)]);
}

#[test]
fn the_services_a_deployment_needs_exist() {
    let text = read("docker-compose.yml");
    assert!(
        !text.lines().any(|l| l.starts_with("version:")),
        "the Compose specification has no top-level `version:`"
    );
    let compose = compose();
    let postgres = service(&compose, "postgres");
    let image = postgres.image.as_deref().unwrap_or_default();
    assert!(
        image.starts_with("postgres:"),
        "postgres runs a postgres image, not {image:?}"
    );
    assert!(!postgres.is_grundy());
    let serve = service(&compose, "serve");
    assert!(serve.is_grundy(), "serve runs the grundy image");
    assert_eq!(serve.subcommand("serve"), "serve");
    let workers = workers(&compose);
    assert!(
        workers.len() >= 2,
        "at least two `grundy worker` services, found {:?}",
        workers.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    // Every grundy service is built from the Dockerfile checked below.
    for (name, service) in grundy_services(&compose) {
        let (context, dockerfile) = match &service.build {
            Some(Build::Context(context)) => (context.as_str(), "Dockerfile"),
            Some(Build::Detailed {
                context,
                dockerfile,
            }) => (
                context.as_deref().unwrap_or("."),
                dockerfile.as_deref().unwrap_or("Dockerfile"),
            ),
            None => continue, // a prebuilt grundy image
        };
        assert_eq!(
            context.trim_end_matches('/'),
            ".",
            "{name}: built from the repository root"
        );
        assert!(
            root().join(context).join(dockerfile).is_file(),
            "{name}: {dockerfile} is missing"
        );
    }
}

#[test]
fn every_flag_and_grundy_variable_is_one_the_binary_reads() {
    let compose = compose();
    let mut checked = 0;
    for (name, service) in &compose.services {
        let vars = service.env();
        if !service.is_grundy() {
            let stray: Vec<_> = vars.keys().filter(|k| k.starts_with("GRUNDY_")).collect();
            assert!(
                stray.is_empty(),
                "{name} does not run grundy but sets {stray:?}"
            );
            continue;
        }
        checked += assert_read_by_grundy(name, &service.grundy_args(name), vars.keys());
    }
    // serve: --listen, --workers, GRUNDY_DATABASE_URL, GRUNDY_DATA_DIR at least.
    assert!(checked >= 4, "only {checked} flags and variables found");
}

#[test]
fn serve_listens_on_the_port_it_publishes() {
    let compose = compose();
    let serve = service(&compose, "serve");
    let listen = serve
        .setting("serve", "--listen", "GRUNDY_LISTEN")
        .expect("serve sets --listen or GRUNDY_LISTEN: the default, 127.0.0.1, is unreachable through a published port");
    let address: SocketAddr = listen
        .parse()
        .unwrap_or_else(|e| panic!("serve: --listen {listen}: {e}"));
    assert!(
        address.ip().is_unspecified(),
        "serve listens on {address}: only 0.0.0.0 (or [::]) is reachable through a published port"
    );
    assert_eq!(address.port(), 8080, "serve listens on 8080");
    let mappings: Vec<_> = serve.ports.iter().map(Port::mapping).collect();
    assert!(
        mappings.contains(&(Some(8080), address.port())),
        "serve publishes its port {} as 8080: {mappings:?}",
        address.port()
    );
    // Its health check (its own, or else the image's) asks the API on that port.
    let stages = dockerfile();
    let image_check = stages
        .last()
        .and_then(|s| s.last("HEALTHCHECK"))
        .map(|i| i.args.clone());
    let check = match &serve.healthcheck {
        Some(h) => {
            assert!(!h.disabled(), "serve keeps a health check");
            h.test_line()
        }
        None => image_check.expect("serve has a health check, in compose or the image"),
    };
    assert!(
        asks_health(&check, address.port()),
        "serve's health check asks /api/v1/health on port {}: {check}",
        address.port()
    );
}

#[test]
fn every_node_uses_the_postgres_service_database() {
    let compose = compose();
    let postgres = service(&compose, "postgres").env();
    let get = |k: &str| postgres.get(k).cloned().flatten();
    let user = get("POSTGRES_USER").unwrap_or_else(|| "postgres".to_owned());
    let password = get("POSTGRES_PASSWORD")
        .expect("postgres sets POSTGRES_PASSWORD (the image does not start without one)");
    let database = get("POSTGRES_DB").unwrap_or_else(|| user.clone());
    let mut urls = BTreeSet::new();
    for (name, service) in grundy_services(&compose) {
        let url = service
            .setting(name, "--database-url", "GRUNDY_DATABASE_URL")
            .unwrap_or_else(|| {
                panic!("{name}: no database URL (serve would keep SQLite in its own container; workers refuse to start)")
            });
        let parsed = parse_pg_url(&url).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            parsed.host, "postgres",
            "{name}: the database is the postgres service"
        );
        assert_eq!(parsed.port, 5432, "{name}: PostgreSQL listens on 5432");
        assert_eq!(parsed.user, user, "{name}: the user is POSTGRES_USER");
        assert_eq!(
            parsed.password.as_deref(),
            Some(password.as_str()),
            "{name}: the password is POSTGRES_PASSWORD"
        );
        assert_eq!(
            parsed.database, database,
            "{name}: the database is POSTGRES_DB"
        );
        urls.insert(url);
    }
    assert_eq!(
        urls.len(),
        1,
        "serve and the workers share one database: {urls:?}"
    );
}

#[test]
fn workers_get_what_the_sandbox_needs_and_serve_does_not_judge() {
    let compose = compose();
    let stages = dockerfile();
    let runtime = stages.last().expect("a runtime stage");
    let image_checks_the_api = runtime
        .last("HEALTHCHECK")
        .is_some_and(|i| i.args.contains("/api/v1/health"));
    for (name, worker) in workers(&compose) {
        let caps: BTreeSet<String> = worker
            .cap_add
            .iter()
            .map(|c| c.to_ascii_uppercase().trim_start_matches("CAP_").to_owned())
            .collect();
        let options: BTreeSet<String> = worker
            .security_opt
            .iter()
            .map(|o| o.replace(':', "="))
            .collect();
        let narrowed = (caps.contains("SYS_ADMIN") || caps.contains("ALL"))
            && options.contains("seccomp=unconfined")
            && options.contains("apparmor=unconfined");
        assert!(
            worker.privileged == Some(true) || narrowed,
            "{name}: the sandbox needs `privileged: true`, or SYS_ADMIN with seccomp and AppArmor unconfined (docs/deploy.md)"
        );
        assert!(
            !worker.mentions(
                name,
                "--allow-weak-isolation",
                "GRUNDY_ALLOW_WEAK_ISOLATION"
            ),
            "{name}: weak isolation runs contestants' programs unconfined"
        );
        if let Some(entrypoint) = &worker.entrypoint {
            let words = entrypoint.words();
            let program = words.first().map(String::as_str).unwrap_or_default();
            if program != "grundy" && !program.ends_with("/grundy") {
                let script = runtime.heredoc_file(program).unwrap_or_else(|| {
                    panic!("{name}: the entrypoint {program} is not written by the Dockerfile's runtime stage")
                });
                assert!(
                    script.lines().any(|l| l.trim() == "exec \"$@\""),
                    "{name}: {program} must end by running its arguments (exec \"$@\")"
                );
                if script.contains("/sys/fs/cgroup") {
                    assert_ne!(
                        worker.cgroup.as_deref(),
                        Some("host"),
                        "{name}: {program} rearranges /sys/fs/cgroup, which must be the container's own"
                    );
                }
            }
        }
        if image_checks_the_api {
            assert!(
                worker
                    .healthcheck
                    .as_ref()
                    .is_some_and(|h| h.disabled() || !h.test_line().contains("/api/v1/health")),
                "{name}: workers serve no HTTP, so the image's health check would call them unhealthy"
            );
        }
    }
    let serve = service(&compose, "serve");
    assert_eq!(
        serve
            .setting("serve", "--workers", "GRUNDY_WORKERS")
            .as_deref(),
        Some("0"),
        "with dedicated workers, serve judges nothing (--workers 0)"
    );
    assert_ne!(
        serve.privileged,
        Some(true),
        "serve judges nothing and needs no privileges"
    );
    assert!(
        !serve.mentions(
            "serve",
            "--allow-weak-isolation",
            "GRUNDY_ALLOW_WEAK_ISOLATION"
        ),
        "serve: no weak isolation"
    );
}

#[test]
fn data_sits_on_volumes_and_nodes_wait_for_a_healthy_database() {
    let compose = compose();
    let declared: BTreeSet<&str> = compose.volumes.keys().map(String::as_str).collect();
    for (name, service) in &compose.services {
        for volume in &service.volumes {
            let (source, target) = volume.mount();
            assert!(target.starts_with('/'), "{name}: mount target {target:?}");
            if let Some(source) = source.filter(|s| is_named(s)) {
                assert!(
                    declared.contains(source.as_str()),
                    "{name}: the volume {source} is not declared under the top-level `volumes:`"
                );
            }
        }
    }
    let on_volume = |service: &Service, path: &str| {
        service.volumes.iter().any(|v| {
            let (source, target) = v.mount();
            source.is_some() && target.trim_end_matches('/') == path.trim_end_matches('/')
        })
    };
    let postgres = service(&compose, "postgres");
    assert!(
        on_volume(postgres, "/var/lib/postgresql/data"),
        "postgres keeps its data on a volume"
    );
    let check = postgres
        .healthcheck
        .as_ref()
        .map(Healthcheck::test_line)
        .unwrap_or_default();
    assert!(
        check.contains("pg_isready"),
        "postgres has a pg_isready health check, not {check:?}"
    );
    let image_data_dir = dockerfile()
        .last()
        .and_then(|s| s.env().get("GRUNDY_DATA_DIR").cloned());
    for (name, service) in grundy_services(&compose) {
        let data_dir = service
            .setting(name, "--data-dir", "GRUNDY_DATA_DIR")
            .or_else(|| image_data_dir.clone())
            .unwrap_or_else(|| {
                panic!(
                    "{name}: no data directory (the default is relative to the working directory)"
                )
            });
        assert!(
            on_volume(service, &data_dir),
            "{name}: its data directory {data_dir} is not on a volume"
        );
        let condition = service
            .depends_on
            .as_ref()
            .and_then(|d| d.condition("postgres"));
        assert_eq!(
            condition.as_deref(),
            Some("service_healthy"),
            "{name}: starts once postgres is healthy"
        );
    }
}

#[test]
fn the_dockerfile_builds_grundy_and_runs_it() {
    let stages = dockerfile();
    let builder = stages
        .iter()
        .find(|s| s.image.starts_with("rust:"))
        .expect("a build stage FROM rust:…");
    let build = builder
        .all("RUN")
        .into_iter()
        .find(|i| i.args.contains("cargo build"))
        .expect("the build stage runs cargo build");
    assert!(
        build.args.contains("--release") && build.args.contains("-p grundy-cli"),
        "cargo build --release -p grundy-cli: {}",
        build.args
    );
    // The build reads the workspace, the SQL migrations (sqlx::migrate!) and the catalogue
    // (include_dir!): each must be copied in, exist, and not be left out of the context.
    let ignored: Vec<String> = read(".dockerignore")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.trim_start_matches('/').trim_end_matches('/').to_owned())
        .collect();
    assert!(
        ignored.iter().any(|p| p == "target"),
        ".dockerignore leaves out target/ (gigabytes of build output)"
    );
    let copied: Vec<String> = builder
        .all("COPY")
        .into_iter()
        .filter(|i| i.heredocs.is_empty() && !i.args.contains("--from"))
        .flat_map(|i| {
            let words: Vec<&str> = i
                .args
                .split_whitespace()
                .filter(|w| !w.starts_with("--"))
                .collect();
            let sources = &words[..words.len().saturating_sub(1)];
            sources
                .iter()
                .map(|s| s.trim_start_matches("./").trim_end_matches('/').to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    for needed in [
        "Cargo.toml",
        "Cargo.lock",
        "crates",
        "migrations",
        "problems",
    ] {
        assert!(
            copied.iter().any(|c| c == needed || c == "."),
            "the build stage copies {needed}: {copied:?}"
        );
    }
    for source in copied.iter().filter(|c| *c != ".") {
        assert!(root().join(source).exists(), "COPY {source}: no such path");
        assert!(
            !ignored.iter().any(|p| p == source || p == "*" || p == "**"),
            ".dockerignore leaves out {source}, which the build copies"
        );
    }

    let runtime = stages.last().expect("a runtime stage");
    assert!(
        runtime.image.starts_with("debian:"),
        "the runtime stage is Debian (the language table's paths are Debian's), not {}",
        runtime.image
    );
    let builder_name = builder
        .name
        .as_deref()
        .expect("the build stage is named (AS …)");
    assert!(
        runtime.all("COPY").iter().any(|i| {
            i.args.contains(&format!("--from={builder_name}"))
                && i.args.split_whitespace().next_back().is_some_and(|dest| {
                    dest.starts_with("/usr/local/bin/") || dest.starts_with("/usr/bin/")
                })
        }),
        "the runtime stage copies the binary from {builder_name} onto the PATH"
    );
    let entrypoint = runtime.last("ENTRYPOINT").expect("an ENTRYPOINT");
    let entrypoint = exec_form("ENTRYPOINT", &entrypoint.args);
    assert!(
        entrypoint.len() == 1 && (entrypoint[0] == "grundy" || entrypoint[0].ends_with("/grundy")),
        "ENTRYPOINT [\"grundy\"], not {entrypoint:?}"
    );
    let exposed: Vec<String> = runtime
        .all("EXPOSE")
        .iter()
        .flat_map(|i| i.args.split_whitespace())
        .map(|p| p.trim_end_matches("/tcp").to_owned())
        .collect();
    assert!(
        exposed.iter().any(|p| p == "8080"),
        "EXPOSE 8080, not {exposed:?}"
    );

    // The default command serves on the exposed port, keeping data in the declared volume.
    let cmd = exec_form("CMD", &runtime.last("CMD").expect("a CMD").args);
    assert_eq!(
        cmd.first().map(String::as_str),
        Some("serve"),
        "CMD serves: {cmd:?}"
    );
    let env = runtime.env();
    assert_read_by_grundy("Dockerfile CMD", &cmd, env.keys());
    assert_read_by_grundy("Dockerfile ENV", &["worker".to_owned()], env.keys());
    let value_of = |flag: &str| {
        cmd.iter()
            .position(|a| a == flag)
            .and_then(|i| cmd.get(i + 1))
            .cloned()
    };
    let listen: SocketAddr = value_of("--listen")
        .expect("CMD passes --listen (the default, 127.0.0.1, is unreachable from outside)")
        .parse()
        .expect("--listen takes host:port");
    assert!(listen.ip().is_unspecified() && exposed.contains(&listen.port().to_string()));
    let volumes: Vec<String> = runtime
        .all("VOLUME")
        .iter()
        .flat_map(|i| {
            if i.args.starts_with('[') {
                exec_form("VOLUME", &i.args)
            } else {
                i.args.split_whitespace().map(str::to_owned).collect()
            }
        })
        .collect();
    let data_dir = value_of("--data-dir")
        .or_else(|| env.get("GRUNDY_DATA_DIR").cloned())
        .expect("a data directory, by CMD or ENV");
    assert!(
        volumes.contains(&data_dir),
        "VOLUME {data_dir}: {volumes:?}"
    );

    // The health check asks the API; its client and the judge's compilers are installed.
    let check = runtime
        .last("HEALTHCHECK")
        .expect("a HEALTHCHECK")
        .args
        .clone();
    assert!(
        asks_health(&check, listen.port()),
        "HEALTHCHECK asks /api/v1/health on port {}: {check}",
        listen.port()
    );
    let installed: BTreeSet<&str> = runtime
        .all("RUN")
        .into_iter()
        .filter(|i| i.args.contains("apt-get install"))
        .flat_map(|i| i.args.split_whitespace())
        .collect();
    let mut needed = vec![
        "gcc",
        "g++",
        "libc6-dev",
        "python3",
        "openjdk-17-jdk-headless",
        "nodejs",
    ];
    if check.contains("curl") {
        needed.push("curl");
    }
    for package in needed {
        assert!(
            installed.contains(package),
            "the runtime stage installs {package}"
        );
    }
}
