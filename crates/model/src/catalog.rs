//! The served tools as plain data: what `tools/list` shows and how each tool
//! maps onto HTTP. Built by `tools` from the document; read by the server.
//! Serializable both ways, because a generated crate embeds its catalog as
//! JSON and reads it back at start-up: the same data, the same tool list.
//!
//! This file is where the tool model lives (in this crate rather than in
//! `tools`, which builds it, because generated crates depend on it and not
//! on the generator): a [`ToolHead`] is what is known of a tool before its
//! schemas are built, a [`ToolDef`] the full definition a [`Catalog`]
//! holds, and a [`LazyCatalog`] serves heads and builds definitions on
//! demand through a [`ToolSource`]. What one call needs of a `ToolDef` is
//! cut from it by the run time (its `call::ToolEndpoint`).
//!
//! From the rest of the crate it uses only `binding` (how each tool maps
//! onto HTTP): the tool model depends on nothing of how a call is made.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::binding::{HttpBinding, SecurityRequirement, SecurityScheme};

/// One MCP tool: what `tools/list` shows, plus how to call the API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    /// Unique `[a-z0-9_]{1,64}` name.
    pub name: String,
    /// Human-readable title (the operation summary, else the name in words).
    pub title: String,
    /// What the tool does, for the model: summary and description.
    pub description: String,
    /// JSON Schema 2020-12 object schema of the arguments, as listed
    /// (within the schema budget).
    pub input_schema: Value,
    /// JSON Schema of `structuredContent`, when the success response is
    /// JSON, as listed (within the schema budget); shared by the tools of
    /// a catalog with the same result (a server hands it to its `Tool` as
    /// it is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Arc<Map<String, Value>>>,
    /// When `input_schema` summarizes: the full schema's top level, whose
    /// `$ref`s name `$defs` keys of the document (see [`super::schemas`]).
    /// Arguments are validated against it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_full: Option<Value>,
    /// When `output_schema` summarizes: the full schema's top level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_full: Option<Value>,
    /// Behaviour hints derived from the HTTP method (and `x-mcp`).
    pub annotations: ToolAnnotations,
    /// Where the tool came from in the document.
    pub origin: Origin,
    /// How a call becomes an HTTP request.
    pub http: HttpBinding,
}

/// MCP `ToolAnnotations`: behaviour hints a client may show or act on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// Display title.
    pub title: String,
    /// The tool does not change anything.
    pub read_only_hint: bool,
    /// The tool may delete or overwrite data.
    pub destructive_hint: bool,
    /// Calling twice with the same arguments has no further effect.
    pub idempotent_hint: bool,
    /// The tool reaches outside the server (always: it calls an API).
    pub open_world_hint: bool,
}

impl ToolAnnotations {
    /// The annotations as `tools/list` carries them: only the hints that
    /// mean something and differ from MCP's defaults (`destructiveHint`
    /// and `idempotentHint` only apply to tools that are not read-only;
    /// `openWorldHint` defaults to true). Every byte here is paid for once
    /// per tool in every model context.
    pub fn to_mcp_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("title".into(), json!(self.title));
        m.insert("readOnlyHint".into(), json!(self.read_only_hint));
        if !self.read_only_hint {
            m.insert("destructiveHint".into(), json!(self.destructive_hint));
            m.insert("idempotentHint".into(), json!(self.idempotent_hint));
        }
        if !self.open_world_hint {
            m.insert("openWorldHint".into(), json!(false));
        }
        Value::Object(m)
    }
}

/// The operation a tool was made from, so users can trace it back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Origin {
    /// The operation's `operationId`, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    /// Upper-case HTTP method.
    pub method: String,
    /// Path template as written in the document.
    pub path: String,
    /// The operation's tags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Whether the document marks the operation deprecated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deprecated: bool,
}

/// The `_meta` key under which a tool's [`Origin`] is published.
pub const ORIGIN_META_KEY: &str = "openapi2mcp/origin";

impl ToolDef {
    /// The tool exactly as `tools/list` carries it (MCP `Tool` object).
    pub fn to_mcp_json(&self) -> Value {
        let mut tool = Map::new();
        tool.insert("name".into(), json!(self.name));
        tool.insert("title".into(), json!(self.title));
        tool.insert("description".into(), json!(self.description));
        tool.insert("inputSchema".into(), self.input_schema.clone());
        if let Some(out) = &self.output_schema {
            tool.insert("outputSchema".into(), Value::Object((**out).clone()));
        }
        tool.insert("annotations".into(), self.annotations.to_mcp_json());
        tool.insert("_meta".into(), json!({ ORIGIN_META_KEY: self.origin }));
        Value::Object(tool)
    }
}

/// All tools of one document, with the API-level facts the runtime needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    /// `info.title`.
    pub title: String,
    /// `info.version`.
    pub version: String,
    /// `info.description`, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Security schemes by name, as the runtime authenticates with them.
    #[serde(default)]
    pub security_schemes: BTreeMap<String, SecurityScheme>,
    /// Tags nested under others (OpenAPI 3.2 `parent`), child to parent:
    /// a toolset holds its children's toolsets.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tag_parents: BTreeMap<String, String>,
    /// The tools, in document order.
    pub tools: Vec<ToolDef>,
}

impl Catalog {
    /// The tools as `tools/list` carries them.
    pub fn to_mcp_json(&self) -> Vec<Value> {
        self.tools.iter().map(ToolDef::to_mcp_json).collect()
    }
}

/// What is known of a tool before its schemas are built: enough to name
/// it, find it by search, group it into a toolset, say whether it is
/// read-only and which scopes it needs. A server lists, searches and
/// filters heads; a tool's full [`ToolDef`] is built only when a client
/// needs its schemas (see [`ToolSource`]), so start-up cost follows the
/// number of operations, not the size of their schema graph.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolHead {
    /// Unique `[a-z0-9_]{1,64}` name (the [`ToolDef`]'s).
    pub name: String,
    /// Human-readable title.
    pub title: String,
    /// What the tool does.
    pub description: String,
    /// Behaviour hints.
    pub annotations: ToolAnnotations,
    /// Where the tool came from in the document.
    pub origin: Origin,
    /// Security requirements (alternatives) of the operation.
    pub security: Vec<SecurityRequirement>,
    /// Argument names, for search: parameters, then the body's top-level
    /// properties.
    pub args: Vec<String>,
    /// The tools an Arazzo workflow's steps call, each once, in step
    /// order (empty for an operation): a workflow needs what its steps
    /// need (their scopes; see the server's `authz::scopes`), known before
    /// the workflow is built.
    pub steps: Vec<String>,
}

impl ToolHead {
    /// The head of a built tool.
    pub fn of(def: &ToolDef) -> Self {
        Self {
            name: def.name.clone(),
            title: def.title.clone(),
            description: def.description.clone(),
            annotations: def.annotations.clone(),
            origin: def.origin.clone(),
            security: def.http.security.clone(),
            args: def
                .input_schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default(),
            steps: def
                .http
                .workflow
                .as_ref()
                .map(|w| {
                    let mut steps: Vec<String> = Vec::new();
                    for step in &w.steps {
                        if !steps.contains(&step.tool) {
                            steps.push(step.tool.clone());
                        }
                    }
                    steps
                })
                .unwrap_or_default(),
        }
    }
}

/// Builds a tool's full definition when it is first needed. The live
/// server builds from the document (`tools::lazy`); a catalog built ahead
/// of time hands its tools out ([`Catalog::into_lazy`]).
pub trait ToolSource: Send + Sync {
    /// The definition of tool `index` (its position among the heads).
    /// `Err` says, for the model and the operator, why the operation
    /// cannot be served as a tool (a broken `$ref`, say).
    fn build(&self, index: usize) -> Result<ToolDef, String>;

    /// Builds every tool of `indices` and hands each to `sink` with its
    /// index, in any order and from any thread: a source that can build
    /// on several cores (the live server's, over Microsoft Graph's 11,000
    /// operations) does, and lists every tool in a fraction of the time.
    /// One by one, in order, by default.
    fn build_each(
        &self,
        indices: &[usize],
        sink: &(dyn Fn(usize, Result<ToolDef, String>) + Sync),
    ) {
        for &index in indices {
            sink(index, self.build(index));
        }
    }

    /// Whether [`ToolSource::build`] answers again, with the same
    /// definition, for a tool it built already: a server may then keep a
    /// listed tool as bytes only and build it again when it is called.
    fn rebuilds(&self) -> bool {
        false
    }
}

/// A catalog whose tools are built on demand: the heads up front, the
/// definitions from a [`ToolSource`]. What the server serves.
#[derive(Clone)]
pub struct LazyCatalog {
    /// `info.title`.
    pub title: String,
    /// `info.version`.
    pub version: String,
    /// `info.description`, if any.
    pub description: Option<String>,
    /// Security schemes by name.
    pub security_schemes: BTreeMap<String, SecurityScheme>,
    /// Tags nested under others, child to parent (see [`Catalog`]).
    pub tag_parents: BTreeMap<String, String>,
    /// Every tool's head, in document order (shared: the source that
    /// builds the tools may read the same heads).
    pub heads: Arc<Vec<ToolHead>>,
    /// Where the full definitions come from. The server asks for each
    /// tool at most once per catalog.
    pub source: Arc<dyn ToolSource>,
}

impl std::fmt::Debug for LazyCatalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyCatalog")
            .field("title", &self.title)
            .field("tools", &self.heads.len())
            .finish_non_exhaustive()
    }
}

/// The tools of a catalog built ahead of time, each handed out once
/// (moved, not copied: the server keeps what it is given).
struct Prebuilt(Vec<Mutex<Option<ToolDef>>>);

impl ToolSource for Prebuilt {
    fn build(&self, index: usize) -> Result<ToolDef, String> {
        let slot = self
            .0
            .get(index)
            .ok_or_else(|| format!("no tool number {index}"))?;
        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
        slot.take()
            .ok_or_else(|| format!("tool number {index} was already handed out"))
    }
}

impl From<Catalog> for LazyCatalog {
    /// The catalog's tools, already built, handed out as asked for.
    fn from(catalog: Catalog) -> Self {
        catalog.into_lazy()
    }
}

impl Catalog {
    /// This catalog as a [`LazyCatalog`] whose tools are already built.
    pub fn into_lazy(self) -> LazyCatalog {
        let heads = Arc::new(self.tools.iter().map(ToolHead::of).collect());
        let slots = self
            .tools
            .into_iter()
            .map(|t| Mutex::new(Some(t)))
            .collect();
        LazyCatalog {
            title: self.title,
            version: self.version,
            description: self.description,
            security_schemes: self.security_schemes,
            tag_parents: self.tag_parents,
            heads,
            source: Arc::new(Prebuilt(slots)),
        }
    }
}

#[cfg(test)]
#[path = "catalog_tests.rs"]
mod tests;
