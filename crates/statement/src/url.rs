//! Which link and image targets may appear in a statement.
//!
//! The check is an allow-list on the scheme, made as a browser would read the URL: statements come
//! from uploads, so `javascript:`, `data:`, `vbscript:` and whatever a browser adds next must not
//! become clickable or loadable.

/// Schemes a link may use. Relative, fragment and scheme-relative links are allowed too: they stay
/// on http(s).
const LINK_SCHEMES: &[&str] = &["http", "https", "mailto"];

/// Schemes an image may be loaded from. Scheme-relative sources are refused along with plain
/// `http`: on a site served over http either would fetch from another host unencrypted.
const IMAGE_SCHEMES: &[&str] = &["https"];

/// Whether a link to `url` may be kept.
pub(crate) fn link_allowed(url: &str) -> bool {
    match classify(url) {
        Target::Relative | Target::SchemeRelative => true,
        Target::Scheme(scheme) => is_one_of(&scheme, LINK_SCHEMES),
    }
}

/// Whether an image may be loaded from `url`.
pub(crate) fn image_allowed(url: &str) -> bool {
    match classify(url) {
        Target::Relative => true,
        Target::SchemeRelative => false,
        Target::Scheme(scheme) => is_one_of(&scheme, IMAGE_SCHEMES),
    }
}

fn is_one_of(scheme: &str, allowed: &[&str]) -> bool {
    allowed.iter().any(|s| s.eq_ignore_ascii_case(scheme))
}

#[derive(Debug, PartialEq, Eq)]
enum Target {
    /// A path, query or fragment, resolved against the page.
    Relative,
    /// `//host/path`: another host, same scheme as the page.
    SchemeRelative,
    /// Anything with a `scheme:` prefix; the scheme is kept as written.
    Scheme(String),
}

fn classify(url: &str) -> Target {
    // Browsers drop tabs and newlines anywhere in a URL and trim controls and spaces at its ends
    // (WHATWG URL parsing), so `java\tscript:` is `javascript:` to them and must be to us too.
    let url: String = url
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let url = url.trim_matches(|c: char| c <= ' ');
    // Against an http(s) page a backslash counts as a slash, so `/\host` leaves the site too.
    let mut chars = url.chars().map(|c| if c == '\\' { '/' } else { c });
    if chars.next() == Some('/') && chars.next() == Some('/') {
        return Target::SchemeRelative;
    }
    // Conservatively, any colon before the path, query or fragment starts a scheme, even one a
    // browser would not accept as such: such a link can only be refused, never let through.
    match url.find([':', '/', '\\', '?', '#']) {
        Some(end) if url[end..].starts_with(':') => Target::Scheme(url[..end].to_owned()),
        _ => Target::Relative,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_as_a_browser_would() {
        assert_eq!(classify("#input"), Target::Relative);
        assert_eq!(classify("../nim/"), Target::Relative);
        assert_eq!(classify("pic.png?v=1:2"), Target::Relative);
        assert_eq!(classify("a/b:c"), Target::Relative);
        assert_eq!(classify("//evil.example/x"), Target::SchemeRelative);
        assert_eq!(classify("/\\evil.example/x"), Target::SchemeRelative);
        assert_eq!(classify(" \\\\evil.example"), Target::SchemeRelative);
        assert_eq!(classify("HTTPS://x"), Target::Scheme("HTTPS".into()));
        assert_eq!(
            classify(" java\tscr\nipt:alert(1)"),
            Target::Scheme("javascript".into())
        );
        assert_eq!(
            classify("\u{1}javascript:x"),
            Target::Scheme("javascript".into())
        );
    }

    #[test]
    fn links_keep_only_web_and_mail_schemes() {
        for ok in [
            "https://example.org",
            "HTTP://example.org",
            "mailto:a@b.c",
            "#notes",
            "x.md",
        ] {
            assert!(link_allowed(ok), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "JavaScript:x",
            "data:text/html,x",
            "vbscript:x",
        ] {
            assert!(!link_allowed(bad), "{bad}");
        }
    }

    #[test]
    fn images_load_only_over_https_or_from_the_site() {
        for ok in ["https://example.org/a.png", "a.png", "/static/a.png"] {
            assert!(image_allowed(ok), "{ok}");
        }
        for bad in [
            "http://example.org/a.png",
            "//example.org/a.png",
            "data:image/png,x",
        ] {
            assert!(!image_allowed(bad), "{bad}");
        }
    }
}
