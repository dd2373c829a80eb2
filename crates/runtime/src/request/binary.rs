//! File content from the model: base64 (standard or URL-safe) or a
//! `data:` URI, decoded to bytes and an optional media type.

use base64::Engine as _;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use percent_encoding::percent_decode_str;
use serde_json::Value;

use super::RequestError;
use super::args::invalid;

pub(super) fn not_a_file(arg: &str) -> RequestError {
    invalid(
        arg,
        "expected file content as a string: base64 (standard or URL-safe alphabet) or a data: \
         URI such as data:image/png;base64,iVBORw0KGgo=",
    )
}

/// Decodes a base64 string or a `data:` URI into bytes, with the URI's
/// media type when it has one.
pub(super) fn decode_binary(
    arg: &str,
    value: &Value,
) -> Result<(Vec<u8>, Option<String>), RequestError> {
    let Value::String(text) = value else {
        return Err(not_a_file(arg));
    };
    if let Some(rest) = data_uri_rest(text) {
        return decode_data_uri(arg, rest);
    }
    decode_base64(text)
        .map(|bytes| (bytes, None))
        .ok_or_else(|| {
            invalid(
                arg,
                "it is neither valid base64 (standard or URL-safe alphabet) nor a data: URI; \
             send the file content base64-encoded",
            )
        })
}

/// What follows `data:` (case-insensitive), if `text` is a data URI.
pub(super) fn data_uri_rest(text: &str) -> Option<&str> {
    let scheme = text.get(..5)?;
    scheme.eq_ignore_ascii_case("data:").then(|| &text[5..])
}

/// `<mime>[;params][;base64],<data>` → bytes and mime.
fn decode_data_uri(arg: &str, rest: &str) -> Result<(Vec<u8>, Option<String>), RequestError> {
    let (meta, payload) = rest
        .split_once(',')
        .ok_or_else(|| invalid(arg, "the data: URI has no `,` before its data"))?;
    let (mime, is_base64) = match strip_suffix_ignore_case(meta, ";base64") {
        Some(mime) => (mime, true),
        None => (meta, false),
    };
    let bytes = match is_base64 {
        true => percent_decode_str(payload)
            .decode_utf8()
            .ok()
            .and_then(|text| decode_base64(&text))
            .ok_or_else(|| invalid(arg, "the data: URI's base64 data is not valid base64"))?,
        false => percent_decode_str(payload).collect(),
    };
    Ok((bytes, data_uri_mime(arg, mime)?))
}

fn strip_suffix_ignore_case<'a>(text: &'a str, suffix: &str) -> Option<&'a str> {
    let split = text.len().checked_sub(suffix.len())?;
    let (head, tail) = (text.get(..split)?, text.get(split..)?);
    tail.eq_ignore_ascii_case(suffix).then_some(head)
}

/// The data URI's media type: `None` when empty; must be `type/subtype`
/// in printable ASCII since it becomes a header value.
fn data_uri_mime(arg: &str, mime: &str) -> Result<Option<String>, RequestError> {
    let mime = mime.trim();
    if mime.is_empty() {
        return Ok(None);
    }
    if mime.contains('/') && mime.bytes().all(|b| b.is_ascii_graphic() || b == b' ') {
        return Ok(Some(mime.to_string()));
    }
    Err(invalid(
        arg,
        format!(
            "the data: URI's media type `{}` is not valid; use e.g. data:image/png;base64,…",
            mime.escape_debug()
        ),
    ))
}

/// Standard or URL-safe base64, padding optional, ASCII whitespace ignored.
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let cleaned: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let config = GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true);
    [alphabet::STANDARD, alphabet::URL_SAFE]
        .iter()
        .find_map(|a| GeneralPurpose::new(a, config).decode(&cleaned).ok())
}
