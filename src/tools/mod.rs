//! The tool model: one [`ToolDef`] per OpenAPI operation, plain serializable
//! data that both back ends render (the live server and the code generator).
//! Everything the document means is decided here and in [`crate::spec`];
//! nothing downstream looks at the raw document.

pub mod annotations;
pub mod bundle;
mod inputs;
pub mod naming;
pub mod operations;
mod outputs;
mod security;
pub mod select;

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value, json};

pub use crate::runtime::binding::{HttpBinding, SecurityScheme, Server};
pub use annotations::ToolAnnotations;
pub use select::Selection;

use crate::spec::{Diagnostic, Document};
use bundle::SchemaBundler;
use naming::NameRegistry;
use operations::Operation;

/// One MCP tool: what `tools/list` shows, plus how to call the API.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolDef {
    /// Unique `[a-z0-9_]{1,64}` name (see [`naming`]).
    pub name: String,
    /// Human-readable title (the operation summary, else the name in words).
    pub title: String,
    /// What the tool does, for the model: summary and description.
    pub description: String,
    /// JSON Schema 2020-12 object schema of the arguments.
    pub input_schema: Value,
    /// JSON Schema of `structuredContent`, when the success response is JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Behaviour hints derived from the HTTP method (and `x-mcp`).
    pub annotations: ToolAnnotations,
    /// Where the tool came from in the document.
    pub origin: Origin,
    /// How a call becomes an HTTP request.
    pub http: HttpBinding,
}

/// The operation a tool was made from, so users can trace it back.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Origin {
    /// The operation's `operationId`, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    /// Upper-case HTTP method.
    pub method: String,
    /// Path template as written in the document.
    pub path: String,
    /// The operation's tags.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Whether the document marks the operation deprecated.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
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
            tool.insert("outputSchema".into(), out.clone());
        }
        tool.insert("annotations".into(), json!(self.annotations));
        tool.insert("_meta".into(), json!({ ORIGIN_META_KEY: self.origin }));
        Value::Object(tool)
    }
}

/// Whether and how tools advertise an `outputSchema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputSchemaMode {
    /// The response schema, bundled like input schemas.
    #[default]
    Full,
    /// Only `{"type": "object"}`: structured content without a strict
    /// shape, for APIs whose responses stray from their documents.
    Loose,
    /// No `outputSchema`; responses are text only.
    Off,
}

/// What to build and how.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Output schema policy.
    pub output_schemas: OutputSchemaMode,
    /// Which operations become tools.
    pub selection: Selection,
}

/// All tools of one document, with the API-level facts the runtime needs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Catalog {
    /// `info.title`.
    pub title: String,
    /// `info.version`.
    pub version: String,
    /// `info.description`, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Security schemes by name, as the runtime authenticates with them.
    pub security_schemes: BTreeMap<String, SecurityScheme>,
    /// The tools, in document order.
    pub tools: Vec<ToolDef>,
}

impl Catalog {
    /// The tools as `tools/list` carries them.
    pub fn to_mcp_json(&self) -> Vec<Value> {
        self.tools.iter().map(ToolDef::to_mcp_json).collect()
    }
}

/// Turns every operation of `doc` into a tool. Operations that cannot be
/// made into a tool (a broken `$ref`, say) are skipped with a diagnostic;
/// the rest still work.
pub fn build(doc: &Document, options: &BuildOptions) -> (Catalog, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let root = doc.root();
    let info = root.get("info");
    let text = |key: &str| {
        info.and_then(|i| i.get(key))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let security_schemes = security::schemes(doc, &mut diags);
    let operations = operations::collect(doc, &mut diags);

    let mut bundler = SchemaBundler::new(doc);
    let mut drafts = Vec::with_capacity(operations.len());
    for op in &operations {
        match draft(doc, op, options, &mut bundler, &mut diags) {
            Ok(Some(d)) => drafts.push(d),
            Ok(None) => {}
            Err(d) => diags.push(d),
        }
    }
    diags.extend(bundler.take_diagnostics());
    let tools = assign_names(drafts)
        .into_iter()
        .filter(|t| options.selection.keeps(t))
        .collect();

    let catalog = Catalog {
        title: text("title").unwrap_or_else(|| "API".to_string()),
        version: text("version").unwrap_or_default(),
        description: text("description"),
        security_schemes,
        tools,
    };
    (catalog, diags)
}

/// A tool before its final name is known.
struct Draft {
    base_name: String,
    explicit_name: bool,
    tool: ToolDef,
}

fn draft(
    doc: &Document,
    op: &Operation<'_>,
    options: &BuildOptions,
    bundler: &mut SchemaBundler<'_>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Option<Draft>, Diagnostic> {
    let overrides = annotations::XMcp::read(doc, op)?;
    if overrides.exclude {
        return Ok(None);
    }
    let operation_id = op.string("operationId");
    let (base_name, explicit_name) = match (&overrides.name, &operation_id) {
        (Some(n), _) => (naming::sanitize(n), true),
        (None, Some(id)) if naming::meaningful_operation_id(id) => {
            (naming::sanitize(&naming::from_operation_id(id)), false)
        }
        _ => (
            naming::sanitize(&naming::from_method_path(op.method, op.path)),
            false,
        ),
    };
    let inputs = inputs::build(doc, op, bundler, warnings)?;
    let output = outputs::build(doc, op, options.output_schemas, bundler);
    let method = op.method.to_ascii_uppercase();
    let summary = op.string("summary");
    let title = overrides
        .title
        .clone()
        .or_else(|| summary.clone().map(|s| first_line(&s)))
        .unwrap_or_else(|| humanize(&base_name));
    let description = overrides
        .description
        .clone()
        .unwrap_or_else(|| describe(op, summary.as_deref(), &method, &inputs.http_params));
    let annotations = annotations::for_method(&method, &title, &overrides);
    let http = HttpBinding {
        method: method.clone(),
        path: op.path.to_string(),
        params: inputs.http_params,
        body: inputs.body,
        servers: operations::servers(doc, op),
        security: security::requirements(doc, op),
        output: output.as_ref().map(|o| o.shape.clone()),
    };
    let origin = Origin {
        operation_id,
        method,
        path: op.path.to_string(),
        tags: op.tags(),
        deprecated: op.node.value.get("deprecated") == Some(&Value::Bool(true)),
    };
    Ok(Some(Draft {
        base_name,
        explicit_name,
        tool: ToolDef {
            name: String::new(),
            title,
            description,
            input_schema: inputs.schema,
            output_schema: output.map(|o| o.schema),
            annotations,
            origin,
            http,
        },
    }))
}

/// Unique names: explicit `x-mcp` names claimed first, then the rest in
/// document order, so adding an override never renames another tool.
fn assign_names(drafts: Vec<Draft>) -> Vec<ToolDef> {
    let mut registry = NameRegistry::default();
    let mut names: Vec<Option<String>> = vec![None; drafts.len()];
    for (i, d) in drafts.iter().enumerate().filter(|(_, d)| d.explicit_name) {
        names[i] = Some(registry.claim(&d.base_name));
    }
    for (i, d) in drafts.iter().enumerate() {
        if names[i].is_none() {
            names[i] = Some(registry.claim(&d.base_name));
        }
    }
    drafts
        .into_iter()
        .zip(names)
        .map(|(mut d, name)| {
            d.tool.name = name.unwrap_or_default();
            d.tool
        })
        .collect()
}

fn first_line(s: &str) -> String {
    s.trim()
        .lines()
        .next()
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// `list_pets` → `List pets`.
fn humanize(name: &str) -> String {
    let words = name.replace('_', " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(c) => c.to_ascii_uppercase().to_string() + chars.as_str(),
        None => words,
    }
}

/// Summary and description; when the document has neither, a sentence made
/// from the method, path and parameters (clients reject tools without one).
fn describe(
    op: &Operation<'_>,
    summary: Option<&str>,
    method: &str,
    params: &[crate::runtime::binding::ParamBinding],
) -> String {
    let summary = summary.map(str::trim).filter(|s| !s.is_empty());
    let description = op
        .string("description")
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    let mut text = match (summary, description) {
        (Some(s), Some(d)) if d.starts_with(s) => d,
        (Some(s), Some(d)) => format!("{s}\n\n{d}"),
        (Some(s), None) => s.to_string(),
        (None, Some(d)) => d,
        (None, None) => {
            let mut t = format!("Calls {method} {}", op.path);
            if !params.is_empty() {
                let names: Vec<String> = params
                    .iter()
                    .map(|p| format!("{} ({})", p.arg, p.location.as_str()))
                    .collect();
                t.push_str(&format!(" with {}", names.join(", ")));
            }
            t.push('.');
            t
        }
    };
    if op.node.value.get("deprecated") == Some(&Value::Bool(true)) {
        text.push_str("\n\nDeprecated: prefer another operation where one exists.");
    }
    text
}
