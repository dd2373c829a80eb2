//! What an HTTP header or cookie may carry: names are RFC 9110 tokens,
//! values hold no line break or control character, cookie values only
//! RFC 6265 `cookie-octet`s. Checked before anything is sent, since names
//! come from the API description and values from the model or the operator.

use percent_encoding::{AsciiSet, CONTROLS};

/// Bytes outside RFC 6265 `cookie-octet`, plus `%` so decoding is
/// unambiguous: the set a cookie value is percent-encoded with.
pub const COOKIE_ENCODE: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b',')
    .add(b';')
    .add(b'\\')
    .add(b'%');

/// An RFC 9110 `token` (a header name, a cookie name): not empty, every
/// byte a `tchar`.
pub fn is_token(text: &str) -> bool {
    let is_tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    !text.is_empty() && text.bytes().all(is_tchar)
}

/// An RFC 6265 `cookie-octet`.
pub fn is_cookie_octet(b: u8) -> bool {
    matches!(b, 0x21 | 0x23..=0x2B | 0x2D..=0x3A | 0x3C..=0x5B | 0x5D..=0x7E)
}

/// Whether the text holds CR, LF or NUL, which would end a header line
/// (header injection).
pub fn has_line_break(text: &str) -> bool {
    text.contains(['\r', '\n', '\0'])
}

/// Whether the text holds a control character other than tab.
pub fn has_control(text: &str) -> bool {
    text.chars().any(|c| c.is_control() && c != '\t')
}

/// Whether the HTTP client accepts the text as a header value.
pub fn is_header_value(text: &str) -> bool {
    http::HeaderValue::from_str(text).is_ok()
}
