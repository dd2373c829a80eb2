//! The `Accept` header: the representations a tool asks the API for.
//!
//! An HTTP client's default `Accept: */*` lets an API that documents XML
//! and JSON answer XML, which a tool promising JSON (an `outputSchema`)
//! can only report as an error. So the request names the media types the
//! operation's responses document, JSON first (the tool turns it into
//! structured content, as it does a stream of items: JSON Lines, an event
//! stream), the others after it with a lower quality value,
//! and `*/*` last with the lowest, so that an API whose document left a
//! type out still answers instead of refusing with `406 Not Acceptable`
//! (RFC 9110 §12.5.1):
//!
//! ```text
//! application/json, application/xml;q=0.5, */*;q=0.1
//! ```
//!
//! Nothing documented (or only `*/*`, for a tool without an output
//! schema) sends no header of ours: the HTTP client's `*/*` says the same.

use super::super::binding::{HttpBinding, Location};
use super::super::response::Sequence;
use super::super::wire::header::is_token;
use super::super::wire::media::{MediaKind, essence};

/// Quality of concrete media types after a preferred group.
const Q_OTHER: &str = "0.5";
/// Quality of documented ranges (`image/*`) after a preferred group.
const Q_RANGE: &str = "0.2";
/// Quality of the closing `*/*`.
const Q_ANY: &str = "0.1";

/// The `Accept` value for `binding`, or `None` when the HTTP client's
/// default (`*/*`) says as much, or a header parameter already sets it.
pub(super) fn accept_header(binding: &HttpBinding) -> Option<String> {
    let set_by_parameter = binding
        .params
        .iter()
        .any(|p| p.location == Location::Header && p.name.eq_ignore_ascii_case("accept"));
    if set_by_parameter {
        return None;
    }
    let mut json: Vec<String> = Vec::new();
    let mut other: Vec<String> = Vec::new();
    let mut ranges: Vec<String> = Vec::new();
    for documented in &binding.response_media_types {
        let Some(range) = media_range(documented) else {
            continue;
        };
        let group = match range.as_str() {
            "*/*" => continue,
            r if r.ends_with("/*") => &mut ranges,
            // A stream of items (OpenAPI 3.2) is read into JSON too.
            r if MediaKind::of(r) == MediaKind::Json || Sequence::of(r).is_some() => &mut json,
            _ => &mut other,
        };
        if !group.contains(&range) {
            group.push(range);
        }
    }
    // A tool with an output schema reads JSON even when the document only
    // says `*/*` (or a range) for it.
    if binding.output.is_some() && json.is_empty() {
        json.push("application/json".into());
    }
    let groups = [
        (json, None),
        (other, Some(Q_OTHER)),
        (ranges, Some(Q_RANGE)),
    ];
    let mut parts: Vec<String> = Vec::new();
    for (types, q) in groups {
        // The first group present is the preferred one: no q (1).
        let q = if parts.is_empty() { None } else { q };
        parts.extend(types.into_iter().map(|t| match q {
            Some(q) => format!("{t};q={q}"),
            None => t,
        }));
    }
    if parts.is_empty() {
        return None;
    }
    parts.push(format!("*/*;q={Q_ANY}"));
    Some(parts.join(", "))
}

/// A documented media type as an `Accept` media range: its essence
/// (parameters dropped, lower case) when that is `type/subtype`,
/// `type/*` or `*/*` of RFC 9110 tokens; `None` for anything else
/// (`*/json`, `*/*+json`, a key with spaces), which is left out rather
/// than sent.
fn media_range(media_type: &str) -> Option<String> {
    let essence = essence(media_type);
    let (kind, subtype) = essence.split_once('/')?;
    let tokens = is_token(kind) && is_token(subtype);
    let wildcards_fit = match (kind, subtype) {
        ("*", s) => s == "*",
        (_, s) => s == "*" || !s.contains('*'),
    };
    (tokens && wildcards_fit).then_some(essence)
}

#[cfg(test)]
#[path = "accept_tests.rs"]
mod tests;
