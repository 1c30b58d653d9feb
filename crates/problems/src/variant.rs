//! Variants of a family problem: another slug, title, limits and subtasks, with the statement,
//! generator and reference of the base's family. A variant is returned as the files of a problem
//! folder, so it is stored and reloaded exactly like a built-in problem.

use crate::catalogue::{LoadError, Problem, check_titles, invalid, is_valid_slug};
use crate::spec::{ProblemSpec, SubtaskSpec};
use serde::Deserialize;
use std::collections::BTreeMap;

/// What a teacher asks for; everything not given comes from the base problem.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantRequest {
    pub slug: String,
    /// Title per language code; `en` is required.
    pub title: BTreeMap<String, String>,
    #[serde(default)]
    pub time_limit_ms: Option<u32>,
    #[serde(default)]
    pub memory_limit_mib: Option<u32>,
    /// The root of the tests' randomness; the base's seed if not given (the new slug alone
    /// already gives other tests).
    #[serde(default)]
    pub seed: Option<u64>,
    pub subtasks: Vec<VariantSubtask>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantSubtask {
    pub name: String,
    pub points: u32,
    pub tests: usize,
    /// The family's generator parameters, checked as those of `problem.toml` are.
    pub generator: toml::Table,
}

/// The files (`problem.toml`, statements, samples) of a variant of `base`, at version 1, which
/// [`Problem::from_files`] accepts under `request.slug`: everything is checked by loading them.
/// Each statement is the base's, retitled, with a section "This variant" listing the limits and
/// each subtask's generator parameters. Only family problems have variants; whether the slug
/// is free is for the caller to check against its catalogue.
pub fn variant(
    base: &Problem,
    request: &VariantRequest,
) -> Result<BTreeMap<String, String>, LoadError> {
    let slug = request.slug.as_str();
    if !base.is_family_backed() {
        return Err(invalid(
            slug,
            format!(
                "only a problem backed by a game family can have variants; {} is an uploaded \
                 package",
                base.slug()
            ),
        ));
    }
    if !is_valid_slug(slug) {
        return Err(invalid(
            slug,
            "the slug must be 2 to 48 lower-case letters, digits and hyphens, starting with a \
             letter or digit",
        ));
    }
    // The statements are retitled before loading checks the rest.
    check_titles(&request.title).map_err(|e| invalid(slug, e))?;
    let spec = ProblemSpec {
        slug: slug.to_string(),
        title: request.title.clone(),
        family: base.spec.family.clone(),
        game: base.spec.game.clone(),
        version: 1,
        difficulty: base.spec.difficulty,
        tags: base.spec.tags.clone(),
        source: base.spec.source.clone(),
        time_limit_ms: request.time_limit_ms.unwrap_or(base.spec.time_limit_ms),
        memory_limit_mib: request
            .memory_limit_mib
            .unwrap_or(base.spec.memory_limit_mib),
        seed: request.seed.unwrap_or(base.spec.seed),
        checker: base.spec.checker.clone(),
        subtasks: request
            .subtasks
            .iter()
            .map(|s| SubtaskSpec {
                name: s.name.clone(),
                points: s.points,
                tests: s.tests,
                generator: s.generator.clone(),
            })
            .collect(),
    };
    let mut files = BTreeMap::new();
    files.insert(
        "problem.toml".to_string(),
        toml::to_string(&spec)
            .map_err(|e| invalid(slug, format!("problem.toml cannot be written: {e}")))?,
    );
    for lang in base.statement_languages() {
        let text = base.statement(lang).unwrap_or_default();
        files.insert(
            format!("statement.{lang}.md"),
            restate(text, base, &spec, lang),
        );
    }
    for sample in &base.samples {
        files.insert(format!("samples/{}.in", sample.name), sample.input.clone());
        files.insert(
            format!("samples/{}.ans", sample.name),
            sample.answer.clone(),
        );
    }
    Problem::from_files(slug, &files)?;
    Ok(files)
}

/// The base's statement in `lang` under the variant's title, with the variant's section.
fn restate(text: &str, base: &Problem, spec: &ProblemSpec, lang: &str) -> String {
    let words = Words::of(lang);
    let title = spec.title.get(lang).unwrap_or(&spec.title["en"]);
    let base_heading = format!("# {}", base.title(lang));
    let mut out = match text.split_once('\n') {
        Some((first, rest)) if first.trim_end() == base_heading => format!("# {title}\n{rest}"),
        _ => text.to_string(),
    };
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!(
        "\n## {}\n\n{}\n\n",
        words.heading,
        (words.intro)(base.title(lang))
    ));
    out.push_str(&format!(
        "- {}: {} {}\n- {}: {} MiB\n",
        words.time_limit,
        seconds(spec.time_limit_ms),
        words.seconds,
        words.memory_limit,
        spec.memory_limit_mib
    ));
    for (number, subtask) in spec.subtasks.iter().enumerate() {
        let params: Vec<String> = subtask
            .generator
            .iter()
            .map(|(key, value)| format!("`{key} = {value}`"))
            .collect();
        out.push_str(&format!(
            "- {} {} `{}` ({} {}, {} {}): {}\n",
            words.subtask,
            number + 1,
            subtask.name,
            subtask.points,
            words.points,
            subtask.tests,
            words.tests,
            params.join(", ")
        ));
    }
    out
}

/// A limit in milliseconds as seconds, without trailing zeros.
fn seconds(ms: u32) -> String {
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The generated section's words in one statement language.
struct Words {
    heading: &'static str,
    intro: fn(&str) -> String,
    time_limit: &'static str,
    seconds: &'static str,
    memory_limit: &'static str,
    subtask: &'static str,
    points: &'static str,
    tests: &'static str,
}

impl Words {
    fn of(lang: &str) -> Words {
        match lang {
            "vi" => Words {
                heading: "Biến thể này",
                intro: |base| {
                    format!(
                        "Đây là một biến thể của bài *{base}*. Luật chơi, định dạng đầu vào, đầu \
                         ra và các ràng buộc ở trên vẫn giữ nguyên; giới hạn và các nhóm test dưới \
                         đây thay cho những gì đã nêu ở trên. Test của mỗi nhóm được sinh \
                         trong phạm vi các tham số được liệt kê."
                    )
                },
                time_limit: "Giới hạn thời gian",
                seconds: "giây",
                memory_limit: "Giới hạn bộ nhớ",
                subtask: "Nhóm test",
                points: "điểm",
                tests: "test",
            },
            _ => Words {
                heading: "This variant",
                intro: |base| {
                    format!(
                        "This is a variant of *{base}*. The rules, the input and output formats \
                         and the constraints above still hold; the limits and the subtasks below \
                         replace those given above. Each subtask's tests are generated within \
                         the parameters listed."
                    )
                },
                time_limit: "Time limit",
                seconds: "s",
                memory_limit: "Memory limit",
                subtask: "Subtask",
                points: "points",
                tests: "tests",
            },
        }
    }
}
