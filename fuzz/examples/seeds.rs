//! Writes the committed seed corpora (`fuzz/seeds/`) from the real inputs: the built-in
//! problems exported by the package writer, their statements, samples and generated tests.
//! Only small pieces are kept: a package keeps the smallest test of each group, a family its
//! samples, the smallest generated test of each subtask and a few small positions.
//!
//! Run from `fuzz/`: `cargo run --release --example seeds -- seeds` (scripts/fuzz seeds).

use grundy_fuzz::{Files, entries_of, zip_of};
use grundy_problems::{Catalogue, Problem, write_zip};
use std::collections::BTreeMap;
use std::io::{Cursor, Read};
use std::path::Path;
use zip::{CompressionMethod, ZipArchive};

/// Largest test kept for a validator's corpus, in bytes.
const MAX_TEST: usize = 2048;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args().nth(1).ok_or("usage: seeds OUT_DIR")?;
    let out = Path::new(&out);
    if out.exists() {
        std::fs::remove_dir_all(out)?;
    }
    let catalogue = Catalogue::builtin()?;
    let mut packages = Vec::new();
    for problem in catalogue.iter() {
        let slug = problem.slug();
        for (lang, name) in [("en", "en"), ("vi", "vi")] {
            if let Some(text) = problem.statement(lang) {
                write(out, &format!("statement/{slug}.{name}.md"), text.as_bytes())?;
            }
        }
        let family = &problem.spec.family;
        for (name, text) in validator_seeds(problem) {
            write(out, &format!("validator/{family}/{name}"), &text)?;
        }
        if let Some(sample) = problem.samples.first() {
            // Read every line as integers, then expect the end: the shape of most formats.
            let mut program = vec![6, 0, 0, 0, 0, 0, 5];
            program.extend_from_slice(sample.input.as_bytes());
            write(out, &format!("strict/{slug}"), &program)?;
        }
        if let Ok(zip) = write_zip(problem) {
            packages.push((slug.to_string(), smallest_tests(&zip)?));
        }
    }
    for (name, files) in packages.iter().flat_map(|(slug, files)| {
        variants(files)
            .into_iter()
            .map(move |(variant, files)| (format!("{slug}-{variant}"), files))
    }) {
        write(out, &format!("package_files/{name}"), &entries_of(&files))?;
        let zip = zip_of(&files, CompressionMethod::Deflated);
        write(out, &format!("package_zip/{name}.zip"), &zip)?;
    }
    write(out, "statement/features.md", FEATURES.as_bytes())?;
    Ok(())
}

fn write(out: &Path, path: &str, data: &[u8]) -> std::io::Result<()> {
    let path = out.join(path);
    std::fs::create_dir_all(path.parent().expect("a file in a folder"))?;
    std::fs::write(path, data)
}

/// A family's seeds: the samples, the smallest generated test of each subtask and three small
/// positions; for a family with its own checker, a test with the reference answer after a NUL.
fn validator_seeds(problem: &Problem) -> Vec<(String, Vec<u8>)> {
    let solver = problem.solver().expect("a built-in problem has a family");
    let mut seeds: Vec<(String, Vec<u8>)> = problem
        .samples
        .iter()
        .map(|s| (format!("sample-{}", s.name), s.input.clone().into_bytes()))
        .collect();
    for (s, subtask) in problem.spec.subtasks.iter().enumerate() {
        let smallest = (1..=subtask.tests)
            .filter_map(|i| problem.generate_test(s + 1, i))
            .min_by_key(|t| t.input.len())
            .filter(|t| t.input.len() <= MAX_TEST);
        if let Some(test) = smallest {
            seeds.push((
                format!("{}-{}", subtask.name, test.index),
                test.input.into_bytes(),
            ));
        }
    }
    for (i, text) in solver
        .small_positions_text()
        .into_iter()
        .take(3)
        .enumerate()
    {
        seeds.push((format!("small-{i}"), text.into_bytes()));
    }
    if solver.has_reference_checker()
        && let Some(sample) = problem.samples.first()
    {
        let mut with_answer = sample.input.clone().into_bytes();
        with_answer.push(0);
        with_answer.extend_from_slice(sample.answer.as_bytes());
        seeds.push(("sample-with-answer".into(), with_answer));
    }
    seeds
}

/// An exported package's files, with the English statement only and the smallest test of each
/// secret group (so every group the `grundy.subtasks` list names still holds one); a test larger
/// than [`MAX_TEST`] takes the first sample's text instead.
fn smallest_tests(zip: &[u8]) -> Result<Files, Box<dyn std::error::Error>> {
    let mut archive = ZipArchive::new(Cursor::new(zip))?;
    let mut files = BTreeMap::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i)?;
        let mut data = Vec::new();
        entry.read_to_end(&mut data)?;
        files.insert(entry.name()?.into_owned(), data);
    }
    let size =
        |stem: &str| files[&format!("{stem}.in")].len() + files[&format!("{stem}.ans")].len();
    let mut smallest: BTreeMap<&str, &str> = BTreeMap::new();
    for path in files.keys() {
        if let Some(stem) = path.strip_suffix(".in")
            && stem.contains("/secret/")
            && let Some((group, _)) = stem.rsplit_once('/')
        {
            let best = smallest.entry(group).or_insert(stem);
            if size(stem) < size(best) {
                *best = stem;
            }
        }
    }
    let sample = |extension: &str| {
        files
            .iter()
            .find(|(path, _)| path.contains("/data/sample/") && path.ends_with(extension))
            .map(|(_, data)| data.clone())
            .unwrap_or_default()
    };
    let mut kept: Files = files
        .iter()
        .filter(|(path, _)| !path.contains("/secret/") && !path.ends_with("problem.vi.md"))
        .map(|(path, data)| (path.clone(), data.clone()))
        .collect();
    for stem in smallest.values() {
        for extension in [".in", ".ans"] {
            let path = format!("{stem}{extension}");
            let data = if size(stem) <= MAX_TEST {
                files[&path].clone()
            } else {
                sample(extension)
            };
            kept.push((path, data));
        }
    }
    Ok(kept)
}

/// The exported package, and the same problem in the other layouts the reader knows: legacy
/// at the zip's root with a flat secret folder, and one with a custom output validator.
fn variants(files: &Files) -> Vec<(&'static str, Files)> {
    let root: Files = files
        .iter()
        .map(|(path, data)| {
            let (_, inside) = path.split_once('/').expect("exported inside a folder");
            (inside.to_string(), data.clone())
        })
        .collect();
    let yaml = |files: &Files| {
        let (_, data) = files
            .iter()
            .find(|(p, _)| p == "problem.yaml")
            .expect("exported");
        String::from_utf8(data.clone()).expect("written as text")
    };
    let name = yaml(&root)
        .lines()
        .find_map(|l| l.strip_prefix("  en: "))
        .unwrap_or("Problem")
        .to_string();
    let mut legacy: Files = vec![
        (
            "problem.yaml".into(),
            format!("name: {name}\nvalidator_flags: case_sensitive\nlimits:\n  memory: 512\n")
                .into_bytes(),
        ),
        (".timelimit".into(), b"1.5\n".to_vec()),
    ];
    for (path, data) in &root {
        if let Some(rest) = path.strip_prefix("statement/") {
            legacy.push((format!("problem_statement/{rest}"), data.clone()));
        } else if let Some(rest) = path.strip_prefix("data/secret/") {
            // Flattened, groups may share file names: the group becomes part of the name.
            legacy.push((
                format!("data/secret/{}", rest.replace('/', "-")),
                data.clone(),
            ));
        } else if path.starts_with("data/sample/") {
            legacy.push((path.clone(), data.clone()));
        }
    }
    let mut custom: Files = root
        .iter()
        .filter(|(path, _)| path != "data/testdata.yaml")
        .cloned()
        .collect();
    for (path, data) in &mut custom {
        if path == "problem.yaml" {
            data.extend_from_slice(b"validation: custom\n");
        }
    }
    custom.push((
        "output_validators/check/validate.py".into(),
        b"import sys\nsys.exit(42)\n".to_vec(),
    ));
    vec![
        ("export", files.clone()),
        ("legacy", legacy),
        ("custom", custom),
    ]
}

/// Markdown that reaches every rule of the renderer's: kept and dropped links and images, raw
/// HTML, math that fails, footnotes, tables, headings that share a name.
const FEATURES: &str = r#"# Input

## Input

A [link](https://example.org "t"), a [bad one](javascript:alert(1)), <https://auto.example>,
![pic](pic.png), ![bad pic](http://x.example/a.png), ![$x^2$](a.png) and <b>raw</b> HTML.

<div onclick="x()">block</div>

Math $a<b$, $$\frac{1}{2}$$, $\frac{1}{$ and $\operatorname{<i>}$; ~~struck~~[^1].

| a | b |
|:--|--:|
| $x$ | `y` |

[^1]: A footnote with [a ref][r].

[r]: mailto:a@b.example
"#;
