//! Response selectors: a jq expression applied server-side to a tool's
//! JSON result before it reaches the model, so a caller that needs three
//! fields of a 6 KB repository object pays for three fields. Evaluated by
//! `jaq` (a Rust jq implementation: `jaq-core` with the core definitions
//! and `jaq-std`'s library; no I/O, no environment).
//!
//! A selector comes from a model, so it is treated as untrusted: the
//! constructs that can run without end (`def` for recursion, `repeat`,
//! `while`, `until`, `recurse(f)`, `range`, `combinations`) and those that
//! reach outside the value (`input`, `inputs`, `$ENV`, `env`, `halt`,
//! `debug`, `stderr`) are refused before compiling; evaluation runs on a
//! blocking thread under a time limit, and its output is capped.
//!
//! Self-contained: no imports from the rest of the crate.

use std::time::Duration;

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Vars, data};
use jaq_json::Val;
use serde_json::{Value, json};

use super::response::{Content, ToolOutcome};

/// The tool argument that carries a selector when the server runs with
/// `--response-filter` (a name no API parameter is likely to have).
pub const SELECT_ARG: &str = "response_filter";

/// The key of `structuredContent` that holds a selector's output.
pub const SELECTED_KEY: &str = "selected";

/// Longest time one selector may run.
pub const TIME_LIMIT: Duration = Duration::from_secs(2);

/// Longest selector accepted, in bytes.
pub const MAX_EXPRESSION: usize = 2000;

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
    /// It ran past [`TIME_LIMIT`] or produced more than the output cap.
    #[error("the selector `{expression}` {reason}")]
    Limit {
        /// The expression as given.
        expression: String,
        /// Which limit.
        reason: String,
    },
}

/// Identifiers refused in selectors, with why.
const REFUSED: &[(&str, &str)] = &[
    ("def", "definitions (and so recursion) are not allowed"),
    ("repeat", "unbounded generators are not allowed"),
    ("while", "unbounded generators are not allowed"),
    ("until", "unbounded generators are not allowed"),
    ("range", "generators of arbitrary length are not allowed"),
    ("combinations", "combinatorial generators are not allowed"),
    ("limit", "`limit` is not needed: use `.[:n]` on arrays"),
    ("input", "selectors see only the result"),
    ("inputs", "selectors see only the result"),
    ("env", "selectors cannot read the environment"),
    ("$ENV", "selectors cannot read the environment"),
    ("halt", "selectors cannot stop the server"),
    ("halt_error", "selectors cannot stop the server"),
    ("debug", "selectors cannot write logs"),
    ("stderr", "selectors cannot write logs"),
    ("input_filename", "selectors see only the result"),
];

/// Checks `expression` for refused constructs (outside string literals).
fn screen(expression: &str) -> Result<(), String> {
    if expression.len() > MAX_EXPRESSION {
        return Err(format!(
            "it is {} bytes long; the limit is {MAX_EXPRESSION}",
            expression.len()
        ));
    }
    let bytes = expression.as_bytes();
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if c == b'"' {
            in_string = true;
            i += 1;
            continue;
        }
        if c == b'#' {
            return Err("comments are not allowed".into());
        }
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let start = i;
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &expression[start..i];
            // `.range` and `{range: ...}` are field names, not calls.
            let is_field = start > 0 && bytes[start - 1] == b'.';
            let rest = expression[i..].trim_start();
            let is_key = rest.starts_with(':') && !rest.starts_with("::");
            if is_field || is_key {
                continue;
            }
            if word == "recurse" && rest.starts_with('(') {
                return Err("`recurse(f)` is not allowed (`..` is)".into());
            }
            if let Some((_, why)) = REFUSED.iter().find(|(w, _)| *w == word) {
                return Err(format!("`{word}` at byte {start}: {why}"));
            }
            continue;
        }
        i += 1;
    }
    Ok(())
}

/// Applies `expression` to `input` on a blocking thread under
/// [`TIME_LIMIT`]: one output is returned as is, several as an array.
/// `max_bytes` caps the serialized output.
pub async fn apply(expression: &str, input: Value, max_bytes: usize) -> Result<Value, SelectError> {
    let expr = expression.to_string();
    let task = tokio::task::spawn_blocking(move || run(&expr, &input, max_bytes));
    match tokio::time::timeout(TIME_LIMIT, task).await {
        Ok(Ok(result)) => result,
        Ok(Err(join)) => Err(SelectError::Failed {
            expression: expression.to_string(),
            reason: format!("evaluation stopped: {join}"),
        }),
        Err(_) => Err(SelectError::Limit {
            expression: expression.to_string(),
            reason: format!("ran longer than {} s", TIME_LIMIT.as_secs()),
        }),
    }
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
    let text: Option<&str> = match outcome.content.as_slice() {
        [Content::Text(t)] => Some(t),
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

/// Compiles and runs `expression` on `input` (synchronously).
pub fn run(expression: &str, input: &Value, max_bytes: usize) -> Result<Value, SelectError> {
    let invalid = |reason: String| SelectError::Invalid {
        expression: expression.to_string(),
        reason,
    };
    screen(expression).map_err(invalid)?;
    let loader = Loader::new(
        jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs()),
    );
    let arena = Arena::default();
    let program = File {
        code: expression,
        path: (),
    };
    let modules = loader
        .load(&arena, program)
        .map_err(|errors| invalid(load_errors(expression, &errors)))?;
    let funs = jaq_core::funs()
        .chain(jaq_std::funs())
        .chain(jaq_json::funs());
    let filter = Compiler::default()
        .with_funs(funs)
        .compile(modules)
        .map_err(|errors| {
            let undefined: Vec<String> = errors
                .iter()
                .flat_map(|(_, errs)| errs.iter())
                .map(|(name, kind)| format!("`{name}` is not a known {}", kind.as_str()))
                .collect();
            invalid(undefined.join("; "))
        })?;
    let input_text = input.to_string();
    let input =
        jaq_json::read::parse_single(input_text.as_bytes()).map_err(|e| SelectError::Failed {
            expression: expression.to_string(),
            reason: format!("the result is not JSON jq can read: {e}"),
        })?;
    let ctx = Ctx::<data::JustLut<Val>>::new(&filter.lut, Vars::new([]));
    let mut outputs = Vec::new();
    let mut size = 0;
    for out in filter.id.run((ctx, input)) {
        let val = out.map_err(|exn| SelectError::Failed {
            expression: expression.to_string(),
            reason: match exn.get_err() {
                Ok(err) => err.to_string(),
                Err(_) => "it stopped without a value".into(),
            },
        })?;
        let text = val.to_string();
        size += text.len() + 1;
        if size > max_bytes {
            return Err(SelectError::Limit {
                expression: expression.to_string(),
                reason: format!("produced more than {max_bytes} bytes"),
            });
        }
        let value: Value = serde_json::from_str(&text).map_err(|e| SelectError::Failed {
            expression: expression.to_string(),
            reason: format!("its output is not JSON ({e}): {text:.200}"),
        })?;
        outputs.push(value);
    }
    Ok(match outputs.len() {
        1 => outputs.pop().unwrap_or(Value::Null),
        _ => Value::Array(outputs),
    })
}

/// jaq's lex and parse errors, with the byte offset of each.
fn load_errors(expression: &str, errors: &jaq_core::load::Errors<&str, ()>) -> String {
    use jaq_core::load::Error;
    let at = |s: &str| {
        let offset = (s.as_ptr() as usize).wrapping_sub(expression.as_ptr() as usize);
        if offset <= expression.len() {
            format!("at byte {offset}")
        } else {
            String::new()
        }
    };
    let mut out = Vec::new();
    for (_, error) in errors {
        match error {
            Error::Io(items) => {
                out.extend(
                    items
                        .iter()
                        .map(|(path, why)| format!("cannot load `{path}`: {why}")),
                );
            }
            Error::Lex(items) => out.extend(
                items
                    .iter()
                    .map(|(expect, s)| format!("expected {} {}", expect.as_str(), at(s))),
            ),
            Error::Parse(items) => out.extend(
                items
                    .iter()
                    .map(|(expect, s)| format!("expected {} {}", expect.as_str(), at(s))),
            ),
        }
    }
    if out.is_empty() {
        "it does not parse".into()
    } else {
        out.join("; ")
    }
}
