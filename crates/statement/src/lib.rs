//! Problem statements: Markdown with TeX math, rendered to HTML with the math as MathML.
//!
//! [`render`] takes CommonMark with tables, strikethrough, footnotes and math (`$…$` inline,
//! `$$…$$` display) and returns HTML that is safe to embed in a page even when the statement was
//! uploaded by someone untrusted:
//!
//! - raw HTML, block or inline, is escaped and shows as the text it was written as;
//! - a link keeps its `<a>` only for `http`, `https`, `mailto`, relative and fragment targets, an
//!   image its `<img>` only for `https` and relative sources; otherwise just the link text or the
//!   image's alt text remains;
//! - math is rendered on the server by pulldown-latex, and a formula it cannot parse does not
//!   fail the page: it shows as its TeX source in `<code class="math-error">` and is listed in
//!   [`Rendered::math_errors`].
//!
//! Headings get `id`s from their text (`## Input` → `id="input"`), so a page can link to a section.
//!
//! The MathML needs [`STYLESHEET`] on the page. That stylesheet loads the Latin Modern web fonts
//! from `font/…` relative to its own URL; [`FONTS`] holds them (copied from pulldown-latex's
//! source package; GUST Font License, see `assets/font/README.md`) for the server to serve there.

mod math;
mod url;

use std::collections::HashSet;

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd, html};
use pulldown_latex::config::DisplayMode;

/// CSS for the MathML in rendered statements: pulldown-latex's own `styles.css` followed by
/// Grundy's additions (a system math font fallback, the `math-error` look). Serve it as a file or
/// inline it in a `<style>` element; the font URLs in it are relative to where it is served from.
/// The fonts [`STYLESHEET`] names, by file name, to serve at `font/<name>` beside it.
pub const FONTS: &[(&str, &[u8])] = &[
    (
        "latinmodern-math.woff2",
        include_bytes!("../assets/font/latinmodern-math.woff2"),
    ),
    (
        "lmroman12-regular.woff2",
        include_bytes!("../assets/font/lmroman12-regular.woff2"),
    ),
    (
        "lmroman12-bold.woff2",
        include_bytes!("../assets/font/lmroman12-bold.woff2"),
    ),
    (
        "lmroman12-italic.woff2",
        include_bytes!("../assets/font/lmroman12-italic.woff2"),
    ),
];

pub const STYLESHEET: &str = concat!(
    include_str!("../assets/pulldown-latex.css"),
    "\n",
    include_str!("../assets/statement.css"),
);

/// A rendered statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The HTML fragment, to be placed inside the page's body.
    pub html: String,
    /// The headings in document order, with the `id`s they were given.
    pub headings: Vec<Heading>,
    /// The formulas that could not be rendered, in document order.
    pub math_errors: Vec<MathError>,
}

/// A heading of a rendered statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1 for `#`, up to 6.
    pub level: u8,
    /// The `id` attribute, unique within the statement.
    pub id: String,
    /// The heading's text without markup (formulas as their TeX source).
    pub text: String,
}

/// A formula shown as its source because pulldown-latex could not render it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MathError {
    /// The TeX between the dollar signs.
    pub tex: String,
    /// Whether it was display math (`$$…$$`).
    pub display: bool,
    /// Why it could not be rendered, in pulldown-latex's words.
    pub reason: String,
}

/// Renders a Markdown statement to HTML; see the crate documentation for what is kept and what is
/// neutralised. Rendering cannot fail, and the same input always gives the same output.
pub fn render(markdown: &str) -> Rendered {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_MATH;
    let mut renderer = Renderer::default();
    for event in Parser::new_ext(markdown, options) {
        renderer.push(event);
    }
    let mut html = String::with_capacity(markdown.len() * 2);
    html::push_html(&mut html, renderer.events.into_iter());
    Rendered {
        html,
        headings: renderer.headings,
        math_errors: renderer.math_errors,
    }
}

/// Rewrites the Markdown event stream before pulldown-cmark's HTML writer sees it.
#[derive(Default)]
struct Renderer<'a> {
    events: Vec<Event<'a>>,
    /// One entry per link or image currently open: whether its tags were kept, so that its end
    /// tag is kept or dropped alike.
    kept: Vec<bool>,
    /// How many kept images are open. Their content becomes the `alt` attribute, where the HTML
    /// writer already puts formulas as TeX and where MathML would be escaped into noise.
    open_images: usize,
    /// The heading being read: the index of its start event in `events` and its text so far.
    heading: Option<(usize, String)>,
    headings: Vec<Heading>,
    ids: HashSet<String>,
    math_errors: Vec<MathError>,
}

impl<'a> Renderer<'a> {
    fn push(&mut self, event: Event<'a>) {
        if let Some((_, text)) = &mut self.heading {
            match &event {
                Event::Text(s)
                | Event::Code(s)
                | Event::InlineMath(s)
                | Event::DisplayMath(s)
                | Event::Html(s)
                | Event::InlineHtml(s) => text.push_str(s),
                Event::SoftBreak | Event::HardBreak => text.push(' '),
                _ => {}
            }
        }
        let event = match event {
            Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
            // The writer emits nothing for an HTML block's own tags; as a paragraph the escaped
            // markup still sits in a block of its own.
            Event::Start(Tag::HtmlBlock) => Event::Start(Tag::Paragraph),
            Event::End(TagEnd::HtmlBlock) => Event::End(TagEnd::Paragraph),
            Event::InlineMath(tex) if self.open_images == 0 => self.math(tex, DisplayMode::Inline),
            Event::DisplayMath(tex) if self.open_images == 0 => self.math(tex, DisplayMode::Block),
            Event::Start(Tag::Link { ref dest_url, .. }) => {
                let keep = url::link_allowed(dest_url);
                self.kept.push(keep);
                if !keep {
                    return;
                }
                event
            }
            Event::Start(Tag::Image { ref dest_url, .. }) => {
                let keep = url::image_allowed(dest_url);
                self.kept.push(keep);
                if !keep {
                    return;
                }
                self.open_images += 1;
                event
            }
            Event::End(TagEnd::Link) => {
                if self.kept.pop() != Some(true) {
                    return;
                }
                event
            }
            Event::End(TagEnd::Image) => {
                if self.kept.pop() != Some(true) {
                    return;
                }
                self.open_images -= 1;
                event
            }
            Event::Start(Tag::Heading { .. }) => {
                self.heading = Some((self.events.len(), String::new()));
                event
            }
            Event::End(TagEnd::Heading(level)) => {
                self.close_heading(level as u8);
                event
            }
            event => event,
        };
        self.events.push(event);
    }

    fn math(&mut self, tex: CowStr<'a>, display_mode: DisplayMode) -> Event<'a> {
        let html = match math::to_mathml(&tex, display_mode) {
            Ok(mathml) => mathml,
            Err(reason) => {
                let html = format!(
                    r#"<code class="math-error" title="{}">{}</code>"#,
                    escape_html(&reason),
                    escape_html(&tex)
                );
                self.math_errors.push(MathError {
                    tex: tex.into_string(),
                    display: display_mode == DisplayMode::Block,
                    reason,
                });
                html
            }
        };
        Event::InlineHtml(html.into())
    }

    fn close_heading(&mut self, level: u8) {
        let Some((start, text)) = self.heading.take() else {
            return;
        };
        let base = slug(&text);
        let mut id = base.clone();
        let mut n = 1;
        while !self.ids.insert(id.clone()) {
            id = format!("{base}-{n}");
            n += 1;
        }
        if let Event::Start(Tag::Heading { id: slot, .. }) = &mut self.events[start] {
            *slot = Some(id.clone().into());
        }
        self.headings.push(Heading {
            level,
            id,
            text: text.trim().to_owned(),
        });
    }
}

/// Lowercase letters and digits of any script, with each run of anything else turned into one
/// `-`: `Input / Output` → `input-output`, `Dữ liệu vào` → `dữ-liệu-vào`.
fn slug(text: &str) -> String {
    let mut slug = String::new();
    let mut gap = false;
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            if gap && !slug.is_empty() {
                slug.push('-');
            }
            gap = false;
            slug.push(c);
        } else {
            gap = true;
        }
    }
    if slug.is_empty() {
        "section".to_owned()
    } else {
        slug
    }
}

fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(slug("Input"), "input");
        assert_eq!(slug("  Input / Output  "), "input-output");
        assert_eq!(slug("Dữ liệu vào"), "dữ-liệu-vào");
        assert_eq!(slug("Subtask 2: $n \\le 10$"), "subtask-2-n-le-10");
        assert_eq!(slug("???"), "section");
    }
}
