//! Walking the document's operations: every (path, method) pair, with its
//! path item resolved, and path-item parameters merged into the
//! operation's (the operation wins on the same name and location).

use serde_json::Value;

use crate::lazy::LazyMap;

use super::bodies::RequestBody;
use super::parameters::Parameter;
use super::responses::Response;
use super::xmcp::{Dialect, XMcp};
use crate::diag::push_token;
use crate::refs::Located;
use crate::{Diagnostic, Document};

/// The HTTP methods OpenAPI path items can hold as fixed fields
/// (`query` since OpenAPI 3.2).
use super::pointers::FIXED_METHODS as METHODS;

/// OpenAPI 3.2's map of further operations of a path item, keyed by the
/// HTTP method as sent (`COPY`, `LINK`, `PURGE`).
use super::pointers::ADDITIONAL_OPERATIONS as ADDITIONAL;

/// One operation of the document, its path item resolved and its
/// parameters merged. Everything else resolves on demand.
#[derive(Clone)]
pub struct Operation<'d> {
    doc: &'d Document,
    /// Path template (a key of `paths`).
    pub path: &'d str,
    /// The method: lower-case for a path item's fixed fields (`get`,
    /// `query`), as written for a key of `additionalOperations` (`COPY`);
    /// upper-cased on the wire either way.
    pub method: &'d str,
    node: Located<'d>,
    item: Located<'d>,
    /// Parameters, resolved and merged (path item + operation), in order.
    pub params: Vec<Parameter<'d>>,
}

impl<'d> Operation<'d> {
    fn text(&self, key: &str) -> Option<&'d str> {
        self.node.value.get(key).and_then(Value::as_str)
    }

    /// The document the operation belongs to.
    pub fn document(&self) -> &'d Document {
        self.doc
    }

    /// The `{name}` slots of the path template, in order, each once: what
    /// `in: path` parameters must match.
    pub fn template_slots(&self) -> Vec<&'d str> {
        let mut out: Vec<&'d str> = Vec::new();
        let mut rest = self.path;
        while let Some(start) = rest.find('{') {
            let Some(len) = rest[start..].find('}') else {
                break;
            };
            let name = &rest[start + 1..start + len];
            if !name.is_empty() && !out.contains(&name) {
                out.push(name);
            }
            rest = &rest[start + len + 1..];
        }
        out
    }

    /// `operationId`.
    pub fn operation_id(&self) -> Option<&'d str> {
        self.text("operationId")
    }

    /// `summary`.
    pub fn summary(&self) -> Option<&'d str> {
        self.text("summary")
    }

    /// `description`.
    pub fn description(&self) -> Option<&'d str> {
        self.text("description")
    }

    /// The operation's tags (strings only).
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

    /// `deprecated: true`.
    pub fn deprecated(&self) -> bool {
        self.node.value.get("deprecated") == Some(&Value::Bool(true))
    }

    /// The `x-mcp` extension, with what other generators' extensions of
    /// the same meaning add (see [`XMcp`]); a malformed `x-mcp` is a
    /// diagnostic.
    pub fn x_mcp(&self) -> Result<XMcp, Diagnostic> {
        let mut x = XMcp::read(self.doc, self.node.child("x-mcp"))?;
        if let Some(node) = self.node.child("x-speakeasy-mcp") {
            x.merge(Dialect {
                name: "x-speakeasy-mcp",
                node,
                switch: ("disabled", true),
            });
        }
        if let Some(node) = self.node.child("x-mint").and_then(|m| m.child("mcp")) {
            x.merge(Dialect {
                name: "x-mint.mcp",
                node,
                switch: ("enabled", false),
            });
        }
        x.merge_kong(self.node.value);
        Ok(x)
    }

    /// The request body, its `$ref` followed; `Ok(None)` without one, a
    /// diagnostic when the reference cannot be followed.
    pub fn request_body(&self) -> Result<Option<RequestBody<'d>>, Diagnostic> {
        let Some(rb) = self.node.child("requestBody") else {
            return Ok(None);
        };
        let rb = self.doc.deref(rb)?;
        Ok(Some(RequestBody::new(self.doc, rb)))
    }

    /// The keys of `responses` in document order (status codes, ranges
    /// like `2XX`, `default`; not `x-` extensions).
    pub fn response_codes(&self) -> Vec<&'d str> {
        match self.node.value.get("responses") {
            Some(Value::Object(map)) => map
                .keys()
                .map(String::as_str)
                .filter(|c| !c.starts_with("x-"))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The response under `code`, its `$ref` followed (`None` when there is
    /// none or it cannot be followed).
    pub fn response(&self, code: &str) -> Option<Response<'d>> {
        let node = self.node.child("responses")?.child(code)?;
        let node = self.doc.deref(node).ok()?;
        Some(Response::new(self.doc, node))
    }

    /// How to name the operation's file to a user.
    pub fn file(&self) -> &'d str {
        self.doc.display_name(self.node.file)
    }

    /// The JSON pointer to the operation object in its file.
    pub fn pointer(&self) -> &str {
        &self.node.pointer
    }

    /// A warning about the operation itself.
    pub fn warning(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(self.file(), self.node.pointer.clone(), message)
    }

    /// A warning about the operation's member `key`.
    pub fn warning_at(&self, key: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(self.file(), push_token(&self.node.pointer, key), message)
    }

    pub(super) fn node(&self) -> &Located<'d> {
        &self.node
    }

    pub(super) fn item(&self) -> &Located<'d> {
        &self.item
    }
}

/// One entry of `paths` in document order: its key and the keys of its
/// path item (once its `$ref` is followed), for sorting findings.
#[derive(Debug, Clone)]
pub struct PathItemLayout {
    /// The path (a key of `paths`).
    pub path: String,
    /// The path item's keys in order (methods and others).
    pub keys: Vec<String>,
}

/// Path items of a document whose `paths` is kept as text (see
/// [`crate::lazy`]), parsed for one walk: the operations found
/// with them ([`Document::operations_in`], [`Document::operation_in`])
/// borrow them, and they are dropped after it. Empty for a document held
/// as a tree.
#[derive(Default)]
pub struct PathItems {
    /// (item position, parsed item), by position.
    items: Vec<(usize, Value)>,
}

impl PathItems {
    fn get(&self, at: usize) -> Option<&Value> {
        self.items
            .binary_search_by_key(&at, |(i, _)| *i)
            .ok()
            .map(|i| &self.items[i].1)
    }
}

impl Document {
    /// How many entries `paths` has.
    pub fn path_count(&self) -> usize {
        match self.lazy_paths() {
            Some(paths) => paths.len(),
            None => self
                .root()
                .get("paths")
                .and_then(Value::as_object)
                .map_or(0, |m| m.len()),
        }
    }

    /// How much reading path item `at` costs, in bytes of text (a flat
    /// 4 kB for a document held as a tree): to share the items out evenly.
    pub fn path_weight(&self, at: usize) -> usize {
        self.lazy_paths().map_or(4096, |p| p.text_len(at))
    }

    /// Path items `range` parsed for one walk (nothing when the document is
    /// a tree, or for an item kept already).
    pub fn path_items(&self, range: std::ops::Range<usize>) -> PathItems {
        self.parse_items(range, LazyMap::parse)
    }

    /// [`Document::path_items`] with only what planning tools reads of
    /// each (see [`LazyMap::parse_outline`]): for the planning walk.
    pub fn path_outlines(&self, range: std::ops::Range<usize>) -> PathItems {
        self.parse_items(range, LazyMap::parse_outline)
    }

    fn parse_items(
        &self,
        range: std::ops::Range<usize>,
        parse: fn(&LazyMap, usize) -> Value,
    ) -> PathItems {
        let Some(paths) = self.lazy_paths() else {
            return PathItems::default();
        };
        PathItems {
            items: range
                .filter(|at| paths.kept_already(*at).is_none())
                .map(|at| (at, parse(paths, at)))
                .collect(),
        }
    }

    /// The path item of `path` parsed for one walk (see
    /// [`Document::path_items`]).
    pub fn path_item(&self, path: &str) -> PathItems {
        match self.lazy_paths().and_then(|p| p.find(path)) {
            Some(at) => self.path_items(at..at + 1),
            None => PathItems::default(),
        }
    }

    /// The entries of `paths` at positions `range`, each with its node:
    /// read from `items` when parsed there, else kept (see
    /// [`crate::lazy::LazyMap::kept`]).
    fn path_entries<'a>(
        &'a self,
        items: Option<&'a PathItems>,
        range: std::ops::Range<usize>,
    ) -> Vec<(&'a str, Located<'a>)> {
        if let Some(paths) = self.lazy_paths() {
            let range = range.start.min(paths.len())..range.end.min(paths.len());
            return range
                .map(|at| {
                    let value = match (paths.kept_already(at), items.and_then(|i| i.get(at))) {
                        (Some(kept), _) => kept,
                        (None, Some(parsed)) => parsed,
                        (None, None) => paths.kept(at),
                    };
                    let key = paths.key(at);
                    let node = Located {
                        file: self.root_key(),
                        pointer: push_token("/paths", key),
                        value,
                    };
                    (key, node)
                })
                .collect();
        }
        let root = self.root_node();
        let Some(paths) = root.child("paths") else {
            return Vec::new();
        };
        let Value::Object(map) = paths.value else {
            return Vec::new();
        };
        map.keys()
            .enumerate()
            .skip(range.start)
            .take(range.len())
            .filter_map(|(_, key)| Some((key.as_str(), paths.child(key)?)))
            .collect()
    }

    /// How many operations the document declares under `paths` (method
    /// keys of every path item that resolves), whether or not they can be
    /// used: the denominator when saying what became of them.
    pub fn declared_operations(&self) -> usize {
        self.declared_in(None, 0..self.path_count())
    }

    /// [`Document::declared_operations`] among path items `range`, read
    /// from `items` (see [`Document::path_items`]).
    pub fn declared_in(&self, items: Option<&PathItems>, range: std::ops::Range<usize>) -> usize {
        self.path_entries(items, range)
            .into_iter()
            .filter(|(path, _)| path.starts_with('/'))
            .filter_map(|(_, item)| self.deref(item).ok())
            .filter_map(|item| {
                item.value.as_object().map(|m| {
                    m.keys().filter(|k| METHODS.contains(&k.as_str())).count()
                        + additional_methods(m).len()
                })
            })
            .sum()
    }

    /// Every key of `paths` with its path item's keys, in document order.
    pub fn paths_layout(&self) -> Vec<PathItemLayout> {
        self.path_entries(None, 0..self.path_count())
            .into_iter()
            .map(|(k, item)| {
                let item = self.deref(item).ok();
                let keys = item
                    .and_then(|i| i.value.as_object().map(|m| m.keys().cloned().collect()))
                    .unwrap_or_default();
                PathItemLayout {
                    path: k.to_string(),
                    keys,
                }
            })
            .collect()
    }

    /// All operations in document order. A path item or parameter that
    /// cannot be resolved skips what it belongs to, with a diagnostic.
    /// The path items are kept for as long as the document (see
    /// [`Document::operations_in`] for a walk that lets them go).
    pub fn operations(&self, diags: &mut Vec<Diagnostic>) -> Vec<Operation<'_>> {
        self.operations_in(None, 0..self.path_count(), diags)
    }

    /// The operations of path items `range`, as [`Document::operations`]
    /// finds them, reading the items parsed in `items` (see
    /// [`Document::path_items`]).
    pub fn operations_in<'a>(
        &'a self,
        items: Option<&'a PathItems>,
        range: std::ops::Range<usize>,
        diags: &mut Vec<Diagnostic>,
    ) -> Vec<Operation<'a>> {
        let mut out = Vec::new();
        for (path, item) in self.path_entries(items, range) {
            if !path.starts_with('/') {
                if !path.starts_with("x-") {
                    diags.push(Diagnostic::warning(
                        self.display_name(item.file),
                        item.pointer,
                        format!("path `{path}` does not start with `/`; skipped"),
                    ));
                }
                continue;
            }
            let item = match self.deref(item) {
                Ok(i) if i.value.is_object() => i,
                Ok(i) => {
                    diags.push(Diagnostic::warning(
                        self.display_name(i.file),
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
            let shared = match resolve_params(self, &item) {
                Ok(p) => p,
                Err(d) => {
                    diags.push(d);
                    continue;
                }
            };
            let fixed = item_map
                .keys()
                .filter_map(|key| METHODS.iter().copied().find(|m| *m == key))
                .filter_map(|m| Some((m, item.child(m)?)));
            let additional = additional_methods(item_map)
                .into_iter()
                .filter_map(|m| Some((m, item.child(ADDITIONAL)?.child(m)?)));
            for key in self.refused_additional(&item) {
                diags.push(key);
            }
            for (method, node) in fixed.chain(additional).collect::<Vec<_>>() {
                if !node.value.is_object() {
                    diags.push(Diagnostic::warning(
                        self.display_name(node.file),
                        node.pointer,
                        "an operation must be a mapping; skipped",
                    ));
                    continue;
                }
                let own = match resolve_params(self, &node) {
                    Ok(p) => p,
                    Err(d) => {
                        diags.push(d);
                        continue;
                    }
                };
                out.push(Operation {
                    doc: self,
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
    /// resolved exactly as [`Document::operations`] resolves it; `None`
    /// when it is not there or cannot be read (`operations` said why).
    /// Its path item is kept for as long as the document.
    pub fn operation(&self, path: &str, method: &str) -> Option<Operation<'_>> {
        self.operation_in(None, path, method)
    }

    /// [`Document::operation`], reading its path item from `items` when
    /// parsed there (see [`Document::path_item`]).
    pub fn operation_in<'a>(
        &'a self,
        items: Option<&'a PathItems>,
        path: &str,
        method: &str,
    ) -> Option<Operation<'a>> {
        let (path, item) = match self.lazy_paths() {
            Some(paths) => {
                let at = paths.find(path)?;
                self.path_entries(items, at..at + 1).pop()?
            }
            None => {
                let root = self.root_node();
                let paths = root.child("paths")?;
                let (path, _) = paths.value.as_object()?.get_key_value(path)?;
                (path.as_str(), paths.child(path)?)
            }
        };
        let item = self.deref(item).ok()?;
        if !item.value.is_object() {
            return None;
        }
        let (method, node) = match METHODS.iter().copied().find(|m| *m == method) {
            Some(fixed) => (fixed, item.child(fixed)?),
            None => {
                let map = item.value.as_object()?;
                let key = additional_methods(map)
                    .into_iter()
                    .find(|k| k.eq_ignore_ascii_case(method))?;
                (key, item.child(ADDITIONAL)?.child(key)?)
            }
        };
        if !node.value.is_object() {
            return None;
        }
        let shared = resolve_params(self, &item).ok()?;
        let own = resolve_params(self, &node).ok()?;
        Some(Operation {
            doc: self,
            path,
            method,
            params: merge_params(&shared, own),
            node,
            item,
        })
    }
}

/// The methods of a path item's `additionalOperations` (OpenAPI 3.2)
/// that may be used: not one a fixed field names (`POST`, `query`: the
/// specification forbids them there, see [`Document::refused_additional`]),
/// not `x-` extensions, each a valid HTTP method token.
fn additional_methods(item: &serde_json::Map<String, Value>) -> Vec<&str> {
    let Some(Value::Object(ops)) = item.get(ADDITIONAL) else {
        return Vec::new();
    };
    ops.keys()
        .map(String::as_str)
        .filter(|k| additional_method_problem(k).is_none())
        .collect()
}

/// Why `key` of `additionalOperations` is not used as a method, if it is not.
fn additional_method_problem(key: &str) -> Option<String> {
    if key.starts_with("x-") {
        return Some(String::new()); // an extension: silently not a method
    }
    if METHODS.iter().any(|m| m.eq_ignore_ascii_case(key)) {
        return Some(format!(
            "`{key}` is a fixed field of the path item (`{}`); OpenAPI 3.2 forbids it in `additionalOperations`, so it is skipped",
            key.to_ascii_lowercase()
        ));
    }
    // RFC 9110 method = token.
    let token = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    (!token).then(|| format!("`{key}` is not an HTTP method name (an RFC 9110 token); skipped"))
}

impl Document {
    /// Warnings for the keys of a path item's `additionalOperations` that
    /// are not used as methods, and for one that is not a mapping.
    fn refused_additional(&self, item: &Located<'_>) -> Vec<Diagnostic> {
        let Some(node) = item.child(ADDITIONAL) else {
            return Vec::new();
        };
        let Value::Object(ops) = node.value else {
            return vec![Diagnostic::warning(
                self.display_name(node.file),
                node.pointer,
                "`additionalOperations` must be a mapping of HTTP methods to operations; skipped",
            )];
        };
        ops.keys()
            .filter_map(|k| {
                let problem = additional_method_problem(k)?;
                (!problem.is_empty()).then(|| {
                    Diagnostic::warning(
                        self.display_name(node.file),
                        push_token(&node.pointer, k),
                        problem,
                    )
                })
            })
            .collect()
    }
}

/// The `parameters` of a path item or operation, each `$ref` followed.
fn resolve_params<'d>(
    doc: &'d Document,
    owner: &Located<'d>,
) -> Result<Vec<Parameter<'d>>, Diagnostic> {
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
        let text = |k| p.value.get(k).and_then(Value::as_str);
        let (Some(name), Some(location)) = (text("name"), text("in")) else {
            return Err(Diagnostic::warning(
                doc.display_name(p.file),
                p.pointer,
                "a parameter needs a string `name` and `in`; the operation is skipped",
            ));
        };
        out.push(Parameter::new(doc, p, name, location));
    }
    Ok(out)
}

/// Path-item parameters first, overridden by the operation's on (name, in).
fn merge_params<'d>(shared: &[Parameter<'d>], own: Vec<Parameter<'d>>) -> Vec<Parameter<'d>> {
    let key = |p: &Parameter<'d>| (p.name, p.location);
    let mut out: Vec<Parameter<'d>> = Vec::with_capacity(shared.len() + own.len());
    for p in shared {
        if !own.iter().any(|o| key(o) == key(p)) {
            out.push(p.clone());
        }
    }
    for p in own {
        // A duplicate within one list: the last one wins.
        out.retain(|o| key(o) != key(&p));
        out.push(p);
    }
    out
}
