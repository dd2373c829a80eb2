//! Parameters: one resolved parameter object (`$ref` followed), its name
//! and location borrowed from the document, the rest read on demand.

use serde_json::Value;

use super::bodies::MediaType;
use super::schema::Schema;
use crate::refs::Located;
use crate::{Diagnostic, Document};

/// A parameter's `x-mcp-header` extension, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McpHeaderExtension<'d> {
    /// `false`: never mirrored.
    Never,
    /// `true`: mirrored under a name derived from the parameter's.
    Derived,
    /// A header name (`Mcp-Param-{name}`), not yet validated.
    Name(&'d str),
    /// Anything else; the text says what it was.
    Malformed(&'static str),
}

/// One parameter of an operation (or of its path item).
#[derive(Clone)]
pub struct Parameter<'d> {
    doc: &'d Document,
    node: Located<'d>,
    /// The wire name.
    pub name: &'d str,
    /// `in` as written: `path`, `query`, `header`, `cookie` (anything else
    /// is not a 3.x location).
    pub location: &'d str,
}

impl<'d> Parameter<'d> {
    pub(super) fn new(
        doc: &'d Document,
        node: Located<'d>,
        name: &'d str,
        location: &'d str,
    ) -> Self {
        Self {
            doc,
            node,
            name,
            location,
        }
    }

    fn flag(&self, key: &str) -> bool {
        self.node.value.get(key) == Some(&Value::Bool(true))
    }

    /// `required: true` as written (path parameters are required whatever
    /// it says; callers decide).
    pub fn required(&self) -> bool {
        self.flag("required")
    }

    /// `deprecated: true`.
    pub fn deprecated(&self) -> bool {
        self.flag("deprecated")
    }

    /// `allowReserved: true`.
    pub fn allow_reserved(&self) -> bool {
        self.flag("allowReserved")
    }

    /// `style` as written.
    pub fn style(&self) -> Option<&'d str> {
        self.node.value.get("style").and_then(Value::as_str)
    }

    /// `explode` as written.
    pub fn explode(&self) -> Option<bool> {
        self.node.value.get("explode").and_then(Value::as_bool)
    }

    /// `description`.
    pub fn description(&self) -> Option<&'d str> {
        self.node.value.get("description").and_then(Value::as_str)
    }

    /// The `schema`, if the parameter has one.
    pub fn schema(&self) -> Option<Schema<'d>> {
        self.node.child("schema").map(|s| Schema::new(self.doc, s))
    }

    /// The first entry of `content` (a parameter described by a media
    /// type instead of a schema).
    pub fn content(&self) -> Option<MediaType<'d>> {
        let content = self.node.child("content")?;
        let (name, _) = content.value.as_object()?.iter().next()?;
        MediaType::new(self.doc, content.child(name)?, name)
    }

    /// The parameter's `x-mcp-header` extension: whether (and under which
    /// name) an MCP client mirrors the argument into an `Mcp-Param-*`
    /// HTTP header (see the tool builder's `tools::mcp_headers`); `None` when absent.
    pub fn mcp_header(&self) -> Option<McpHeaderExtension<'d>> {
        Some(match self.node.value.get("x-mcp-header")? {
            Value::Bool(false) => McpHeaderExtension::Never,
            Value::Bool(true) => McpHeaderExtension::Derived,
            Value::String(name) => McpHeaderExtension::Name(name),
            Value::Null => McpHeaderExtension::Malformed("null"),
            Value::Number(_) => McpHeaderExtension::Malformed("a number"),
            Value::Array(_) => McpHeaderExtension::Malformed("a list"),
            Value::Object(_) => McpHeaderExtension::Malformed("a mapping"),
        })
    }

    /// The values documented as examples of the parameter: `example`,
    /// else the inline `value` of each `examples` entry (references are
    /// not followed).
    pub fn example_values(&self) -> Vec<&'d Value> {
        if let Some(ex) = self.node.value.get("example") {
            return vec![ex];
        }
        match self.node.value.get("examples") {
            Some(Value::Object(exs)) => exs.values().filter_map(|e| e.get("value")).collect(),
            _ => Vec::new(),
        }
    }

    /// How to name the parameter's file to a user.
    pub fn file(&self) -> &'d str {
        self.doc.display_name(self.node.file)
    }

    /// The JSON pointer to the parameter object in its file.
    pub fn pointer(&self) -> &str {
        &self.node.pointer
    }

    /// A warning about this parameter.
    pub fn warning(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(self.file(), self.node.pointer.clone(), message)
    }
}
