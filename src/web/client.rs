//! Who is on the other end: the client's address, and the scheme and host it used.
//! `X-Forwarded-*` and `Forwarded` are believed only from a peer listed in
//! `QUIRE_TRUSTED_PROXIES`; from anyone else they are the client's own words.

use std::net::{IpAddr, SocketAddr};

use actix_web::HttpRequest;
use actix_web::http::header::{self, HeaderMap};

use crate::cidr::{CidrList, canonical};
use crate::config::Config;

fn peer(req: &HttpRequest) -> Option<IpAddr> {
    req.peer_addr().map(|a| canonical(a.ip()))
}

/// True when the request came through a trusted reverse proxy.
pub fn via_proxy(req: &HttpRequest, config: &Config) -> bool {
    peer(req).is_some_and(|ip| config.trusted_proxies.contains(ip))
}

/// True when the request says it was forwarded (whoever says so).
pub fn claims_forwarded(headers: &HeaderMap) -> bool {
    ["forwarded", "x-forwarded-for", "x-real-ip"]
        .iter()
        .any(|h| headers.contains_key(*h))
}

/// The client's address: the peer, or behind trusted proxies the nearest address
/// in the forwarding chain that is not one of them.
pub fn address(req: &HttpRequest, config: &Config) -> String {
    let Some(peer) = peer(req) else {
        return String::new();
    };
    if !config.trusted_proxies.contains(peer) {
        return peer.to_string();
    }
    let chain = forwarded_for(req.headers());
    nearest_untrusted(&chain, &config.trusted_proxies)
        .unwrap_or(peer)
        .to_string()
}

/// Walks the chain from the right (the hop nearest quire): the first address not
/// a trusted proxy is the client. An entry that is not an address ends the walk.
fn nearest_untrusted(chain: &[Option<IpAddr>], trusted: &CidrList) -> Option<IpAddr> {
    let mut last = None;
    for hop in chain.iter().rev() {
        let ip = (*hop)?;
        if !trusted.contains(ip) {
            return Some(ip);
        }
        last = Some(ip);
    }
    last
}

/// Addresses named by `X-Forwarded-For`, or else by `Forwarded: for=`, in order.
fn forwarded_for(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let xff: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    if !xff.is_empty() {
        return xff.into_iter().map(parse_node).collect();
    }
    forwarded_params(headers, "for")
        .into_iter()
        .map(|v| parse_node(&v))
        .collect()
}

/// Values of one parameter of `Forwarded` (RFC 7239), element by element.
fn forwarded_params(headers: &HeaderMap, name: &str) -> Vec<String> {
    headers
        .get_all(header::FORWARDED)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|element| {
            element.split(';').find_map(|pair| {
                let (k, v) = pair.trim().split_once('=')?;
                k.trim()
                    .eq_ignore_ascii_case(name)
                    .then(|| v.trim().trim_matches('"').to_owned())
            })
        })
        .collect()
}

/// `1.2.3.4`, `1.2.3.4:80`, `2001:db8::1`, `[2001:db8::1]:80`.
fn parse_node(s: &str) -> Option<IpAddr> {
    let s = s.trim();
    s.parse::<IpAddr>()
        .ok()
        .or_else(|| s.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .or_else(|| s.trim_start_matches('[').trim_end_matches(']').parse().ok())
        .map(canonical)
}

/// Whether cookies are marked `Secure`: by the setting, or because the client
/// reached quire (or its trusted proxy) over TLS.
pub fn cookies_secure(req: &HttpRequest, config: &Config) -> bool {
    config.cookie_secure || scheme(req, config) == "https"
}

/// `https` when the client used TLS to reach quire or, through a trusted proxy,
/// to reach the proxy.
pub fn scheme(req: &HttpRequest, config: &Config) -> String {
    if via_proxy(req, config) {
        let said = first_value(req.headers(), "x-forwarded-proto")
            .or_else(|| forwarded_params(req.headers(), "proto").into_iter().next());
        if let Some(s) = said.filter(|s| matches!(s.as_str(), "http" | "https")) {
            return s;
        }
    }
    if req.app_config().secure() {
        "https".into()
    } else {
        "http".into()
    }
}

fn first_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .filter(|v| !v.is_empty())
}

fn plain_host(h: &str) -> bool {
    !h.is_empty()
        && h.len() <= 255
        && h.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
}

/// Where people reach quire, for links that leave the page (public links):
/// `QUIRE_PUBLIC_URL`, else a trusted proxy's forwarded host, else the host the
/// request was sent to.
pub fn public_base(req: &HttpRequest, config: &Config) -> String {
    if let Some(url) = &config.public_url {
        return url.clone();
    }
    let forwarded = via_proxy(req, config)
        .then(|| {
            first_value(req.headers(), "x-forwarded-host")
                .or_else(|| forwarded_params(req.headers(), "host").into_iter().next())
        })
        .flatten();
    let host = forwarded
        .or_else(|| {
            req.headers()
                .get(header::HOST)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        })
        .filter(|h| plain_host(h))
        .unwrap_or_else(|| req.app_config().host().to_owned());
    format!("{}://{host}", scheme(req, config))
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::{HeaderName, HeaderValue};

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(HeaderName::from_static(k), HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn the_client_is_the_nearest_hop_that_is_not_a_trusted_proxy() {
        let trusted: CidrList = "10.0.0.0/8".parse().unwrap();
        let chain = forwarded_for(&headers(&[(
            "x-forwarded-for",
            "6.6.6.6, 203.0.113.7, 10.0.0.2",
        )]));
        assert_eq!(
            nearest_untrusted(&chain, &trusted),
            Some("203.0.113.7".parse().unwrap())
        );
        let chain = forwarded_for(&headers(&[(
            "forwarded",
            "for=192.0.2.60;proto=https, for=\"[2001:db8::1]:4711\"",
        )]));
        assert_eq!(
            nearest_untrusted(&chain, &trusted),
            Some("2001:db8::1".parse().unwrap())
        );
        let chain = forwarded_for(&headers(&[("x-forwarded-for", "junk, 10.0.0.3")]));
        assert_eq!(nearest_untrusted(&chain, &trusted), None);
    }
}
