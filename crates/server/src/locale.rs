//! Which language a person reads: the account's preference, else the cookie the language switch
//! sets, else the browser's `Accept-Language`, else English. Decided here and nowhere else.
//!
//! A layer reads the cookie and the header once per request and keeps the result (with the
//! address asked for, which the switch returns to) for the request's task: error pages and the
//! API's error bodies are built far from the request, in `IntoResponse`, and still speak the
//! reader's language. The account's preference is known only once the caller is, so
//! [`for_caller`] lays it over the request's choice.

use std::cell::Cell;

use axum::extract::Request;
use axum::http::HeaderMap;
use axum::http::header::ACCEPT_LANGUAGE;
use axum::middleware::Next;
use axum::response::Response;

use crate::http::auth;
use grundy_store::User;

/// The cookie the language switch sets; the statement language follows it unless the reader
/// picks another on the problem page.
pub const COOKIE: &str = "grundy_lang";

/// A language of the interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Locale {
    #[default]
    En,
    Vi,
}

impl Locale {
    /// Every language offered, in the switch's order.
    pub const ALL: [Locale; 2] = [Locale::En, Locale::Vi];

    /// The BCP 47 tag, as in `lang=""`, the cookie and the database.
    pub fn code(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Vi => "vi",
        }
    }

    /// The language's name in itself, as the switch shows it.
    pub fn name(self) -> &'static str {
        match self {
            Locale::En => "English",
            Locale::Vi => "Tiếng Việt",
        }
    }

    /// A tag as stored or sent: its primary subtag decides (`vi-VN` is Vietnamese).
    pub fn parse(tag: &str) -> Option<Locale> {
        let primary = tag.trim().split(['-', '_']).next()?;
        Locale::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(primary))
    }

    /// The offered language the browser ranks highest (`Accept-Language` with q-values; a
    /// language at `q=0` is refused); ties keep the header's order.
    pub fn from_accept_language(header: &str) -> Option<Locale> {
        let mut best: Option<(f32, Locale)> = None;
        for item in header.split(',') {
            let mut parts = item.split(';');
            let tag = parts.next().unwrap_or_default();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            let Some(locale) = Locale::parse(tag) else {
                continue;
            };
            if q > 0.0 && best.is_none_or(|(top, _)| q > top) {
                best = Some((q, locale));
            }
        }
        best.map(|(_, locale)| locale)
    }

    /// The choice of a request from someone whose preference is not known yet.
    fn of_request(headers: &HeaderMap) -> Locale {
        auth::cookie(headers, COOKIE)
            .and_then(|c| Locale::parse(&c))
            .or_else(|| {
                headers
                    .get(ACCEPT_LANGUAGE)
                    .and_then(|v| v.to_str().ok())
                    .and_then(Locale::from_accept_language)
            })
            .unwrap_or_default()
    }
}

/// What the layer keeps for the request's task.
#[derive(Debug, Clone)]
struct Asked {
    locale: Locale,
    /// The API's `?lang=`: it outranks everything else for this request.
    named: Option<Locale>,
    /// The caller's own preference, once they are known: it outranks the request's choice for
    /// everything answered after (the API's error bodies, error pages).
    preferred: Cell<Option<Locale>>,
    /// The path and query asked for: where the language switch returns to.
    path: String,
}

tokio::task_local! {
    static ASKED: Asked;
}

/// The layer: every request is answered in the language its cookie or header asks for.
pub async fn scope(request: Request, next: Next) -> Response {
    let asked = Asked {
        locale: Locale::of_request(request.headers()),
        named: named_by_query(request.uri()),
        preferred: Cell::new(None),
        path: request
            .uri()
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .to_owned(),
    };
    ASKED.scope(asked, next.run(request)).await
}

/// The language of this request: the caller's preference once they are known and have one,
/// else the cookie's or the browser's (English outside a request).
pub fn current() -> Locale {
    ASKED
        .try_with(|a| a.named.or(a.preferred.get()).unwrap_or(a.locale))
        .unwrap_or_default()
}

/// An API request's `?lang=` (pages use `lang` for a statement's language alone); an unknown
/// tag names nothing.
fn named_by_query(uri: &axum::http::Uri) -> Option<Locale> {
    if !uri.path().starts_with("/api/") {
        return None;
    }
    uri.query()?
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == "lang")
        .and_then(|(_, tag)| Locale::parse(tag))
}

/// Notes who is calling: from now on this request is answered in their preferred language.
pub fn caller_known(user: &User) {
    if let Some(preferred) = preference(user) {
        // Outside a request (a test calling an operation) there is nothing to answer.
        let _ = ASKED.try_with(|a| a.preferred.set(Some(preferred)));
    }
}

fn preference(user: &User) -> Option<Locale> {
    user.locale.as_deref().and_then(Locale::parse)
}

/// The address this request asked for.
pub fn current_path() -> String {
    ASKED
        .try_with(|a| a.path.clone())
        .unwrap_or_else(|_| "/".into())
}

/// The language to answer `user` in: their preference when they set one.
pub fn for_caller(user: Option<&User>) -> Locale {
    let named = ASKED.try_with(|a| a.named).ok().flatten();
    named
        .or_else(|| user.and_then(preference))
        .unwrap_or_else(current)
}

/// The switch's cookie, kept a year.
pub fn cookie(locale: Locale) -> String {
    format!(
        "{COOKIE}={}; Path=/; Max-Age=31536000; SameSite=Lax",
        locale.code()
    )
}

/// Forgets the switch's choice: the browser's language applies again.
pub fn expired_cookie() -> String {
    format!("{COOKIE}=; Path=/; Max-Age=0; SameSite=Lax")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_read_by_their_primary_subtag() {
        assert_eq!(Locale::parse("vi"), Some(Locale::Vi));
        assert_eq!(Locale::parse("vi-VN"), Some(Locale::Vi));
        assert_eq!(Locale::parse("EN-gb"), Some(Locale::En));
        assert_eq!(Locale::parse("fr"), None);
        assert_eq!(Locale::parse(""), None);
    }

    #[test]
    fn accept_language_is_ranked_by_q_values() {
        let best = Locale::from_accept_language;
        assert_eq!(best("vi"), Some(Locale::Vi));
        assert_eq!(best("vi-VN,vi;q=0.9,en;q=0.8"), Some(Locale::Vi));
        assert_eq!(best("en;q=0.5, vi-VN;q=0.9"), Some(Locale::Vi));
        assert_eq!(best("fr-FR, en;q=0.4, vi;q=0.3"), Some(Locale::En));
        assert_eq!(best("vi;q=0, en;q=0.1"), Some(Locale::En));
        assert_eq!(best("de, fr;q=0.8"), None);
        assert_eq!(best("*"), None);
        assert_eq!(
            best("en, vi"),
            Some(Locale::En),
            "ties keep the header's order"
        );
    }
}
