//! What the templates see: the tool model, serialized, plus the Rust names
//! and types derived from it (function, struct and field identifiers,
//! argument types, doc lines). Built from the [`Catalog`] alone; templates
//! never see the raw document.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::names::{self, Scope};
use super::types::TypeTable;
pub use super::types::{FieldView, TypeDecl, VariantView};
use openapi2mcp_model::binding::{BodyShape, HttpBinding};
use openapi2mcp_model::catalog::{Catalog, ToolAnnotations, ToolDef};
use openapi2mcp_model::schemas::{SchemaSide, SchemaSource, with_closure};

/// Everything a template can use.
#[derive(Debug, Serialize)]
pub struct CrateView {
    /// Cargo package name, e.g. `swagger-petstore-mcp`.
    pub package: String,
    /// The library's Rust name, e.g. `swagger_petstore_mcp`.
    pub lib: String,
    /// `openapi2mcp` and the version that generated the crate.
    pub generator: String,
    /// The generator's version alone.
    pub generator_version: String,
    /// The API: title, version, description.
    pub api: ApiView,
    /// Dependency versions, keyed by crate name with `_` for `-`.
    pub deps: BTreeMap<String, String>,
    /// The `Cargo.toml` value of the dependency on the runtime crate
    /// (version, and path unless from a registry).
    pub runtime_dependency: String,
    /// The same for the server crate.
    pub server_dependency: String,
    /// Whether the runtime and server crates are copied under `vendor/`.
    pub vendored: bool,
    /// `build.rs` mode: one module file for a crate to `include!` from
    /// `OUT_DIR` (no crate-level docs or attributes, no `hooks` module).
    pub build_mode: bool,
    /// How `lib.rs` embeds its JSON files (the arguments of `include_str!`).
    pub embed: EmbedView,
    /// Credential variables the API's security schemes read.
    pub credentials: Vec<CredentialView>,
    /// The `mcpServers` entry for MCP clients, pretty-printed JSON.
    pub client_config: String,
    /// Tools grouped by their first tag, one module each.
    pub groups: Vec<GroupView>,
    /// Types shared by the tools (from the schemas' `$defs`): the
    /// `operations::types` module.
    pub types: Vec<TypeDecl>,
    /// Number of tools.
    pub tool_count: usize,
    /// The tool the crate's smoke test (`tests/smoke.rs`) calls against a
    /// stub API: the first that only reads, with a `GET` of a path without
    /// parameters and no required argument (none when no tool is).
    pub smoke: Option<SmokeView>,
}

/// The call of the crate's smoke test.
#[derive(Debug, Serialize)]
pub struct SmokeView {
    /// The tool.
    pub tool: String,
    /// The request line's start the stub must see: `GET /pets`.
    pub request: String,
}

impl SmokeView {
    /// The first tool of `catalog` a smoke test can call with no
    /// arguments and nothing to confirm.
    fn of(catalog: &Catalog) -> Option<Self> {
        catalog
            .tools
            .iter()
            .find(|t| {
                let required = t.input_schema.get("required").and_then(Value::as_array);
                t.annotations.read_only_hint
                    && t.http.method.eq_ignore_ascii_case("GET")
                    && !t.http.path.contains('{')
                    && required.is_none_or(|r| r.is_empty())
            })
            .map(|t| SmokeView {
                tool: t.name.clone(),
                request: format!("GET {}", t.http.path),
            })
    }
}

/// The `include_str!` arguments of the embedded JSON files: relative to
/// `src/` in a crate, under `OUT_DIR` in `build.rs` mode.
#[derive(Debug, Serialize)]
pub struct EmbedView {
    /// `tools.json`.
    pub tools: String,
    /// `schemas.json`.
    pub schemas: String,
    /// `document.json`.
    pub document: String,
}

impl EmbedView {
    /// Beside `src/` in a crate.
    pub fn in_crate() -> Self {
        Self {
            tools: "\"../tools.json\"".into(),
            schemas: "\"../schemas.json\"".into(),
            document: "\"../document.json\"".into(),
        }
    }

    /// In `OUT_DIR/<dir>/` (`dir` is a plain file name).
    pub fn in_out_dir(dir: &str) -> Self {
        let at = |file: &str| format!("concat!(env!(\"OUT_DIR\"), \"/{dir}/{file}\")");
        Self {
            tools: at("tools.json"),
            schemas: at("schemas.json"),
            document: at("document.json"),
        }
    }
}

/// The API the crate serves.
#[derive(Debug, Serialize)]
pub struct ApiView {
    /// `info.title`.
    pub title: String,
    /// `info.version`.
    pub version: String,
    /// `info.description` as doc lines.
    pub description: Vec<String>,
}

/// One credential environment variable.
#[derive(Debug, Serialize)]
pub struct CredentialView {
    /// The variable, e.g. `OPENAPI2MCP_API_KEY_KEY`.
    pub var: String,
    /// What to put there, e.g. `<api_key: API key>`.
    pub what: String,
}

/// One module of operations.
#[derive(Debug, Serialize)]
pub struct GroupView {
    /// Module identifier, e.g. `pets`.
    pub module: String,
    /// File stem (the identifier without `r#`).
    pub file: String,
    /// The tag the tools share (empty for untagged tools).
    pub tag: String,
    /// Its tools, in catalog order.
    pub tools: Vec<ToolView>,
}

/// One tool, with its Rust names.
#[derive(Debug, Serialize)]
pub struct ToolView {
    /// The MCP tool name.
    pub name: String,
    /// The handler function's identifier.
    pub fn_name: String,
    /// The tool's method of the `Hooks` trait: unique across the crate
    /// (function names are unique only within their module).
    pub hook_name: String,
    /// The arguments struct's identifier.
    pub args_type: String,
    /// The module the function lives in.
    pub module: String,
    /// Title.
    pub title: String,
    /// Description as doc lines.
    pub doc: Vec<String>,
    /// The operationId, if any.
    pub operation_id: Option<String>,
    /// Upper-case method.
    pub method: String,
    /// Path template.
    pub path: String,
    /// Behaviour hints.
    pub annotations: ToolAnnotations,
    /// The HTTP binding, as the runtime reads it.
    pub http: HttpBinding,
    /// The arguments struct's fields, in input schema order.
    pub fields: Vec<FieldView>,
    /// The arguments struct, then the types only its arguments use.
    pub types: Vec<TypeDecl>,
}

/// Names that generated modules import or declare.
const RESERVED_TYPES: &[&str] = &[
    "Call",
    "CallReport",
    "Value",
    "Number",
    "Map",
    "Serialize",
    "Serializer",
    "Deserialize",
    "Deserializer",
    "Operations",
    "Hooks",
    "MemberOrder",
    // The prelude's types, traits and variants.
    "Box",
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "String",
    "ToString",
    "ToOwned",
    "Vec",
    "Clone",
    "Copy",
    "Debug",
    "Default",
    "Drop",
    "Eq",
    "PartialEq",
    "Ord",
    "PartialOrd",
    "Hash",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "AsRef",
    "AsMut",
    "Iterator",
    "IntoIterator",
    "Extend",
    "FromIterator",
];
const RESERVED_MODULES: &[&str] = &[
    "runtime",
    "server",
    "operations",
    "hooks",
    "types",
    "std",
    "core",
    "alloc",
];
/// Methods of the generated `Hooks` trait that are not a tool's.
const HOOK_METHODS: &[&str] = &["before_call", "after_call"];

impl CrateView {
    /// Derives the template data from `catalog`; the `$defs` of tools
    /// whose full input schema is not the listed one come from `schemas`.
    pub fn new(
        catalog: &Catalog,
        schemas: &dyn SchemaSource,
        package: &str,
        deps: BTreeMap<String, String>,
        credentials: Vec<CredentialView>,
        client_config: String,
    ) -> Self {
        let mut modules = Scope::with_reserved(RESERVED_MODULES);
        let mut group_index: BTreeMap<String, usize> = BTreeMap::new();
        let mut groups: Vec<GroupView> = Vec::new();
        let mut types = TypeTable::new(RESERVED_TYPES);
        let mut fns: BTreeMap<String, Scope> = BTreeMap::new();
        // The `Hooks` trait's own methods are taken.
        let mut hooks = Scope::with_reserved(HOOK_METHODS);
        for tool in &catalog.tools {
            let tag = tool.origin.tags.first().cloned().unwrap_or_default();
            let index = *group_index.entry(tag.clone()).or_insert_with(|| {
                let module = modules.claim(&names::snake(&tag, "other"), "_");
                groups.push(GroupView {
                    file: module.trim_start_matches("r#").to_string(),
                    module,
                    tag: tag.clone(),
                    tools: Vec::new(),
                });
                groups.len() - 1
            });
            let group = &mut groups[index];
            let fn_scope = fns.entry(group.module.clone()).or_default();
            let fn_name = fn_scope.claim(&names::snake(&tool.name, "op"), "_");
            let args_type = types.claim(&format!("{}Args", names::pascal(&tool.name, "Op")));
            let hook_name = hooks.claim(&names::snake(&tool.name, "op"), "_");
            let decls = args_types(tool, schemas, &args_type, &mut types);
            group.tools.push(tool_view(
                tool,
                fn_name,
                hook_name,
                args_type,
                group.module.clone(),
                decls,
            ));
        }
        Self {
            package: package.to_string(),
            lib: package.replace('-', "_"),
            generator: format!("openapi2mcp {}", env!("CARGO_PKG_VERSION")),
            generator_version: env!("CARGO_PKG_VERSION").to_string(),
            api: ApiView {
                title: catalog.title.clone(),
                version: catalog.version.clone(),
                description: doc_lines(catalog.description.as_deref().unwrap_or_default()),
            },
            deps,
            runtime_dependency: String::new(),
            server_dependency: String::new(),
            vendored: false,
            build_mode: false,
            embed: EmbedView::in_crate(),
            credentials,
            client_config,
            tool_count: catalog.tools.len(),
            smoke: SmokeView::of(catalog),
            groups,
            types: types.shared,
        }
    }
}

fn tool_view(
    tool: &ToolDef,
    fn_name: String,
    hook_name: String,
    args_type: String,
    module: String,
    types: Vec<TypeDecl>,
) -> ToolView {
    ToolView {
        name: tool.name.clone(),
        fn_name,
        hook_name,
        args_type,
        module,
        title: tool.title.clone(),
        doc: doc_lines(&tool.description),
        operation_id: tool.origin.operation_id.clone(),
        method: tool.http.method.clone(),
        path: tool.http.path.clone(),
        annotations: tool.annotations.clone(),
        http: tool.http.clone(),
        fields: types.first().map(|t| t.fields.clone()).unwrap_or_default(),
        types,
    }
}

/// The arguments struct of `tool` (named `args_type`) and the types only
/// it uses, from the schema its arguments are checked against: the full
/// one when the listed one is summarized.
fn args_types(
    tool: &ToolDef,
    schemas: &dyn SchemaSource,
    args_type: &str,
    types: &mut TypeTable,
) -> Vec<TypeDecl> {
    let full = match tool.input_full.as_ref().and_then(Value::as_object) {
        Some(top) => with_closure(top, SchemaSide::Input, schemas),
        None => tool.input_schema.clone(),
    };
    let doc = vec![format!(
        "Arguments of `{}` ({} `{}`).",
        tool.name, tool.http.method, tool.http.path
    )];
    types.args(args_type, doc, &full, &|arg| placement(&tool.http, arg))
}

/// Where an argument goes on the wire, as a doc line.
fn placement(http: &HttpBinding, arg: &str) -> String {
    if let Some(p) = http.params.iter().find(|p| p.arg == arg) {
        return format!("`{}` {} parameter.", p.name, p.location.as_str());
    }
    match http.body.as_ref().map(|b| (&b.shape, &b.media_type)) {
        Some((BodyShape::Whole { .. }, media)) => format!("The request body (`{media}`)."),
        Some((BodyShape::Properties { props }, media)) => {
            props.iter().find(|p| p.arg == arg).map_or_else(
                || "Not sent.".to_string(),
                |p| format!("`{}` in the request body (`{media}`).", p.name),
            )
        }
        None => "Not sent.".to_string(),
    }
}

/// Text as doc-comment lines: control characters made spaces, and code
/// fences marked `text` so rustdoc never runs them as Rust doctests.
pub fn doc_lines(text: &str) -> Vec<String> {
    let mut in_fence = false;
    text.trim()
        .lines()
        .map(|line| {
            let clean: String = line
                .chars()
                .map(|c| if c.is_control() && c != '\t' { ' ' } else { c })
                .collect();
            let clean = clean.trim_end().replace('\t', "    ");
            let trimmed = clean.trim_start();
            if trimmed.starts_with("```") {
                in_fence = !in_fence;
                if in_fence {
                    let indent = &clean[..clean.len() - trimmed.len()];
                    return format!("{indent}```text");
                }
            }
            clean
        })
        .collect()
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
