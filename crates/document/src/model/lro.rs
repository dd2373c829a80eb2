//! What a document says about long-running operations, typed: Azure's
//! `x-ms-long-running-operation` extension (with its
//! `x-ms-long-running-operation-options.final-state-via`), a response's
//! `links` (OpenAPI 3.x Link Objects, each `$ref` followed), and the
//! operation a link targets (by `operationId`, or by a local
//! `operationRef` such as `#/paths/~1exports~1{id}/delete`). The tool
//! model decides from these whether an operation may be long-running and
//! which link cancels it (see `tools::lro`).

use serde_json::Value;

use super::operations::Operation;
use super::responses::Response;
use crate::pointer::pointer_tokens;
use crate::refs::Located;
use crate::{Diagnostic, Document};

/// Azure's long-running-operation extension on one operation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LongRunningExtension {
    /// `x-ms-long-running-operation: true`.
    pub flagged: bool,
    /// `x-ms-long-running-operation-options.final-state-via`, as written.
    pub final_state_via: Option<String>,
}

impl<'d> Operation<'d> {
    /// Azure's `x-ms-long-running-operation` and its options, as written
    /// (both absent: the default, not flagged).
    pub fn long_running_extension(&self) -> LongRunningExtension {
        let value = self.node().value;
        LongRunningExtension {
            flagged: value.get("x-ms-long-running-operation") == Some(&Value::Bool(true)),
            final_state_via: value
                .get("x-ms-long-running-operation-options")
                .and_then(|o| o.get("final-state-via"))
                .and_then(Value::as_str)
                .map(str::to_string),
        }
    }
}

impl<'d> Response<'d> {
    /// Whether the response documents the header `name` (names compare
    /// case-insensitively, as HTTP header names do).
    pub fn documents_header(&self, name: &str) -> bool {
        self.headers()
            .iter()
            .any(|h| h.name.eq_ignore_ascii_case(name))
    }

    /// The response's `links`, in document order, each `$ref` followed
    /// (one that cannot be followed, or is not a mapping, is left out).
    pub fn links(&self) -> Vec<Link<'d>> {
        let Some(links) = self.node().child("links") else {
            return Vec::new();
        };
        let Value::Object(map) = links.value else {
            return Vec::new();
        };
        map.keys()
            .filter_map(|name| {
                let node = self.document().deref(links.child(name)?).ok()?;
                node.value.is_object().then_some(Link {
                    doc: self.document(),
                    node,
                    name,
                })
            })
            .collect()
    }
}

/// One Link Object of a response.
#[derive(Clone)]
pub struct Link<'d> {
    doc: &'d Document,
    node: Located<'d>,
    /// The link's name (its key in `links`).
    pub name: &'d str,
}

impl<'d> Link<'d> {
    fn text(&self, key: &str) -> Option<&'d str> {
        self.node.value.get(key).and_then(Value::as_str)
    }

    /// `operationId`: the target operation's id.
    pub fn operation_id(&self) -> Option<&'d str> {
        self.text("operationId")
    }

    /// `operationRef`: a reference to the target operation.
    pub fn operation_ref(&self) -> Option<&'d str> {
        self.text("operationRef")
    }

    /// `parameters`: the target's parameter names (possibly qualified,
    /// `path.id`) with a constant or a runtime expression each, in order.
    pub fn parameters(&self) -> Vec<(&'d str, &'d Value)> {
        match self.node.value.get("parameters") {
            Some(Value::Object(map)) => map.iter().map(|(k, v)| (k.as_str(), v)).collect(),
            _ => Vec::new(),
        }
    }

    /// The operation the link targets: the one whose `operationId` is
    /// [`Link::operation_id`], else the one [`Link::operation_ref`] points
    /// at in this document (`#/paths/<path>/<method>`). `Err` says why
    /// there is none (an unknown id, a reference to another file).
    pub fn target(&self) -> Result<Operation<'d>, String> {
        if let Some(id) = self.operation_id() {
            return operation_with_id(self.doc, id)
                .ok_or_else(|| format!("no operation has the operationId `{id}`"));
        }
        let Some(reference) = self.operation_ref() else {
            return Err("the link names neither an operationId nor an operationRef".into());
        };
        let Some(fragment) = reference.strip_prefix('#') else {
            return Err(format!(
                "the operationRef `{reference}` points into another document; only references within this one (`#/paths/...`) are followed"
            ));
        };
        let decoded = percent_encoding::percent_decode_str(fragment).decode_utf8_lossy();
        let tokens = pointer_tokens(&decoded).unwrap_or_default();
        match tokens.as_slice() {
            [paths, path, method] if paths == "paths" => self
                .doc
                .operation(path, &method.to_ascii_lowercase())
                .ok_or_else(|| format!("the operationRef `{reference}` names no operation")),
            _ => Err(format!(
                "the operationRef `{reference}` is not of the form `#/paths/<path>/<method>`"
            )),
        }
    }

    /// A warning about this link.
    pub fn warning(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(
            self.doc.display_name(self.node.file),
            self.node.pointer.clone(),
            message,
        )
    }
}

/// The operation whose `operationId` is `id`: the path items are scanned
/// for the id first (no parameter is resolved), then that one operation is
/// resolved.
fn operation_with_id<'d>(doc: &'d Document, id: &str) -> Option<Operation<'d>> {
    if let Some(paths) = doc.lazy_paths() {
        // Paths kept as text: only the items whose text may hold the id
        // are read (for this search), and the operation found is kept. An
        // id JSON may escape is looked for in every item.
        let plain = id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | ' '));
        for at in 0..paths.len() {
            if plain && !paths.text(at).contains(id) {
                continue;
            }
            let parsed;
            let value = match paths.kept_already(at) {
                Some(kept) => kept,
                None => {
                    parsed = paths.parse(at);
                    &parsed
                }
            };
            let node = crate::refs::Located {
                file: doc.root_key(),
                pointer: crate::diag::push_token("/paths", paths.key(at)),
                value,
            };
            let Some(Value::Object(item_map)) = doc.deref(node).ok().map(|i| i.value) else {
                continue;
            };
            for (method, op) in item_map {
                if op.get("operationId").and_then(Value::as_str) == Some(id) {
                    return doc.operation(paths.key(at), method);
                }
            }
        }
        return None;
    }
    let root = doc.root_node();
    let paths = root.child("paths")?;
    let Value::Object(map) = paths.value else {
        return None;
    };
    for path in map.keys() {
        let Some(item) = paths.child(path).and_then(|i| doc.deref(i).ok()) else {
            continue;
        };
        let Value::Object(item_map) = item.value else {
            continue;
        };
        for (method, op) in item_map {
            if op.get("operationId").and_then(Value::as_str) == Some(id) {
                return doc.operation(path, method);
            }
        }
    }
    None
}
