//! A value as a link's query parameter carries it (folders and tags in the
//! list's links): every byte but letters and digits percent-encoded.

pub fn encoded(value: &str) -> String {
    percent_encoding::utf8_percent_encode(value, percent_encoding::NON_ALPHANUMERIC).to_string()
}
