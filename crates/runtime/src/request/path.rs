//! The path: a template expanded by the `simple`, `label` and `matrix`
//! styles, each value one percent-encoded segment, and no segment that URL
//! normalisation would resolve.

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use serde_json::{Map, Value};

use super::super::binding::{HttpBinding, Location, ParamBinding, Style, split_fragment};
use super::RequestError;
use super::STRICT;
use super::args::{invalid, missing, non_null, template_error};
use super::shape::{Shape, content_text};

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

/// A piece of a path template.
enum Token<'a> {
    Literal(&'a str),
    Slot(&'a str),
}

/// One path segment being built, and the first argument that filled it
/// (named when the segment comes out empty or a dot segment).
#[derive(Default)]
struct Segment<'a> {
    text: String,
    first_arg: Option<&'a str>,
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
pub(super) fn expand_path(
    binding: &HttpBinding,
    args: &Map<String, Value>,
) -> Result<String, RequestError> {
    // The fragment of a path key (`/#Action=…`) is not sent.
    let (template, _) = split_fragment(&binding.path);
    let mut path = String::with_capacity(template.len() + 32);
    if !template.is_empty() && !template.starts_with('/') {
        path.push('/');
    }
    let mut segment = Segment::default();
    for token in tokenize(template)? {
        match token {
            Token::Literal(text) => push_literal(&mut path, &mut segment, text)?,
            Token::Slot(slot) => push_slot(binding, args, slot, &mut segment)?,
        }
    }
    close_segment(&mut path, &mut segment)?;
    Ok(path)
}

/// Adds template text, closing a segment at every `/`.
fn push_literal(
    path: &mut String,
    segment: &mut Segment<'_>,
    text: &str,
) -> Result<(), RequestError> {
    for (i, piece) in text.split('/').enumerate() {
        if i > 0 {
            close_segment(path, segment)?;
            path.push('/');
        }
        segment
            .text
            .extend(utf8_percent_encode(piece, TEMPLATE_LITERAL));
    }
    Ok(())
}

/// Adds the expansion of one `{slot}`.
fn push_slot<'a>(
    binding: &'a HttpBinding,
    args: &Map<String, Value>,
    slot: &str,
    segment: &mut Segment<'a>,
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
    match value {
        // The common case, written in place: a string under the `simple`
        // style is its one encoded atom (what `expand_path_value` gives).
        Value::String(text)
            if param.content_type.is_none()
                && !matches!(param.style, Style::Label | Style::Matrix) =>
        {
            push_path_atom(&mut segment.text, text)
        }
        _ => segment.text.push_str(&expand_path_value(param, value)),
    }
    segment.first_arg.get_or_insert(param.arg.as_str());
    Ok(())
}

/// Appends a finished segment, refusing one that arguments made empty or
/// made a dot segment: URL parsers (WHATWG, the `url` crate, so every
/// client built on it) resolve `.`, `..`, `%2E` and `%2E%2E` segments, so
/// percent-encoding alone cannot keep them in the path.
fn close_segment(path: &mut String, segment: &mut Segment<'_>) -> Result<(), RequestError> {
    let seg = segment;
    if let Some(arg) = seg.first_arg.take() {
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
    seg.text.clear();
    Ok(())
}

/// `.`/`..` in any spelling a WHATWG URL parser resolves.
fn is_dot_segment(segment: &str) -> bool {
    segment.len() <= 6
        && [".", "%2e", "..", ".%2e", "%2e.", "%2e%2e"]
            .iter()
            .any(|dot| segment.eq_ignore_ascii_case(dot))
}

/// Percent-encodes one value as (part of) a single path segment: everything
/// but unreserved characters, and a value that is exactly `.` or `..` as
/// `%2E`/`%2E%2E`.
fn encode_path_atom(text: &str) -> String {
    let mut out = String::new();
    push_path_atom(&mut out, text);
    out
}

/// [`encode_path_atom`], appended to `out`.
fn push_path_atom(out: &mut String, text: &str) {
    match text {
        "." => out.push_str("%2E"),
        ".." => out.push_str("%2E%2E"),
        _ => out.extend(utf8_percent_encode(text, STRICT)),
    }
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
