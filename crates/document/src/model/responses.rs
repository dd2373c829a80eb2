//! Responses: one response object (its `$ref` followed), its media types
//! and its headers.

use serde_json::Value;

use super::bodies::{MediaType, media, media_types, named_examples};
use super::schema::Schema;
use crate::refs::Located;
use crate::{Diagnostic, Document};

/// One response of an operation.
#[derive(Clone)]
pub struct Response<'d> {
    doc: &'d Document,
    node: Located<'d>,
}

impl<'d> Response<'d> {
    pub(super) fn new(doc: &'d Document, node: Located<'d>) -> Self {
        Self { doc, node }
    }

    /// `description`.
    pub fn description(&self) -> Option<&'d str> {
        self.node.value.get("description").and_then(Value::as_str)
    }

    pub(super) fn node(&self) -> &Located<'d> {
        &self.node
    }

    pub(super) fn document(&self) -> &'d Document {
        self.doc
    }

    /// The media types of `content`, in document order.
    pub fn media_types(&self) -> Vec<MediaType<'d>> {
        media_types(self.doc, &self.node)
    }

    /// The media type `name` of `content`.
    pub fn media(&self, name: &str) -> Option<MediaType<'d>> {
        media(self.doc, &self.node, name)
    }

    /// The documented headers in order, each `$ref` followed (one that
    /// cannot be followed is left out).
    pub fn headers(&self) -> Vec<Header<'d>> {
        headers_of(self.doc, &self.node)
    }
}

/// The headers of `owner`'s `headers` map (a response or an Encoding
/// Object) in order, each `$ref` followed (one that cannot be followed is
/// left out).
pub(super) fn headers_of<'d>(doc: &'d Document, owner: &Located<'d>) -> Vec<Header<'d>> {
    let Some(hs) = owner.child("headers") else {
        return Vec::new();
    };
    let Value::Object(map) = hs.value else {
        return Vec::new();
    };
    map.keys()
        .filter_map(|name| {
            let node = doc.deref(hs.child(name)?).ok()?;
            Some(Header { doc, node, name })
        })
        .collect()
}

/// One header of a response or of a multipart part.
#[derive(Clone)]
pub struct Header<'d> {
    doc: &'d Document,
    node: Located<'d>,
    /// The header's name as written.
    pub name: &'d str,
}

impl<'d> Header<'d> {
    /// The documented examples (see [`MediaType::examples`]).
    pub fn examples(&self) -> Vec<(String, Value)> {
        named_examples(self.doc, &self.node)
    }

    /// The `schema`, if any.
    pub fn schema(&self) -> Option<Schema<'d>> {
        self.node.child("schema").map(|s| Schema::new(self.doc, s))
    }

    /// `required: true`.
    pub fn required(&self) -> bool {
        self.node.value.get("required") == Some(&Value::Bool(true))
    }

    /// A warning located at this header.
    pub fn warning(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(
            self.doc.display_name(self.node.file),
            self.node.pointer.clone(),
            message,
        )
    }
}
