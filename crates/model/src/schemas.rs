//! Full schemas behind budgeted tools, and the MCP resources that serve
//! them.
//!
//! A tool's listed `inputSchema`/`outputSchema` is kept within a size
//! budget: past it, nested schemas are summarized and point at a resource
//! (see `tools::budget`). The full schemas still exist: every `$ref` of a
//! tool schema names a `$defs` key of one document-wide table, and a
//! [`SchemaSource`] hands out the converted schema for a key. From it the
//! runtime rebuilds a tool's full schema (to validate arguments against
//! everything the API accepts) and answers `resources/read` for
//! `openapi2mcp://schemas/{name}`, the tools' full schemas and the document.
//!
//! The live server's source converts from the loaded document on demand;
//! a generated crate's is [`EmbeddedSchemas`], written at generation time.
//!
//! Self-contained: no imports from the rest of the crate.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Which conversion of a component schema: the side of the API it
/// describes decides which of `readOnly`/`writeOnly` properties it keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SchemaSide {
    /// As arguments (input schemas): `readOnly` properties dropped.
    Input,
    /// As results (output schemas): `writeOnly` properties dropped.
    Output,
    /// As documented (the schema resources): every property kept.
    Document,
}

/// Where the converted component schemas come from.
pub trait SchemaSource: Send + Sync {
    /// The converted schema of `$defs` key `key` on `side`; its `$ref`s
    /// point at other keys (`#/$defs/…`).
    fn def(&self, key: &str, side: SchemaSide) -> Option<Arc<Value>>;
    /// The keys of the document's component schemas
    /// (`#/components/schemas/*`), in document order: one resource each.
    fn components(&self) -> Vec<String>;
    /// The API description itself, as JSON text, when it is available.
    fn document_json(&self) -> Option<Arc<str>>;
}

/// A source with nothing in it: listed schemas are all there is.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoSchemas;

impl SchemaSource for NoSchemas {
    fn def(&self, _key: &str, _side: SchemaSide) -> Option<Arc<Value>> {
        None
    }
    fn components(&self) -> Vec<String> {
        Vec::new()
    }
    fn document_json(&self) -> Option<Arc<str>> {
        None
    }
}

/// The schemas a generated crate carries: written by the generator from
/// the live source, read back at start-up.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub struct EmbeddedSchemas {
    /// Component keys in document order.
    #[serde(default)]
    pub components: Vec<String>,
    /// Converted schemas by side and key: every component on the document
    /// side, and on the input and output sides what budgeted tools reach.
    #[serde(default)]
    pub defs: BTreeMap<SchemaSide, BTreeMap<String, Arc<Value>>>,
    /// The document as JSON text (kept out of the serialized form: a
    /// generated crate embeds it as its own file).
    #[serde(skip)]
    pub document: Option<Arc<str>>,
}

impl SchemaSource for EmbeddedSchemas {
    fn def(&self, key: &str, side: SchemaSide) -> Option<Arc<Value>> {
        self.defs.get(&side)?.get(key).cloned()
    }
    fn components(&self) -> Vec<String> {
        self.components.clone()
    }
    fn document_json(&self) -> Option<Arc<str>> {
        self.document.clone()
    }
}

impl EmbeddedSchemas {
    /// Copies from `source` every component (document side) and, on each
    /// side, the closure of what `tops` reference.
    pub fn capture(source: &dyn SchemaSource, tops: &[(SchemaSide, &Value)]) -> Self {
        let components = source.components();
        let mut defs: BTreeMap<SchemaSide, BTreeMap<String, Arc<Value>>> = BTreeMap::new();
        let mut fill = |side: SchemaSide, roots: Vec<String>| {
            let table = defs.entry(side).or_default();
            for (key, value) in closure(roots, side, source) {
                table.insert(key, value);
            }
        };
        fill(SchemaSide::Document, components.clone());
        for side in [SchemaSide::Input, SchemaSide::Output] {
            let mut roots = Vec::new();
            for (s, top) in tops {
                if *s == side {
                    def_refs(top, &mut roots);
                }
            }
            fill(side, roots);
        }
        Self {
            components,
            defs,
            document: source.document_json(),
        }
    }
}

/// A shared [`SchemaSource`], printable (for options structs).
#[derive(Clone)]
pub struct Schemas(pub Arc<dyn SchemaSource>);

impl fmt::Debug for Schemas {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Schemas")
    }
}

impl Default for Schemas {
    fn default() -> Self {
        Schemas(Arc::new(NoSchemas))
    }
}

/// The `$defs` keys `value` references directly (`{"$ref": "#/$defs/K"}`),
/// appended to `out` without repeats.
pub fn def_refs(value: &Value, out: &mut Vec<String>) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                for (k, child) in map {
                    if k == "$ref" {
                        if let Some(key) = child.as_str().and_then(|r| r.strip_prefix("#/$defs/"))
                            && !out.iter().any(|o| o == key)
                        {
                            out.push(key.to_string());
                        }
                    } else if k != "const" && k != "enum" && k != "examples" && k != "default" {
                        stack.push(child);
                    }
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
}

/// Every def reachable from `roots`, sorted by key. Keys the source does
/// not know are left out (the validator then reports them).
fn closure(
    roots: Vec<String>,
    side: SchemaSide,
    source: &dyn SchemaSource,
) -> BTreeMap<String, Arc<Value>> {
    let mut seen = BTreeSet::new();
    let mut out = BTreeMap::new();
    let mut queue = roots;
    while let Some(key) = queue.pop() {
        if !seen.insert(key.clone()) {
            continue;
        }
        if let Some(def) = source.def(&key, side) {
            let mut next = Vec::new();
            def_refs(&def, &mut next);
            queue.extend(next.into_iter().filter(|k| !seen.contains(k)));
            out.insert(key, def);
        }
    }
    out
}

/// `top` (a schema whose `$ref`s name `$defs` keys) made self-contained:
/// the `$defs` it reaches are added from `source`.
pub fn with_closure(
    top: &Map<String, Value>,
    side: SchemaSide,
    source: &dyn SchemaSource,
) -> Value {
    let mut roots = Vec::new();
    def_refs(&Value::Object(top.clone()), &mut roots);
    let defs = closure(roots, side, source);
    let mut out = top.clone();
    if !defs.is_empty() {
        let defs: Map<String, Value> = defs
            .into_iter()
            .map(|(k, v)| (k, Arc::unwrap_or_clone(v)))
            .collect();
        out.insert("$defs".into(), Value::Object(defs));
    }
    Value::Object(out)
}

/// The resource URI of the document itself.
pub const DOCUMENT_URI: &str = "openapi2mcp://document";
/// The resource URI prefix of component schemas: `openapi2mcp://schemas/{name}`.
pub const SCHEMA_URI_PREFIX: &str = "openapi2mcp://schemas/";
/// The resource URI prefix of tools' full schemas:
/// `openapi2mcp://tools/{name}/input-schema` and `…/output-schema`.
pub const TOOL_URI_PREFIX: &str = "openapi2mcp://tools/";

/// The resource URI of component `key`.
pub fn schema_uri(key: &str) -> String {
    format!("{SCHEMA_URI_PREFIX}{key}")
}

/// The resource URI of a tool's full input (or output) schema.
pub fn tool_schema_uri(tool: &str, output: bool) -> String {
    let which = if output {
        "output-schema"
    } else {
        "input-schema"
    };
    format!("{TOOL_URI_PREFIX}{tool}/{which}")
}

/// What a resource URI names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaResource {
    /// The API description.
    Document,
    /// A component schema by `$defs` key.
    Component(String),
    /// A tool's full input schema.
    ToolInput(String),
    /// A tool's full output schema.
    ToolOutput(String),
}

impl SchemaResource {
    /// Parses one of this server's resource URIs.
    pub fn parse(uri: &str) -> Option<Self> {
        if uri == DOCUMENT_URI {
            return Some(Self::Document);
        }
        if let Some(key) = uri.strip_prefix(SCHEMA_URI_PREFIX) {
            return (!key.is_empty() && !key.contains('/')).then(|| Self::Component(key.into()));
        }
        let rest = uri.strip_prefix(TOOL_URI_PREFIX)?;
        let (tool, which) = rest.split_once('/')?;
        match which {
            "input-schema" => Some(Self::ToolInput(tool.into())),
            "output-schema" => Some(Self::ToolOutput(tool.into())),
            _ => None,
        }
    }
}

/// The full schema resource of component `key`: its document-side
/// conversion with the `$defs` it reaches, marked as JSON Schema 2020-12.
pub fn component_schema(key: &str, source: &dyn SchemaSource) -> Option<Value> {
    let def = source.def(key, SchemaSide::Document)?;
    let mut top = Map::new();
    top.insert(
        "$schema".into(),
        Value::String("https://json-schema.org/draft/2020-12/schema".into()),
    );
    top.insert("title".into(), Value::String(key.to_string()));
    match &*def {
        Value::Object(m) => {
            for (k, v) in m {
                top.insert(k.clone(), v.clone());
            }
        }
        // A boolean schema: true accepts anything, false nothing.
        Value::Bool(false) => {
            top.insert("not".into(), Value::Object(Map::new()));
        }
        _ => {}
    }
    // The component itself may be referenced from inside (recursion).
    let mut out = match with_closure(&top, SchemaSide::Document, source) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    let defs = out
        .entry("$defs")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(d) = defs
        && !d.contains_key(key)
    {
        let mut refs = Vec::new();
        def_refs(&Value::Object(d.clone()), &mut refs);
        if refs.iter().any(|r| r == key) {
            d.insert(key.to_string(), (*def).clone());
        }
    }
    if out
        .get("$defs")
        .is_some_and(|d| d.as_object().is_some_and(Map::is_empty))
    {
        out.remove("$defs");
    }
    Some(Value::Object(out))
}

#[cfg(test)]
#[path = "schemas_tests.rs"]
mod tests;
