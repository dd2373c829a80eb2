//! How one property of a form or multipart request body is written: the
//! Encoding Object (`requestBody.content.<media>.encoding.<property>`) read
//! into the binding's part media type, query-string style and part
//! headers, as the OpenAPI version of the document says.
//!
//! - `application/x-www-form-urlencoded`: `style`, `explode` and
//!   `allowReserved` apply in every version; `headers` SHALL be ignored.
//! - `multipart/form-data`: `contentType` and `headers` apply in every
//!   version; `style`, `explode` and `allowReserved` only in OpenAPI 3.1
//!   (3.0.x: "SHALL be ignored if the request body media type is not
//!   application/x-www-form-urlencoded"; 3.1: they apply to
//!   multipart/form-data too, and then `contentType` is ignored). Any one
//!   of them given makes the property serialize as a `query` parameter
//!   would (3.1.1 §4.8.15), `style` defaulting to `form`.
//! - A file property (`format: binary` and the like) stays a file part
//!   whatever `style` says: a style has no way to write bytes.
//!
//! Part headers need a value nobody asks the model for, so only headers
//! whose schema fixes one (`const`, a one-member `enum`, or `default`) are
//! sent; `Content-Type` is the part's media type (the Encoding Object says
//! to ignore it in `headers`) and `Content-Disposition` carries the part's
//! name, so both are written by the runtime alone. A required header
//! without a fixed value is reported, not sent.

use serde_json::Value;

use openapi2mcp_document::model::{Encoding, MediaType};
use openapi2mcp_document::{Diagnostic, SpecVersion};
use openapi2mcp_model::binding::{FormStyle, MediaKind, PartHeader, Style};
use openapi2mcp_model::wire::header::{is_header_value, is_token};

/// What the Encoding Object of one body property puts in its binding.
#[derive(Debug, Default, PartialEq)]
pub(super) struct PropEncoding {
    /// The part's declared media type (multipart).
    pub(super) content_type: Option<String>,
    /// The query-string style to serialize the property with, if any.
    pub(super) style: Option<FormStyle>,
    /// Headers to send on each part of the property (multipart).
    pub(super) headers: Vec<PartHeader>,
}

/// The encoding of property `name` of a `kind` body described by `media`
/// in a document of `version`; `binary` when the property is a file.
/// Headers that cannot be sent are reported in `warnings`.
pub(super) fn prop_encoding(
    media: &MediaType<'_>,
    name: &str,
    kind: MediaKind,
    version: SpecVersion,
    binary: bool,
    warnings: &mut Vec<Diagnostic>,
) -> PropEncoding {
    let Some(encoding) = media.encoding(name) else {
        return PropEncoding::default();
    };
    let styled = match kind {
        MediaKind::Form => true,
        MediaKind::Multipart => version == SpecVersion::OpenApi31,
        _ => false,
    };
    let style = (styled && !binary && encoding.uses_style()).then(|| form_style(&encoding));
    let headers = match kind {
        MediaKind::Multipart => part_headers(&encoding, name, warnings),
        _ => Vec::new(),
    };
    PropEncoding {
        content_type: encoding.content_type().map(str::to_string),
        style,
        headers,
    }
}

/// The Encoding Object's style: `style` (`form` when absent or not a
/// query style), `explode` (true for `form`, else false, when absent) and
/// `allowReserved` (false when absent), as for query parameters.
fn form_style(encoding: &Encoding<'_>) -> FormStyle {
    let style = match encoding.style() {
        Some("spaceDelimited") => Style::SpaceDelimited,
        Some("pipeDelimited") => Style::PipeDelimited,
        Some("deepObject") => Style::DeepObject,
        _ => Style::Form,
    };
    FormStyle {
        style,
        explode: encoding.explode().unwrap_or(style == Style::Form),
        allow_reserved: encoding.allow_reserved().unwrap_or(false),
    }
}

/// The part headers of `encoding` that can be sent (see the module docs).
fn part_headers(
    encoding: &Encoding<'_>,
    property: &str,
    warnings: &mut Vec<Diagnostic>,
) -> Vec<PartHeader> {
    let mut out: Vec<PartHeader> = Vec::new();
    for header in encoding.headers() {
        let name = header.name;
        let lower = name.to_ascii_lowercase();
        if lower == "content-type" {
            continue; // the Encoding Object says to ignore it here
        }
        if lower == "content-disposition" {
            warnings.push(header.warning(format!(
                "part header `Content-Disposition` of `{property}` is not sent: the part's \
                 disposition names the property and is written by openapi2mcp"
            )));
            continue;
        }
        if !is_token(name) {
            warnings.push(header.warning(format!(
                "part header `{}` of `{property}` is not a valid header name; not sent",
                name.escape_debug()
            )));
            continue;
        }
        let fixed = header.schema().and_then(|s| s.fixed_value().cloned());
        let Some(value) = fixed.as_ref().and_then(header_text) else {
            if header.required() {
                warnings.push(header.warning(format!(
                    "required part header `{name}` of `{property}` has no value its schema fixes \
                     (`const`, a one-member `enum` or `default`); not sent"
                )));
            }
            continue;
        };
        if !is_header_value(&value) {
            warnings.push(header.warning(format!(
                "the value of part header `{name}` of `{property}` cannot be sent in a header \
                 (a line break or another control character); not sent"
            )));
            continue;
        }
        if !out.iter().any(|h| h.name.eq_ignore_ascii_case(name)) {
            out.push(PartHeader {
                name: name.to_string(),
                value,
            });
        }
    }
    out
}

/// A fixed header value as the `simple` style writes it (headers are
/// never percent-encoded): a string as it is, a number or boolean as JSON
/// prints it, an array's members and an object's keys and values joined
/// with `,`. `None` for `null` or nested structures.
fn header_text(value: &Value) -> Option<String> {
    let scalar = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    };
    match value {
        Value::Array(items) => items.iter().map(scalar).collect::<Option<Vec<_>>>(),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| scalar(v).map(|v| format!("{k},{v}")))
            .collect::<Option<Vec<_>>>(),
        other => scalar(other).map(|s| vec![s]),
    }
    .map(|parts| parts.join(","))
}

#[cfg(test)]
#[path = "encoding_tests.rs"]
mod tests;
