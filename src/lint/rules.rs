//! The lint rules and the checks behind them.

use std::collections::HashMap;

use serde_json::Value;

use super::{Finding, Level, LintOptions, Rule};
use crate::document::Document;
use crate::document::model::pointers;
use crate::footprint::Footprint;
use crate::runtime::catalog::{Catalog, ToolDef};
use crate::tools::bundle::json_size;

/// Every rule `lint` applies.
pub const RULES: &[Rule] = &[
    Rule {
        id: "operation-not-a-tool",
        level: Level::Error,
        summary: "An operation cannot be made into a tool (a broken `$ref`, a malformed parameter or `x-mcp`)",
        hint: "Fix what the message names (point the `$ref` at a component that exists, give each parameter a `name` and an `in`); until then the operation is missing from every listing.",
    },
    Rule {
        id: "other-generator-extension",
        level: Level::Note,
        summary: "An operation's tool is shaped by another generator's extension (`x-speakeasy-mcp`, `x-mint.mcp`, Kong's `x-kong-mcp-*`), read as `x-mcp`",
        hint: "Nothing to fix: the extension is honoured (left out, name, title, description); `x-mcp` wins where both say something.",
    },
    Rule {
        id: "effect-from-words",
        level: Level::Note,
        summary: "An operation's words say it does more or less than its method: a POST/PUT/PATCH that deletes, resets or revokes is annotated destructive (and confirmed); a POST that searches, filters or queries is annotated read-only",
        hint: "Nothing to fix when the words are right; when they are not, settle it in the document or an overlay with the `x-mcp` line the message gives.",
    },
    Rule {
        id: "duplicate-operation-id",
        level: Level::Error,
        summary: "Two operations share an operationId (OpenAPI requires each to be unique)",
        hint: "Give each operation its own operationId; tools, links, overlays and generated clients name operations by it.",
    },
    Rule {
        id: "path-parameter-undeclared",
        level: Level::Error,
        summary: "A `{slot}` of the path template has no `in: path` parameter",
        hint: "Declare the parameter (in the operation's or the path item's `parameters`) with `in: path`, `required: true`, a schema and a description.",
    },
    Rule {
        id: "path-parameter-not-in-template",
        level: Level::Error,
        summary: "An `in: path` parameter has no `{slot}` in the path template",
        hint: "Rename the parameter to match a `{slot}` of the path, add the slot to the path, or make it a query parameter.",
    },
    Rule {
        id: "missing-description",
        level: Level::Warning,
        summary: "The operation has neither a summary nor a description",
        hint: "Add a summary (one line: what it does) and a description (when to use it, what it returns), or set x-mcp.description (an Overlay can add it to a document you do not own).",
    },
    Rule {
        id: "vague-description",
        level: Level::Note,
        summary: "The tool's description is too short to tell a model when to use it",
        hint: "Say what the operation does, when to use it rather than its neighbours, and what it returns, in a sentence or two.",
    },
    Rule {
        id: "parameter-without-description",
        level: Level::Note,
        summary: "An argument has no description",
        hint: "Describe what the argument means and its format; a model guesses from the name otherwise.",
    },
    Rule {
        id: "parameter-without-type",
        level: Level::Warning,
        summary: "An argument's schema gives no type",
        hint: "Give the argument a schema with a type (string, integer, ...), so clients validate it and a model knows what to send.",
    },
    Rule {
        id: "free-text-should-be-enum",
        level: Level::Warning,
        summary: "A string argument lists its allowed values in prose instead of an enum",
        hint: "Move the values into `enum`, so a model picks one instead of guessing spelling and case.",
    },
    Rule {
        id: "request-body-without-schema",
        level: Level::Warning,
        summary: "A request body has no schema",
        hint: "Give each request body media type a schema; without one the tool takes an untyped `body`.",
    },
    Rule {
        id: "response-without-schema",
        level: Level::Note,
        summary: "A JSON success response has no schema",
        hint: "Give the 2xx JSON response a schema, so the tool can advertise an outputSchema and a model knows what comes back.",
    },
    Rule {
        id: "name-needed-suffix",
        level: Level::Warning,
        summary: "The tool's name needed a `_2`-style suffix or a hash to be unique",
        hint: "Give the operation a distinct operationId, or set x-mcp.name (an Overlay can add it).",
    },
    Rule {
        id: "near-duplicate",
        level: Level::Warning,
        summary: "Two operations present themselves the same way to a model",
        hint: "Make the summaries say how the operations differ, or exclude one with x-mcp: false.",
    },
    Rule {
        id: "schema-over-budget",
        level: Level::Warning,
        summary: "The tool's inputSchema is over the schema budget even after summarizing",
        hint: "Split the operation, flatten its arguments, or raise --schema-budget knowingly.",
    },
    Rule {
        id: "list-over-auto-budget",
        level: Level::Note,
        summary: "The whole tool list is over the token budget of `--tools auto`",
        hint: "Serve with --tools discovery or toolsets, or select fewer operations (--tag, --path, --read-only).",
    },
];

/// The rule with id `id` (a known one).
pub(super) fn rule(id: &str) -> &'static Rule {
    RULES.iter().find(|r| r.id == id).expect("known rule")
}

/// Runs every rule over the tools of `doc`.
pub(super) fn check(
    catalog: &Catalog,
    doc: &Document,
    document: &str,
    options: &LintOptions,
    footprint: &Footprint,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut by_summary: HashMap<String, &str> = HashMap::new();
    for tool in &catalog.tools {
        // An Arazzo workflow (`--arazzo`) is no operation of the document:
        // its steps' tools are checked.
        if tool.http.workflow.is_some() {
            continue;
        }
        let method = tool.http.method.to_ascii_lowercase();
        let op = doc.operation(&tool.http.path, &method);
        let op_pointer =
            pointers::operation(&tool.http.path, op.as_ref().map_or(&method, |o| o.method));
        let mut find = |id: &str, pointer: &str, message: String| {
            let r = rule(id);
            out.push(Finding {
                rule: r.id,
                level: r.level,
                tool: Some(tool.name.clone()),
                message,
                hint: r.hint,
                file: document.to_string(),
                pointer: pointer.to_string(),
                line: None,
            });
        };
        let given = |s: Option<&str>| s.map(str::trim).is_some_and(|s| !s.is_empty());
        let described = op.as_ref().is_some_and(|o| {
            given(o.summary())
                || given(o.description())
                || o.x_mcp().is_ok_and(|x| x.description_given)
        });
        if !described {
            find(
                "missing-description",
                &op_pointer,
                format!(
                    "`{}` ({} {}) has no summary or description; the model sees only \"{}\"",
                    tool.name,
                    tool.http.method,
                    tool.http.path,
                    first_line(&tool.description)
                ),
            );
        } else if tool.description.split_whitespace().count() < 3 {
            find(
                "vague-description",
                &op_pointer,
                format!(
                    "`{}` is described only as \"{}\"",
                    tool.name,
                    first_line(&tool.description)
                ),
            );
        }
        // The full schema: the listed one may have lost descriptions to the
        // budget.
        let full = tool.input_full.as_ref().unwrap_or(&tool.input_schema);
        let props = full["properties"].as_object();
        for (arg, schema) in props.into_iter().flatten() {
            check_argument(tool, arg, schema, &op_pointer, &mut find);
        }
        let body = op.as_ref().and_then(|o| o.request_body().ok().flatten());
        for media in body.map(|b| b.media_types()).unwrap_or_default() {
            if media.schema().is_none() {
                find(
                    "request-body-without-schema",
                    &pointers::request_body(&op_pointer),
                    format!(
                        "`{}`: the `{}` request body has no schema",
                        tool.name, media.name
                    ),
                );
            }
        }
        let codes = op.as_ref().map(|o| o.response_codes()).unwrap_or_default();
        for status in codes {
            if !status.starts_with('2') {
                continue;
            }
            let Some(response) = op.as_ref().and_then(|o| o.response(status)) else {
                continue;
            };
            for media in response.media_types() {
                if media.name.contains("json")
                    && media.schema().is_none()
                    && media.item_schema().is_none()
                {
                    let media = media.name;
                    find(
                        "response-without-schema",
                        &pointers::response(&op_pointer, status),
                        format!(
                            "`{}`: the {status} `{media}` response has no schema",
                            tool.name
                        ),
                    );
                }
            }
        }
        if suffixed(&tool.name) {
            find(
                "name-needed-suffix",
                &op_pointer,
                format!(
                    "`{}` needed a suffix to be unique: another operation reads the same",
                    tool.name
                ),
            );
        }
        let key = tool.title.trim().to_ascii_lowercase();
        if !key.is_empty() {
            if let Some(first) = by_summary.get(&key) {
                find(
                    "near-duplicate",
                    &op_pointer,
                    format!(
                        "`{}` has the same title as `{first}` (\"{}\"); a model cannot tell them apart",
                        tool.name, tool.title
                    ),
                );
            } else {
                by_summary.insert(key, &tool.name);
            }
        }
        let size = json_size(&tool.input_schema);
        if options.schema_budget > 0 && size > options.schema_budget {
            find(
                "schema-over-budget",
                &op_pointer,
                format!(
                    "`{}`'s inputSchema is {size} bytes, over the budget of {}",
                    tool.name, options.schema_budget
                ),
            );
        }
    }
    let estimated = crate::footprint::estimate_full(catalog);
    if estimated > options.auto_budget {
        let r = rule("list-over-auto-budget");
        out.push(Finding {
            rule: r.id,
            level: r.level,
            tool: None,
            message: format!(
                "the {} tools take {} tokens ({} by the server's estimate), over the {} of --tools auto, which then lists the discovery meta-tools ({} tokens) instead",
                catalog.tools.len(),
                footprint.full,
                estimated,
                options.auto_budget,
                footprint.discovery
            ),
            hint: r.hint,
            file: document.to_string(),
            pointer: pointers::PATHS.into(),
            line: None,
        });
    }
    out
}

fn check_argument(
    tool: &ToolDef,
    arg: &str,
    schema: &Value,
    op_pointer: &str,
    find: &mut impl FnMut(&str, &str, String),
) {
    let has = |k: &str| schema.get(k).is_some();
    let description = schema.get("description").and_then(Value::as_str);
    if description.is_none_or(|d| d.trim().is_empty()) && !has("$ref") {
        find(
            "parameter-without-description",
            op_pointer,
            format!("`{}`: argument `{arg}` has no description", tool.name),
        );
    }
    let typed = ["type", "$ref", "enum", "const", "anyOf", "oneOf", "allOf"]
        .iter()
        .any(|k| has(k));
    if !typed {
        find(
            "parameter-without-type",
            op_pointer,
            format!("`{}`: argument `{arg}` has no type", tool.name),
        );
    }
    let is_string = schema.get("type").and_then(Value::as_str) == Some("string");
    if is_string
        && !has("enum")
        && let Some(d) = description
        && lists_values(d)
    {
        find(
            "free-text-should-be-enum",
            op_pointer,
            format!(
                "`{}`: argument `{arg}` lists its values in prose (\"{}\")",
                tool.name,
                excerpt(d)
            ),
        );
    }
}

/// Whether a description enumerates allowed values in words: "one of:
/// `a`, `b`", "either `x` or `y`", "possible values are ...".
fn lists_values(d: &str) -> bool {
    let lower = d.to_ascii_lowercase();
    [
        "one of:",
        "one of `",
        "either `",
        "possible values",
        "allowed values",
        "valid values",
    ]
    .iter()
    .any(|p| lower.contains(p))
}

/// A name that ends in `_2`… or an 8-hex-digit hash.
fn suffixed(name: &str) -> bool {
    let Some((_, tail)) = name.rsplit_once('_') else {
        return false;
    };
    (!tail.is_empty()
        && tail.len() <= 3
        && tail.chars().all(|c| c.is_ascii_digit())
        && tail != "0"
        && tail != "1")
        || (tail.len() == 8
            && tail.chars().all(|c| c.is_ascii_hexdigit())
            && tail.chars().any(|c| c.is_ascii_digit()))
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or_default().trim()
}

fn excerpt(s: &str) -> String {
    let line = first_line(s);
    match line.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
