//! What a model whose result was cut is told to do: this operation's own
//! paging and filter arguments, named in place of the generic advice.

use super::super::binding::{HttpBinding, Location};
use super::super::response::{self, Content, ToolOutcome};

/// Query arguments that page through a collection, and those that choose
/// fields or filter, by their name on the wire (lower-case, without `$`).
const PAGING_NAMES: &[&str] = &[
    "page",
    "per_page",
    "perpage",
    "page_size",
    "pagesize",
    "limit",
    "size",
    "count",
    "top",
    "skip",
    "offset",
    "cursor",
    "after",
    "before",
    "starting_after",
    "ending_before",
    "page_token",
    "pagetoken",
    "max_results",
    "maxresults",
    "first",
    "last",
];
const FIELD_NAMES: &[&str] = &["fields", "select", "filter", "expand", "include"];

/// The advice naming `http`'s own paging and filter arguments, if it has
/// any (computed once per tool, at start-up).
pub(super) fn fetch_less_advice(http: &HttpBinding) -> Option<String> {
    let of = |names: &[&str]| -> Vec<String> {
        http.params
            .iter()
            .filter(|p| p.location == Location::Query)
            .filter(|p| {
                names.contains(&p.name.trim_start_matches('$').to_ascii_lowercase().as_str())
            })
            .map(|p| format!("`{}`", p.arg))
            .collect()
    };
    let (paging, fields) = (of(PAGING_NAMES), of(FIELD_NAMES));
    if paging.is_empty() && fields.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    if !paging.is_empty() {
        parts.push(format!(
            "page through the rest with this tool's {}",
            paging.join(", ")
        ));
    }
    if !fields.is_empty() {
        parts.push(format!("ask for less with {}", fields.join(", ")));
    }
    Some(format!("To see the rest, {}", parts.join("; or ")))
}

/// Replaces the generic advice at the end of a truncation note with the
/// operation's own arguments.
pub(super) fn name_fetch_less_arguments(outcome: &mut ToolOutcome, advice: &str) {
    let generic = format!("{}]", response::FETCH_LESS);
    for content in &mut outcome.content {
        if let Content::Text(text) = content
            && text.ends_with(&generic)
        {
            text.truncate(text.len() - generic.len());
            text.push_str(advice);
            text.push(']');
        }
    }
}
