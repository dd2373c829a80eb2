//! The request body: one whole argument or top-level properties, as JSON,
//! text, bytes or an `application/x-www-form-urlencoded` form.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Map, Value};

use super::super::binding::{
    BodyBinding, BodyProp, BodyShape, FormStyle, MediaKind, PartHeader, Style,
};
use super::RequestError;
use super::args::{invalid, missing, non_null};
use super::binary::{data_uri_rest, decode_binary, not_a_file};
use super::multipart::multipart_body;
use super::shape::{Shape, atom};
use crate::exact::json_text;

// ---------------------------------------------------------------------------

/// One named value going into a form or multipart body.
pub(super) struct Field<'a> {
    /// Tool argument to name in errors.
    pub(super) arg: &'a str,
    /// Name on the wire.
    pub(super) name: &'a str,
    /// A file (base64 or `data:` URI).
    pub(super) binary: bool,
    /// The document's `encoding.contentType`, if any.
    pub(super) content_type: Option<&'a str>,
    /// The document's `encoding` style, explode and allowReserved, if any
    /// (form bodies, and multipart bodies of OpenAPI 3.1 documents).
    pub(super) style: Option<FormStyle>,
    /// Multipart: headers for each part of the field.
    pub(super) headers: &'a [PartHeader],
    pub(super) value: &'a Value,
}

/// `(Content-Type, bytes)` of a body.
pub(super) type Encoded = Option<(String, Vec<u8>)>;

pub(super) fn build_body(
    body: &BodyBinding,
    args: &Map<String, Value>,
) -> Result<Encoded, RequestError> {
    match &body.shape {
        BodyShape::Whole { arg, binary } => whole_body(body, arg, *binary, args),
        BodyShape::Properties { props } => properties_body(body, props, args),
    }
}

/// The body is one argument.
fn whole_body(
    body: &BodyBinding,
    arg: &str,
    binary: bool,
    args: &Map<String, Value>,
) -> Result<Encoded, RequestError> {
    let Some(value) = non_null(args, arg) else {
        return if body.required {
            Err(missing(arg))
        } else {
            Ok(None)
        };
    };
    if binary {
        let (bytes, mime) = decode_binary(arg, value)?;
        let content_type = concrete_media_type(&body.media_type, mime.as_deref());
        return Ok(Some((content_type, bytes)));
    }
    let content_type = concrete_media_type(&body.media_type, None);
    match (MediaKind::of(&body.media_type), value) {
        (MediaKind::Json, v) => Ok(Some((content_type, json_text(v).into_bytes()))),
        (MediaKind::Form, Value::Object(map)) => form_body(body, &loose_fields(arg, map)),
        (MediaKind::Multipart, Value::Object(map)) => multipart_body(body, &loose_fields(arg, map)),
        (MediaKind::Multipart, _) => Err(invalid(
            arg,
            "a multipart body needs an object whose properties become the form fields",
        )),
        (_, v) => Ok(Some((content_type, text_bytes(v)))),
    }
}

/// Fields from a free-form object argument (no file information).
fn loose_fields<'a>(arg: &'a str, map: &'a Map<String, Value>) -> Vec<Field<'a>> {
    map.iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(name, value)| Field {
            arg,
            name,
            binary: false,
            content_type: None,
            style: None,
            headers: &[],
            value,
        })
        .collect()
}

/// The body's properties are top-level arguments. A required body with no
/// property given is sent empty (`{}` for JSON): which properties are
/// required is the input schema's business, already checked by the caller.
/// An explicit `null` (which the input schema allows only for nullable
/// properties) is sent in a JSON body, where it means "clear this field";
/// forms have no null and leave the field out.
fn properties_body(
    body: &BodyBinding,
    props: &[BodyProp],
    args: &Map<String, Value>,
) -> Result<Encoded, RequestError> {
    let keep_null = !matches!(
        MediaKind::of(&body.media_type),
        MediaKind::Form | MediaKind::Multipart
    );
    let fields = prop_fields(props, args, keep_null);
    if fields.is_empty() && !body.required {
        return Ok(None);
    }
    match MediaKind::of(&body.media_type) {
        MediaKind::Form => form_body(body, &fields),
        MediaKind::Multipart => multipart_body(body, &fields),
        _ => Ok(json_object_body(body, &fields)),
    }
}

/// Properties present in `args`, in prop order; `null`s only when `keep_null`.
fn prop_fields<'a>(
    props: &'a [BodyProp],
    args: &'a Map<String, Value>,
    keep_null: bool,
) -> Vec<Field<'a>> {
    props
        .iter()
        .filter_map(|prop| {
            let value = if keep_null {
                args.get(&prop.arg)
            } else {
                non_null(args, &prop.arg)
            };
            value.map(|value| Field {
                arg: &prop.arg,
                name: &prop.name,
                binary: prop.binary,
                content_type: prop.content_type.as_deref(),
                style: prop.style,
                headers: &prop.headers,
                value,
            })
        })
        .collect()
}

/// A compact JSON object of the fields.
fn json_object_body(body: &BodyBinding, fields: &[Field<'_>]) -> Encoded {
    let object: Map<String, Value> = fields
        .iter()
        .map(|f| (f.name.to_string(), f.value.clone()))
        .collect();
    let content_type = concrete_media_type(&body.media_type, None);
    Some((content_type, json_text(&Value::Object(object)).into_bytes()))
}

/// A string as UTF-8; anything else as its JSON text.
fn text_bytes(value: &Value) -> Vec<u8> {
    match value {
        Value::String(s) => s.as_bytes().to_vec(),
        other => json_text(other).into_bytes(),
    }
}

/// The declared media type, made concrete when it is a range (`*/*`,
/// `image/*`): the `data:` URI's type if known, else `application/json`
/// for a JSON range (`application/*+json`), `text/plain` for `text/*`,
/// else `application/octet-stream`. A range is not a valid `Content-Type`.
fn concrete_media_type(media_type: &str, hint: Option<&str>) -> String {
    if !media_type.contains('*') {
        return media_type.to_string();
    }
    if let Some(hint) = hint {
        return hint.to_string();
    }
    if MediaKind::of(media_type) == MediaKind::Json {
        return "application/json".into();
    }
    match media_type.trim().to_ascii_lowercase().starts_with("text/") {
        true => "text/plain".into(),
        false => "application/octet-stream".into(),
    }
}

// --- application/x-www-form-urlencoded -------------------------------------

/// Bytes a form body sends as they are: ASCII alphanumerics and `*-._`
/// (the WHATWG urlencoded set); everything else is percent-encoded,
/// the space too.
const FORM: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'*')
    .remove(b'-')
    .remove(b'.')
    .remove(b'_');

/// [`FORM`] minus the RFC 3986 reserved characters an `allowReserved`
/// value keeps literally (OpenAPI's Encoding Object: reserved expansion,
/// except the characters the form itself gives a meaning, `&`, `=` and
/// `+`, and those a query may not hold, `#`, `[` and `]`; `%` stays
/// encoded so data is never mistaken for an escape).
const FORM_RESERVED: &AsciiSet = &FORM
    .remove(b':')
    .remove(b'/')
    .remove(b'?')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b',')
    .remove(b';');

/// `key=value&…` with form encoding; arrays repeat the key, unless the
/// document's `encoding` gives the field a style (see [`styled_pairs`]).
///
/// A space is sent as `%20`, not the `+` of HTML forms: every form decoder
/// percent-decodes, but not every one turns `+` into a space (a decoder
/// built on `decodeURIComponent` keeps it, and Prism's reserved-character
/// check rejects it), and `%20` is what the query string sends.
pub(super) fn form_body(body: &BodyBinding, fields: &[Field<'_>]) -> Result<Encoded, RequestError> {
    let mut out = String::new();
    let mut push = |name: &str, value: &str, values: &'static AsciiSet| {
        if !out.is_empty() {
            out.push('&');
        }
        out.extend(utf8_percent_encode(name, FORM));
        out.push('=');
        out.extend(utf8_percent_encode(value, values));
    };
    for field in fields {
        if let (Some(style), false) = (field.style, field.binary) {
            let values = match style.allow_reserved {
                true => FORM_RESERVED,
                false => FORM,
            };
            for (name, text) in styled_pairs(field.name, field.value, style) {
                push(&name, &text, values);
            }
            continue;
        }
        for text in form_values(field)? {
            push(field.name, &text, FORM);
        }
    }
    let content_type = concrete_media_type(&body.media_type, None);
    Ok(Some((content_type, out.into_bytes())))
}

/// The `(name, value)` pairs of a form field serialized with `style`, as
/// the query-string styles do (OpenAPI's Encoding Object: "the same values
/// as query parameters"), before any encoding. A form body then
/// form-encodes names and values alike (so `a,b` goes as `a%2Cb` and
/// `m[k]` as `m%5Bk%5D`, which form parsers decode before they split or
/// nest); a multipart body makes each pair one part, the name in its
/// `Content-Disposition` and the value as its content, encoding nothing
/// (OpenAPI 3.1.1 Appendix C):
///
/// - exploded `form` (and exploded space/pipe-delimited): `name=a&name=b`
///   for an array, `k1=v1&k2=v2` for an object;
/// - not exploded: one pair, members joined with `,` (`form`), ` `
///   (`spaceDelimited`) or `|` (`pipeDelimited`); an object as `k1,v1,k2,v2`;
/// - `deepObject`: `name[k]=v`, nested objects `name[a][b]=v`, array
///   members indexed (`name[0]=v`, `name[0][k]=v`), as Stripe reads them.
///
/// Empty arrays and objects send nothing (RFC 6570 "undefined").
pub(super) fn styled_pairs(name: &str, value: &Value, style: FormStyle) -> Vec<(String, String)> {
    if style.style == Style::DeepObject {
        let mut out = Vec::new();
        deep_pairs(name.to_string(), value, &mut out);
        return out;
    }
    let shape = Shape::of(value);
    if shape.is_empty_composite() {
        return Vec::new();
    }
    if style.explode {
        return match shape {
            Shape::Primitive(p) => vec![(name.to_string(), p)],
            Shape::Array(items) => items.into_iter().map(|v| (name.to_string(), v)).collect(),
            Shape::Object(entries) => entries,
        };
    }
    let delimiter = match style.style {
        Style::SpaceDelimited => " ",
        Style::PipeDelimited => "|",
        _ => ",",
    };
    vec![(name.to_string(), shape.join(delimiter, false))]
}

/// `deepObject` pairs: `prefix[key]` per member and `prefix[i]` per array
/// item, recursively (see `query::deep_object`).
fn deep_pairs(prefix: String, value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                deep_pairs(format!("{prefix}[{key}]"), member, out);
            }
        }
        Value::Array(items) => {
            for (i, member) in items.iter().enumerate() {
                deep_pairs(format!("{prefix}[{i}]"), member, out);
            }
        }
        other => out.extend(atom(other).map(|v| (prefix, v))),
    }
}

/// The texts of one form field: array members one by one, objects as JSON.
fn form_values(field: &Field<'_>) -> Result<Vec<String>, RequestError> {
    let items: Vec<&Value> = match field.value {
        Value::Array(items) => items.iter().filter(|v| !v.is_null()).collect(),
        other => vec![other],
    };
    items
        .into_iter()
        .map(|item| match field.binary {
            true => form_file_text(field.arg, item),
            false => Ok(atom(item).unwrap_or_default()),
        })
        .collect()
}

/// A form body is text, so a file travels as base64: a `data:` URI is
/// decoded and re-encoded as standard base64, plain base64 is sent as given.
fn form_file_text(arg: &str, value: &Value) -> Result<String, RequestError> {
    match value {
        Value::String(s) if data_uri_rest(s).is_some() => {
            Ok(STANDARD.encode(decode_binary(arg, value)?.0))
        }
        Value::String(s) => Ok(s.clone()),
        _ => Err(not_a_file(arg)),
    }
}
