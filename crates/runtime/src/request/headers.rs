//! Header and cookie parameters, and the checks that keep a value from
//! adding a header or naming one the HTTP client sets itself.

use percent_encoding::utf8_percent_encode;
use serde_json::{Map, Value};

use super::super::binding::{BodyBinding, BodyShape, Location, ParamBinding};
use super::super::wire::header::{COOKIE_ENCODE, has_control, has_line_break, is_token};
use super::RequestError;
use super::args::{invalid, param_value};
use super::shape::{Shape, content_text};

/// Header parameters in order, simple style, values not percent-encoded.
pub(super) fn header_params(
    params: &[ParamBinding],
    args: &Map<String, Value>,
) -> Result<Vec<(String, String)>, RequestError> {
    let mut out = Vec::new();
    for p in params.iter().filter(|p| p.location == Location::Header) {
        let Some(value) = param_value(args, p)? else {
            continue;
        };
        if let Some(text) = header_value(p, value) {
            check_token(p)?;
            check_client_header(p)?;
            check_header_text(&p.arg, &text)?;
            out.push((p.name.clone(), text));
        }
    }
    Ok(out)
}

/// `blue`, `blue,black`, `R,100,G,200` / `R=100,G=200`; `None` for an empty
/// array or object.
fn header_value(p: &ParamBinding, value: &Value) -> Option<String> {
    if let Some(media_type) = &p.content_type {
        return Some(content_text(media_type, value));
    }
    let shape = Shape::of(value);
    (!shape.is_empty_composite()).then(|| shape.join(",", p.explode))
}

/// One `Cookie` header joining every cookie parameter with `; `.
pub(super) fn cookie_header(
    params: &[ParamBinding],
    args: &Map<String, Value>,
) -> Result<Option<(String, String)>, RequestError> {
    let mut pieces = Vec::new();
    for p in params.iter().filter(|p| p.location == Location::Cookie) {
        if let Some(value) = param_value(args, p)?
            && let Some(piece) = cookie_piece(p, value)?
        {
            pieces.push(piece);
        }
    }
    Ok((!pieces.is_empty()).then(|| ("Cookie".into(), pieces.join("; "))))
}

/// `name=value`; arrays and objects always as non-exploded form
/// (`name=a,b`), since exploding would repeat the cookie name. Members are
/// percent-encoded outside `cookie-octet`; the `,` delimiter stays literal.
fn cookie_piece(p: &ParamBinding, value: &Value) -> Result<Option<String>, RequestError> {
    check_token(p)?;
    let shape = match &p.content_type {
        Some(media_type) => Shape::Primitive(content_text(media_type, value)),
        None => Shape::of(value),
    };
    if shape.is_empty_composite() {
        return Ok(None);
    }
    check_header_text(&p.arg, &shape.join(",", false))?;
    let encode = |s: &str| utf8_percent_encode(s, COOKIE_ENCODE).to_string();
    let encoded = shape.encoded(encode, encode).join(",", false);
    Ok(Some(format!("{}={encoded}", p.name)))
}

/// Refuses CR, LF and NUL (header injection) and other control characters.
fn check_header_text(arg: &str, text: &str) -> Result<(), RequestError> {
    if has_line_break(text) {
        return Err(invalid(
            arg,
            "it contains a line break (CR/LF) or NUL character, and header injection is \
             refused; send the value on one line without control characters",
        ));
    }
    if has_control(text) {
        return Err(invalid(
            arg,
            "it contains control characters, which an HTTP header cannot carry; remove them",
        ));
    }
    Ok(())
}

/// The `Content-Type` comes from the API description (a media type key,
/// or a multipart base type), so it is checked like any header value: a
/// key such as `"application/json\r\nX-Evil: 1"` must not add a header.
pub(super) fn check_content_type(
    body: &BodyBinding,
    content_type: &str,
) -> Result<(), RequestError> {
    if !has_control(content_type) {
        return Ok(());
    }
    let arg = match &body.shape {
        BodyShape::Whole { arg, .. } => arg.as_str(),
        BodyShape::Properties { .. } => "body",
    };
    Err(invalid(
        arg,
        format!(
            "the API description declares the request body's media type as `{}`, which \
             contains control characters and cannot be sent as a Content-Type header",
            content_type.escape_debug()
        ),
    ))
}

/// Headers the HTTP client writes itself, from the base URL (`Host`) and
/// the body (framing), plus the hop-by-hop ones. A header parameter with
/// one of these names is refused: a `Host` taken from an argument would
/// send the request to another virtual host behind the base URL's address.
pub(crate) const CLIENT_HEADERS: &[&str] = &[
    "host",
    "content-length",
    "transfer-encoding",
    "connection",
    "keep-alive",
    "upgrade",
    "te",
    "trailer",
    "proxy-connection",
];

fn check_client_header(p: &ParamBinding) -> Result<(), RequestError> {
    if !CLIENT_HEADERS.contains(&p.name.to_ascii_lowercase().as_str()) {
        return Ok(());
    }
    Err(invalid(
        &p.arg,
        format!(
            "the API description sends it as header `{}`, which the HTTP client sets itself \
             from the base URL and the body, so it cannot be sent; leave `{}` out",
            p.name, p.arg
        ),
    ))
}

/// The wire name must be an RFC 9110 token.
fn check_token(p: &ParamBinding) -> Result<(), RequestError> {
    if is_token(&p.name) {
        return Ok(());
    }
    Err(invalid(
        &p.arg,
        format!(
            "the API description sends it as {} `{}`, which is not a valid HTTP token, so it \
             cannot be sent",
            p.location.as_str(),
            p.name.escape_debug()
        ),
    ))
}
