//! Media types: the `type/subtype` essence, the classification of a
//! body's media type that the tool model and the request builder share,
//! and the sequential media types ([`Sequence`]: JSON Lines, JSON text
//! sequences, event streams) whose items a tool's output schema describes
//! and the response reader reads one by one.

/// `type/subtype` in lower case, parameters dropped
/// (`Application/JSON; charset=utf-8` → `application/json`); not checked
/// for being well-formed.
pub fn essence(media_type: &str) -> String {
    media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// The [`essence`] of a `Content-Type` when it is well-formed
/// `type/subtype` (both parts non-empty, one `/`), else `None`.
pub fn well_formed_essence(content_type: &str) -> Option<String> {
    let essence = essence(content_type);
    let (kind, subtype) = essence.split_once('/')?;
    let valid = !kind.is_empty() && !subtype.is_empty() && !subtype.contains('/');
    valid.then_some(essence)
}

/// Whether a media type carries JSON (`application/json`, `*/*+json`,
/// anything with `/json`).
pub fn is_json(media_type: &str) -> bool {
    MediaKind::of(media_type) == MediaKind::Json
}

/// Subtypes that start with `json` but are not one JSON text: a JSONPath
/// expression, and the sequences of JSON texts (OpenAPI 3.2's sequential
/// media types), which are text made of JSON.
pub const NOT_ONE_JSON_TEXT: &[&str] = &["jsonpath", "jsonl", "jsonlines", "json-seq"];

/// How a media type's content is encoded: the one classification both the
/// tool model (which argument shape a body gets) and the request builder
/// (how the body is written) use, so the two can never disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaKind {
    /// `application/json`, `*/*+json`, anything with `/json`, but the
    /// JSON-based formats that are not one JSON text (`application/jsonpath`,
    /// JSON Lines, JSON text sequences: see [`NOT_ONE_JSON_TEXT`]).
    Json,
    /// `application/x-www-form-urlencoded`.
    Form,
    /// `multipart/*`.
    Multipart,
    /// `text/*`, XML, YAML: sent as text.
    Text,
    /// Anything else: bytes.
    Binary,
}

impl MediaKind {
    /// Classifies a media type (parameters such as `charset` ignored).
    pub fn of(media_type: &str) -> Self {
        let base = essence(media_type);
        let subtype = base.split_once('/').map_or("", |(_, s)| s);
        if NOT_ONE_JSON_TEXT.contains(&subtype) || base.ends_with("+json-seq") {
            MediaKind::Text
        } else if base == "application/json" || base.ends_with("+json") || base.contains("/json") {
            MediaKind::Json
        } else if base == "application/x-www-form-urlencoded" {
            MediaKind::Form
        } else if base.starts_with("multipart/") {
            MediaKind::Multipart
        } else if base.starts_with("text/") || base.ends_with("xml") || base.contains("yaml") {
            MediaKind::Text
        } else {
            MediaKind::Binary
        }
    }
}

/// Which sequential media type a body is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sequence {
    /// One JSON value per line (`application/jsonl`, `application/x-ndjson`).
    JsonLines,
    /// RFC 7464: each JSON text after a record separator (0x1E).
    JsonSeq,
    /// `text/event-stream`: Server-Sent Events.
    EventStream,
}

impl Sequence {
    /// The sequence a media type (or `Content-Type`) names, if it is one
    /// this reader knows.
    pub fn of(media_type: &str) -> Option<Self> {
        let base = essence(media_type);
        match base.as_str() {
            "application/jsonl"
            | "application/x-jsonl"
            | "application/jsonlines"
            | "application/x-jsonlines"
            | "application/x-ndjson"
            | "application/ndjson" => Some(Self::JsonLines),
            "text/event-stream" => Some(Self::EventStream),
            _ if base == "application/json-seq" || base.ends_with("+json-seq") => {
                Some(Self::JsonSeq)
            }
            _ => None,
        }
    }

    /// "JSON Lines", … for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Self::JsonLines => "JSON Lines",
            Self::JsonSeq => "JSON text sequence",
            Self::EventStream => "event stream",
        }
    }
}
