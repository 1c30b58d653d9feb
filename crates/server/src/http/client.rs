//! Where a request comes from: the client's address, for counting failed logins, and whether it
//! came over HTTPS, for marking cookies `Secure`.
//!
//! The address is the peer's. Behind a reverse proxy every peer is the proxy, so with
//! `trust_proxy` the last `X-Forwarded-For` entry (the one the proxy itself added) is taken
//! instead; without the flag the header is ignored, since anyone can send one to pose as a fresh
//! address for every guess.
//!
//! `X-Forwarded-Proto: https` (or `Forwarded: proto=https`) is believed without the flag: all it
//! can do is add `Secure` to the cookie answering this very request. A client lying about it
//! only gets a cookie its browser will not send back over plain HTTP; a proxy that terminates TLS
//! says so truthfully.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::uri::Scheme;
use axum::http::{HeaderMap, HeaderName};

use crate::state::{AppState, HttpLimits};

const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");
const X_FORWARDED_PROTO: HeaderName = HeaderName::from_static("x-forwarded-proto");
const FORWARDED: HeaderName = HeaderName::from_static("forwarded");

/// The client of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Client {
    /// Unknown only when the server was started without peers' addresses (not by `serve`).
    pub address: Option<IpAddr>,
    pub https: bool,
}

impl Client {
    fn of(parts: &Parts, trust_proxy: bool) -> Client {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(peer)| peer.ip());
        let forwarded = trust_proxy.then(|| forwarded_for(&parts.headers)).flatten();
        Client {
            address: forwarded.or(peer),
            https: parts.uri.scheme() == Some(&Scheme::HTTPS) || forwarded_https(&parts.headers),
        }
    }

    /// Whether cookies set in the answer are marked `Secure`: always when the operator says the
    /// service is reached over HTTPS, else when this request was.
    pub fn secure_cookies(&self, limits: &HttpLimits) -> bool {
        limits.secure_cookies || self.https
    }
}

impl FromRequestParts<AppState> for Client {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Infallible> {
        Ok(Client::of(parts, state.limits.trust_proxy))
    }
}

/// The last address in `X-Forwarded-For`: the one the nearest proxy saw (entries before it
/// are whatever the client claimed).
fn forwarded_for(headers: &HeaderMap) -> Option<IpAddr> {
    let last = headers
        .get_all(X_FORWARDED_FOR)
        .iter()
        .next_back()?
        .to_str()
        .ok()?
        .rsplit(',')
        .next()?
        .trim();
    last.parse::<IpAddr>()
        .ok()
        .or_else(|| last.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

/// Whether the proxy in front says the client reached it over HTTPS (the first entry is the
/// proxy nearest the client).
fn forwarded_https(headers: &HeaderMap) -> bool {
    let first = |name: &HeaderName| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .map(str::trim)
    };
    let proto = first(&X_FORWARDED_PROTO);
    let standard = first(&FORWARDED).and_then(|element| {
        element.split(';').find_map(|pair| {
            let (key, value) = pair.split_once('=')?;
            key.trim()
                .eq_ignore_ascii_case("proto")
                .then(|| value.trim().trim_matches('"'))
        })
    });
    proto
        .into_iter()
        .chain(standard)
        .any(|p| p.eq_ignore_ascii_case("https"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(headers: &[(&str, &str)], peer: Option<&str>) -> Parts {
        let mut request = axum::http::Request::builder().uri("/login");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let (mut parts, ()) = request.body(()).unwrap().into_parts();
        if let Some(peer) = peer {
            parts
                .extensions
                .insert(ConnectInfo(peer.parse::<SocketAddr>().unwrap()));
        }
        parts
    }

    const PEER: &str = "10.0.0.2:51000";

    #[test]
    fn the_peer_unless_a_trusted_proxy_forwards_another() {
        let ip = |s: &str| s.parse::<IpAddr>().ok();
        let plain = parts(&[], Some(PEER));
        assert_eq!(Client::of(&plain, true).address, ip("10.0.0.2"));
        let proxied = parts(&[("x-forwarded-for", "1.1.1.1, 203.0.113.9")], Some(PEER));
        assert_eq!(Client::of(&proxied, false).address, ip("10.0.0.2"));
        assert_eq!(
            Client::of(&proxied, true).address,
            ip("203.0.113.9"),
            "the entry the proxy added, not the one the client claimed"
        );
        let two_lines = parts(
            &[
                ("x-forwarded-for", "1.1.1.1"),
                ("x-forwarded-for", "[2001:db8::1]:4711"),
            ],
            Some(PEER),
        );
        assert_eq!(Client::of(&two_lines, true).address, ip("2001:db8::1"));
        let garbage = parts(&[("x-forwarded-for", "nonsense")], Some(PEER));
        assert_eq!(Client::of(&garbage, true).address, ip("10.0.0.2"));
        assert_eq!(Client::of(&parts(&[], None), true).address, None);
    }

    #[test]
    fn https_as_the_proxy_says() {
        let https = |headers: &[(&str, &str)]| Client::of(&parts(headers, Some(PEER)), false).https;
        assert!(!https(&[]));
        assert!(https(&[("x-forwarded-proto", "https")]));
        assert!(https(&[("x-forwarded-proto", "HTTPS, http")]));
        assert!(!https(&[("x-forwarded-proto", "http")]));
        assert!(https(&[(
            "forwarded",
            "for=192.0.2.1;proto=https;by=10.0.0.1"
        )]));
        assert!(https(&[("forwarded", "proto=\"https\", proto=http")]));
        assert!(!https(&[("forwarded", "for=192.0.2.1;proto=http")]));
        let limits = HttpLimits::default();
        let client = Client {
            address: None,
            https: false,
        };
        assert!(!client.secure_cookies(&limits));
        let operator_says = HttpLimits {
            secure_cookies: true,
            ..HttpLimits::default()
        };
        assert!(client.secure_cookies(&operator_says));
    }
}
