//! Makes a tool's result valid for its output schema, as MCP requires of a
//! tool that advertises one: structured content that conforms whenever
//! the result is not an error. Strict clients (the official Python SDK,
//! rmcp) validate `structuredContent` against the advertised schema and
//! lose the whole call when it does not fit.
//!
//! Real APIs stray from their own descriptions, and after a 2xx the call
//! has happened: an error here makes a model retry, and repeat a write.
//! So a response that does not fit is *made* to fit where it can: each
//! value the schema refuses becomes `null` (which output schemas admit
//! wherever they give a type, see the tool model's output conversion),
//! or, where even `null` is refused (`--output-schema strict`), the
//! nearest object property holding it is left out (output schemas never
//! require a property). The text content keeps the response as received
//! and a note names each value changed. Only a result that cannot be made
//! to fit (its top level is the wrong kind, or nothing would be left) is
//! an error, and the error says that the call itself succeeded.

use serde_json::{Map, Value};

use super::response::{Content, ToolOutcome};
use super::wire::json_kind;

/// Rounds of repair: each handles the innermost values the previous one
/// left refused (a value made `null` whose schema also refuses `null` is
/// left out in the next).
const MAX_ROUNDS: usize = 8;
/// Refused values handled per round, and named in a note.
const MAX_FIXES: usize = 64;
/// Fixes named one by one in the note; the rest are counted.
const NAMED_FIXES: usize = 8;

/// The one place that makes a result valid for the tool that produced it.
/// For a tool with an output schema:
/// - an error carries no structured content;
/// - a success without structured content (a 304, a handler's own result)
///   gets `{}` (every output schema accepts it: nothing is required);
/// - structured content the schema refuses is repaired (see the module
///   documentation), with a note before the response text; when it
///   cannot be, the result becomes an error that says the call itself
///   succeeded, what did not match, and carries the response as text.
///
/// Used on every call, by the live server and generated crates alike.
pub fn conform(
    tool: &str,
    output_schema: Option<&Map<String, Value>>,
    validator: Option<&jsonschema::Validator>,
    mut outcome: ToolOutcome,
) -> ToolOutcome {
    if output_schema.is_none() || outcome.is_error {
        outcome.structured = None;
        return outcome;
    }
    let mut structured = outcome
        .structured
        .take()
        .unwrap_or_else(|| Value::Object(Map::new()));
    let Some(validator) = validator else {
        outcome.structured = Some(structured);
        return outcome;
    };
    if validator.is_valid(&structured) {
        outcome.structured = Some(structured);
        return outcome;
    }
    let problems = refusals(validator, &structured);
    match repair(validator, &mut structured) {
        Ok(fixes) => {
            tracing::debug!(
                tool,
                fixes = fixes.len(),
                "structured content repaired to fit the output schema"
            );
            let mut content = vec![Content::Text(repair_note(&fixes))];
            content.extend(outcome.content);
            ToolOutcome {
                content,
                structured: Some(structured),
                is_error: false,
            }
        }
        Err(()) => {
            tracing::debug!(tool, "structured content does not fit the output schema");
            let shown: Vec<String> = problems.iter().take(3).map(Refusal::describe).collect();
            let mut content = vec![Content::Text(format!(
                "The call itself succeeded: the request was sent and the API answered with a success status, so do not repeat it (that would repeat whatever it did). But the response does not match the schema in the API's own description ({}), so there is no structured result; the response follows as text.",
                shown.join("; ")
            ))];
            content.extend(outcome.content);
            ToolOutcome {
                content,
                structured: None,
                is_error: true,
            }
        }
    }
}

/// One value the schema refused.
#[derive(Debug, Clone, PartialEq)]
struct Refusal {
    /// JSON pointer to the value (escaped as in RFC 6901).
    pointer: String,
    /// What the schema says of it, without the value itself.
    message: String,
    /// The kind of value found ("an array", "null"…).
    found: &'static str,
}

impl Refusal {
    fn describe(&self) -> String {
        format!(
            "`{}` is {}, {}",
            display_path(&self.pointer),
            self.found,
            self.message
        )
    }
}

/// What was done to one refused value.
#[derive(Debug, Clone, PartialEq)]
struct Fix {
    refusal: Refusal,
    /// The property left out (the value's own, or the nearest holding
    /// it); `None` when the value was made `null`.
    left_out: Option<String>,
}

/// The values `validator` refuses in `value`, each once.
fn refusals(validator: &jsonschema::Validator, value: &Value) -> Vec<Refusal> {
    let mut out: Vec<Refusal> = Vec::new();
    for e in validator.iter_errors(value).take(MAX_FIXES) {
        let pointer = e.instance_path().as_str().to_string();
        if out.iter().any(|r| r.pointer == pointer) {
            continue;
        }
        let found = value.pointer(&pointer).map_or("missing", json_kind);
        out.push(Refusal {
            pointer,
            message: says(&e),
            found,
        });
    }
    out
}

/// What the schema says of a refused value, without the value: "the
/// schema says string" for a type, the validator's words otherwise.
fn says(e: &jsonschema::ValidationError<'_>) -> String {
    use jsonschema::error::{TypeKind, ValidationErrorKind};
    let ValidationErrorKind::Type { kind } = e.kind() else {
        return e.masked().to_string();
    };
    let mut types: Vec<&str> = match kind {
        TypeKind::Single(t) => vec![t.as_str()],
        TypeKind::Multiple(set) => set
            .iter()
            .map(|t| t.as_str())
            .filter(|t| *t != "null")
            .collect(),
    };
    if types.is_empty() {
        types.push("null");
    }
    format!("the schema says {}", types.join(" or "))
}

/// Makes `value` fit `validator`, returning what was changed; `Err` when
/// it cannot: the top level itself is refused, or nothing of a non-empty
/// result would be left. Each round handles the innermost refused values
/// (one whose descendant is also refused waits: fixing the descendant may
/// be enough); a value is first made `null`, and left out if that is
/// refused too.
fn repair(validator: &jsonschema::Validator, value: &mut Value) -> Result<Vec<Fix>, ()> {
    let had_content = value.as_object().is_some_and(|m| !m.is_empty());
    let mut fixes: Vec<Fix> = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let refused = refusals(validator, value);
        if refused.is_empty() {
            break;
        }
        let innermost: Vec<&Refusal> = refused
            .iter()
            .filter(|r| {
                !refused
                    .iter()
                    .any(|o| o.pointer.starts_with(&format!("{}/", r.pointer)))
            })
            .collect();
        for refusal in innermost {
            if refusal.pointer.is_empty() {
                return Err(());
            }
            if value.pointer(&refusal.pointer).is_some_and(Value::is_null) {
                let removed = remove_nearest_property(value, &refusal.pointer).ok_or(())?;
                // Named by what the API sent, when it was not this null.
                let earlier = fixes
                    .iter()
                    .position(|f| f.refusal.pointer == refusal.pointer);
                let reported = match earlier {
                    Some(i) => fixes.remove(i).refusal,
                    None => refusal.clone(),
                };
                forget_within(&mut fixes, &removed);
                fixes.push(Fix {
                    refusal: reported,
                    left_out: Some(removed),
                });
            } else if let Some(slot) = value.pointer_mut(&refusal.pointer) {
                *slot = Value::Null;
                forget_within(&mut fixes, &refusal.pointer);
                fixes.push(Fix {
                    refusal: refusal.clone(),
                    left_out: None,
                });
            }
        }
    }
    if !validator.is_valid(value) {
        return Err(());
    }
    if had_content && value.as_object().is_some_and(Map::is_empty) {
        return Err(());
    }
    Ok(fixes)
}

/// Drops the fixes inside `pointer`, which a later fix replaced whole.
fn forget_within(fixes: &mut Vec<Fix>, pointer: &str) {
    let prefix = format!("{pointer}/");
    fixes.retain(|f| !f.refusal.pointer.starts_with(&prefix));
}

/// Removes the object property at `pointer`, or the nearest one holding
/// it (an array item cannot be removed without moving the others), and
/// returns the pointer removed; `None` when there is none below the top.
fn remove_nearest_property(value: &mut Value, pointer: &str) -> Option<String> {
    let mut at = pointer.to_string();
    while let Some(cut) = at.rfind('/') {
        let (parent, token) = (&at[..cut], &at[cut + 1..]);
        if let Some(Value::Object(map)) = value.pointer_mut(parent) {
            map.remove(&unescape(token))?;
            return Some(at);
        }
        at.truncate(cut);
    }
    None
}

/// The note before the response text of a repaired result.
fn repair_note(fixes: &[Fix]) -> String {
    let mut named: Vec<String> = fixes
        .iter()
        .take(NAMED_FIXES)
        .map(|f| {
            let done = match &f.left_out {
                None => "shown as null".to_string(),
                Some(p) if *p == f.refusal.pointer => "left out".to_string(),
                Some(p) => format!("left out with `{}`", display_path(p)),
            };
            format!("{} ({done})", f.refusal.describe())
        })
        .collect();
    if fixes.len() > NAMED_FIXES {
        named.push(format!("and {} more", fixes.len() - NAMED_FIXES));
    }
    format!(
        "Note: the call succeeded, but some values in the response do not match the schema in the API's own description, so structuredContent differs from the response there: {}. The response as received follows.",
        named.join("; ")
    )
}

/// `.items[3].name` for `/items/3/name`: the place in jq's terms.
fn display_path(pointer: &str) -> String {
    if pointer.is_empty() {
        return ".".to_string();
    }
    let mut out = String::new();
    for token in pointer.split('/').skip(1) {
        let token = unescape(token);
        if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{token}]"));
        } else if !token.is_empty()
            && token.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !token.starts_with(|c: char| c.is_ascii_digit())
        {
            out.push('.');
            out.push_str(&token);
        } else {
            out.push_str(&format!("[{}]", Value::String(token)));
        }
    }
    out
}

/// An RFC 6901 reference token as the property name it stands for.
fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
#[path = "conform_tests.rs"]
mod tests;
