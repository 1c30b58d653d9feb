//! The language table: how to compile and run each language, from an embedded default
//! (`languages.toml`) or an operator's file. A language's availability is detected the first time
//! it is asked for, and its version the first time that is shown: a one-shot run of one program
//! probes only that program's language (no JVM starts to run a Python script).

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};

use grundy_sandbox::Bind;
use serde::Deserialize;

const DEFAULT: &str = include_str!("languages.toml");

/// One language as configured.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageSpec {
    pub id: String,
    pub name: String,
    /// Other names the language is asked for by (`py` for `python3`), in any case as the id is.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// File extensions that select this language when none is given (first language wins).
    #[serde(default)]
    pub extensions: Vec<String>,
    /// The file name the source gets in the box.
    pub source: String,
    #[serde(default)]
    pub compile: Option<Vec<String>>,
    /// Suffixes of the files the compilation leaves that the run needs.
    #[serde(default)]
    pub artifacts: Vec<String>,
    pub run: Vec<String>,
    #[serde(default)]
    pub version: Option<Vec<String>>,
    #[serde(default)]
    pub vars: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub binds: Vec<String>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Runtimes with many threads (the JVM) need more than the default pids limit.
    #[serde(default)]
    pub min_pids: Option<u64>,
    /// A header to precompile with the compile command's own flags (GCC only).
    #[serde(default)]
    pub precompiled_header: Option<PrecompiledHeader>,
}

/// A header GCC precompiles once per compiler and flags; a source whose first include is this
/// header compiles against the precompiled copy, any other source exactly as without it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrecompiledHeader {
    /// As the source names it: `bits/stdc++.h`.
    pub header: String,
    /// GCC's `-x` language for building it: `c++-header`.
    pub kind: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    language: Vec<LanguageSpec>,
}

/// A language found on this machine, with its variables worked out.
#[derive(Debug, Clone)]
pub struct Language {
    pub spec: LanguageSpec,
    vars: BTreeMap<String, String>,
    /// What the version command printed (first line), asked only when shown.
    version: OnceLock<Option<String>>,
}

/// A language that is configured but cannot be used here, and why.
#[derive(Debug, Clone)]
pub struct Unavailable {
    pub id: String,
    pub name: String,
    pub reason: String,
}

impl LanguageSpec {
    /// The id, then the aliases.
    fn names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.id.as_str()).chain(self.aliases.iter().map(String::as_str))
    }

    /// Whether `name` is the id or an alias; people type `CPP` and `Py` as often as `cpp`.
    fn is_named(&self, name: &str) -> bool {
        self.names().any(|n| n.eq_ignore_ascii_case(name))
    }
}

/// The name that means C++ without a standard (`--lang cpp`): its language is the default C++.
pub const DEFAULT_CPP: &str = "cpp";

/// The table; clones share what has been detected.
#[derive(Debug, Clone)]
pub struct Languages {
    entries: Arc<[Entry]>,
}

#[derive(Debug)]
struct Entry {
    spec: LanguageSpec,
    detected: OnceLock<Result<Language, String>>,
}

impl Entry {
    fn language(&self) -> Result<&Language, &str> {
        self.detected
            .get_or_init(|| Language::detect(self.spec.clone()))
            .as_ref()
            .map_err(String::as_str)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LanguageError {
    #[error("language table {path}: {message}")]
    Table { path: String, message: String },
    #[error("unknown language {name:?}; accepted, in any case: {accepted}")]
    Unknown { name: String, accepted: String },
    /// `language` as asked for, with its id when asked for by an alias.
    #[error(
        "language {language} is not available here: {reason}; accepted, in any case: {accepted}"
    )]
    Unavailable {
        language: String,
        reason: String,
        accepted: String,
    },
    #[error("cannot tell the language of {file}; pass --lang with one of: {accepted}")]
    NoExtension { file: String, accepted: String },
}

/// Memory-derived figures offered to commands as placeholders.
pub(crate) fn limit_placeholders(memory_mib: u64) -> [(&'static str, String); 4] {
    let stack_mib = (memory_mib / 4).max(8);
    [
        ("memory_mib", memory_mib.to_string()),
        (
            "heap_mib",
            memory_mib.saturating_sub(64).max(32).to_string(),
        ),
        ("stack_mib", stack_mib.to_string()),
        ("stack_kib", (stack_mib * 1024).to_string()),
    ]
}

fn substitute(text: &str, values: &[(&str, &str)]) -> String {
    let mut out = text.to_owned();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// The id of the first language of the embedded table that claims `file`'s extension, without
/// detecting anything (for clients that only name the language to a server).
pub fn guess_from_extension(file: &Path) -> Option<String> {
    let table: Table = toml::from_str(DEFAULT).ok()?;
    let ext = file.extension()?.to_str()?.to_ascii_lowercase();
    table
        .language
        .into_iter()
        .find(|l| l.extensions.contains(&ext))
        .map(|l| l.id)
}

impl Languages {
    /// The embedded table, or the operator's file.
    pub fn load(file: Option<&Path>) -> Result<Languages, LanguageError> {
        let (text, origin) = match file {
            Some(path) => (
                std::fs::read_to_string(path).map_err(|e| LanguageError::Table {
                    path: path.display().to_string(),
                    message: e.to_string(),
                })?,
                path.display().to_string(),
            ),
            None => (DEFAULT.to_owned(), "built-in".to_owned()),
        };
        let table: Table = toml::from_str(&text).map_err(|e| LanguageError::Table {
            path: origin.clone(),
            message: e.to_string(),
        })?;
        // A name, id or alias, must pick one language whatever its case.
        let mut seen = BTreeMap::new();
        for lang in &table.language {
            for name in lang.names() {
                if name.is_empty() {
                    return Err(LanguageError::Table {
                        path: origin,
                        message: format!("{}: an empty name", lang.id),
                    });
                }
                if let Some(other) = seen.insert(name.to_ascii_lowercase(), lang.id.as_str()) {
                    return Err(LanguageError::Table {
                        path: origin,
                        message: format!("{name:?} names both {other} and {}", lang.id),
                    });
                }
            }
            if lang.run.is_empty() || lang.compile.as_ref().is_some_and(Vec::is_empty) {
                return Err(LanguageError::Table {
                    path: origin,
                    message: format!("{}: empty command", lang.id),
                });
            }
        }
        Ok(Self::new(table.language))
    }

    fn new(specs: Vec<LanguageSpec>) -> Languages {
        Languages {
            entries: specs
                .into_iter()
                .map(|spec| Entry {
                    spec,
                    detected: OnceLock::new(),
                })
                .collect(),
        }
    }

    /// Every language this machine has (detecting all that are not yet).
    pub fn available(&self) -> Vec<&Language> {
        self.entries
            .iter()
            .filter_map(|e| e.language().ok())
            .collect()
    }

    /// Every configured language this machine lacks, and why (detecting all).
    pub fn unavailable(&self) -> Vec<Unavailable> {
        self.entries
            .iter()
            .filter_map(|e| {
                e.language().err().map(|reason| Unavailable {
                    id: e.spec.id.clone(),
                    name: e.spec.name.clone(),
                    reason: reason.to_owned(),
                })
            })
            .collect()
    }

    /// The language `name` names, by its id or an alias, in any case: the one place a language
    /// asked for by a person is resolved (`--lang`, the API, the submit form). Whoever keeps the
    /// choice keeps `id()`, never the name typed.
    pub fn get(&self, name: &str) -> Result<&Language, LanguageError> {
        let Some(entry) = self.entry(name) else {
            return Err(LanguageError::Unknown {
                name: name.to_owned(),
                accepted: self.accepted(),
            });
        };
        entry.language().map_err(|reason| {
            let id = &entry.spec.id;
            LanguageError::Unavailable {
                language: if id.eq_ignore_ascii_case(name) {
                    format!("{id:?}")
                } else {
                    format!("{name:?} ({id})")
                },
                reason: reason.to_owned(),
                accepted: self.accepted(),
            }
        })
    }

    /// The default C++, available or not: the language [`DEFAULT_CPP`] names (`cpp20` in the
    /// built-in table); none when the operator's table gives that name to no language.
    pub fn default_cpp(&self) -> Option<&LanguageSpec> {
        self.entry(DEFAULT_CPP).map(|e| &e.spec)
    }

    fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.spec.is_named(name))
    }

    /// The language of `file`: by `--lang` when given, else by extension.
    pub fn choose(&self, lang: Option<&str>, file: &Path) -> Result<&Language, LanguageError> {
        if let Some(name) = lang {
            return self.get(name);
        }
        let ext = file
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        self.entries
            .iter()
            .filter(|e| e.spec.extensions.contains(&ext))
            .find_map(|e| e.language().ok())
            .ok_or_else(|| LanguageError::NoExtension {
                file: file.display().to_string(),
                accepted: self.accepted(),
            })
    }

    /// What `get` takes on this machine, for a refusal to list: each available language's id
    /// with its aliases (`cpp20 (also cpp, c++, g++), cpp17, …`).
    fn accepted(&self) -> String {
        let available = self.available();
        if available.is_empty() {
            return "none, no language is available on this machine".to_owned();
        }
        available
            .iter()
            .map(|l| match l.spec.aliases.as_slice() {
                [] => l.spec.id.clone(),
                aliases => format!("{} (also {})", l.spec.id, aliases.join(", ")),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl Language {
    fn detect(spec: LanguageSpec) -> Result<Language, String> {
        let mut vars = BTreeMap::new();
        for (name, command) in &spec.vars {
            let output = Command::new(&command[0])
                .args(&command[1..])
                .output()
                .map_err(|e| format!("{} not found ({e})", command[0]))?;
            let value = String::from_utf8_lossy(&output.stdout)
                .lines()
                .next()
                .unwrap_or("")
                .trim()
                .to_owned();
            if !output.status.success() || value.is_empty() {
                return Err(format!("`{}` found nothing", command.join(" ")));
            }
            vars.insert(name.clone(), value);
        }
        let lang = Language {
            spec,
            vars,
            version: OnceLock::new(),
        };
        let tool = lang.spec.compile.as_ref().unwrap_or(&lang.spec.run)[0].clone();
        let interpreter = lang.spec.run[0].clone();
        for program in [tool, interpreter] {
            let path = PathBuf::from(lang.expand(&program, 256));
            if path.is_absolute() && !is_executable(&path) {
                return Err(format!("{} is not installed", path.display()));
            }
        }
        Ok(lang)
    }

    pub fn id(&self) -> &str {
        &self.spec.id
    }

    /// What the version command prints (first line), run the first time it is asked for.
    pub fn version(&self) -> Option<&str> {
        self.version
            .get_or_init(|| {
                let command = self.command(self.spec.version.as_deref()?, 256);
                let output = Command::new(&command[0])
                    .args(&command[1..])
                    .output()
                    .ok()?;
                // `java -version` answers on stderr.
                let text = if output.stdout.is_empty() {
                    output.stderr
                } else {
                    output.stdout
                };
                String::from_utf8_lossy(&text)
                    .lines()
                    .next()
                    .map(|l| l.trim().to_owned())
            })
            .as_deref()
    }

    /// Which compiler (or interpreter) this is, without running it: its resolved path, size and
    /// modification time. An upgrade replaces the binary, so anything keyed by this is rebuilt.
    pub fn toolchain_identity(&self) -> String {
        let program = self.spec.compile.as_ref().unwrap_or(&self.spec.run)[0].as_str();
        let path = PathBuf::from(self.expand(program, 256));
        let resolved = std::fs::canonicalize(&path).unwrap_or(path);
        match std::fs::metadata(&resolved) {
            Ok(m) => format!(
                "{} {} {}.{}",
                resolved.display(),
                m.len(),
                m.mtime(),
                m.mtime_nsec()
            ),
            Err(_) => resolved.display().to_string(),
        }
    }

    /// A command or path with variables and limit figures filled in.
    pub(crate) fn expand(&self, text: &str, memory_mib: u64) -> String {
        let limits = limit_placeholders(memory_mib);
        let values: Vec<(&str, &str)> = self
            .vars
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .chain(limits.iter().map(|(k, v)| (*k, v.as_str())))
            .collect();
        substitute(text, &values)
    }

    pub(crate) fn command(&self, command: &[String], memory_mib: u64) -> Vec<String> {
        command.iter().map(|c| self.expand(c, memory_mib)).collect()
    }

    pub(crate) fn binds(&self) -> Vec<Bind> {
        self.spec
            .binds
            .iter()
            .map(|b| Bind::same(self.expand(b, 256)))
            .collect()
    }

    /// The box's whole environment: a PATH for compilers that call helpers (gcc's cc1, rustc's cc)
    /// and the language's own variables; nothing from the server.
    pub(crate) fn env(&self) -> Vec<(String, String)> {
        let mut env = vec![
            ("PATH".to_owned(), "/usr/local/bin:/usr/bin:/bin".to_owned()),
            ("LANG".to_owned(), "C.UTF-8".to_owned()),
            ("TMPDIR".to_owned(), "/tmp".to_owned()),
        ];
        env.extend(
            self.spec
                .env
                .iter()
                .map(|(k, v)| (k.clone(), self.expand(v, 256))),
        );
        env
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_table_parses_and_names_the_required_languages() {
        let table: Table = toml::from_str(DEFAULT).unwrap();
        let ids: Vec<&str> = table.language.iter().map(|l| l.id.as_str()).collect();
        for id in [
            "c",
            "cpp20",
            "cpp17",
            "python3",
            "rust",
            "java17",
            "go",
            "javascript",
        ] {
            assert!(ids.contains(&id), "{id} missing from {ids:?}");
        }
        let cpp17 = table.language.iter().find(|l| l.id == "cpp17").unwrap();
        assert!(
            cpp17
                .compile
                .as_ref()
                .unwrap()
                .contains(&"-std=gnu++17".to_owned())
        );
    }

    #[test]
    fn extensions_are_guessed_without_detection() {
        assert_eq!(
            guess_from_extension(Path::new("a/sol.CPP")).as_deref(),
            Some("cpp20")
        );
        assert_eq!(
            guess_from_extension(Path::new("Main.java")).as_deref(),
            Some("java17")
        );
        assert_eq!(guess_from_extension(Path::new("x.txt")), None);
    }

    #[test]
    fn java_limits_come_from_the_memory_limit() {
        let table: Table = toml::from_str(DEFAULT).unwrap();
        let java = table
            .language
            .into_iter()
            .find(|l| l.id == "java17")
            .unwrap();
        let lang = Language {
            spec: java,
            vars: [("java_home".to_owned(), "/jdk".to_owned())].into(),
            version: OnceLock::new(),
        };
        let run = lang.command(&lang.spec.run, 256);
        assert_eq!(run[0], "/jdk/bin/java");
        assert!(run.contains(&"-Xmx192m".to_owned()), "{run:?}");
        assert!(run.contains(&"-Xss64m".to_owned()), "{run:?}");
        let small = lang.command(&lang.spec.run, 64);
        assert!(small.contains(&"-Xmx32m".to_owned()), "{small:?}");
    }

    #[test]
    fn missing_tools_make_a_language_unavailable_with_the_reason() {
        let spec: Table = toml::from_str(
            r#"
            [[language]]
            id = "ghost"
            name = "Ghost"
            source = "main.g"
            run = ["/nonexistent/ghost", "main.g"]
            [[language]]
            id = "sh"
            name = "Shell"
            extensions = ["sh"]
            source = "main.sh"
            run = ["/bin/sh", "main.sh"]
            "#,
        )
        .unwrap();
        let languages = Languages::new(spec.language);
        let unavailable = languages.unavailable();
        assert_eq!(unavailable.len(), 1);
        assert!(unavailable[0].reason.contains("/nonexistent/ghost"));
        assert_eq!(
            languages.choose(None, Path::new("x/prog.SH")).unwrap().id(),
            "sh"
        );
        let err = languages
            .choose(Some("ghost"), Path::new("a.g"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("not installed"), "{err}");
        assert!(languages.choose(None, Path::new("prog.unknown")).is_err());
    }

    #[test]
    fn only_the_languages_asked_for_are_probed() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("probed");
        let table: Table = toml::from_str(&format!(
            r#"
            [[language]]
            id = "heavy"
            name = "Heavy"
            extensions = ["h"]
            source = "main.h"
            vars = {{ home = ["/bin/sh", "-c", "touch {marker}; echo /usr"] }}
            run = ["{{home}}/bin/true"]
            [[language]]
            id = "sh"
            name = "Shell"
            extensions = ["sh"]
            source = "main.sh"
            run = ["/bin/sh", "main.sh"]
            "#,
            marker = marker.display()
        ))
        .unwrap();
        let languages = Languages::new(table.language);
        assert_eq!(
            languages.choose(None, Path::new("a.sh")).unwrap().id(),
            "sh"
        );
        assert!(languages.get("sh").is_ok());
        assert!(
            !marker.exists(),
            "choosing the shell probed the other language"
        );
        // A clone shares what was detected; asking for everything probes the rest.
        let all = languages.clone();
        assert_eq!(all.available().len(), 2);
        assert!(marker.exists());
    }

    #[test]
    fn the_usual_names_resolve_to_the_embedded_ids_in_any_case() {
        let table: Table = toml::from_str(DEFAULT).unwrap();
        let languages = Languages::new(table.language);
        // Without detecting: this machine need not have the languages.
        let id = |name: &str| languages.entry(name).map(|e| e.spec.id.as_str());
        for (name, want) in [
            ("cpp", "cpp20"),
            ("c++", "cpp20"),
            ("g++", "cpp20"),
            ("python", "python3"),
            ("py", "python3"),
            ("java", "java17"),
            ("js", "javascript"),
            ("node", "javascript"),
            ("rs", "rust"),
            ("CPP", "cpp20"),
            ("G++", "cpp20"),
            ("Py", "python3"),
            ("Node", "javascript"),
            ("CPP17", "cpp17"),
            ("Python3", "python3"),
        ] {
            assert_eq!(id(name), Some(want), "{name}");
        }
        assert_eq!(id("pascal"), None);
        assert_eq!(id("c#"), None);
    }

    #[test]
    fn the_default_cpp_is_what_cpp_and_the_cpp_extension_both_pick() {
        let languages = Languages::load(None).unwrap();
        let cpp = languages.default_cpp().unwrap();
        assert_eq!(cpp.id, "cpp20");
        assert!(cpp.name.contains("GNU++20"), "{}", cpp.name);
        assert_eq!(
            guess_from_extension(Path::new("sol.cpp")).as_deref(),
            Some(cpp.id.as_str())
        );
        let none = Languages::new(vec![]);
        assert!(none.default_cpp().is_none());
    }

    /// Two shell "languages" every machine has, with aliases, and one it lacks.
    fn shells() -> Languages {
        let table: Table = toml::from_str(
            r#"
            [[language]]
            id = "sh"
            name = "Shell"
            aliases = ["shell", "posix"]
            source = "main.sh"
            run = ["/bin/sh", "main.sh"]
            [[language]]
            id = "dash"
            name = "Another shell"
            source = "main.sh"
            run = ["/bin/sh", "main.sh"]
            [[language]]
            id = "ghost"
            name = "Ghost"
            aliases = ["boo"]
            source = "main.g"
            run = ["/nonexistent/ghost", "main.g"]
            "#,
        )
        .unwrap();
        Languages::new(table.language)
    }

    #[test]
    fn aliases_pick_the_language_itself_and_refusals_list_every_accepted_name() {
        let languages = shells();
        assert_eq!(languages.get("Shell").unwrap().id(), "sh");
        assert_eq!(languages.get("POSIX").unwrap().id(), "sh");
        assert_eq!(languages.get("DASH").unwrap().id(), "dash");
        assert_eq!(
            languages
                .choose(Some("posix"), Path::new("x.unknown"))
                .unwrap()
                .id(),
            "sh"
        );

        let unknown = languages.get("pascal").unwrap_err().to_string();
        assert_eq!(
            unknown,
            "unknown language \"pascal\"; accepted, in any case: sh (also shell, posix), dash"
        );
        // An alias of a language this machine lacks says which, and why.
        let missing = languages.get("Boo").unwrap_err().to_string();
        assert!(
            missing.starts_with("language \"Boo\" (ghost) is not available here: /nonexistent/ghost is not installed;"),
            "{missing}"
        );
        assert!(
            missing.ends_with("sh (also shell, posix), dash"),
            "{missing}"
        );
        let guess = languages
            .choose(None, Path::new("prog.txt"))
            .unwrap_err()
            .to_string();
        assert!(guess.ends_with("sh (also shell, posix), dash"), "{guess}");
    }

    #[test]
    fn a_name_given_to_two_languages_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("langs.toml");
        let language = |id: &str, aliases: &str| {
            format!(
                "[[language]]\nid = \"{id}\"\nname = \"X\"\naliases = {aliases}\nsource = \"a\"\nrun = [\"a\"]\n"
            )
        };
        for (second, clash) in [
            (language("b", r#"["CPP"]"#), r#""CPP" names both a and b"#),
            (language("Cpp", "[]"), r#""Cpp" names both a and Cpp"#),
            (language("b", r#"[""]"#), "b: an empty name"),
        ] {
            std::fs::write(&file, language("a", r#"["cpp"]"#) + &second).unwrap();
            let err = Languages::load(Some(&file)).unwrap_err().to_string();
            assert!(err.contains(clash), "{err}");
        }
        std::fs::write(
            &file,
            language("a", r#"["cpp"]"#) + &language("b", r#"["b2"]"#),
        )
        .unwrap();
        assert!(Languages::load(Some(&file)).is_ok());
    }

    #[test]
    fn bad_tables_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("langs.toml");
        std::fs::write(
            &file,
            "[[language]]\nid = \"x\"\nname = \"X\"\nsource = \"a\"\nrun = []\n",
        )
        .unwrap();
        assert!(
            Languages::load(Some(&file))
                .unwrap_err()
                .to_string()
                .contains("empty command")
        );
        std::fs::write(
            &file,
            "[[language]]\nid = \"x\"\nname = \"X\"\nsource = \"a\"\nrun = [\"a\"]\ncolour = 1\n",
        )
        .unwrap();
        assert!(Languages::load(Some(&file)).is_err());
    }
}
