//! `multipart/form-data` bodies (RFC 7578), with a boundary derived from
//! the content so identical calls give identical bytes.
//!
//! Each field becomes parts as the document's Encoding Object says
//! (OpenAPI 3.1.1 §4.8.15 and "Encoding `multipart` Media Types"):
//!
//! - **with a style** (`style`, `explode` or `allowReserved` given, OpenAPI
//!   3.1 only: the tool model leaves it out of 3.0 bindings, whose Encoding
//!   Object ignores them for multipart): the field is serialized as a
//!   `query` parameter would be ([`styled_pairs`], shared with form
//!   bodies), each name/value pair one text part: an exploded array is
//!   one part per member under the field's name, an exploded object one
//!   part per member under the member's name, a non-exploded array or
//!   object one part of members joined by the style's delimiter,
//!   `deepObject` parts named `field[key]`. Nothing is percent-encoded
//!   (so `allowReserved` changes nothing), and `contentType` is ignored.
//! - **otherwise** one part per value, one per member for arrays (RFC 7578
//!   §4.3), with the `contentType` the document gives, else the default
//!   for the value's type: a file `application/octet-stream` (or its
//!   `data:` URI's type), a string, number or boolean `text/plain`, an
//!   object (or a nested array) `application/json`. `text/plain` is RFC
//!   7578's default for a part without `Content-Type` (§4.4), so such a
//!   part is written without one, as browsers write text fields.
//!
//! Every part of a field also carries the headers the Encoding Object's
//! `headers` fixes ([`PartHeader`]), after its `Content-Disposition` and
//! `Content-Type`.

use serde_json::Value;

use super::super::binding::{BodyBinding, PartHeader};
use super::super::wire::header::{is_header_value, is_token};
use super::super::wire::media::is_json;
use super::RequestError;
use super::binary::decode_binary;
use super::body::{Encoded, Field, styled_pairs};
use super::shape::atom;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// One multipart part: its header lines (each ending CRLF) and content.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Part {
    head: String,
    body: Vec<u8>,
}

/// The parts of every field (see the module docs); the boundary is
/// derived from the content.
pub(super) fn multipart_body(
    body: &BodyBinding,
    fields: &[Field<'_>],
) -> Result<Encoded, RequestError> {
    let mut parts = Vec::new();
    for field in fields {
        match (field.style, field.binary) {
            (Some(style), false) => {
                for (name, text) in styled_pairs(field.name, field.value, style) {
                    let disposition = content_disposition(&name, false);
                    parts.push(part(&disposition, None, field.headers, text.as_bytes()));
                }
            }
            _ => {
                for item in field_items(field.value) {
                    parts.push(multipart_part(field, item)?);
                }
            }
        }
    }
    let boundary = choose_boundary(&parts);
    let content_type = format!("{}; boundary={boundary}", multipart_base(&body.media_type));
    Ok(Some((content_type, render_multipart(&parts, &boundary))))
}

/// Array members (without nulls), or the value itself.
fn field_items(value: &Value) -> Vec<&Value> {
    match value {
        Value::Array(items) => items.iter().filter(|v| !v.is_null()).collect(),
        other => vec![other],
    }
}

/// The media type without parameters; a range becomes `multipart/form-data`.
fn multipart_base(media_type: &str) -> String {
    let base = media_type.split(';').next().unwrap_or_default().trim();
    if base.is_empty() || base.contains('*') {
        return "multipart/form-data".into();
    }
    base.to_string()
}

/// A file part, a text part (strings, numbers, booleans) or a JSON part
/// (objects, nested arrays), typed as the document declares or by default.
fn multipart_part(field: &Field<'_>, item: &Value) -> Result<Part, RequestError> {
    if field.binary {
        return file_part(field, item);
    }
    let disposition = content_disposition(field.name, false);
    let declared = declared_type(field.content_type);
    Ok(match item {
        Value::String(s) => part(&disposition, declared, field.headers, s.as_bytes()),
        Value::Number(_) | Value::Bool(_) if !declared.as_deref().is_some_and(is_json) => {
            let text = atom(item).unwrap_or_default();
            part(&disposition, declared, field.headers, text.as_bytes())
        }
        other => {
            let json_type = declared
                .filter(|t| is_json(t))
                .unwrap_or_else(|| "application/json".into());
            let text = crate::exact::json_text(other);
            part(
                &disposition,
                Some(json_type),
                field.headers,
                text.as_bytes(),
            )
        }
    })
}

/// A file part: `filename="<name>"` and the `data:` URI's type, else the
/// document's `encoding.contentType`, else `application/octet-stream`.
fn file_part(field: &Field<'_>, item: &Value) -> Result<Part, RequestError> {
    let (bytes, mime) = decode_binary(field.arg, item)?;
    let content_type = mime
        .or_else(|| declared_type(field.content_type))
        .unwrap_or_else(|| "application/octet-stream".into());
    let disposition = content_disposition(field.name, true);
    Ok(part(
        &disposition,
        Some(content_type),
        field.headers,
        &bytes,
    ))
}

/// The first concrete media type of a comma-separated `contentType` list.
fn declared_type(content_type: Option<&str>) -> Option<String> {
    let first = content_type?.split(',').next()?.trim();
    let clean: String = first.chars().filter(|c| !c.is_control()).collect();
    (!clean.is_empty() && !clean.contains('*')).then_some(clean)
}

/// A part's head: `Content-Disposition`, `Content-Type` when given, then
/// the documented part headers (checked again here, since a binding can
/// come from anywhere: a name that is not a token, a value with a line
/// break, or one of the two headers written above is left out).
fn part(
    disposition: &str,
    content_type: Option<String>,
    headers: &[PartHeader],
    body: &[u8],
) -> Part {
    let mut head = format!("Content-Disposition: {disposition}\r\n");
    if let Some(content_type) = content_type {
        head.push_str(&format!("Content-Type: {content_type}\r\n"));
    }
    for h in headers {
        let ours = ["content-disposition", "content-type"]
            .iter()
            .any(|n| h.name.eq_ignore_ascii_case(n));
        if !ours && is_token(&h.name) && is_header_value(&h.value) {
            head.push_str(&format!("{}: {}\r\n", h.name, h.value));
        }
    }
    Part {
        head,
        body: body.to_vec(),
    }
}

/// `form-data; name="…"` (and `filename="…"` for files), quoted-string
/// escaped with CR and LF removed.
fn content_disposition(name: &str, file: bool) -> String {
    let quoted = quote(name);
    match file {
        true => format!("form-data; name=\"{quoted}\"; filename=\"{quoted}\""),
        false => format!("form-data; name=\"{quoted}\""),
    }
}

fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().filter(|c| !matches!(c, '\r' | '\n')) {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The boundary for these parts: FNV-1a 64 over every part's head and
/// body, rehashed with a counter until it occurs in no part.
fn choose_boundary(parts: &[Part]) -> String {
    let mut content = Vec::new();
    for p in parts {
        content.extend_from_slice(p.head.as_bytes());
        content.extend_from_slice(&p.body);
    }
    pick_boundary(&content, |candidate| {
        parts
            .iter()
            .any(|p| contains(p.head.as_bytes(), candidate) || contains(&p.body, candidate))
    })
}

/// The first candidate (counter 0, 1, …) for which `collides` is false.
pub(super) fn pick_boundary(content: &[u8], collides: impl Fn(&[u8]) -> bool) -> String {
    let mut counter = 0u64;
    loop {
        let candidate = boundary_candidate(content, counter);
        if !collides(candidate.as_bytes()) {
            return candidate;
        }
        counter += 1;
    }
}

/// `openapi2mcp-<16 hex>`: FNV-1a 64 of the content, continued over the
/// counter's little-endian bytes when the counter is not zero.
pub(super) fn boundary_candidate(content: &[u8], counter: u64) -> String {
    let mut hash = fnv1a(FNV_OFFSET, content);
    if counter > 0 {
        hash = fnv1a(hash, &counter.to_le_bytes());
    }
    format!("openapi2mcp-{hash:016x}")
}

fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

pub(super) fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

/// `--boundary CRLF head CRLF body CRLF` per part, then `--boundary-- CRLF`.
fn render_multipart(parts: &[Part], boundary: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for p in parts {
        out.extend_from_slice(format!("--{boundary}\r\n{}\r\n", p.head).as_bytes());
        out.extend_from_slice(&p.body);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    out
}
