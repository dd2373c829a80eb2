//! Response selectors: a jq expression applied server-side to a tool's
//! JSON result before it reaches the model, so a caller that needs three
//! fields of a 6 KB repository object pays for three fields. Evaluated by
//! `jaq` (a Rust jq implementation: `jaq-core` with the core definitions
//! and `jaq-std`'s library; no I/O, no environment).
//!
//! A selector comes from a model, so it is treated as hostile:
//! - it is screened after parsing (`screen`): what reaches outside the
//!   value (`input`, `$ENV`, `env`, `halt`, `debug`, `stderr`, modules) is
//!   refused wherever it appears, string interpolations included, and
//!   withheld from the compiler besides;
//! - it runs in a separate worker process (`worker`): killed at
//!   [`TIME_LIMIT`], under a memory budget and a CPU backstop, at most
//!   [`max_workers`] at once, so neither an endless loop, a runaway
//!   allocation nor a stack overflow can stop the server or keep a core
//!   busy after its call returned;
//! - what it parses as JSON (`fromjson`, its input) may nest
//!   [`MAX_DEPTH`] levels, and its output is capped in bytes and nesting.
//!
//! From the rest of the crate it uses only `response` (the result it
//! selects from), `fair` (workers are a pool shared fairly between
//! callers) and `settings` (the variable that starts a worker): a selector
//! sees the result alone, nothing of the call that made it.

#[cfg(feature = "jq")]
mod eval;
#[cfg(feature = "jq")]
mod screen;
#[cfg(feature = "jq")]
mod worker;
#[cfg(not(feature = "jq"))]
#[path = "select/without_jq.rs"]
mod worker;

/// Whether this build can run selectors (the `jq` feature, on by
/// default): without it the server refuses `--response-filter`.
pub const AVAILABLE: bool = cfg!(feature = "jq");

use std::time::Duration;

use serde_json::{Value, json};

use super::response::{Content, ToolOutcome};

pub use worker::{MEMORY_LIMIT, WORKER_ENV, max_workers, serve_as_worker, set_worker_program};

/// The tool argument that carries a selector when the server runs with
/// `--response-filter` (a name no API parameter is likely to have).
pub const SELECT_ARG: &str = "response_filter";

/// The key of `structuredContent` that holds a selector's output.
pub const SELECTED_KEY: &str = "selected";

/// Longest time one selector may run (its worker is killed then).
pub const TIME_LIMIT: Duration = Duration::from_secs(2);

/// Longest selector accepted, in bytes.
pub const MAX_EXPRESSION: usize = 2000;

/// Deepest nesting of arrays and objects a selector's input, or the text
/// it gives `fromjson`, may have (jq's parser recurses once per level).
pub const MAX_DEPTH: usize = 512;

/// Deepest nesting of a selector's output (the server reads it back as
/// JSON, whose parser stops at 128).
pub const MAX_OUTPUT_DEPTH: usize = 100;

/// Why a selector gave no result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// The expression is not valid jq, or uses something refused.
    #[error("invalid selector `{expression}`: {reason}")]
    Invalid {
        /// The expression as given.
        expression: String,
        /// What is wrong, and where.
        reason: String,
    },
    /// The expression failed on this value (e.g. `.a` on an array).
    #[error("the selector `{expression}` failed on this result: {reason}")]
    Failed {
        /// The expression as given.
        expression: String,
        /// jq's error.
        reason: String,
    },
    /// It ran past [`TIME_LIMIT`], past the memory budget or too deep, or
    /// produced more than the output cap.
    #[error("the selector `{expression}` {reason}")]
    Limit {
        /// The expression as given.
        expression: String,
        /// Which limit.
        reason: String,
    },
    /// This build has no jq engine (built without the `jq` feature).
    #[error(
        "the selector `{expression}` cannot run: this server was built without the `jq` feature"
    )]
    NotBuilt {
        /// The expression as given.
        expression: String,
    },
}

/// Applies `expression` to `input` in a worker process (see the module
/// documentation) under [`TIME_LIMIT`]: one output is returned as is,
/// several as an array. `max_bytes` caps the serialized output.
pub async fn apply(expression: &str, input: Value, max_bytes: usize) -> Result<Value, SelectError> {
    worker::apply(expression, input, max_bytes).await
}

/// `outcome` with its JSON result replaced by what `expression` selects
/// from it: the text content becomes the selection's JSON, and
/// `structuredContent` `{"selected": ...}`. Error results are left as
/// they are (the model needs the whole error); a result that is not JSON,
/// or a selector that fails, becomes an error naming the problem.
pub async fn select_outcome(
    expression: &str,
    outcome: ToolOutcome,
    max_bytes: usize,
) -> ToolOutcome {
    if outcome.is_error {
        return outcome;
    }
    // The body is the last block; notes (the response headers, the next
    // page) come before it.
    let text: Option<&str> = match outcome.content.last() {
        Some(Content::Text(t)) => Some(t),
        _ => None,
    };
    let source = text
        .and_then(|t| serde_json::from_str::<Value>(t).ok())
        .or_else(|| outcome.structured.clone());
    let Some(source) = source else {
        return ToolOutcome {
            content: vec![Content::Text(format!(
                "the selector `{expression}` applies to JSON results; this result is not JSON, so it was not returned. Call again without a selector."
            ))],
            structured: None,
            is_error: true,
        };
    };
    match apply(expression, source, max_bytes).await {
        Ok(selected) => ToolOutcome {
            content: vec![Content::Text(selected.to_string())],
            structured: Some(json!({ SELECTED_KEY: selected })),
            is_error: false,
        },
        Err(e) => ToolOutcome {
            content: vec![Content::Text(e.to_string())],
            structured: None,
            is_error: true,
        },
    }
}

/// `output_schema` (a tool's listed JSON Schema) widened to also accept a
/// selector's output, for `--response-filter`: its `$defs` stay at the
/// root so its `$ref`s still resolve.
pub fn widen_output_schema(
    output_schema: &serde_json::Map<String, Value>,
) -> serde_json::Map<String, Value> {
    let mut original = output_schema.clone();
    let defs = original.remove("$defs");
    let selected = json!({
        "type": "object",
        "required": [SELECTED_KEY],
        "properties": {SELECTED_KEY: {"description": "What the response_filter selected."}}
    });
    let mut widened = serde_json::Map::new();
    widened.insert("type".into(), json!("object"));
    widened.insert("anyOf".into(), json!([Value::Object(original), selected]));
    if let Some(defs) = defs {
        widened.insert("$defs".into(), defs);
    }
    widened
}

/// The JSON Schema of the selector argument.
pub fn select_arg_schema() -> Value {
    json!({
        "type": "string",
        "description": "Optional jq expression applied to the JSON result before it is returned, to keep only what you need, e.g. `{name, stars: .stargazers_count}` or `[.[] | {id, title}]`."
    })
}

#[cfg(all(test, feature = "jq"))]
#[path = "select_tests.rs"]
mod tests;
