//! Request bodies and media types: the body's flags and its media types in
//! document order, each with its schema, examples and encoding.

use serde_json::Value;

use super::responses::{Header, headers_of};
use super::schema::Schema;
use crate::refs::Located;
use crate::{Diagnostic, Document};

/// A request body object (its `$ref` followed).
#[derive(Clone)]
pub struct RequestBody<'d> {
    doc: &'d Document,
    node: Located<'d>,
}

impl<'d> RequestBody<'d> {
    pub(super) fn new(doc: &'d Document, node: Located<'d>) -> Self {
        Self { doc, node }
    }

    /// `required: true`.
    pub fn required(&self) -> bool {
        self.node.value.get("required") == Some(&Value::Bool(true))
    }

    /// `description`.
    pub fn description(&self) -> Option<&'d str> {
        self.node.value.get("description").and_then(Value::as_str)
    }

    /// The media types of `content`, in document order.
    pub fn media_types(&self) -> Vec<MediaType<'d>> {
        media_types(self.doc, &self.node)
    }

    /// The media type `name` of `content`.
    pub fn media(&self, name: &str) -> Option<MediaType<'d>> {
        media(self.doc, &self.node, name)
    }
}

/// The media types of `owner`'s `content`, in document order.
pub(super) fn media_types<'d>(doc: &'d Document, owner: &Located<'d>) -> Vec<MediaType<'d>> {
    let Some(content) = owner.child("content") else {
        return Vec::new();
    };
    let Value::Object(map) = content.value else {
        return Vec::new();
    };
    map.keys()
        .filter_map(|name| MediaType::new(doc, content.child(name)?, name))
        .collect()
}

/// The media type `name` of `owner`'s `content`.
pub(super) fn media<'d>(
    doc: &'d Document,
    owner: &Located<'d>,
    name: &str,
) -> Option<MediaType<'d>> {
    let content = owner.child("content")?;
    let (name, _) = content.value.as_object()?.get_key_value(name)?;
    MediaType::new(doc, content.child(name)?, name)
}

/// One media type object of a `content` map.
#[derive(Clone)]
pub struct MediaType<'d> {
    doc: &'d Document,
    node: Located<'d>,
    /// The media type as written (`application/json`, `*/*`, …).
    pub name: &'d str,
}

impl<'d> MediaType<'d> {
    pub(super) fn new(doc: &'d Document, node: Located<'d>, name: &'d str) -> Option<Self> {
        Some(Self { doc, node, name })
    }

    /// The `schema`, if any.
    pub fn schema(&self) -> Option<Schema<'d>> {
        self.node.child("schema").map(|s| Schema::new(self.doc, s))
    }

    /// The `itemSchema` (OpenAPI 3.2), if any: the schema of each item
    /// of a sequential media type (JSON Lines, an event stream, …), which
    /// the whole content is an array of.
    pub fn item_schema(&self) -> Option<Schema<'d>> {
        self.node
            .child("itemSchema")
            .map(|s| Schema::new(self.doc, s))
    }

    /// The documented examples in order: `example` first (named
    /// `example`), then each entry of `examples` that has an inline
    /// `value`, references to `components.examples` followed
    /// (`externalValue` is never fetched).
    pub fn examples(&self) -> Vec<(String, Value)> {
        named_examples(self.doc, &self.node)
    }

    /// The `encoding` entry of property `property` (request bodies of a
    /// form or multipart media type), when it is an object.
    pub fn encoding(&self, property: &str) -> Option<Encoding<'d>> {
        let node = self.node.child("encoding")?.child(property)?;
        node.value.is_object().then_some(Encoding {
            doc: self.doc,
            node,
        })
    }
}

/// One Encoding Object: how one property of an
/// `application/x-www-form-urlencoded` or `multipart` body is written (its
/// part's media type and headers, or a query-string style).
#[derive(Clone)]
pub struct Encoding<'d> {
    doc: &'d Document,
    node: Located<'d>,
}

impl<'d> Encoding<'d> {
    /// `contentType`: the part's media type, or a comma-separated list.
    pub fn content_type(&self) -> Option<&'d str> {
        self.node.value.get("contentType").and_then(Value::as_str)
    }

    /// `style`, as written.
    pub fn style(&self) -> Option<&'d str> {
        self.node.value.get("style").and_then(Value::as_str)
    }

    /// `explode`, when given.
    pub fn explode(&self) -> Option<bool> {
        self.node.value.get("explode").and_then(Value::as_bool)
    }

    /// `allowReserved`, when given.
    pub fn allow_reserved(&self) -> Option<bool> {
        self.node
            .value
            .get("allowReserved")
            .and_then(Value::as_bool)
    }

    /// Whether `style`, `explode` or `allowReserved` is given: OpenAPI
    /// 3.1.1 makes the property serialize as a `query` parameter then
    /// (RFC 6570 style), and `contentType` is ignored.
    pub fn uses_style(&self) -> bool {
        self.style().is_some() || self.explode().is_some() || self.allow_reserved().is_some()
    }

    /// The part headers of `headers` in order, each `$ref` followed (one
    /// that cannot be followed is left out).
    pub fn headers(&self) -> Vec<Header<'d>> {
        headers_of(self.doc, &self.node)
    }

    /// A warning located at this Encoding Object.
    pub fn warning(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(
            self.doc.display_name(self.node.file),
            self.node.pointer.clone(),
            message,
        )
    }
}

/// The examples of a media type, parameter or header object (see
/// [`MediaType::examples`]).
pub(super) fn named_examples(doc: &Document, node: &Located<'_>) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    if let Some(v) = node.value.get("example") {
        out.push(("example".to_string(), v.clone()));
    }
    let Some(examples) = node.child("examples") else {
        return out;
    };
    let Value::Object(map) = examples.value else {
        return out;
    };
    for name in map.keys() {
        let Some(entry) = examples.child(name) else {
            continue;
        };
        let Ok(example) = doc.deref(entry) else {
            continue;
        };
        if let Some(v) = example.value.get("value") {
            out.push((name.clone(), v.clone()));
        }
    }
    out
}
