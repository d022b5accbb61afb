//! Checks of settings' values that clap cannot make alone.

/// An HTTP header's name (RFC 9110 token characters), e.g. `Remote-User`.
pub(super) fn header_name(s: &str) -> Result<String, String> {
    let s = s.trim();
    let token = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    if !s.is_empty() && s.bytes().all(token) {
        Ok(s.to_owned())
    } else {
        Err(format!("{s:?} is not a header name like Remote-User"))
    }
}

/// `http(s)://host[:port][/path]`, kept without a trailing slash.
pub(super) fn public_url(s: &str) -> Result<String, String> {
    let s = s.trim().trim_end_matches('/');
    let rest = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"));
    let ok = rest.is_some_and(|r| {
        !r.is_empty()
            && !r.starts_with('/')
            && r.bytes()
                .all(|b| b.is_ascii_graphic() && !matches!(b, b'?' | b'#' | b'\\' | b'@'))
    });
    if ok {
        Ok(s.to_owned())
    } else {
        Err(format!(
            "{s:?} is not an address like https://docs.example.org (http or https, a host, \
             maybe a port and a path; no query)"
        ))
    }
}
