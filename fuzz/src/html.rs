//! The statement renderer's promise, checked on its output: HTML that is safe to embed whatever
//! the Markdown was. Every tag is one the renderer means to write and every tag is closed, every
//! attribute is on an allow-list with a quoted value, every `&` starts a character reference,
//! and a link or an image points only where `grundy-statement` allows, as a browser would read
//! the address. This is written apart from the renderer's own code, so that it does not share
//! its mistakes.

/// Elements the Markdown writer and the MathML renderer write.
const ELEMENTS: &[&str] = &[
    // Markdown.
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "code",
    "ol",
    "ul",
    "li",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "em",
    "strong",
    "del",
    "a",
    "img",
    "br",
    "hr",
    "sup",
    "div",
    "span",
    // MathML.
    "math",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mspace",
    "mrow",
    "mfrac",
    "msqrt",
    "mroot",
    "mstyle",
    "merror",
    "mpadded",
    "mphantom",
    "menclose",
    "msub",
    "msup",
    "msubsup",
    "munder",
    "mover",
    "munderover",
    "mmultiscripts",
    "mprescripts",
    "none",
    "mtable",
    "mtr",
    "mlabeledtr",
    "mtd",
    "semantics",
    "annotation",
];

/// Elements without content or end tag.
const VOID: &[&str] = &["img", "br", "hr"];

/// Attributes that carry no address and no script.
const ATTRIBUTES: &[&str] = &[
    "id",
    "class",
    "title",
    "alt",
    "start",
    "display",
    "xmlns",
    "mathvariant",
    "stretchy",
    "fence",
    "separator",
    "lspace",
    "rspace",
    "form",
    "movablelimits",
    "largeop",
    "symmetric",
    "minsize",
    "maxsize",
    "accent",
    "accentunder",
    "linethickness",
    "width",
    "height",
    "depth",
    "voffset",
    "columnalign",
    "rowalign",
    "columnspacing",
    "rowspacing",
    "columnlines",
    "rowlines",
    "frame",
    "framespacing",
    "displaystyle",
    "scriptlevel",
    "notation",
    "mathcolor",
    "mathbackground",
    "mathsize",
    "encoding",
    "style",
];

/// Checks `html` as described in the module's documentation; the error says what is wrong and
/// where.
pub fn check(html: &str) -> Result<(), String> {
    let mut open: Vec<&str> = Vec::new();
    let mut at = 0;
    while let Some(offset) = html[at..].find(['<', '&']) {
        at += offset;
        if html[at..].starts_with('&') {
            at += reference_len(&html[at..])
                .ok_or_else(|| format!("offset {at}: a bare & in {:?}", excerpt(html, at)))?;
            continue;
        }
        let tag = Tag::read(&html[at..])
            .map_err(|why| format!("offset {at}: {why} in {:?}", excerpt(html, at)))?;
        if tag.closing {
            match open.pop() {
                Some(name) if name == tag.name => {}
                other => {
                    return Err(format!("offset {at}: </{}> closes {other:?}", tag.name));
                }
            }
        } else if !tag.self_closing && !VOID.contains(&tag.name) {
            open.push(tag.name);
        }
        at += tag.len;
    }
    match open.last() {
        None => Ok(()),
        Some(name) => Err(format!("<{name}> is never closed")),
    }
}

fn excerpt(html: &str, at: usize) -> &str {
    let end = (at + 60).min(html.len());
    let end = (end..=html.len())
        .find(|&e| html.is_char_boundary(e))
        .unwrap_or(html.len());
    &html[at..end]
}

/// The length of the character reference `text` starts with (`&amp;`, `&#39;`, `&#x27;`).
fn reference_len(text: &str) -> Option<usize> {
    let body = &text[1..];
    let (digits, skip): (fn(u8) -> bool, usize) =
        if body.starts_with("#x") || body.starts_with("#X") {
            (|b| b.is_ascii_hexdigit(), 2)
        } else if body.starts_with('#') {
            (|b| b.is_ascii_digit(), 1)
        } else {
            (|b| b.is_ascii_alphanumeric(), 0)
        };
    let count = body[skip..].bytes().take_while(|&b| digits(b)).count();
    (count > 0 && body[skip + count..].starts_with(';')).then_some(1 + skip + count + 1)
}

struct Tag<'a> {
    name: &'a str,
    closing: bool,
    self_closing: bool,
    /// Bytes from `<` to `>`.
    len: usize,
}

impl<'a> Tag<'a> {
    fn read(text: &'a str) -> Result<Tag<'a>, String> {
        let closing = text[1..].starts_with('/');
        let mut at = if closing { 2 } else { 1 };
        let name_len = word_len(&text[at..]);
        if name_len == 0 || !text.as_bytes()[at].is_ascii_alphabetic() {
            return Err("a < that starts no tag".into());
        }
        let name = &text[at..at + name_len];
        if !ELEMENTS.contains(&name) {
            return Err(format!("the element {name} is not one the renderer writes"));
        }
        at += name_len;
        loop {
            let spaces = text[at..]
                .bytes()
                .take_while(u8::is_ascii_whitespace)
                .count();
            at += spaces;
            let rest = &text[at..];
            if rest.starts_with('>') {
                return Ok(Tag {
                    name,
                    closing,
                    self_closing: false,
                    len: at + 1,
                });
            }
            if rest.starts_with("/>") && !closing {
                return Ok(Tag {
                    name,
                    closing,
                    self_closing: true,
                    len: at + 2,
                });
            }
            if spaces == 0 || closing {
                return Err(format!("<{name}> goes on with something not an attribute"));
            }
            let attribute_len = word_len(rest);
            let attribute = &rest[..attribute_len];
            let Some(value_text) = rest[attribute_len..].strip_prefix("=\"") else {
                return Err(format!("the attribute {attribute:?} has no quoted value"));
            };
            let value_len = value_text
                .find('"')
                .ok_or_else(|| format!("the value of {attribute} is never closed"))?;
            let value = &value_text[..value_len];
            check_attribute(name, attribute, value)?;
            at += attribute_len + 2 + value_len + 1;
        }
    }
}

fn word_len(text: &str) -> usize {
    text.bytes()
        .take_while(|&b| b.is_ascii_alphanumeric() || b == b'-')
        .count()
}

/// `margin-left: -` then a number and a unit of letters: `margin-left: -0.16666667em`.
fn negative_margin(value: &str) -> bool {
    let Some(length) = value.strip_prefix("margin-left: -") else {
        return false;
    };
    let digits = length.trim_end_matches(|c: char| c.is_ascii_lowercase());
    let unit = &length[digits.len()..];
    (1..=3).contains(&unit.len())
        && !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        && digits.parse::<f64>().is_ok()
}

fn check_attribute(element: &str, attribute: &str, value: &str) -> Result<(), String> {
    if value.contains('<') {
        return Err(format!("a raw < in the value of {attribute}"));
    }
    let mut at = 0;
    while let Some(offset) = value[at..].find('&') {
        at += offset;
        at += reference_len(&value[at..])
            .ok_or_else(|| format!("a bare & in the value of {attribute}: {value:?}"))?;
    }
    match (element, attribute) {
        ("a", "href") => check_address(value, &["http", "https", "mailto"], true),
        ("img", "src") => check_address(value, &["https"], false),
        ("th" | "td", "style") => match value {
            "text-align: left" | "text-align: center" | "text-align: right" => Ok(()),
            _ => Err(format!("the style {value:?} on <{element}>")),
        },
        // pulldown-latex's negative space (`\!`, `\kern-1em`): MathML Core draws no negative
        // `width`, so the renderer pulls what follows back with a margin, and nothing else.
        ("mspace", "style") if negative_margin(value) => Ok(()),
        (_, "style") => Err(format!("a style attribute on <{element}>")),
        _ if ATTRIBUTES.contains(&attribute) => Ok(()),
        _ => Err(format!("the attribute {attribute:?} on <{element}>")),
    }
}

/// Reads an attribute's address as a browser does (references decoded, tabs and line ends
/// dropped, controls and spaces trimmed, `\` as `/`) and refuses a scheme not in `schemes`, or
/// another host's address without a scheme unless `other_hosts` allows it.
fn check_address(value: &str, schemes: &[&str], other_hosts: bool) -> Result<(), String> {
    let decoded: String = decode(value)
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .map(|c| if c == '\\' { '/' } else { c })
        .collect();
    let address = decoded.trim_matches(|c: char| c <= ' ');
    if address.starts_with("//") && !other_hosts {
        return Err(format!("the address {value:?} loads from another host"));
    }
    let scheme_len = address
        .bytes()
        .take_while(|&b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
        .count();
    let is_scheme = scheme_len > 0
        && address.as_bytes()[0].is_ascii_alphabetic()
        && address[scheme_len..].starts_with(':');
    if is_scheme
        && !schemes
            .iter()
            .any(|s| s.eq_ignore_ascii_case(&address[..scheme_len]))
    {
        return Err(format!("the address {value:?} uses a scheme not allowed"));
    }
    Ok(())
}

/// Decodes the character references of an attribute value.
fn decode(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let len = reference_len(&rest[at..]).expect("checked before");
        let body = &rest[at + 1..at + len - 1];
        let c = match body.strip_prefix('#') {
            Some(number) => match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => number.parse().ok(),
            }
            .and_then(char::from_u32),
            None => match body {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "Tab" => Some('\t'),
                "NewLine" => Some('\n'),
                "colon" => Some(':'),
                _ => None,
            },
        };
        out.push(c.unwrap_or('\u{fffd}'));
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_renderer_writes_passes() {
        for html in [
            "<p>a &amp; b &#39; &#x27;</p>\n",
            "<h2 id=\"input\">Input</h2>",
            "<p><a href=\"https://x.org/?a=1&amp;b\" title=\"t\">x</a><img src=\"a.png\" alt=\"a\" /></p>",
            "<math display=\"block\"><mi>x</mi><mo>&lt;</mo><mspace width=\"0.333em\" /></math>",
            "<table><thead><tr><th style=\"text-align: center\">a</th></tr></thead></table>",
            "<p>a > b<br />c</p><hr />",
            "<math><mspace width=\"-0.16666667em\" style=\"margin-left: -0.16666667em\" /></math>",
        ] {
            assert_eq!(check(html), Ok(()), "{html}");
        }
    }

    #[test]
    fn markup_from_the_input_fails() {
        for html in [
            "<p><script>alert(1)</script></p>",
            "<p>a < b</p>",
            "<p>AT&T</p>",
            "<p><img src=\"x\" onerror=\"alert(1)\" /></p>",
            "<p>unclosed",
            "<p></em></p>",
            "<mi mathcolor=\"red\"onload=\"x\">x</mi>",
            "<mi href=\"javascript:x\">x</mi>",
            "<mi style=\"background: url(x)\">x</mi>",
            "<mspace style=\"margin-left: -1em; background: url(x)\" />",
            "<mspace style=\"margin-left: 1em\" />",
            "<mspace style=\"margin-left: -em\" />",
        ] {
            assert!(check(html).is_err(), "{html}");
        }
    }

    #[test]
    fn addresses_are_read_as_a_browser_reads_them() {
        let link = |href: &str| check(&format!("<a href=\"{href}\">x</a>"));
        let image = |src: &str| check(&format!("<img src=\"{src}\" />"));
        for ok in [
            "https://x.org",
            "MAILTO:a@b.c",
            "#input",
            "a/b:c",
            "?x=a:b",
            "//x.org",
        ] {
            assert_eq!(link(ok), Ok(()), "{ok}");
        }
        for bad in [
            "javascript:x",
            " java&#9;script:x",
            "&#x6A;avascript:x",
            "javascript&colon;x",
            "data:text/html,x",
        ] {
            assert!(link(bad).is_err(), "{bad}");
        }
        assert_eq!(image("/a.png"), Ok(()));
        for bad in ["http://x.org/a.png", "//x.org/a.png", "/\\x.org/a.png"] {
            assert!(image(bad).is_err(), "{bad}");
        }
    }
}
