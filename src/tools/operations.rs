//! Walking the document's operations: every (path, method) pair, with its
//! path item resolved, and path-item parameters merged into the operation's
//! (the operation wins on the same name and location).

use serde_json::Value;

use crate::document::refs::Located;
use crate::document::{Diagnostic, Document};
use crate::runtime::binding::{Server, ServerVariable};

/// The HTTP methods OpenAPI path items can hold.
const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// One operation of the document.
pub struct Operation<'a> {
    /// Path template.
    pub path: &'a str,
    /// Lower-case method.
    pub method: &'static str,
    /// The operation object.
    pub node: Located<'a>,
    /// The (resolved) path item holding it.
    pub item: Located<'a>,
    /// Parameters, resolved and merged (path item + operation).
    pub params: Vec<Located<'a>>,
}

impl Operation<'_> {
    /// A string field of the operation object.
    pub fn string(&self, key: &str) -> Option<String> {
        self.node
            .value
            .get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
    }

    /// The operation's tags.
    pub fn tags(&self) -> Vec<String> {
        self.node
            .value
            .get("tags")
            .and_then(Value::as_array)
            .map(|t| {
                t.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Where this operation is, for diagnostics.
    pub fn diag(&self, doc: &Document, pointer: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(doc.display_name(self.node.file), pointer, message)
    }
}

/// How many operations the document declares under `paths` (method keys
/// of every path item that resolves), whether or not they can be used:
/// the denominator when saying what became of them.
pub fn declared_count(doc: &Document) -> usize {
    let root = doc.root_node();
    let Some(paths) = root.child("paths") else {
        return 0;
    };
    let Value::Object(map) = paths.value else {
        return 0;
    };
    map.keys()
        .filter(|path| path.starts_with('/'))
        .filter_map(|path| doc.deref(paths.child(path)?).ok())
        .filter_map(|item| {
            item.value
                .as_object()
                .map(|m| m.keys().filter(|k| METHODS.contains(&k.as_str())).count())
        })
        .sum()
}

/// All operations in document order. A path item or parameter that cannot
/// be resolved skips what it belongs to, with a diagnostic.
pub fn collect<'a>(doc: &'a Document, diags: &mut Vec<Diagnostic>) -> Vec<Operation<'a>> {
    let root = doc.root_node();
    let Some(paths) = root.child("paths") else {
        return Vec::new();
    };
    let Value::Object(map) = paths.value else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for path in map.keys() {
        if !path.starts_with('/') {
            if !path.starts_with("x-") {
                diags.push(Diagnostic::warning(
                    doc.display_name(paths.file),
                    crate::document::diag::push_token(&paths.pointer, path),
                    format!("path `{path}` does not start with `/`; skipped"),
                ));
            }
            continue;
        }
        let Some(item) = paths.child(path) else {
            continue;
        };
        let item = match doc.deref(item) {
            Ok(i) if i.value.is_object() => i,
            Ok(i) => {
                diags.push(Diagnostic::warning(
                    doc.display_name(i.file),
                    i.pointer,
                    "a path item must be a mapping; skipped",
                ));
                continue;
            }
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        let Value::Object(item_map) = item.value else {
            continue;
        };
        let shared = match resolve_params(doc, &item) {
            Ok(p) => p,
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        for key in item_map.keys() {
            let Some(method) = METHODS.iter().copied().find(|m| *m == key) else {
                continue;
            };
            let Some(node) = item.child(key) else {
                continue;
            };
            if !node.value.is_object() {
                diags.push(Diagnostic::warning(
                    doc.display_name(node.file),
                    node.pointer,
                    "an operation must be a mapping; skipped",
                ));
                continue;
            }
            let own = match resolve_params(doc, &node) {
                Ok(p) => p,
                Err(d) => {
                    diags.push(d);
                    continue;
                }
            };
            out.push(Operation {
                path,
                method,
                params: merge_params(&shared, own),
                node,
                item: item.clone(),
            });
        }
    }
    out
}

/// The operation at `path` (a key of `paths`) and lower-case `method`,
/// resolved exactly as [`collect`] resolves it; `None` when it is not
/// there or cannot be read (`collect` said why).
pub fn find<'a>(doc: &'a Document, path: &str, method: &str) -> Option<Operation<'a>> {
    let root = doc.root_node();
    let paths = root.child("paths")?;
    let (path, _) = paths.value.as_object()?.get_key_value(path)?;
    let item = doc.deref(paths.child(path)?).ok()?;
    if !item.value.is_object() {
        return None;
    }
    let method = METHODS.iter().copied().find(|m| *m == method)?;
    let node = item.child(method)?;
    if !node.value.is_object() {
        return None;
    }
    let shared = resolve_params(doc, &item).ok()?;
    let own = resolve_params(doc, &node).ok()?;
    Some(Operation {
        path,
        method,
        params: merge_params(&shared, own),
        node,
        item,
    })
}

/// The `parameters` of a path item or operation, each `$ref` followed.
fn resolve_params<'a>(
    doc: &'a Document,
    owner: &Located<'a>,
) -> Result<Vec<Located<'a>>, Diagnostic> {
    let Some(list) = owner.child("parameters") else {
        return Ok(Vec::new());
    };
    let Value::Array(items) = list.value else {
        return Err(Diagnostic::warning(
            doc.display_name(list.file),
            list.pointer,
            "`parameters` must be a list; the operation is skipped",
        ));
    };
    let mut out = Vec::with_capacity(items.len());
    for i in 0..items.len() {
        let Some(p) = list.index(i) else { continue };
        let p = doc.deref(p)?;
        if p.value.get("name").and_then(Value::as_str).is_none()
            || p.value.get("in").and_then(Value::as_str).is_none()
        {
            return Err(Diagnostic::warning(
                doc.display_name(p.file),
                p.pointer,
                "a parameter needs a string `name` and `in`; the operation is skipped",
            ));
        }
        out.push(p);
    }
    Ok(out)
}

fn key_of<'a>(p: &Located<'a>) -> (&'a str, &'a str) {
    let s = |k| p.value.get(k).and_then(Value::as_str).unwrap_or_default();
    (s("name"), s("in"))
}

/// Path-item parameters first, overridden by the operation's on (name, in).
fn merge_params<'a>(shared: &[Located<'a>], own: Vec<Located<'a>>) -> Vec<Located<'a>> {
    let mut out: Vec<Located<'a>> = Vec::with_capacity(shared.len() + own.len());
    for p in shared {
        if !own.iter().any(|o| key_of(o) == key_of(p)) {
            out.push(p.clone());
        }
    }
    for p in own {
        // A duplicate within one list: the last one wins.
        out.retain(|o| key_of(o) != key_of(&p));
        out.push(p);
    }
    out
}

/// Servers for an operation: its own, else its path item's, else the
/// document's. Relative URLs are resolved against the document URL when it
/// was fetched over HTTP.
pub fn servers(doc: &Document, op: &Operation<'_>) -> Vec<Server> {
    let root = doc.root_node();
    let list = [&op.node, &op.item, &root].into_iter().find_map(|n| {
        n.value
            .get("servers")
            .and_then(Value::as_array)
            .filter(|s| !s.is_empty())
    });
    let Some(list) = list else {
        return Vec::new();
    };
    let base = url::Url::parse(doc.root_key())
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"));
    list.iter()
        .filter_map(|s| server(s, base.as_ref()))
        .collect()
}

fn server(value: &Value, base: Option<&url::Url>) -> Option<Server> {
    let url = value.get("url")?.as_str()?;
    let url = match base {
        Some(b) if !url.contains("://") && !url.starts_with('{') => b
            .join(url)
            .map(|u| u.to_string())
            .unwrap_or_else(|_| url.to_string()),
        _ => url.to_string(),
    };
    let variables = value
        .get("variables")
        .and_then(Value::as_object)
        .map(|vars| {
            vars.iter()
                .map(|(name, v)| ServerVariable {
                    name: name.clone(),
                    default: v.get("default").map(scalar_text).unwrap_or_default(),
                    allowed: v
                        .get("enum")
                        .and_then(Value::as_array)
                        .map(|e| e.iter().map(scalar_text).collect())
                        .unwrap_or_default(),
                })
                .collect()
        })
        .unwrap_or_default();
    Some(Server { url, variables })
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
