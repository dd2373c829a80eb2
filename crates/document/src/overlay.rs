//! OpenAPI Overlay 1.0 (<https://spec.openapis.org/overlay/v1.0.0.html>):
//! documents of ordered actions that change an OpenAPI document someone
//! else owns — rename, re-describe, hide or annotate (`x-mcp`) operations —
//! applied to the root document as read, before anything else looks at it.
//!
//! Each action selects nodes with a JSONPath target (RFC 9535, via
//! `serde_json_path`), then either removes them from their parent
//! (`remove: true`) or merges `update` into them: into an object, the
//! update's properties are merged recursively (objects merge, arrays
//! append, anything else replaces); into an array, the update is appended
//! (an array update appends each of its items). Actions apply in order,
//! each to the result of the previous one.
//!
//! Problems point into the overlay file, with line and JSON pointer: an
//! unreadable file or one that is not an Overlay document, an action
//! without a target or with an invalid JSONPath, an update of the wrong
//! shape, are errors (applying part of an overlay could expose what it
//! meant to hide); a target that matches nothing is a warning.

use serde_json::{Map, Value};
use serde_json_path::JsonPath;

use super::diag::Diagnostic;
use super::locate;
use super::parse::parse_text;

/// A parsed, checked Overlay document.
#[derive(Debug)]
pub struct Overlay {
    display: String,
    source: String,
    actions: Vec<Action>,
}

#[derive(Debug)]
struct Action {
    index: usize,
    target: String,
    path: JsonPath,
    update: Option<Value>,
    remove: bool,
}

impl Overlay {
    /// Parses and checks an Overlay document read from `display`.
    pub fn parse(text: &str, display: &str) -> Result<Self, Diagnostic> {
        let value = parse_text(text, display)?;
        let at = |pointer: &str, message: String| {
            Diagnostic::error(display, pointer, message).at_line(locate::line_of(text, pointer))
        };
        let Value::Object(root) = &value else {
            return Err(at(
                "",
                "not an Overlay document: the top level must be a mapping".into(),
            ));
        };
        match root.get("overlay") {
            Some(Value::String(v)) if v.starts_with("1.") => {}
            Some(v) => {
                return Err(at(
                    "/overlay",
                    format!("unsupported Overlay version {v}: expected 1.0.x"),
                ));
            }
            None => {
                return Err(at(
                    "",
                    "not an Overlay document: no `overlay: 1.0.0` field at the top level".into(),
                ));
            }
        }
        let Some(Value::Array(items)) = root.get("actions") else {
            return Err(at(
                "",
                "not an Overlay document: `actions` (a list of actions) is missing or not a list"
                    .into(),
            ));
        };
        let mut actions = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let here = format!("/actions/{index}");
            let Value::Object(action) = item else {
                return Err(at(&here, "an action must be a mapping".into()));
            };
            let Some(target) = action.get("target").and_then(Value::as_str) else {
                return Err(at(
                    &here,
                    "the action has no `target` (a JSONPath such as `$.paths['/pets'].get`)".into(),
                ));
            };
            let path = JsonPath::parse(target).map_err(|e| {
                at(
                    &format!("{here}/target"),
                    format!(
                        "invalid JSONPath `{target}` at character {}: {}",
                        e.position() + 1,
                        e.message()
                    ),
                )
            })?;
            let remove = match action.get("remove") {
                None | Some(Value::Bool(false)) => false,
                Some(Value::Bool(true)) => true,
                Some(other) => {
                    return Err(at(
                        &format!("{here}/remove"),
                        format!("`remove` must be true or false, not {other}"),
                    ));
                }
            };
            actions.push(Action {
                index,
                target: target.to_string(),
                path,
                update: action.get("update").cloned(),
                remove,
            });
        }
        Ok(Self {
            display: display.to_string(),
            source: text.to_string(),
            actions,
        })
    }

    /// The file the overlay came from, as the user named it.
    pub fn display(&self) -> &str {
        &self.display
    }

    /// Applies every action, in order, to `doc`. Warnings (targets that
    /// match nothing, actions that do nothing) are returned; an update that
    /// does not fit its target is an error.
    pub fn apply(&self, doc: &mut Value) -> Result<Vec<Diagnostic>, Diagnostic> {
        let mut warnings = Vec::new();
        for action in &self.actions {
            let here = format!("/actions/{}", action.index);
            let pointers: Vec<String> = action
                .path
                .query_located(doc)
                .locations()
                .map(|l| l.to_json_pointer())
                .collect();
            if pointers.is_empty() {
                warnings.push(self.warning(
                    &format!("{here}/target"),
                    format!(
                        "the target `{}` matches nothing in the document; the action does nothing",
                        action.target
                    ),
                ));
                continue;
            }
            if action.remove {
                remove_all(doc, pointers);
            } else if let Some(update) = &action.update {
                for pointer in &pointers {
                    let Some(node) = doc.pointer_mut(pointer) else {
                        continue;
                    };
                    self.update(node, update, pointer, &here)?;
                }
            } else {
                warnings.push(self.warning(
                    &here,
                    "the action has neither `update` nor `remove: true`; it does nothing".into(),
                ));
            }
        }
        Ok(warnings)
    }

    fn update(
        &self,
        node: &mut Value,
        update: &Value,
        pointer: &str,
        here: &str,
    ) -> Result<(), Diagnostic> {
        match (node, update) {
            (Value::Object(target), Value::Object(patch)) => merge_object(target, patch),
            (Value::Array(items), Value::Array(more)) => items.extend(more.iter().cloned()),
            (Value::Array(items), entry) => items.push(entry.clone()),
            (Value::Object(_), _) => {
                return Err(self.error(
                    &format!("{here}/update"),
                    format!(
                        "the target selects an object (`{pointer}` in the document), so `update` must be a mapping of the properties to merge"
                    ),
                ));
            }
            (_, _) => {
                return Err(self.error(
                    &format!("{here}/target"),
                    format!(
                        "the target selects a primitive value (`{pointer}` in the document); Overlay targets must select objects or arrays (select the containing object and update the property)"
                    ),
                ));
            }
        }
        Ok(())
    }

    fn warning(&self, pointer: &str, message: String) -> Diagnostic {
        Diagnostic::warning(&self.display, pointer, message)
            .at_line(locate::line_of(&self.source, pointer))
    }

    fn error(&self, pointer: &str, message: String) -> Diagnostic {
        Diagnostic::error(&self.display, pointer, message)
            .at_line(locate::line_of(&self.source, pointer))
    }
}

/// Recursive merge: objects merge, arrays append, anything else replaces.
fn merge_object(target: &mut Map<String, Value>, patch: &Map<String, Value>) {
    for (key, value) in patch {
        match (target.get_mut(key), value) {
            (Some(Value::Object(t)), Value::Object(p)) => merge_object(t, p),
            (Some(Value::Array(t)), Value::Array(p)) => t.extend(p.iter().cloned()),
            _ => {
                target.insert(key.clone(), value.clone());
            }
        }
    }
}

/// Removes the nodes at `pointers` from their parents: array items from
/// the last index down, so earlier removals do not shift later ones.
fn remove_all(doc: &mut Value, pointers: Vec<String>) {
    let mut split: Vec<(String, String)> = pointers
        .into_iter()
        .filter_map(|p| {
            let (parent, token) = p.rsplit_once('/')?;
            Some((
                parent.to_string(),
                token.replace("~1", "/").replace("~0", "~"),
            ))
        })
        .collect();
    // Deepest first, and within one array the highest index first.
    split.sort_by(|(pa, ta), (pb, tb)| {
        pb.len()
            .cmp(&pa.len())
            .then_with(|| match (ta.parse::<usize>(), tb.parse::<usize>()) {
                (Ok(a), Ok(b)) => b.cmp(&a),
                _ => tb.cmp(ta),
            })
    });
    for (parent, token) in split {
        match doc.pointer_mut(&parent) {
            Some(Value::Object(map)) => {
                map.shift_remove(&token);
            }
            Some(Value::Array(items)) => {
                if let Ok(i) = token.parse::<usize>()
                    && i < items.len()
                {
                    items.remove(i);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
#[path = "overlay_tests.rs"]
mod tests;
