//! The query string: `form`, `spaceDelimited`, `pipeDelimited` and
//! `deepObject` styles, with `allowReserved`; or, for OpenAPI 3.2's
//! `in: querystring`, one argument that is the whole query string.

use percent_encoding::{AsciiSet, utf8_percent_encode};
use serde_json::{Map, Value};

use super::super::binding::{BodyBinding, BodyShape, Location, MediaKind, ParamBinding, Style};
use super::RequestError;
use super::STRICT;
use super::args::invalid;
use super::args::param_value;
use super::shape::{Shape, atom, content_text};

/// [`STRICT`] minus the RFC 3986 reserved characters an `allowReserved`
/// query value may carry literally. `&`, `=` and `#` stay encoded because
/// they would split the query or end it; `%` stays encoded so data is never
/// mistaken for an escape.
const QUERY_RESERVED: &AsciiSet = &STRICT
    .remove(b':')
    .remove(b'/')
    .remove(b'?')
    .remove(b'[')
    .remove(b']')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';');

/// The `name=value` pieces of the query string from all query parameters,
/// in order (joined with `&`, they are the query without `?`).
pub(super) fn build_query(
    params: &[ParamBinding],
    args: &Map<String, Value>,
) -> Result<Vec<String>, RequestError> {
    let mut pieces = Vec::new();
    for p in params {
        let Some(value) = param_value(args, p)? else {
            continue;
        };
        match p.location {
            Location::Query => pieces.extend(query_pieces(p, value)),
            Location::Querystring => pieces.extend(querystring(p, value)?),
            _ => {}
        }
    }
    Ok(pieces)
}

/// The whole query string from an `in: querystring` argument, as its
/// media type says: `application/x-www-form-urlencoded` pairs from an
/// object (a member's array repeats its name, as a form body does), else
/// the media type's text (compact JSON, a string as is) percent-encoded
/// as one piece (OpenAPI 3.2's `?%7B%22numbers%22…`). `None` for an
/// empty form.
fn querystring(p: &ParamBinding, value: &Value) -> Result<Option<String>, RequestError> {
    let media_type = p
        .content_type
        .as_deref()
        .unwrap_or("application/x-www-form-urlencoded");
    if MediaKind::of(media_type) != MediaKind::Form {
        return Ok(Some(encode_strict(&content_text(media_type, value))));
    }
    if !value.is_object() {
        return Err(invalid(
            &p.arg,
            "the query string is form pairs: give an object whose members become `name=value` pairs",
        ));
    }
    let form = BodyBinding {
        media_type: media_type.to_string(),
        required: true,
        shape: BodyShape::Whole {
            arg: p.arg.clone(),
            binary: false,
        },
    };
    let args = Map::from_iter([(p.arg.clone(), value.clone())]);
    let text = super::body::build_body(&form, &args)?
        .map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default();
    Ok((!text.is_empty()).then_some(text))
}

/// Names are always strictly encoded; values keep reserved characters only
/// with `allowReserved` (see [`QUERY_RESERVED`]).
fn encode_query_value(text: &str, allow_reserved: bool) -> String {
    let set = if allow_reserved {
        QUERY_RESERVED
    } else {
        STRICT
    };
    utf8_percent_encode(text, set).to_string()
}

fn encode_strict(text: &str) -> String {
    utf8_percent_encode(text, STRICT).to_string()
}

/// `name=value` pieces for one query parameter. Empty arrays and objects
/// are undefined in RFC 6570 and send nothing.
fn query_pieces(p: &ParamBinding, value: &Value) -> Vec<String> {
    let name = encode_strict(&p.name);
    if let Some(media_type) = &p.content_type {
        return vec![format!(
            "{name}={}",
            encode_strict(&content_text(media_type, value))
        )];
    }
    if p.style == Style::DeepObject {
        let mut out = Vec::new();
        deep_object(&name, value, p.allow_reserved, &mut out);
        return out;
    }
    let shape = Shape::of(value);
    if shape.is_empty_composite() {
        return Vec::new();
    }
    let enc = |s: &str| encode_query_value(s, p.allow_reserved);
    if p.explode {
        return exploded_query(&name, &shape, enc);
    }
    let delimiter = match p.style {
        Style::SpaceDelimited => "%20",
        Style::PipeDelimited => "|",
        _ => ",",
    };
    vec![format!(
        "{name}={}",
        shape.encoded(enc, enc).join(delimiter, false)
    )]
}

/// Exploded form (also used for exploded space/pipe-delimited, which the
/// table leaves n/a): `name=v1&name=v2`, objects as `key=value` pairs.
fn exploded_query(name: &str, shape: &Shape, enc: impl Fn(&str) -> String) -> Vec<String> {
    match shape {
        Shape::Primitive(p) => vec![format!("{name}={}", enc(p))],
        Shape::Array(items) => items.iter().map(|v| format!("{name}={}", enc(v))).collect(),
        Shape::Object(entries) => entries
            .iter()
            .map(|(k, v)| format!("{}={}", encode_strict(k), enc(v)))
            .collect(),
    }
}

/// `name[key]=value` with literal brackets, recursing into nested objects
/// (`name[a][b]=v`) and arrays, whose members are indexed (`name[a][0]=v`,
/// `name[a][0][b]=v`: OpenAPI leaves deepObject arrays undefined; the APIs
/// that use them, Stripe first, and the parsers behind them (`qs`, PHP)
/// read indexed brackets); a primitive is `name=value`.
fn deep_object(prefix: &str, value: &Value, allow_reserved: bool, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                let nested = format!("{prefix}[{}]", encode_strict(key));
                deep_object(&nested, member, allow_reserved, out);
            }
        }
        Value::Array(items) => {
            for (i, member) in items.iter().enumerate() {
                deep_object(&format!("{prefix}[{i}]"), member, allow_reserved, out);
            }
        }
        other => {
            if let Some(text) = atom(other) {
                out.push(format!(
                    "{prefix}={}",
                    encode_query_value(&text, allow_reserved)
                ));
            }
        }
    }
}
