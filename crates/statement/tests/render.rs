use std::fs;
use std::path::{Path, PathBuf};

use grundy_statement::{Heading, STYLESHEET, render};

fn problems_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems")
}

fn statements() -> Vec<PathBuf> {
    let mut paths = Vec::new();
    for problem in fs::read_dir(problems_dir()).expect("problems directory") {
        for file in fs::read_dir(problem.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy();
            if name.starts_with("statement.") && name.ends_with(".md") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    paths
}

#[test]
fn every_statement_renders_all_its_math() {
    let paths = statements();
    assert!(paths.len() >= 2, "no statements found");
    let mut failures = Vec::new();
    for path in &paths {
        let rendered = render(&fs::read_to_string(path).unwrap());
        for error in &rendered.math_errors {
            failures.push(format!(
                "{}: ${}$: {}",
                path.display(),
                error.tex,
                error.reason
            ));
        }
        assert!(!rendered.html.contains("math-error"), "{}", path.display());
        assert!(
            rendered.html.contains("<math"),
            "{} has no math",
            path.display()
        );
    }
    assert!(
        failures.is_empty(),
        "formulas that failed:\n{}",
        failures.join("\n")
    );
}

#[test]
fn stones_statement() {
    let markdown = fs::read_to_string(problems_dir().join("stones/statement.en.md")).unwrap();
    let rendered = render(&markdown);
    let html = &rendered.html;
    assert!(html.contains(r#"<h1 id="stones">Stones</h1>"#), "{html}");
    assert!(html.contains(r#"<h2 id="input">Input</h2>"#), "{html}");
    assert!(html.contains(r#"<h2 id="output">Output</h2>"#), "{html}");
    assert_eq!(
        html.matches("<math").count(),
        markdown.matches('$').count() / 2
    );
    // `a_1<a_2<\dots` must not come out as a raw `<` that a parser could take for a tag.
    assert!(html.contains("<mo>&lt;</mo>"), "{html}");
    assert!(!html.contains('$'), "a formula was left as text: {html}");
    assert!(html.contains("<li>"));
    assert!(html.contains("<code>First</code>"));
    // The statement has no table; a table in the same Markdown dialect does render as one.
    assert!(!markdown.contains('|'));
    let table = render("| $n$ | answer |\n|---|---|\n| $1$ | `First` |\n");
    assert!(table.html.contains("<table>"), "{}", table.html);
    assert!(table.html.contains("<td><math"), "{}", table.html);
    assert_eq!(
        rendered
            .headings
            .iter()
            .map(|h| h.id.as_str())
            .collect::<Vec<_>>(),
        [
            "stones",
            "input",
            "output",
            "constraints",
            "scoring",
            "notes"
        ]
    );
}

#[test]
fn vietnamese_headings_get_ids_too() {
    let markdown = fs::read_to_string(problems_dir().join("stones/statement.vi.md")).unwrap();
    let rendered = render(&markdown);
    assert!(
        rendered.headings.contains(&Heading {
            level: 2,
            id: "dữ-liệu-vào".into(),
            text: "Dữ liệu vào".into(),
        }),
        "{:?}",
        rendered.headings
    );
}

#[test]
fn duplicate_headings_get_distinct_ids() {
    let rendered = render("## Notes\n\n## Notes\n\n## Notes 1\n");
    let ids: Vec<_> = rendered.headings.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(ids, ["notes", "notes-1", "notes-1-1"]);
}

#[test]
fn raw_html_is_escaped() {
    let html = render(
        "<script>alert(1)</script>\n\n\
         Inline <img src=x onerror=alert(1)> and <b>bold</b>.\n\n\
         <div onclick=\"alert(1)\">\nblock\n</div>\n",
    )
    .html;
    for raw in ["<script", "<img", "<b>", "<div"] {
        assert!(!html.contains(raw), "{raw} survived: {html}");
    }
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
    assert!(html.contains("&lt;b&gt;bold&lt;/b&gt;"), "{html}");
    // A quote in text needs no escaping; what matters is that the tag is text, in a block.
    assert!(
        html.contains("<p>&lt;div onclick=\"alert(1)\"&gt;"),
        "{html}"
    );
}

#[test]
fn links_keep_only_safe_schemes() {
    let html = render(
        "[web](https://example.org/a) [mail](mailto:lan@example.org) [here](#input) \
         [rel](../nim/) [js](javascript:alert(1)) [JS](JaVaScRiPt:alert(1)) \
         [ent](javascript&#58;alert(1)) [spaced](<java\tscript:alert(1)>) \
         [data](data:text/html,<script>alert(1)</script>) <javascript:alert(1)> <lan@example.org>",
    )
    .html;
    for kept in [
        r#"<a href="https://example.org/a">web</a>"#,
        r#"<a href="mailto:lan@example.org">mail</a>"#,
        r##"<a href="#input">here</a>"##,
        r#"<a href="../nim/">rel</a>"#,
        r#"<a href="mailto:lan@example.org">lan@example.org</a>"#,
    ] {
        assert!(html.contains(kept), "{kept} missing: {html}");
    }
    assert!(
        !html.to_ascii_lowercase().contains("href=\"javascript"),
        "{html}"
    );
    assert!(!html.contains("href=\"data"), "{html}");
    assert!(!html.contains("script%"), "{html}");
    assert_eq!(html.matches("<a ").count(), 5, "{html}");
    // The text of a dropped link stays.
    for text in [" js ", " JS ", " ent ", " spaced ", " data "] {
        assert!(html.contains(text), "{text} missing: {html}");
    }
}

#[test]
fn images_load_only_from_https_or_the_site() {
    let html = render(
        "![ok](https://example.org/a.png) ![local](pic.png) ![plain](http://example.org/a.png) \
         ![script](javascript:alert(1)) ![data](data:image/svg+xml,x) ![far](//example.org/a.png)",
    )
    .html;
    assert!(
        html.contains(r#"<img src="https://example.org/a.png" alt="ok" />"#),
        "{html}"
    );
    assert!(
        html.contains(r#"<img src="pic.png" alt="local" />"#),
        "{html}"
    );
    assert_eq!(html.matches("<img").count(), 2, "{html}");
    for alt in ["plain", "script", "data", "far"] {
        assert!(html.contains(alt), "{alt} missing: {html}");
    }
}

#[test]
fn math_in_an_image_alt_stays_tex() {
    let html = render("![graph of $x^2$](plot.png)").html;
    assert!(html.contains(r#"alt="graph of $x^2$""#), "{html}");
}

#[test]
fn a_broken_formula_shows_its_source() {
    let rendered = render("Fine $a+b$, broken $x_1_{<b>}$ and $$\\undefinedmacro x$$.");
    assert_eq!(rendered.math_errors.len(), 2, "{:?}", rendered.math_errors);
    assert_eq!(rendered.math_errors[0].tex, "x_1_{<b>}");
    assert!(!rendered.math_errors[0].display);
    assert_eq!(rendered.math_errors[1].tex, r"\undefinedmacro x");
    assert!(rendered.math_errors[1].display);
    let html = &rendered.html;
    assert!(html.contains(r#"<math display="inline">"#), "{html}");
    assert!(html.contains(">x_1_{&lt;b&gt;}</code>"), "{html}");
    assert!(
        html.contains(r#"<code class="math-error" title=""#),
        "{html}"
    );
    assert!(!html.contains("<b>") && !html.contains("merror"), "{html}");
}

#[test]
fn markdown_extensions_render() {
    let html = render(
        "Take ~~all~~ one stone.[^why]\n\n```cpp\nif (a < b) return;\n```\n\n[^why]: Rules.\n",
    )
    .html;
    assert!(html.contains("<del>all</del>"), "{html}");
    assert!(
        html.contains(r#"<code class="language-cpp">if (a &lt; b) return;"#),
        "{html}"
    );
    assert!(
        html.contains(r##"<sup class="footnote-reference"><a href="#why">1</a></sup>"##),
        "{html}"
    );
    assert!(
        html.contains(r#"<div class="footnote-definition" id="why">"#),
        "{html}"
    );
}

#[test]
fn display_math_is_a_block_formula() {
    let html = render("$$\\sum_{i=1}^{n} a_i$$").html;
    assert!(html.contains(r#"<math display="block">"#), "{html}");
}

#[test]
fn rendering_is_deterministic() {
    for path in statements() {
        let markdown = fs::read_to_string(&path).unwrap();
        assert_eq!(render(&markdown), render(&markdown), "{}", path.display());
    }
}

#[test]
fn stylesheet_carries_the_mathml_rules() {
    assert!(STYLESHEET.starts_with("/*"));
    assert!(STYLESHEET.contains("@namespace m url('http://www.w3.org/1998/Math/MathML');"));
    assert!(STYLESHEET.contains("menv-cases"));
    assert!(STYLESHEET.contains("code.math-error"));
    // @namespace must precede every rule, so the vendored file has to come first.
    let namespace = STYLESHEET.find("@namespace").unwrap();
    assert!(STYLESHEET[..namespace].trim_end().ends_with("*/"));
    assert_eq!(STYLESHEET.matches("@namespace").count(), 1);
}
