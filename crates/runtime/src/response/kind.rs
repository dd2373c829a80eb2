//! What a response body is (JSON, text, an image, other binary): by its
//! declared media type, sniffed when there is none usable.

use serde_json::Value;

use super::super::wire::media::well_formed_essence;
use super::items::Sequence;

/// How a body is presented.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Kind {
    Json,
    /// A stream of items (JSON Lines, JSON text sequences, events).
    Items(Sequence),
    Text,
    Image(String),
    Binary(String),
}

impl Kind {
    /// "text", "image/png", ... for messages.
    pub(super) fn describe(&self) -> &str {
        match self {
            Kind::Json => "JSON",
            Kind::Items(sequence) => sequence.describe(),
            Kind::Text => "text",
            Kind::Image(mime) | Kind::Binary(mime) => mime,
        }
    }
}

/// Classifies by the declared media type, sniffing when there is none usable.
pub(super) fn classify(content_type: Option<&str>, body: &[u8]) -> Kind {
    match content_type.and_then(well_formed_essence) {
        Some(essence) => classify_declared(&essence, content_type.unwrap_or_default()),
        None => sniff(body),
    }
}

/// Classifies a well-formed media type.
fn classify_declared(essence: &str, content_type: &str) -> Kind {
    let (kind, subtype) = essence.split_once('/').unwrap_or((essence, ""));
    if let Some(sequence) = Sequence::of(essence) {
        Kind::Items(sequence)
    } else if subtype.contains("json") {
        Kind::Json
    } else if kind == "text" || is_text_subtype(subtype) || has_charset(content_type) {
        Kind::Text
    } else if kind == "image" {
        Kind::Image(essence.to_string())
    } else {
        Kind::Binary(essence.to_string())
    }
}

/// Non-`text/*` subtypes that are text nonetheless (SVG included: a model can
/// read it, and few clients display it as an image).
fn is_text_subtype(subtype: &str) -> bool {
    const TEXT_SUBTYPES: &[&str] = &[
        "xml",
        "yaml",
        "x-yaml",
        "javascript",
        "x-javascript",
        "ecmascript",
        "x-www-form-urlencoded",
        "csv",
        "toml",
        "graphql",
        "sql",
    ];
    TEXT_SUBTYPES.contains(&subtype) || subtype.ends_with("+xml") || subtype.ends_with("+yaml")
}

/// Whether the Content-Type carries a `charset` parameter.
fn has_charset(content_type: &str) -> bool {
    content_type.split(';').skip(1).any(|param| {
        param
            .split_once('=')
            .is_some_and(|(name, _)| name.trim().eq_ignore_ascii_case("charset"))
    })
}

/// No usable Content-Type: JSON if it parses, text if UTF-8, else binary
/// (recognising the common image formats by their signatures).
fn sniff(body: &[u8]) -> Kind {
    if std::str::from_utf8(body).is_ok() {
        if serde_json::from_slice::<Value>(body).is_ok() {
            Kind::Json
        } else {
            Kind::Text
        }
    } else if let Some(mime) = sniff_image(body) {
        Kind::Image(mime.to_string())
    } else {
        Kind::Binary("application/octet-stream".to_string())
    }
}

/// PNG, JPEG, GIF or WebP by magic number.
fn sniff_image(body: &[u8]) -> Option<&'static str> {
    if body.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if body.starts_with(b"\xff\xd8\xff") {
        Some("image/jpeg")
    } else if body.starts_with(b"GIF87a") || body.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if body.len() >= 12 && body.starts_with(b"RIFF") && &body[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}
