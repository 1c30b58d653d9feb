//! TeX to MathML on the server, with pulldown-latex.

use std::convert::Infallible;
use std::error::Error as _;

use pulldown_latex::config::DisplayMode;
use pulldown_latex::event::{Content, Dimension, DimensionUnit};
use pulldown_latex::{Event, Parser, RenderConfig, Storage, push_mathml};

/// Renders one formula as a `<math>` element, or gives the reason it cannot be.
pub(crate) fn to_mathml(tex: &str, display_mode: DisplayMode) -> Result<String, String> {
    let storage = Storage::new();
    // Collected before rendering because pulldown-latex renders a parse error in place as an
    // `<merror>` whose message quotes the source unescaped: a formula reaches the renderer only
    // once it is known to parse.
    let events = Parser::new(tex, &storage)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| {
            e.source()
                .map_or_else(|| e.to_string(), ToString::to_string)
        })?;
    // The renderer writes an operator name (`\operatorname{…}`, `\mathop{…}`) verbatim, so one
    // with markup characters in it could inject HTML.
    if events.iter().any(|event| {
        matches!(event, Event::Content(Content::Function(name)) if name.contains(['<', '&']))
    }) {
        return Err("operator name contains `<` or `&`".to_owned());
    }
    let mut mathml = String::new();
    let config = RenderConfig {
        display_mode,
        ..RenderConfig::default()
    };
    let events = events.into_iter().map(|event| {
        Ok::<_, Infallible>(match event {
            // pulldown-latex 0.8 turns `~`, `\ ` and `\nobreakspace` into the text `&nbsp;`,
            // which its renderer then escapes, so the page would spell out the entity. TeX gives
            // them the width of an interword space, a third of an em.
            Event::Content(Content::Text("&nbsp;")) => Event::Space {
                width: Some(Dimension::new(0.333, DimensionUnit::Em)),
                height: None,
                depth: None,
            },
            event => event,
        })
    });
    push_mathml(&mut mathml, events, config).map_err(|e| e.to_string())?;
    Ok(escape_operator_characters(&mathml))
}

/// pulldown-latex writes operator characters raw, so `a<b` comes out as `<mo><</mo>`. An HTML
/// parser happens to read that right, but it is not well-formed and stricter consumers (XHTML,
/// feeds, sanitizers) would not. Every tag it writes starts with `<` and a letter or `/`, every
/// entity with `&` and a letter, while an operator character is followed by the `<` of its
/// closing tag or by a combining negation slash, which tells the two apart.
fn escape_operator_characters(mathml: &str) -> String {
    let mut out = String::with_capacity(mathml.len());
    for (i, c) in mathml.char_indices() {
        let next = mathml[i + c.len_utf8()..].chars().next();
        let starts_markup = |also: char| next.is_some_and(|n| n.is_ascii_alphabetic() || n == also);
        match c {
            '<' if !starts_markup('/') => out.push_str("&lt;"),
            '&' if !starts_markup('#') => out.push_str("&amp;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inline(tex: &str) -> Result<String, String> {
        to_mathml(tex, DisplayMode::Inline)
    }

    #[test]
    fn operator_characters_are_escaped() {
        let less = inline("a<b").unwrap();
        assert!(less.contains(">&lt;</mo>"), "{less}");
        let and = inline(r"a \& b").unwrap();
        assert!(and.contains(">&amp;</"), "{and}");
        let text = inline(r"\text{a < b & c}").unwrap();
        assert!(text.contains("a &lt; b &amp; c"), "{text}");
    }

    #[test]
    fn tie_and_control_space_are_spaces() {
        for tex in ["a~b", r"a\ b", r"a\nobreakspace b"] {
            let mathml = inline(tex).unwrap();
            assert!(mathml.contains(r#"<mspace width="0.333em" />"#), "{mathml}");
            assert!(!mathml.contains("nbsp"), "{mathml}");
        }
    }

    #[test]
    fn markup_in_operator_names_is_refused() {
        assert!(inline(r"\operatorname{<script>alert(1)</script>}").is_err());
        assert!(inline(r"\mathop{a&amp;b}").is_err());
        assert!(inline(r"\operatorname{mex}").unwrap().contains(">mex</mi>"));
    }

    #[test]
    fn parse_errors_give_a_short_reason() {
        let reason = inline(r"\frac{1}{").unwrap_err();
        assert!(!reason.is_empty() && !reason.contains('\n'), "{reason}");
    }
}
