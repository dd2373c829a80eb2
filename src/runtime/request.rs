//! Turns one tool call into a complete HTTP request description.
//!
//! An MCP client calls a tool with one flat JSON object of arguments; the
//! REST backend expects those values spread over the path, query string,
//! headers, cookies and body, each serialized by the OpenAPI `style` /
//! `explode` rules (OpenAPI 3.1 "Style Values" and "Style Examples"). This
//! module does that translation and nothing else: it performs no I/O and
//! knows no HTTP client, so the live server and generated crates share it.
//!
//! Two properties matter beyond correctness:
//!
//! * **Determinism**: identical input gives byte-identical output (the
//!   multipart boundary is a hash of the content, never random), so requests
//!   from two back ends can be compared.
//! * **Defence**: arguments come from a language model and are never trusted.
//!   Every path value is percent-encoded as a single segment, segments that
//!   URL normalisation would resolve (`.`, `..`, empty) are refused, and the
//!   finished URL is re-parsed to prove it kept the base URL's scheme, host,
//!   port and path prefix. Header and cookie values with CR, LF or NUL are
//!   refused rather than sent.
//!
//! Choices where the specification leaves room are documented on the
//! functions that make them.

use std::collections::BTreeMap;

use base64::Engine as _;
use base64::alphabet;
use base64::engine::general_purpose::STANDARD;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use percent_encoding::{
    AsciiSet, CONTROLS, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode,
};
use serde_json::{Map, Value};

use super::binding::{
    BodyBinding, BodyProp, BodyShape, HttpBinding, Location, MediaKind, ParamBinding, Server, Style,
};

/// A complete HTTP request, independent of any HTTP client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreparedRequest {
    /// Upper-case HTTP method, from the binding.
    pub method: String,
    /// Absolute URL: base URL, expanded path and query string.
    pub url: String,
    /// Headers in order: header parameters, then one `Cookie` header joining
    /// all cookie parameters, then `Content-Type` when there is a body.
    pub headers: Vec<(String, String)>,
    /// The encoded body, if one is sent.
    pub body: Option<Vec<u8>>,
    /// The credential values authentication placed on this request (keys,
    /// tokens, header values), so that a redirect to another origin can be
    /// refused when its URL would carry one on. Empty until authenticated.
    pub credentials: Vec<String>,
}

/// Why a tool call could not become an HTTP request. Messages name the
/// argument and say how to fix the call.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum RequestError {
    /// A required argument was absent (or `null`).
    #[error("missing required argument `{arg}`: add `{arg}` to the call and try again")]
    MissingArgument {
        /// The tool argument's name.
        arg: String,
    },
    /// An argument's value cannot be sent as given.
    #[error("invalid argument `{arg}`: {reason}")]
    InvalidArgument {
        /// The tool argument's name.
        arg: String,
        /// What is wrong and how to fix it.
        reason: String,
    },
    /// No usable base URL could be determined.
    #[error("no usable base URL: {0}")]
    BaseUrl(String),
    /// The operation's path template cannot be expanded (a defect of the
    /// API description, not of the call).
    #[error("the path template `{template}` cannot be expanded: {reason}")]
    PathTemplate {
        /// The path template from the binding.
        template: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The finished URL would leave the base URL (host or path prefix).
    #[error(
        "refused to send a request to `{url}`: {reason}; pass plain values for the path arguments"
    )]
    UnsafeUrl {
        /// The URL that was built.
        url: String,
        /// How it differs from the base URL.
        reason: String,
    },
}

/// Everything except RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`).
const STRICT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

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

/// Bytes outside RFC 6265 `cookie-octet`, plus `%` so decoding is unambiguous.
const COOKIE: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b',')
    .add(b';')
    .add(b'\\')
    .add(b'%');

/// Characters of a path template's literal text that a URL parser would
/// otherwise rewrite (so the re-parse check compares like with like).
const TEMPLATE_LITERAL: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'}')
    .add(b'\\');

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

// ---------------------------------------------------------------------------
// Base URL
// ---------------------------------------------------------------------------

/// Chooses the base URL: `explicit` (e.g. a `--base-url` flag) wins; else the
/// first server of `servers`, with `{variables}` substituted from
/// `variables` overrides or their defaults (an override not in the
/// variable's `enum` is an error). A relative server URL (e.g. `/v1`)
/// without an explicit base is an error that says to pass a base URL. The
/// result is an absolute `http`/`https` URL without query or fragment, and
/// its trailing slashes are trimmed.
pub fn base_url(
    servers: &[Server],
    variables: &BTreeMap<String, String>,
    explicit: Option<&str>,
) -> Result<String, RequestError> {
    let candidate = match explicit {
        Some(url) => url.trim().to_string(),
        None => server_url(servers, variables)?,
    };
    parse_base(&candidate, explicit.is_some())?;
    Ok(candidate.trim_end_matches('/').to_string())
}

/// The first server's URL with its variables substituted.
fn server_url(
    servers: &[Server],
    overrides: &BTreeMap<String, String>,
) -> Result<String, RequestError> {
    let server = servers.first().ok_or_else(|| {
        RequestError::BaseUrl(
            "the API description declares no server; pass a base URL (for example \
             --base-url https://api.example.com)"
                .into(),
        )
    })?;
    substitute_variables(server, overrides)
}

/// Replaces every `{name}` of a server URL.
fn substitute_variables(
    server: &Server,
    overrides: &BTreeMap<String, String>,
) -> Result<String, RequestError> {
    let mut out = String::new();
    let mut rest = server.url.as_str();
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or_else(|| {
            RequestError::BaseUrl(format!(
                "the server URL `{}` has a `{{` without a matching `}}`; pass a base URL",
                server.url
            ))
        })?;
        out.push_str(&variable_value(server, &after[..close], overrides)?);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// One server variable's value: the override (checked against `enum`), else
/// the declared default.
fn variable_value(
    server: &Server,
    name: &str,
    overrides: &BTreeMap<String, String>,
) -> Result<String, RequestError> {
    let declared = server.variables.iter().find(|v| v.name == name);
    match (overrides.get(name), declared) {
        (Some(value), Some(var)) if !var.allowed.is_empty() && !var.allowed.contains(value) => {
            Err(RequestError::BaseUrl(format!(
                "server variable `{name}` is set to `{value}`, which is not one of its allowed \
                 values: {}",
                var.allowed.join(", ")
            )))
        }
        (Some(value), _) => Ok(value.clone()),
        (None, Some(var)) => Ok(var.default.clone()),
        (None, None) => Err(RequestError::BaseUrl(format!(
            "the server URL `{}` uses `{{{name}}}` but declares no such variable; set the \
             variable or pass a base URL",
            server.url
        ))),
    }
}

/// Parses a base URL and checks it is absolute `http(s)` with a host and no
/// query or fragment.
fn parse_base(candidate: &str, explicit: bool) -> Result<url::Url, RequestError> {
    let what = if explicit { "base URL" } else { "server URL" };
    let parsed = url::Url::parse(candidate).map_err(|e| match e {
        url::ParseError::RelativeUrlWithoutBase if !explicit => RequestError::BaseUrl(format!(
            "the server URL `{candidate}` is relative; pass an absolute base URL (for example \
             --base-url https://api.example.com{}) to say which host serves the API",
            candidate.trim_end_matches('/')
        )),
        other => RequestError::BaseUrl(format!(
            "the {what} `{candidate}` is not an absolute URL ({other})"
        )),
    })?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err(RequestError::BaseUrl(format!(
            "the {what} `{candidate}` must be an http:// or https:// URL with a host"
        )));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(RequestError::BaseUrl(format!(
            "the {what} `{candidate}` must not contain a query string or fragment"
        )));
    }
    Ok(parsed)
}

// ---------------------------------------------------------------------------
// prepare
// ---------------------------------------------------------------------------

/// Builds the request for one call. `args` are the tool arguments (already
/// validated against the input schema by the caller, but never trusted: a
/// wrong type is a [`RequestError`], never a panic). Arguments not named by
/// any binding are ignored; `null` counts as absent.
pub fn prepare(
    binding: &HttpBinding,
    args: &Map<String, Value>,
    base_url: &str,
) -> Result<PreparedRequest, RequestError> {
    let base = parse_base(base_url, true)?;
    let path = expand_path(binding, args)?;
    let query = build_query(&binding.params, args)?;
    let url = join_url(&base, &path, &query);
    verify_url(&base, &url, &path)?;
    let mut headers = header_params(&binding.params, args)?;
    headers.extend(cookie_header(&binding.params, args)?);
    let body = match &binding.body {
        Some(body) => build_body(body, args)?,
        None => None,
    };
    if let (Some(declared), Some((content_type, _))) = (&binding.body, &body) {
        check_content_type(declared, content_type)?;
    }
    let body = body.map(|(content_type, bytes)| {
        headers.push(("Content-Type".into(), content_type));
        bytes
    });
    Ok(PreparedRequest {
        method: binding.method.to_ascii_uppercase(),
        url,
        headers,
        body,
        credentials: Vec::new(),
    })
}

/// Normalised base (no trailing slash) + path + `?query`.
fn join_url(base: &url::Url, path: &str, query: &str) -> String {
    let mut url = base.as_str().trim_end_matches('/').to_string();
    url.push_str(path);
    if !query.is_empty() {
        url.push('?');
        url.push_str(query);
    }
    url
}

/// Re-parses the finished URL and checks it kept the base URL's scheme,
/// host and port, that its path is exactly base path + expanded path (so no
/// normalisation happened), and that it has no fragment.
fn verify_url(base: &url::Url, url: &str, path: &str) -> Result<(), RequestError> {
    let unsafe_url = |reason: String| RequestError::UnsafeUrl {
        url: url.to_string(),
        reason,
    };
    let parsed =
        url::Url::parse(url).map_err(|e| unsafe_url(format!("it does not parse ({e})")))?;
    if parsed.scheme() != base.scheme()
        || parsed.host_str() != base.host_str()
        || parsed.port_or_known_default() != base.port_or_known_default()
    {
        return Err(unsafe_url(
            "it would change the scheme, host or port".into(),
        ));
    }
    let expected = format!("{}{path}", base.path().trim_end_matches('/'));
    let expected = if expected.is_empty() { "/" } else { &expected };
    if parsed.path() != expected {
        return Err(unsafe_url(format!(
            "URL normalisation would turn the path into `{}`",
            parsed.path()
        )));
    }
    if parsed.fragment().is_some() {
        return Err(unsafe_url("it would carry a fragment".into()));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Argument access and errors
// ---------------------------------------------------------------------------

/// The argument's value, treating `null` as absent.
fn non_null<'a>(args: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    args.get(name).filter(|v| !v.is_null())
}

/// The parameter's value, or `MissingArgument` when it is required.
fn param_value<'a>(
    args: &'a Map<String, Value>,
    p: &ParamBinding,
) -> Result<Option<&'a Value>, RequestError> {
    match non_null(args, &p.arg) {
        Some(value) => Ok(Some(value)),
        None if p.required => Err(missing(&p.arg)),
        None => Ok(None),
    }
}

fn missing(arg: &str) -> RequestError {
    RequestError::MissingArgument { arg: arg.into() }
}

fn invalid(arg: &str, reason: impl Into<String>) -> RequestError {
    RequestError::InvalidArgument {
        arg: arg.into(),
        reason: reason.into(),
    }
}

fn template_error(template: &str, reason: impl Into<String>) -> RequestError {
    RequestError::PathTemplate {
        template: template.into(),
        reason: reason.into(),
    }
}

// ---------------------------------------------------------------------------
// Value shapes shared by the styles
// ---------------------------------------------------------------------------

/// A parameter value reduced to what the styles distinguish: one string, a
/// list of strings, or ordered key/value string pairs.
///
/// Strings are sent without quotes, numbers and booleans as JSON prints them.
/// `null` members are skipped (RFC 6570 "undefined"); members that are
/// themselves arrays or objects are sent as compact JSON text, since no style
/// defines nesting.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shape {
    Primitive(String),
    Array(Vec<String>),
    Object(Vec<(String, String)>),
}

impl Shape {
    /// Reduces a JSON value.
    fn of(value: &Value) -> Shape {
        match value {
            Value::Array(items) => Shape::Array(items.iter().filter_map(atom).collect()),
            Value::Object(map) => Shape::Object(
                map.iter()
                    .filter_map(|(k, v)| atom(v).map(|v| (k.clone(), v)))
                    .collect(),
            ),
            other => Shape::Primitive(atom(other).unwrap_or_default()),
        }
    }

    /// Applies `key` to object keys and `value` to every other string.
    fn encoded(&self, key: impl Fn(&str) -> String, value: impl Fn(&str) -> String) -> Shape {
        match self {
            Shape::Primitive(p) => Shape::Primitive(value(p)),
            Shape::Array(items) => Shape::Array(items.iter().map(|v| value(v)).collect()),
            Shape::Object(entries) => {
                Shape::Object(entries.iter().map(|(k, v)| (key(k), value(v))).collect())
            }
        }
    }

    /// An empty array or object, which RFC 6570 treats as undefined.
    fn is_empty_composite(&self) -> bool {
        match self {
            Shape::Primitive(_) => false,
            Shape::Array(items) => items.is_empty(),
            Shape::Object(entries) => entries.is_empty(),
        }
    }

    /// Joins members with `sep`; objects as `k=v` pairs when exploded, else
    /// as a flat `k,v` list.
    fn join(&self, sep: &str, explode: bool) -> String {
        match self {
            Shape::Primitive(p) => p.clone(),
            Shape::Array(items) => items.join(sep),
            Shape::Object(entries) if explode => entries
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(sep),
            Shape::Object(entries) => entries
                .iter()
                .flat_map(|(k, v)| [k.as_str(), v.as_str()])
                .collect::<Vec<_>>()
                .join(sep),
        }
    }
}

/// A scalar as text; `None` for `null`; nested structures as compact JSON.
fn atom(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(number_text(n)),
        other => Some(other.to_string()),
    }
}

/// A number as parameter text, integral values without a fraction (`1.0`
/// → `1`): JSON Schema counts `1.0` as an integer, so it passes an integer
/// parameter's schema, but an API parsing the parameter as an integer
/// would reject the text `1.0`.
fn number_text(n: &serde_json::Number) -> String {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    match n.as_f64() {
        Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < EXACT => format!("{}", f as i64),
        _ => n.to_string(),
    }
}

/// Whether a media type is JSON (`application/json`, `*/*+json`, `*/json`).
fn is_json_media(media_type: &str) -> bool {
    MediaKind::of(media_type) == MediaKind::Json
}

/// Text of a parameter described by `content`: compact JSON for JSON media
/// types (and for non-string values); a string as is for other media types.
fn content_text(media_type: &str, value: &Value) -> String {
    match value {
        Value::String(s) if !is_json_media(media_type) => s.clone(),
        other => other.to_string(),
    }
}

// ---------------------------------------------------------------------------
// Path
// ---------------------------------------------------------------------------

/// A piece of a path template.
enum Token<'a> {
    Literal(&'a str),
    Slot(&'a str),
}

/// One path segment being built, with the arguments that filled it.
#[derive(Default)]
struct Segment {
    text: String,
    args: Vec<String>,
}

/// Splits a template into literal text and `{slot}`s.
fn tokenize(template: &str) -> Result<Vec<Token<'_>>, RequestError> {
    let mut tokens = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            tokens.push(Token::Literal(&rest[..open]));
        }
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| template_error(template, "it has a `{` without a matching `}`"))?;
        if close == 0 {
            return Err(template_error(template, "it has an empty `{}` slot"));
        }
        tokens.push(Token::Slot(&after[..close]));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        tokens.push(Token::Literal(rest));
    }
    Ok(tokens)
}

/// Expands the path template; the result starts with `/` unless empty.
fn expand_path(binding: &HttpBinding, args: &Map<String, Value>) -> Result<String, RequestError> {
    let mut path = String::new();
    if !binding.path.is_empty() && !binding.path.starts_with('/') {
        path.push('/');
    }
    let mut segment = Segment::default();
    for token in tokenize(&binding.path)? {
        match token {
            Token::Literal(text) => push_literal(&mut path, &mut segment, text)?,
            Token::Slot(slot) => push_slot(binding, args, slot, &mut segment)?,
        }
    }
    close_segment(&mut path, &mut segment)?;
    Ok(path)
}

/// Adds template text, closing a segment at every `/`.
fn push_literal(path: &mut String, segment: &mut Segment, text: &str) -> Result<(), RequestError> {
    for (i, piece) in text.split('/').enumerate() {
        if i > 0 {
            close_segment(path, segment)?;
            path.push('/');
        }
        segment
            .text
            .push_str(&utf8_percent_encode(piece, TEMPLATE_LITERAL).to_string());
    }
    Ok(())
}

/// Adds the expansion of one `{slot}`.
fn push_slot(
    binding: &HttpBinding,
    args: &Map<String, Value>,
    slot: &str,
    segment: &mut Segment,
) -> Result<(), RequestError> {
    let param = binding
        .params
        .iter()
        .find(|p| p.location == Location::Path && p.name == slot)
        .ok_or_else(|| {
            template_error(
                &binding.path,
                format!("no path parameter is bound to `{{{slot}}}`"),
            )
        })?;
    let value = non_null(args, &param.arg).ok_or_else(|| missing(&param.arg))?;
    segment.text.push_str(&expand_path_value(param, value));
    segment.args.push(param.arg.clone());
    Ok(())
}

/// Appends a finished segment, refusing one that arguments made empty or
/// made a dot segment: URL parsers (WHATWG, the `url` crate, so every
/// client built on it) resolve `.`, `..`, `%2E` and `%2E%2E` segments, so
/// percent-encoding alone cannot keep them in the path.
fn close_segment(path: &mut String, segment: &mut Segment) -> Result<(), RequestError> {
    let seg = std::mem::take(segment);
    if let Some(arg) = seg.args.first() {
        if seg.text.is_empty() {
            return Err(invalid(
                arg,
                "it expands to an empty path segment, which would address a different \
                 endpoint; pass a non-empty value",
            ));
        }
        if is_dot_segment(&seg.text) {
            return Err(invalid(
                arg,
                "`.` and `..` cannot be sent as a path segment because URL normalisation would \
                 resolve them to another path; pass the real identifier",
            ));
        }
    }
    path.push_str(&seg.text);
    Ok(())
}

/// `.`/`..` in any spelling a WHATWG URL parser resolves.
fn is_dot_segment(segment: &str) -> bool {
    matches!(
        segment.to_ascii_lowercase().as_str(),
        "." | "%2e" | ".." | ".%2e" | "%2e." | "%2e%2e"
    )
}

/// Percent-encodes one value as (part of) a single path segment: everything
/// but unreserved characters, and a value that is exactly `.` or `..` as
/// `%2E`/`%2E%2E`.
fn encode_path_atom(text: &str) -> String {
    if text == "." || text == ".." {
        return text.replace('.', "%2E");
    }
    utf8_percent_encode(text, STRICT).to_string()
}

/// One path parameter's expansion (simple, label or matrix).
fn expand_path_value(p: &ParamBinding, value: &Value) -> String {
    if let Some(media_type) = &p.content_type {
        return encode_path_atom(&content_text(media_type, value));
    }
    let shape = Shape::of(value).encoded(encode_path_atom, encode_path_atom);
    match p.style {
        Style::Label => label(&shape, p.explode),
        Style::Matrix => matrix(&encode_path_atom(&p.name), &shape, p.explode),
        _ => shape.join(",", p.explode),
    }
}

/// `.blue`, `.blue,black,brown` / `.blue.black.brown`, `.R,100` / `.R=100`.
fn label(shape: &Shape, explode: bool) -> String {
    let sep = if explode { "." } else { "," };
    format!(".{}", shape.join(sep, explode))
}

/// `;color=blue`, `;color=blue,black` / `;color=blue;color=black`,
/// `;color=R,100` / `;R=100`. An empty value gives `;name` (RFC 6570).
fn matrix(name: &str, shape: &Shape, explode: bool) -> String {
    let pairs: Vec<(String, String)> = match (shape, explode) {
        (Shape::Array(items), true) => items.iter().map(|v| (name.into(), v.clone())).collect(),
        (Shape::Object(entries), true) => entries.clone(),
        (other, _) => vec![(name.into(), other.join(",", false))],
    };
    if pairs.is_empty() {
        return format!(";{name}");
    }
    pairs
        .iter()
        .map(|(k, v)| match v.is_empty() {
            true => format!(";{k}"),
            false => format!(";{k}={v}"),
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Query
// ---------------------------------------------------------------------------

/// The query string (without `?`) from all query parameters, in order.
fn build_query(params: &[ParamBinding], args: &Map<String, Value>) -> Result<String, RequestError> {
    let mut pieces = Vec::new();
    for p in params.iter().filter(|p| p.location == Location::Query) {
        if let Some(value) = param_value(args, p)? {
            pieces.extend(query_pieces(p, value));
        }
    }
    Ok(pieces.join("&"))
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
/// (`name[a][b]=v`); arrays repeat the key; a primitive is `name=value`.
fn deep_object(prefix: &str, value: &Value, allow_reserved: bool, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                let nested = format!("{prefix}[{}]", encode_strict(key));
                deep_object(&nested, member, allow_reserved, out);
            }
        }
        Value::Array(items) => {
            for text in items.iter().filter_map(atom) {
                out.push(format!(
                    "{prefix}={}",
                    encode_query_value(&text, allow_reserved)
                ));
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

// ---------------------------------------------------------------------------
// Headers and cookies
// ---------------------------------------------------------------------------

/// Header parameters in order, simple style, values not percent-encoded.
fn header_params(
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
fn cookie_header(
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
    let encode = |s: &str| utf8_percent_encode(s, COOKIE).to_string();
    let encoded = shape.encoded(encode, encode).join(",", false);
    Ok(Some(format!("{}={encoded}", p.name)))
}

/// Refuses CR, LF and NUL (header injection) and other control characters.
fn check_header_text(arg: &str, text: &str) -> Result<(), RequestError> {
    if text.contains(['\r', '\n', '\0']) {
        return Err(invalid(
            arg,
            "it contains a line break (CR/LF) or NUL character, and header injection is \
             refused; send the value on one line without control characters",
        ));
    }
    if text.chars().any(|c| c.is_control() && c != '\t') {
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
fn check_content_type(body: &BodyBinding, content_type: &str) -> Result<(), RequestError> {
    if !content_type.chars().any(|c| c.is_control() && c != '\t') {
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
const CLIENT_HEADERS: &[&str] = &[
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
    let is_tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    if !p.name.is_empty() && p.name.bytes().all(is_tchar) {
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

// ---------------------------------------------------------------------------
// Body
// ---------------------------------------------------------------------------

/// One named value going into a form or multipart body.
struct Field<'a> {
    /// Tool argument to name in errors.
    arg: &'a str,
    /// Name on the wire.
    name: &'a str,
    /// A file (base64 or `data:` URI).
    binary: bool,
    /// The document's `encoding.contentType`, if any.
    content_type: Option<&'a str>,
    value: &'a Value,
}

/// `(Content-Type, bytes)` of a body.
type Encoded = Option<(String, Vec<u8>)>;

fn build_body(body: &BodyBinding, args: &Map<String, Value>) -> Result<Encoded, RequestError> {
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
        (MediaKind::Json, v) => Ok(Some((content_type, v.to_string().into_bytes()))),
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
    Some((content_type, Value::Object(object).to_string().into_bytes()))
}

/// A string as UTF-8; anything else as its JSON text.
fn text_bytes(value: &Value) -> Vec<u8> {
    match value {
        Value::String(s) => s.as_bytes().to_vec(),
        other => other.to_string().into_bytes(),
    }
}

/// The declared media type, made concrete when it is a range (`*/*`,
/// `image/*`): the `data:` URI's type if known, else `text/plain` for
/// `text/*`, else `application/octet-stream`. A range is not a valid
/// `Content-Type`.
fn concrete_media_type(media_type: &str, hint: Option<&str>) -> String {
    if !media_type.contains('*') {
        return media_type.to_string();
    }
    if let Some(hint) = hint {
        return hint.to_string();
    }
    match media_type.trim().to_ascii_lowercase().starts_with("text/") {
        true => "text/plain".into(),
        false => "application/octet-stream".into(),
    }
}

// --- application/x-www-form-urlencoded -------------------------------------

/// `key=value&…` with form encoding (spaces as `+`); arrays repeat the key.
fn form_body(body: &BodyBinding, fields: &[Field<'_>]) -> Result<Encoded, RequestError> {
    let mut serializer = url::form_urlencoded::Serializer::new(String::new());
    for field in fields {
        for text in form_values(field)? {
            serializer.append_pair(field.name, &text);
        }
    }
    let content_type = concrete_media_type(&body.media_type, None);
    Ok(Some((content_type, serializer.finish().into_bytes())))
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

// --- multipart/form-data ---------------------------------------------------

/// One multipart part: its header lines (each ending CRLF) and content.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Part {
    head: String,
    body: Vec<u8>,
}

/// One part per field, one per member for arrays (RFC 7578 §4.3 and the
/// OpenAPI multipart rules); the boundary is derived from the content.
fn multipart_body(body: &BodyBinding, fields: &[Field<'_>]) -> Result<Encoded, RequestError> {
    let mut parts = Vec::new();
    for field in fields {
        for item in field_items(field.value) {
            parts.push(multipart_part(field, item)?);
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

/// A file part, a text part (strings) or a JSON part (other values).
fn multipart_part(field: &Field<'_>, item: &Value) -> Result<Part, RequestError> {
    if field.binary {
        return file_part(field, item);
    }
    let disposition = content_disposition(field.name, false);
    Ok(match item {
        Value::String(s) => part(
            &disposition,
            declared_type(field.content_type),
            s.as_bytes(),
        ),
        other => {
            let json_type = declared_type(field.content_type)
                .filter(|t| is_json_media(t))
                .unwrap_or_else(|| "application/json".into());
            part(&disposition, Some(json_type), other.to_string().as_bytes())
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
    Ok(part(&disposition, Some(content_type), &bytes))
}

/// The first concrete media type of a comma-separated `contentType` list.
fn declared_type(content_type: Option<&str>) -> Option<String> {
    let first = content_type?.split(',').next()?.trim();
    let clean: String = first.chars().filter(|c| !c.is_control()).collect();
    (!clean.is_empty() && !clean.contains('*')).then_some(clean)
}

fn part(disposition: &str, content_type: Option<String>, body: &[u8]) -> Part {
    let mut head = format!("Content-Disposition: {disposition}\r\n");
    if let Some(content_type) = content_type {
        head.push_str(&format!("Content-Type: {content_type}\r\n"));
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
fn pick_boundary(content: &[u8], collides: impl Fn(&[u8]) -> bool) -> String {
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
fn boundary_candidate(content: &[u8], counter: u64) -> String {
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

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
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

// --- binary data -------------------------------------------------------------

fn not_a_file(arg: &str) -> RequestError {
    invalid(
        arg,
        "expected file content as a string: base64 (standard or URL-safe alphabet) or a data: \
         URI such as data:image/png;base64,iVBORw0KGgo=",
    )
}

/// Decodes a base64 string or a `data:` URI into bytes, with the URI's
/// media type when it has one.
fn decode_binary(arg: &str, value: &Value) -> Result<(Vec<u8>, Option<String>), RequestError> {
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
fn data_uri_rest(text: &str) -> Option<&str> {
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

#[cfg(test)]
mod tests {
    use super::super::binding::ServerVariable;
    use super::*;
    use serde_json::json;

    #[test]
    fn integral_floats_are_sent_as_integers() {
        let text = |v: Value| atom(&v).unwrap();
        assert_eq!(text(json!(1.0)), "1");
        assert_eq!(text(json!(-0.0)), "0");
        assert_eq!(text(json!(2.5)), "2.5");
        assert_eq!(text(json!(7)), "7");
        assert_eq!(text(json!(1e300)), "1e+300");
        assert_eq!(text(json!(u64::MAX)), u64::MAX.to_string());
    }

    const BASE: &str = "https://api.example.com/v1";

    fn param(name: &str, location: Location, style: Style, explode: bool) -> ParamBinding {
        ParamBinding {
            arg: name.into(),
            name: name.into(),
            location,
            style,
            explode,
            required: false,
            allow_reserved: false,
            content_type: None,
        }
    }

    fn required(mut p: ParamBinding) -> ParamBinding {
        p.required = true;
        p
    }

    fn op(path: &str, params: Vec<ParamBinding>) -> HttpBinding {
        HttpBinding {
            method: "get".into(),
            path: path.into(),
            params,
            body: None,
            servers: Vec::new(),
            security: Vec::new(),
            output: None,
        }
    }

    fn with_body(media_type: &str, required: bool, shape: BodyShape) -> HttpBinding {
        let mut binding = op("/items", Vec::new());
        binding.method = "post".into();
        binding.body = Some(BodyBinding {
            media_type: media_type.into(),
            required,
            shape,
        });
        binding
    }

    fn prop(name: &str, binary: bool, content_type: Option<&str>) -> BodyProp {
        BodyProp {
            arg: name.into(),
            name: name.into(),
            binary,
            content_type: content_type.map(str::to_string),
        }
    }

    fn args(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    fn run(binding: &HttpBinding, value: Value) -> Result<PreparedRequest, RequestError> {
        prepare(binding, &args(value), BASE)
    }

    fn url_of(binding: &HttpBinding, value: Value) -> String {
        match run(binding, value) {
            Ok(request) => request.url,
            Err(e) => panic!("unexpected error: {e}"),
        }
    }

    fn ok(binding: &HttpBinding, value: Value) -> PreparedRequest {
        match run(binding, value) {
            Ok(request) => request,
            Err(e) => panic!("unexpected error: {e}"),
        }
    }

    fn err(binding: &HttpBinding, value: Value) -> RequestError {
        match run(binding, value) {
            Ok(request) => panic!("expected an error, got {request:?}"),
            Err(e) => e,
        }
    }

    fn colors() -> [Value; 3] {
        [
            json!("blue"),
            json!(["blue", "black", "brown"]),
            json!({"R": 100, "G": 200, "B": 150}),
        ]
    }

    /// Checks the spec's `color` examples for one path style and explode.
    fn assert_path_style(style: Style, explode: bool, expected: [&str; 3]) {
        let binding = op(
            "/colors/{color}",
            vec![required(param("color", Location::Path, style, explode))],
        );
        for (value, want) in colors().into_iter().zip(expected) {
            let got = url_of(&binding, json!({ "color": value }));
            assert_eq!(
                got,
                format!("{BASE}/colors/{want}"),
                "{style:?} explode={explode}"
            );
        }
    }

    /// Checks the spec's `color` examples for one query style and explode.
    fn assert_query_style(style: Style, explode: bool, expected: [&str; 3]) {
        let binding = op("/c", vec![param("color", Location::Query, style, explode)]);
        for (value, want) in colors().into_iter().zip(expected) {
            let got = url_of(&binding, json!({ "color": value }));
            assert_eq!(
                got,
                format!("{BASE}/c?{want}"),
                "{style:?} explode={explode}"
            );
        }
    }

    fn header(request: &PreparedRequest, name: &str) -> Option<String> {
        request
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    }

    fn assert_invalid(error: &RequestError, arg: &str, needle: &str) {
        match error {
            RequestError::InvalidArgument { arg: a, reason } => {
                assert_eq!(a, arg);
                assert!(reason.contains(needle), "{reason}");
                assert!(error.to_string().contains(arg));
            }
            other => panic!("expected InvalidArgument, got {other:?}"),
        }
    }

    // --- path styles (OpenAPI 3.1 style examples) ---------------------------

    #[test]
    fn path_simple() {
        assert_path_style(
            Style::Simple,
            false,
            ["blue", "blue,black,brown", "R,100,G,200,B,150"],
        );
        assert_path_style(
            Style::Simple,
            true,
            ["blue", "blue,black,brown", "R=100,G=200,B=150"],
        );
    }

    #[test]
    fn path_label() {
        assert_path_style(
            Style::Label,
            false,
            [".blue", ".blue,black,brown", ".R,100,G,200,B,150"],
        );
        assert_path_style(
            Style::Label,
            true,
            [".blue", ".blue.black.brown", ".R=100.G=200.B=150"],
        );
    }

    #[test]
    fn path_matrix() {
        assert_path_style(
            Style::Matrix,
            false,
            [
                ";color=blue",
                ";color=blue,black,brown",
                ";color=R,100,G,200,B,150",
            ],
        );
        assert_path_style(
            Style::Matrix,
            true,
            [
                ";color=blue",
                ";color=blue;color=black;color=brown",
                ";R=100;G=200;B=150",
            ],
        );
    }

    #[test]
    fn path_scalars_and_several_slots() {
        let binding = op(
            "/files/{name}.{ext}/{n}/{flag}",
            vec![
                required(param("name", Location::Path, Style::Simple, false)),
                required(param("ext", Location::Path, Style::Simple, false)),
                required(param("n", Location::Path, Style::Simple, false)),
                required(param("flag", Location::Path, Style::Simple, false)),
            ],
        );
        let got = url_of(
            &binding,
            json!({"name": "report 1", "ext": "pdf", "n": 2.5, "flag": true}),
        );
        assert_eq!(got, format!("{BASE}/files/report%201.pdf/2.5/true"));
    }

    #[test]
    fn path_members_are_encoded_but_delimiters_are_not() {
        let binding = op(
            "/c/{c}",
            vec![required(param("c", Location::Path, Style::Simple, false))],
        );
        let got = url_of(&binding, json!({"c": ["a,b", "c d", "é"]}));
        assert_eq!(got, format!("{BASE}/c/a%2Cb,c%20d,%C3%A9"));
    }

    #[test]
    fn path_wire_name_differs_from_argument() {
        let mut p = required(param("pet-id", Location::Path, Style::Simple, false));
        p.arg = "pet_id".into();
        let binding = op("/pets/{pet-id}", vec![p]);
        assert_eq!(
            url_of(&binding, json!({"pet_id": 7})),
            format!("{BASE}/pets/7")
        );
    }

    #[test]
    fn path_content_param_is_json_text() {
        let mut p = required(param("filter", Location::Path, Style::Simple, false));
        p.content_type = Some("application/json".into());
        let binding = op("/f/{filter}", vec![p]);
        let got = url_of(&binding, json!({"filter": {"a": [1, "x/y"]}}));
        assert_eq!(
            got,
            format!("{BASE}/f/%7B%22a%22%3A%5B1%2C%22x%2Fy%22%5D%7D")
        );
    }

    // --- path injection ------------------------------------------------------

    fn pet_binding() -> HttpBinding {
        op(
            "/pets/{id}/photos",
            vec![required(param("id", Location::Path, Style::Simple, false))],
        )
    }

    fn assert_stays_in_base(url: &str) {
        let parsed = url::Url::parse(url).map_err(|e| e.to_string());
        let parsed = match parsed {
            Ok(u) => u,
            Err(e) => panic!("{url}: {e}"),
        };
        assert_eq!(parsed.host_str(), Some("api.example.com"));
        assert!(parsed.path().starts_with("/v1/pets/"), "{}", parsed.path());
        assert!(parsed.path().ends_with("/photos"), "{}", parsed.path());
        assert_eq!(parsed.query(), None);
        assert_eq!(parsed.fragment(), None);
    }

    #[test]
    fn path_injection_is_encoded() {
        let cases = [
            ("../../admin", "..%2F..%2Fadmin"),
            ("a/b?x=1", "a%2Fb%3Fx%3D1"),
            ("%2e%2e", "%252e%252e"),
            ("http://evil.com", "http%3A%2F%2Fevil.com"),
            ("@evil.com", "%40evil.com"),
            ("x#frag", "x%23frag"),
            ("a\\b", "a%5Cb"),
            ("//evil.com", "%2F%2Fevil.com"),
        ];
        for (value, encoded) in cases {
            let url = url_of(&pet_binding(), json!({ "id": value }));
            assert_eq!(url, format!("{BASE}/pets/{encoded}/photos"), "{value}");
            assert_stays_in_base(&url);
        }
    }

    #[test]
    fn dot_segments_are_refused() {
        for value in [".", ".."] {
            let e = err(&pet_binding(), json!({ "id": value }));
            assert_invalid(&e, "id", "`.` and `..`");
        }
        let binding = op(
            "/files/{name}.{ext}",
            vec![
                required(param("name", Location::Path, Style::Simple, false)),
                required(param("ext", Location::Path, Style::Simple, false)),
            ],
        );
        // `%2E.` is a double-dot segment to URL parsers.
        let e = err(&binding, json!({"name": ".", "ext": ""}));
        assert_invalid(&e, "name", "`.` and `..`");
        // Inside a larger segment the encoded dots are harmless.
        let url = url_of(&binding, json!({"name": "..", "ext": "txt"}));
        assert_eq!(url, format!("{BASE}/files/%2E%2E.txt"));
    }

    #[test]
    fn dots_inside_label_values_are_encoded() {
        let binding = op(
            "/c/{c}",
            vec![required(param("c", Location::Path, Style::Label, true))],
        );
        assert_eq!(
            url_of(&binding, json!({"c": ["..", "."]})),
            format!("{BASE}/c/.%2E%2E.%2E")
        );
    }

    #[test]
    fn empty_path_segment_is_refused() {
        let e = err(&pet_binding(), json!({"id": ""}));
        assert_invalid(&e, "id", "empty path segment");
    }

    #[test]
    fn unbound_slot_and_bad_template_are_errors() {
        let binding = op("/pets/{petId}", Vec::new());
        assert!(matches!(
            err(&binding, json!({})),
            RequestError::PathTemplate { .. }
        ));
        let binding = op("/pets/{petId", Vec::new());
        assert!(matches!(
            err(&binding, json!({})),
            RequestError::PathTemplate { .. }
        ));
    }

    #[test]
    fn missing_path_argument_is_named() {
        let e = err(&pet_binding(), json!({"other": 1}));
        assert_eq!(e, RequestError::MissingArgument { arg: "id".into() });
        assert!(e.to_string().contains("`id`"));
    }

    #[test]
    fn base_path_and_host_survive_template_without_slash() {
        let binding = op("pets", Vec::new());
        assert_eq!(url_of(&binding, json!({})), format!("{BASE}/pets"));
        let request = prepare(
            &op("/x", Vec::new()),
            &Map::new(),
            "https://api.example.com/",
        );
        assert_eq!(
            request.map(|r| r.url),
            Ok("https://api.example.com/x".to_string())
        );
    }

    #[test]
    fn verify_url_rejects_a_changed_host_or_path() {
        let base = url::Url::parse(BASE).map_err(|e| e.to_string());
        let Ok(base) = base else { panic!("base") };
        let bad_host = verify_url(&base, "https://evil.com/v1/x", "/x");
        assert!(matches!(bad_host, Err(RequestError::UnsafeUrl { .. })));
        let climbed = verify_url(
            &base,
            "https://api.example.com/v1/a/%2E%2E/x",
            "/a/%2E%2E/x",
        );
        assert!(matches!(climbed, Err(RequestError::UnsafeUrl { .. })));
        assert_eq!(
            verify_url(&base, "https://api.example.com/v1/a?q=1", "/a"),
            Ok(())
        );
    }

    // --- query styles --------------------------------------------------------

    #[test]
    fn query_form() {
        assert_query_style(
            Style::Form,
            true,
            [
                "color=blue",
                "color=blue&color=black&color=brown",
                "R=100&G=200&B=150",
            ],
        );
        assert_query_style(
            Style::Form,
            false,
            [
                "color=blue",
                "color=blue,black,brown",
                "color=R,100,G,200,B,150",
            ],
        );
    }

    #[test]
    fn query_space_delimited() {
        let binding = op(
            "/c",
            vec![param(
                "color",
                Location::Query,
                Style::SpaceDelimited,
                false,
            )],
        );
        let [_, array, object] = colors();
        assert_eq!(
            url_of(&binding, json!({"color": array})),
            format!("{BASE}/c?color=blue%20black%20brown")
        );
        assert_eq!(
            url_of(&binding, json!({"color": object})),
            format!("{BASE}/c?color=R%20100%20G%20200%20B%20150")
        );
    }

    #[test]
    fn query_pipe_delimited() {
        let binding = op(
            "/c",
            vec![param("color", Location::Query, Style::PipeDelimited, false)],
        );
        let [_, array, object] = colors();
        assert_eq!(
            url_of(&binding, json!({"color": array})),
            format!("{BASE}/c?color=blue|black|brown")
        );
        assert_eq!(
            url_of(&binding, json!({"color": object})),
            format!("{BASE}/c?color=R|100|G|200|B|150")
        );
    }

    #[test]
    fn query_delimited_exploded_falls_back_to_form() {
        let binding = op(
            "/c",
            vec![param("color", Location::Query, Style::PipeDelimited, true)],
        );
        assert_eq!(
            url_of(&binding, json!({"color": ["a", "b"]})),
            format!("{BASE}/c?color=a&color=b")
        );
    }

    #[test]
    fn query_deep_object() {
        let binding = op(
            "/c",
            vec![param("color", Location::Query, Style::DeepObject, true)],
        );
        let [_, _, object] = colors();
        assert_eq!(
            url_of(&binding, json!({"color": object})),
            format!("{BASE}/c?color[R]=100&color[G]=200&color[B]=150")
        );
        let nested = json!({"color": {"range": {"gte": 1}, "tags": ["a b", "c"], "k&": null}});
        assert_eq!(
            url_of(&binding, nested),
            format!("{BASE}/c?color[range][gte]=1&color[tags]=a%20b&color[tags]=c")
        );
    }

    #[test]
    fn query_values_are_encoded() {
        let binding = op(
            "/s",
            vec![
                param("q", Location::Query, Style::Form, true),
                param("a b", Location::Query, Style::Form, true),
            ],
        );
        let got = url_of(&binding, json!({"q": "a b&c=d+e#f%g/h?", "a b": true}));
        assert_eq!(
            got,
            format!("{BASE}/s?q=a%20b%26c%3Dd%2Be%23f%25g%2Fh%3F&a%20b=true")
        );
    }

    #[test]
    fn query_allow_reserved_keeps_reserved_except_separators() {
        let mut p = param("path", Location::Query, Style::Form, true);
        p.allow_reserved = true;
        let binding = op("/s", vec![p]);
        let got = url_of(
            &binding,
            json!({"path": "/a/b?c:d@e,f;g+h!$'()*[]&i=j#k%l m"}),
        );
        assert_eq!(
            got,
            format!("{BASE}/s?path=/a/b?c:d@e,f;g+h!$'()*[]%26i%3Dj%23k%25l%20m")
        );
    }

    #[test]
    fn query_content_param_is_encoded_json() {
        let mut p = param("filter", Location::Query, Style::Form, true);
        p.content_type = Some("application/json".into());
        p.allow_reserved = true;
        let binding = op("/s", vec![p]);
        let got = url_of(&binding, json!({"filter": {"lat": 1.5, "name": "x y"}}));
        assert_eq!(
            got,
            format!("{BASE}/s?filter=%7B%22lat%22%3A1.5%2C%22name%22%3A%22x%20y%22%7D")
        );
    }

    #[test]
    fn query_skips_optional_null_and_empty_composites() {
        let binding = op(
            "/s",
            vec![
                param("limit", Location::Query, Style::Form, true),
                param("tags", Location::Query, Style::Form, true),
                param("empty", Location::Query, Style::Form, true),
            ],
        );
        assert_eq!(
            url_of(&binding, json!({"limit": null, "tags": []})),
            format!("{BASE}/s")
        );
        assert_eq!(
            url_of(&binding, json!({"empty": ""})),
            format!("{BASE}/s?empty=")
        );
    }

    #[test]
    fn missing_required_query_is_named_and_unknown_args_ignored() {
        let binding = op(
            "/s",
            vec![required(param("q", Location::Query, Style::Form, true))],
        );
        assert_eq!(
            err(&binding, json!({"x": 1})),
            RequestError::MissingArgument { arg: "q".into() }
        );
        assert_eq!(
            err(&binding, json!({"q": null})),
            RequestError::MissingArgument { arg: "q".into() }
        );
    }

    // --- headers and cookies -------------------------------------------------

    #[test]
    fn header_simple_style() {
        let binding = op(
            "/h",
            vec![
                param("X-Color", Location::Header, Style::Simple, false),
                param("X-Rgb", Location::Header, Style::Simple, false),
                param("X-Rgb-E", Location::Header, Style::Simple, true),
                param("X-Count", Location::Header, Style::Simple, false),
                param("X-Absent", Location::Header, Style::Simple, false),
            ],
        );
        let [_, array, object] = colors();
        let request = ok(
            &binding,
            json!({"X-Color": array, "X-Rgb": object.clone(), "X-Rgb-E": object, "X-Count": 3}),
        );
        assert_eq!(
            request.headers,
            vec![
                ("X-Color".to_string(), "blue,black,brown".to_string()),
                ("X-Rgb".to_string(), "R,100,G,200,B,150".to_string()),
                ("X-Rgb-E".to_string(), "R=100,G=200,B=150".to_string()),
                ("X-Count".to_string(), "3".to_string()),
            ]
        );
    }

    #[test]
    fn header_injection_is_refused() {
        let binding = op(
            "/h",
            vec![param("X-Note", Location::Header, Style::Simple, false)],
        );
        for value in ["a\r\nX-Evil: 1", "a\nb", "a\0b"] {
            let e = err(&binding, json!({ "X-Note": value }));
            assert_invalid(&e, "X-Note", "header injection is refused");
        }
        let e = err(&binding, json!({"X-Note": ["ok", "x\r\ny"]}));
        assert_invalid(&e, "X-Note", "header injection is refused");
        let e = err(&binding, json!({"X-Note": "bell\u{7}"}));
        assert_invalid(&e, "X-Note", "control characters");
    }

    #[test]
    fn header_name_must_be_a_token() {
        let binding = op(
            "/h",
            vec![param("X Bad", Location::Header, Style::Simple, false)],
        );
        let e = err(&binding, json!({"X Bad": "v"}));
        assert_invalid(&e, "X Bad", "not a valid HTTP token");
    }

    #[test]
    fn header_content_param_is_json() {
        let mut p = param("X-Meta", Location::Header, Style::Simple, false);
        p.content_type = Some("application/json".into());
        let binding = op("/h", vec![p]);
        let request = ok(&binding, json!({"X-Meta": {"a": "b"}}));
        assert_eq!(header(&request, "X-Meta").as_deref(), Some(r#"{"a":"b"}"#));
    }

    #[test]
    fn cookies_join_into_one_header() {
        let binding = op(
            "/c",
            vec![
                param("session", Location::Cookie, Style::Form, true),
                param("ids", Location::Cookie, Style::Form, true),
                param("prefs", Location::Cookie, Style::Form, false),
                param("none", Location::Cookie, Style::Form, true),
            ],
        );
        let request = ok(
            &binding,
            json!({"session": "abc def;x,\"y\"\\%é", "ids": [1, 2, 3], "prefs": {"R": 1, "G": "a b"}}),
        );
        assert_eq!(
            header(&request, "Cookie").as_deref(),
            Some("session=abc%20def%3Bx%2C%22y%22%5C%25%C3%A9; ids=1,2,3; prefs=R,1,G,a%20b")
        );
    }

    #[test]
    fn cookie_injection_is_refused() {
        let binding = op(
            "/c",
            vec![param("session", Location::Cookie, Style::Form, true)],
        );
        let e = err(&binding, json!({"session": "a\r\nSet-Cookie: x=1"}));
        assert_invalid(&e, "session", "header injection is refused");
        let bad_name = op(
            "/c",
            vec![param("se;ss", Location::Cookie, Style::Form, true)],
        );
        assert_invalid(
            &err(&bad_name, json!({"se;ss": "v"})),
            "se;ss",
            "not a valid HTTP token",
        );
    }

    #[test]
    fn header_order_is_params_cookie_content_type() {
        let mut binding = with_body(
            "application/json",
            true,
            BodyShape::Whole {
                arg: "body".into(),
                binary: false,
            },
        );
        binding.params = vec![
            param("sid", Location::Cookie, Style::Form, true),
            param("X-B", Location::Header, Style::Simple, false),
            param("X-A", Location::Header, Style::Simple, false),
        ];
        let request = ok(
            &binding,
            json!({"sid": "s", "X-B": "b", "X-A": "a", "body": {"k": 1}}),
        );
        assert_eq!(request.method, "POST");
        let names: Vec<&str> = request.headers.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["X-B", "X-A", "Cookie", "Content-Type"]);
    }

    // --- bodies ----------------------------------------------------------------

    #[test]
    fn json_whole_body() {
        let binding = with_body(
            "application/vnd.api+json",
            true,
            BodyShape::Whole {
                arg: "body".into(),
                binary: false,
            },
        );
        let request = ok(&binding, json!({"body": [1, {"b": "x", "a": null}]}));
        assert_eq!(
            request.body.as_deref(),
            Some(&br#"[1,{"b":"x","a":null}]"#[..])
        );
        assert_eq!(
            header(&request, "Content-Type").as_deref(),
            Some("application/vnd.api+json")
        );
        let missing_body = err(&binding, json!({}));
        assert_eq!(
            missing_body,
            RequestError::MissingArgument { arg: "body".into() }
        );
    }

    #[test]
    fn optional_body_absent_sends_nothing() {
        let binding = with_body(
            "application/json",
            false,
            BodyShape::Whole {
                arg: "body".into(),
                binary: false,
            },
        );
        let request = ok(&binding, json!({"body": null}));
        assert_eq!(request.body, None);
        assert!(request.headers.is_empty());
        let props = with_body(
            "application/json",
            false,
            BodyShape::Properties {
                props: vec![prop("name", false, None)],
            },
        );
        let request = ok(&props, json!({}));
        assert_eq!((request.body, request.headers.len()), (None, 0));
    }

    #[test]
    fn json_properties_body_keeps_prop_order() {
        let mut renamed = prop("name", false, None);
        renamed.arg = "pet_name".into();
        let binding = with_body(
            "application/json",
            true,
            BodyShape::Properties {
                props: vec![renamed, prop("tag", false, None), prop("age", false, None)],
            },
        );
        let request = ok(
            &binding,
            json!({"tag": {"k": [1]}, "pet_name": "Rex", "unrelated": 1}),
        );
        assert_eq!(
            request.body.as_deref(),
            Some(&br#"{"name":"Rex","tag":{"k":[1]}}"#[..])
        );
        let empty = ok(&binding, json!({}));
        assert_eq!(empty.body.as_deref(), Some(&b"{}"[..]));
    }

    #[test]
    fn form_body() {
        let binding = with_body(
            "application/x-www-form-urlencoded",
            true,
            BodyShape::Properties {
                props: vec![
                    prop("name", false, None),
                    prop("tags", false, None),
                    prop("meta", false, None),
                    prop("n", false, None),
                    prop("icon", true, None),
                ],
            },
        );
        let request = ok(
            &binding,
            json!({"name": "a b+c", "tags": ["x", "y&z"], "meta": {"k": "v"}, "n": 1, "icon": "data:image/png;base64,aGk"}),
        );
        assert_eq!(
            request.body.as_deref(),
            Some(
                &b"name=a+b%2Bc&tags=x&tags=y%26z&meta=%7B%22k%22%3A%22v%22%7D&n=1&icon=aGk%3D"[..]
            )
        );
        assert_eq!(
            header(&request, "Content-Type").as_deref(),
            Some("application/x-www-form-urlencoded")
        );
    }

    #[test]
    fn whole_body_form_and_multipart_objects() {
        let whole = BodyShape::Whole {
            arg: "body".into(),
            binary: false,
        };
        let form = with_body("application/x-www-form-urlencoded", true, whole.clone());
        let request = ok(&form, json!({"body": {"a": "x y", "b": [1, 2]}}));
        assert_eq!(request.body.as_deref(), Some(&b"a=x+y&b=1&b=2"[..]));
        let multipart = with_body("multipart/form-data", true, whole);
        let request = ok(&multipart, json!({"body": {"a": "x"}}));
        let body = String::from_utf8(request.body.unwrap_or_default()).unwrap_or_default();
        assert!(body.contains("Content-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n"));
        assert_invalid(
            &err(&multipart, json!({"body": "raw"})),
            "body",
            "needs an object",
        );
    }

    fn multipart_binding() -> HttpBinding {
        with_body(
            "multipart/form-data",
            true,
            BodyShape::Properties {
                props: vec![
                    prop("description", false, None),
                    prop("photo", true, None),
                    prop("thumb", true, Some("image/jpeg, image/png")),
                ],
            },
        )
    }

    fn multipart_args() -> Value {
        json!({
            "thumb": "aGVsbG8",
            "photo": "data:image/png;base64,iVBORw0KGgo=",
            "description": "A \"cat\"",
        })
    }

    #[test]
    fn multipart_with_files_and_text() {
        let request = ok(&multipart_binding(), multipart_args());
        let png: &[u8] = &[0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
        let parts: [(&str, &[u8]); 3] = [
            (
                "Content-Disposition: form-data; name=\"description\"\r\n",
                b"A \"cat\"",
            ),
            (
                "Content-Disposition: form-data; name=\"photo\"; filename=\"photo\"\r\nContent-Type: image/png\r\n",
                png,
            ),
            (
                "Content-Disposition: form-data; name=\"thumb\"; filename=\"thumb\"\r\nContent-Type: image/jpeg\r\n",
                b"hello",
            ),
        ];
        let mut content = Vec::new();
        for (head, body) in parts {
            content.extend_from_slice(head.as_bytes());
            content.extend_from_slice(body);
        }
        let boundary = boundary_candidate(&content, 0);
        assert_eq!(boundary, "openapi2mcp-ccd2addf44e25e2c");
        let mut expected = Vec::new();
        for (head, body) in parts {
            expected.extend_from_slice(format!("--{boundary}\r\n{head}\r\n").as_bytes());
            expected.extend_from_slice(body);
            expected.extend_from_slice(b"\r\n");
        }
        expected.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        assert_eq!(request.body, Some(expected));
        assert_eq!(
            header(&request, "Content-Type"),
            Some(format!("multipart/form-data; boundary={boundary}"))
        );
    }

    #[test]
    fn multipart_is_deterministic() {
        let first = ok(&multipart_binding(), multipart_args());
        let second = ok(&multipart_binding(), multipart_args());
        assert_eq!(first, second);
        let other = ok(&multipart_binding(), json!({"description": "B"}));
        assert_ne!(
            header(&first, "Content-Type"),
            header(&other, "Content-Type")
        );
    }

    #[test]
    fn multipart_arrays_and_json_parts() {
        let binding = with_body(
            "multipart/form-data",
            true,
            BodyShape::Properties {
                props: vec![
                    prop("files", true, None),
                    prop("meta", false, None),
                    prop("na\"m\r\ne", false, None),
                ],
            },
        );
        let request = ok(
            &binding,
            json!({"files": ["aGk=", "aG8="], "meta": {"a": 1}, "na\"m\r\ne": 5}),
        );
        let body = String::from_utf8(request.body.unwrap_or_default()).unwrap_or_default();
        assert_eq!(
            body.matches(
                "name=\"files\"; filename=\"files\"\r\nContent-Type: application/octet-stream\r\n"
            )
            .count(),
            2
        );
        assert!(body.contains("\r\n\r\nhi\r\n--") && body.contains("\r\n\r\nho\r\n--"));
        assert!(
            body.contains("name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"a\":1}\r\n")
        );
        assert!(body.contains("name=\"na\\\"me\"\r\nContent-Type: application/json\r\n\r\n5\r\n"));
    }

    #[test]
    fn boundary_is_bumped_on_collision() {
        let first = boundary_candidate(b"x", 0);
        let picked = pick_boundary(b"x", |candidate| candidate == first.as_bytes());
        assert_eq!(picked, boundary_candidate(b"x", 1));
        assert_ne!(picked, first);
        assert!(picked.starts_with("openapi2mcp-") && picked.len() == 28);
    }

    #[test]
    fn binary_whole_body() {
        let binding = with_body(
            "application/octet-stream",
            true,
            BodyShape::Whole {
                arg: "body".into(),
                binary: true,
            },
        );
        for encoded in [
            "aGVsbG8/Pz4=",
            "aGVsbG8_Pz4",
            "aGVs bG8/\nPz4=",
            "data:text/plain;base64,aGVsbG8/Pz4=",
        ] {
            let request = ok(&binding, json!({ "body": encoded }));
            assert_eq!(request.body.as_deref(), Some(&b"hello??>"[..]), "{encoded}");
            assert_eq!(
                header(&request, "Content-Type").as_deref(),
                Some("application/octet-stream")
            );
        }
        assert_invalid(
            &err(&binding, json!({"body": "not base64!!"})),
            "body",
            "base64",
        );
        assert_invalid(&err(&binding, json!({"body": 42})), "body", "base64");
        assert_invalid(
            &err(&binding, json!({"body": "data:image/png;base64"})),
            "body",
            "data:",
        );
    }

    #[test]
    fn binary_range_takes_the_data_uri_type() {
        let binding = with_body(
            "*/*",
            true,
            BodyShape::Whole {
                arg: "body".into(),
                binary: true,
            },
        );
        let request = ok(&binding, json!({"body": "data:image/gif,GIF89a%00"}));
        assert_eq!(request.body.as_deref(), Some(&b"GIF89a\0"[..]));
        assert_eq!(
            header(&request, "Content-Type").as_deref(),
            Some("image/gif")
        );
        let plain = ok(&binding, json!({"body": "aGk="}));
        assert_eq!(
            header(&plain, "Content-Type").as_deref(),
            Some("application/octet-stream")
        );
    }

    /// Found by tests/it/props.rs: a media type key with a line break (from
    /// the API description) became a Content-Type value carrying CR/LF.
    #[test]
    fn media_type_with_a_line_break_is_refused() {
        let props = BodyShape::Properties {
            props: vec![BodyProp {
                arg: "a".into(),
                name: "a".into(),
                binary: false,
                content_type: None,
            }],
        };
        let json = with_body("application/json\r\nX-Evil: 1", true, props);
        assert_invalid(&err(&json, json!({"a": "x"})), "body", "Content-Type");
        let multipart = with_body(
            "multipart/form-data\r\nX-Evil: 1",
            true,
            BodyShape::Whole {
                arg: "form".into(),
                binary: false,
            },
        );
        assert_invalid(
            &err(&multipart, json!({"form": {"f": "v"}})),
            "form",
            "control characters",
        );
        let tab = with_body("text/plain;\tcharset=utf-8", true, whole_text());
        assert!(ok(&tab, json!({"body": "hi"})).body.is_some());
    }

    /// Found by tests/it/props.rs: a header parameter named `Host` (or
    /// `Connection`, `Content-Length`...) put an argument into a header the
    /// HTTP client owns, choosing the virtual host behind the base URL.
    #[test]
    fn header_parameters_cannot_set_client_headers() {
        for name in ["Host", "content-length", "Transfer-Encoding", "Connection"] {
            let mut p = param("h", Location::Header, Style::Simple, false);
            p.name = name.into();
            let binding = op("/items", vec![p]);
            assert_invalid(&err(&binding, json!({"h": "evil.example"})), "h", name);
            assert!(ok(&binding, json!({})).headers.is_empty());
        }
    }

    fn whole_text() -> BodyShape {
        BodyShape::Whole {
            arg: "body".into(),
            binary: false,
        }
    }

    #[test]
    fn text_body() {
        let binding = with_body(
            "text/plain; charset=utf-8",
            true,
            BodyShape::Whole {
                arg: "body".into(),
                binary: false,
            },
        );
        let request = ok(&binding, json!({"body": "héllo\nworld"}));
        assert_eq!(request.body, Some("héllo\nworld".as_bytes().to_vec()));
        assert_eq!(
            header(&request, "Content-Type").as_deref(),
            Some("text/plain; charset=utf-8")
        );
        let number = ok(&binding, json!({"body": 42}));
        assert_eq!(number.body.as_deref(), Some(&b"42"[..]));
        let xml = with_body(
            "application/xml",
            true,
            BodyShape::Whole {
                arg: "body".into(),
                binary: false,
            },
        );
        assert_eq!(
            ok(&xml, json!({"body": "<a/>"})).body.as_deref(),
            Some(&b"<a/>"[..])
        );
    }

    // --- base URL ----------------------------------------------------------------

    fn server(url: &str, variables: Vec<ServerVariable>) -> Server {
        Server {
            url: url.into(),
            variables,
        }
    }

    fn variable(name: &str, default: &str, allowed: &[&str]) -> ServerVariable {
        ServerVariable {
            name: name.into(),
            default: default.into(),
            allowed: allowed.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn templated() -> Vec<Server> {
        vec![
            server(
                "https://{region}.example.com:{port}/{version}/",
                vec![
                    variable("region", "eu", &["eu", "us"]),
                    variable("port", "8443", &[]),
                    variable("version", "v2", &[]),
                ],
            ),
            server("https://second.example.com", Vec::new()),
        ]
    }

    #[test]
    fn base_url_uses_first_server_defaults() {
        let got = base_url(&templated(), &BTreeMap::new(), None);
        assert_eq!(got, Ok("https://eu.example.com:8443/v2".to_string()));
    }

    #[test]
    fn base_url_overrides_and_enum() {
        let overrides = BTreeMap::from([
            ("region".to_string(), "us".to_string()),
            ("port".to_string(), "1".to_string()),
        ]);
        assert_eq!(
            base_url(&templated(), &overrides, None),
            Ok("https://us.example.com:1/v2".to_string())
        );
        let bad = BTreeMap::from([("region".to_string(), "mars".to_string())]);
        let e = base_url(&templated(), &bad, None);
        assert!(
            matches!(&e, Err(RequestError::BaseUrl(m)) if m.contains("region") && m.contains("eu, us")),
            "{e:?}"
        );
    }

    #[test]
    fn base_url_relative_server_needs_explicit_base() {
        let servers = vec![server("/v1", Vec::new())];
        let e = base_url(&servers, &BTreeMap::new(), None);
        assert!(
            matches!(&e, Err(RequestError::BaseUrl(m)) if m.contains("relative") && m.contains("base URL")),
            "{e:?}"
        );
        assert!(matches!(
            base_url(&[], &BTreeMap::new(), None),
            Err(RequestError::BaseUrl(_))
        ));
        let explicit = base_url(
            &servers,
            &BTreeMap::new(),
            Some("http://localhost:8080/v1/"),
        );
        assert_eq!(explicit, Ok("http://localhost:8080/v1".to_string()));
    }

    #[test]
    fn base_url_explicit_wins_and_is_checked() {
        let got = base_url(
            &templated(),
            &BTreeMap::new(),
            Some(" https://proxy.example.org// "),
        );
        assert_eq!(got, Ok("https://proxy.example.org".to_string()));
        for bad in ["/relative", "ftp://h/x", "https://h/x?q=1", ""] {
            let e = base_url(&templated(), &BTreeMap::new(), Some(bad));
            assert!(matches!(e, Err(RequestError::BaseUrl(_))), "{bad}");
        }
        let undeclared = vec![server("https://{tenant}.example.com", Vec::new())];
        assert!(matches!(
            base_url(&undeclared, &BTreeMap::new(), None),
            Err(RequestError::BaseUrl(_))
        ));
    }
}
