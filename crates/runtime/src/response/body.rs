//! Rendering a body as one content block within the size cap: JSON
//! pretty-printed or cut at whole items, text marked when truncated,
//! images and other binary as base64.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Map, Value};

use super::super::binding::OutputShape;
use super::super::jsoncut;
use super::items::{ItemReader, Sequence};
use super::kind::Kind;
use super::lines::resource_uri;
use super::{Content, HttpResponse, ResponseLimits};

/// The part of a body that may be shown, and whether more existed.
pub(super) struct Body<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) truncated: bool,
    /// A stream still open at the call's time limit (see
    /// [`HttpResponse::stream_open`]).
    pub(super) stream_open: bool,
}

impl<'a> Body<'a> {
    /// Applies the cap again, in case the caller did not.
    pub(super) fn new(resp: &'a HttpResponse, limits: &ResponseLimits) -> Self {
        let over = resp.body.len() > limits.max_body_bytes;
        let end = resp.body.len().min(limits.max_body_bytes);
        Body {
            bytes: &resp.body[..end],
            truncated: resp.truncated || over,
            stream_open: resp.stream_open,
        }
    }

    /// Nothing but whitespace, and nothing more to come.
    pub(super) fn is_blank(&self) -> bool {
        !self.truncated && self.bytes.iter().all(u8::is_ascii_whitespace)
    }

    /// The bytes to decode as text: a character cut by truncation is dropped.
    pub(super) fn visible_text_bytes(&self) -> &'a [u8] {
        if self.truncated {
            trim_partial_utf8_tail(self.bytes)
        } else {
            self.bytes
        }
    }

    /// The text, decoded lossily.
    pub(super) fn text(&self) -> String {
        String::from_utf8_lossy(self.visible_text_bytes()).into_owned()
    }
}

/// Drops an incomplete UTF-8 sequence at the very end of `bytes`.
pub(super) fn trim_partial_utf8_tail(bytes: &[u8]) -> &[u8] {
    let start = bytes.len().saturating_sub(3);
    for i in (start..bytes.len()).rev() {
        let needed = match bytes[i] {
            0x80..=0xBF => continue,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        return if bytes.len() - i < needed {
            &bytes[..i]
        } else {
            bytes
        };
    }
    bytes
}

/// A rendered body: its content block and, for JSON, the value (whole, or
/// cut at whole items when the body was over the cap).
pub(super) struct Rendered {
    pub(super) content: Content,
    pub(super) json: Option<Value>,
    /// Why a JSON body has no value, for the message.
    pub(super) problem: Option<String>,
}

/// Renders a non-blank body as one content block.
pub(super) fn render_body(
    body: &Body<'_>,
    kind: &Kind,
    limits: &ResponseLimits,
    request_line: &str,
) -> Rendered {
    match kind {
        Kind::Items(sequence) => render_items(body, *sequence, limits),
        Kind::Json if !body.truncated => render_json(body, limits),
        Kind::Json => render_cut_json(body, limits),
        Kind::Text => non_json(Content::Text(capped_text(body, limits))),
        Kind::Image(mime) if body.truncated => {
            non_json(Content::Text(too_large("an image", mime, limits)))
        }
        Kind::Binary(mime) if body.truncated => {
            non_json(Content::Text(too_large("binary data", mime, limits)))
        }
        Kind::Image(mime) => non_json(Content::Image {
            data_base64: BASE64.encode(body.bytes),
            mime_type: mime.clone(),
        }),
        Kind::Binary(mime) => non_json(Content::Blob {
            uri: resource_uri(request_line),
            mime_type: mime.clone(),
            blob_base64: BASE64.encode(body.bytes),
        }),
    }
}

/// The advice at the end of a truncation note when nothing is known of the
/// operation; [`super::super::call`] replaces it with the operation's own
/// paging and filter arguments when it has some.
pub const FETCH_LESS: &str =
    "Request a smaller page (e.g. a limit/per_page argument) or fewer fields to see the rest";

/// A rendered block with no JSON value.
fn non_json(content: Content) -> Rendered {
    Rendered {
        content,
        json: None,
        problem: None,
    }
}

/// A complete JSON body: pretty-printed when that fits, else as sent.
fn render_json(body: &Body<'_>, limits: &ResponseLimits) -> Rendered {
    match serde_json::from_slice::<Value>(body.bytes) {
        Ok(value) => Rendered {
            content: Content::Text(json_text(&value, body, limits)),
            json: Some(value),
            problem: None,
        },
        Err(e) => Rendered {
            content: Content::Text(body.text()),
            json: None,
            problem: Some(format!("its JSON body is not valid JSON ({e})")),
        },
    }
}

/// A streaming body (a sequential media type) as the JSON array of its
/// items, as OpenAPI 3.2 maps sequential media types into the JSON data
/// model: an item cut by the size cap or by the call's time limit is
/// dropped, and a note says what was kept and why, and how many items
/// were not JSON.
fn render_items(body: &Body<'_>, sequence: Sequence, limits: &ResponseLimits) -> Rendered {
    let mut reader = ItemReader::new(sequence);
    let mut items = reader.push(body.bytes);
    if !body.truncated && !body.stream_open {
        items.extend(reader.finish());
    }
    let count = items.len();
    let value = Value::Array(items);
    let mut text = match serde_json::to_string_pretty(&value) {
        Ok(pretty) if pretty.len() <= limits.max_body_bytes => pretty,
        _ => value.to_string(),
    };
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    if body.truncated {
        text.push_str(&format!(
            "\n\n[truncated: the {} exceeded the {}-byte limit; its first {count} item{} were kept. {FETCH_LESS}]",
            sequence.describe(),
            limits.max_body_bytes,
            plural(count)
        ));
    } else if body.stream_open {
        text.push_str(&format!(
            "\n\n[the {} was still open when the call's time limit came; the {count} item{} that arrived by then are the result]",
            sequence.describe(),
            plural(count)
        ));
    }
    if let Some((bad, why)) = reader.problems() {
        text.push_str(&format!(
            "\n\n[{bad} item{} could not be read and {} left out: {why}]",
            plural(bad),
            if bad == 1 { "was" } else { "were" }
        ));
    }
    Rendered {
        content: Content::Text(text),
        json: Some(value),
        problem: None,
    }
}

/// A JSON body over the cap: cut at whole array items (see [`jsoncut`]),
/// with a note of what was kept; the raw prefix when no cut is possible.
fn render_cut_json(body: &Body<'_>, limits: &ResponseLimits) -> Rendered {
    let Some(cut) = jsoncut::cut(body.bytes) else {
        return Rendered {
            content: Content::Text(capped_text(body, limits)),
            json: None,
            problem: Some(format!(
                "its JSON body exceeded the {}-byte limit and could not be cut to whole items",
                limits.max_body_bytes
            )),
        };
    };
    let kept = if cut.array {
        format!(
            "the first {} item{} of `{}` were kept and later items dropped",
            cut.kept,
            if cut.kept == 1 { "" } else { "s" },
            cut.at
        )
    } else {
        format!(
            "the first {} member{} of `{}` were kept and later members dropped",
            cut.kept,
            if cut.kept == 1 { "" } else { "s" },
            cut.at
        )
    };
    let text = match serde_json::to_string_pretty(&cut.value) {
        Ok(pretty) if pretty.len() <= limits.max_body_bytes => pretty,
        _ => cut.value.to_string(),
    };
    Rendered {
        content: Content::Text(format!(
            "{text}\n\n[truncated: the response exceeded the {}-byte limit; {kept}. {FETCH_LESS}]",
            limits.max_body_bytes
        )),
        json: Some(cut.value),
        problem: None,
    }
}

/// Pretty JSON if it stays within the cap, else the original text.
fn json_text(value: &Value, body: &Body<'_>, limits: &ResponseLimits) -> String {
    match serde_json::to_string_pretty(value) {
        Ok(pretty) if pretty.len() <= limits.max_body_bytes => pretty,
        _ => body.text(),
    }
}

/// The body's text, with the truncation marker when it was cut.
fn capped_text(body: &Body<'_>, limits: &ResponseLimits) -> String {
    let mut text = body.text();
    if body.truncated {
        text.push_str(&truncation_marker(limits));
    }
    text
}

/// The line telling the model the text was cut and how to get less.
fn truncation_marker(limits: &ResponseLimits) -> String {
    format!(
        "\n\n[truncated: the response exceeded the {}-byte limit; request a smaller page, e.g. with a limit/per_page argument, or fewer fields]",
        limits.max_body_bytes
    )
}

/// Says that a binary body was too large to return.
fn too_large(what: &str, mime: &str, limits: &ResponseLimits) -> String {
    format!(
        "The response is {what} ({mime}) that exceeded the size cap of {} bytes, so it cannot be shown. Request a smaller version (for example a thumbnail, a lower resolution or a byte range) if the API offers one.",
        limits.max_body_bytes
    )
}

/// The structured content for a value, or the JSON type it has when that
/// is not the advertised shape.
pub(super) fn shape_value(shape: &OutputShape, value: Value) -> Result<Value, &'static str> {
    match shape {
        OutputShape::Object if value.is_object() => Ok(value),
        OutputShape::Object => Err(json_type(&value)),
        OutputShape::Wrapped { key } => {
            let mut map = Map::new();
            map.insert(key.clone(), value);
            Ok(Value::Object(map))
        }
    }
}

/// "array", "string", ... for messages.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
