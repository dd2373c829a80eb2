#![deny(missing_docs)]
//! The tool model built from a document: one [`ToolDef`] per OpenAPI
//! operation, plain serializable data that both back ends render (the live
//! server and the code generator). Everything the document means is
//! decided here and in the document reader (`openapi2mcp-document`);
//! nothing downstream looks at the raw document. This crate depends on the
//! reader and the tool model alone: no HTTP client, no run time, no MCP
//! layer.
//!
//! The model's types are defined in the model crate's `catalog`
//! (re-exported here) because generated crates depend on it. [`plan`]
//! makes a [`ToolHead`] per selected operation (a [`Planned`] tool),
//! [`complete`] turns one into a [`ToolDef`], and [`build_all`] does both
//! for every operation into a [`Catalog`]; [`arazzo`] adds an Arazzo
//! document's workflows as tools. Callers go through [`pipeline`], which
//! also loads the document and locates the diagnostics (the `openapi2mcp`
//! crate's `pipeline` adds its served and mock entries), and [`report`]
//! says what a command prints of what it found.

pub mod annotations;
pub mod arazzo;
pub mod budget;
pub mod bundle;
pub mod descriptions;
mod encoding;
mod inputs;
pub mod lazy;
pub mod live;
pub mod lro;
pub mod mcp_headers;
pub mod naming;
mod outputs;
pub mod pipeline;
pub mod report;
pub mod select;
pub mod semantics;
mod walk;

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

pub use annotations::ToolAnnotations;
pub use mcp_headers::McpHeaderMode;
pub use openapi2mcp_model::binding::{HttpBinding, SecurityScheme, Server};
pub use openapi2mcp_model::catalog::{Catalog, ORIGIN_META_KEY, Origin, ToolDef, ToolHead};
pub use select::Selection;

use bundle::{SchemaBundler, json_size};
use naming::NameRequest;
use openapi2mcp_document::model::Operation;
use openapi2mcp_document::{Diagnostic, Document};

/// Whether and how tools advertise an `outputSchema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputSchemaMode {
    /// The response schema, bundled like input schemas, tolerant of what
    /// real APIs send beside their documents (see
    /// [`openapi2mcp_document::dialect::Direction::Output`]).
    #[default]
    Full,
    /// The response schema with the document's types as written: no
    /// `null` where the document does not allow it, `oneOf` kept (see
    /// [`openapi2mcp_document::dialect::Direction::StrictOutput`]).
    Strict,
    /// Only `{"type": "object"}`: structured content without a strict
    /// shape, for APIs whose responses stray from their documents.
    Loose,
    /// No `outputSchema`; responses are text only.
    Off,
}

/// The default size budget of one tool's `inputSchema`, in bytes of
/// compact JSON (about 1,000 tokens): room for every argument of nearly
/// every operation with a level or two of its nested objects; past it,
/// nested schemas are summarized (see [`budget`]).
pub const DEFAULT_SCHEMA_BUDGET: usize = 4096;

/// The default budget of an `outputSchema`: half the input budget. A
/// model needs the arguments exactly, but only the shape of a result (the
/// result itself says the rest).
pub const fn default_output_budget(input_budget: usize) -> usize {
    input_budget / 2
}

/// Stands for the tool's name in resource URIs written before names are
/// assigned; replaced once they are. At least as long as the longest name
/// (64), so a schema fitted with it still fits with the real name.
pub(crate) const SELF_TOOL: &str =
    "\u{1}______________________________________________________________\u{1}";

/// What to build and how.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Output schema policy.
    pub output_schemas: OutputSchemaMode,
    /// Which operations become tools.
    pub selection: Selection,
    /// Size budget of each `inputSchema`, in bytes of compact JSON; `0`
    /// for no limit.
    pub schema_budget: usize,
    /// Size budget of each `outputSchema`; `0` for no limit.
    pub output_schema_budget: usize,
    /// How much of each operation's description a tool carries.
    pub descriptions: descriptions::DescriptionMode,
    /// Which arguments MCP clients mirror into `Mcp-Param-*` headers
    /// (see [`mcp_headers`]).
    pub mcp_headers: McpHeaderMode,
    /// Put before every tool name, with `_` (`github_list_pulls`): one
    /// API's namespace in a server of several (`serve --config`); empty
    /// for none.
    pub name_prefix: String,
}

impl BuildOptions {
    /// A schema bundler for `doc` that converts as these options say.
    pub fn bundler<'d>(&self, doc: &'d Document) -> SchemaBundler<'d> {
        SchemaBundler::new(doc).strict_output(self.output_schemas == OutputSchemaMode::Strict)
    }
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            output_schemas: OutputSchemaMode::default(),
            selection: Selection::default(),
            schema_budget: DEFAULT_SCHEMA_BUDGET,
            output_schema_budget: default_output_budget(DEFAULT_SCHEMA_BUDGET),
            descriptions: descriptions::DescriptionMode::default(),
            mcp_headers: McpHeaderMode::default(),
            name_prefix: String::new(),
        }
    }
}

/// Everything a build produces.
pub struct Built {
    /// The tools.
    pub catalog: Catalog,
    /// Warnings, and errors confined to single operations.
    pub diagnostics: Vec<Diagnostic>,
    /// What became of the operations.
    pub stats: BuildStats,
    /// The schema keys and conversions made, for the full schemas behind
    /// budgeted tools (see [`live::LiveSchemas`]).
    pub schemas: bundle::BundleState,
}

/// What became of a document's operations while the catalog was built:
/// enough to say why a catalog is empty.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Operations found under `paths` (those whose path item resolved).
    pub operations: usize,
    /// Operations that could not be made into a tool (each has an error
    /// diagnostic).
    pub failed: usize,
    /// Operations excluded by `x-mcp: {exclude: true}`.
    pub excluded: usize,
    /// Tools the selection filters (tags, methods, paths...) left out.
    pub unselected: usize,
    /// Tool schemas summarized to fit the schema budget.
    pub budgeted: usize,
    /// Tool schemas still over the budget (their arguments alone exceed it).
    pub over_budget: usize,
}

/// Turns every operation of `doc` into a tool. Operations that cannot be
/// made into a tool (a broken `$ref`, say) are skipped with a diagnostic;
/// the rest still work.
pub fn build(doc: &Document, options: &BuildOptions) -> (Catalog, Vec<Diagnostic>) {
    let (catalog, diags, _) = build_with_stats(doc, options);
    (catalog, diags)
}

/// [`build`], also counting what became of each operation.
pub fn build_with_stats(
    doc: &Document,
    options: &BuildOptions,
) -> (Catalog, Vec<Diagnostic>, BuildStats) {
    let built = build_all(doc, options);
    (built.catalog, built.diagnostics, built.stats)
}

/// [`build_with_stats`], also handing back the schema conversions.
pub fn build_all(doc: &Document, options: &BuildOptions) -> Built {
    let plan = plan(doc, options);
    let Plan {
        info,
        tools: planned,
        mut diagnostics,
        mut stats,
    } = plan;
    let mut bundler = options.bundler(doc);
    let mut tools = Vec::with_capacity(planned.len());
    for p in &planned {
        match complete(doc, &p.site(), options, &mut bundler, &mut diagnostics) {
            Ok(tool) => tools.push(tool),
            Err(d) => {
                stats.failed += 1;
                diagnostics.push(d);
            }
        }
    }
    diagnostics.extend(bundler.take_diagnostics());
    for t in &tools {
        let over = [
            (
                t.input_full.is_some(),
                json_size(&t.input_schema),
                "inputSchema",
                options.schema_budget,
            ),
            (
                t.output_full.is_some(),
                t.output_schema.as_ref().map_or(0, json_size),
                "outputSchema",
                options.output_schema_budget,
            ),
        ];
        for (budgeted, size, what, budget) in over {
            stats.budgeted += usize::from(budgeted);
            if budgeted && budget > 0 && size > budget {
                stats.over_budget += 1;
                diagnostics.push(Diagnostic::warning(
                    doc.display_name(doc.root_key()),
                    "",
                    format!(
                        "tool `{}`: its {what} is {size} bytes, over the schema budget of {budget} even with every nested schema summarized (its arguments alone exceed it)",
                        t.name
                    ),
                ));
            }
        }
    }
    let catalog = info.with_tools(tools);
    Built {
        catalog,
        diagnostics,
        stats,
        schemas: bundler.into_state(),
    }
}

/// The API-level facts of a catalog: `info` and the security schemes.
#[derive(Debug, Clone)]
pub struct ApiInfo {
    /// `info.title` (`API` when missing).
    pub title: String,
    /// `info.version`.
    pub version: String,
    /// `info.description`.
    pub description: Option<String>,
    /// Security schemes by name.
    pub security_schemes: std::collections::BTreeMap<String, SecurityScheme>,
    /// Tags nested under others (OpenAPI 3.2 `parent`), child to parent.
    pub tag_parents: std::collections::BTreeMap<String, String>,
}

impl ApiInfo {
    /// A catalog of these facts and `tools`.
    pub fn with_tools(self, tools: Vec<ToolDef>) -> Catalog {
        Catalog {
            title: self.title,
            version: self.version,
            description: self.description,
            security_schemes: self.security_schemes,
            tag_parents: self.tag_parents,
            tools,
        }
    }
}

/// One operation planned as a tool: its head (named, titled, described,
/// selected) and where the operation is, so [`complete`] can build it.
#[derive(Debug, Clone)]
pub struct Planned {
    /// What is known of the tool without building its schemas.
    pub head: ToolHead,
    /// The operation's path template (a key of `paths`).
    pub path: String,
    /// Its method as the document model names it (see
    /// [`Operation::method`]).
    pub method: String,
}

impl Planned {
    /// What [`complete`] reads of this tool.
    pub fn site(&self) -> Site<'_> {
        Site {
            head: &self.head,
            path: &self.path,
            method: &self.method,
        }
    }
}

/// A planned tool as [`complete`] reads it: its head and where its
/// operation is (borrowed, so a source can keep the heads where the
/// server reads them, not a second copy of them).
#[derive(Debug, Clone, Copy)]
pub struct Site<'a> {
    /// What is known of the tool without building its schemas.
    pub head: &'a ToolHead,
    /// The operation's path template (a key of `paths`).
    pub path: &'a str,
    /// Its method as the document model names it.
    pub method: &'a str,
}

/// Every tool of a document, planned but not built: the cheap pass over
/// every operation (names, descriptions, annotations, argument names,
/// selection) that a server needs at start-up. Schemas are built per tool
/// by [`complete`].
pub struct Plan {
    /// `info` and security schemes.
    pub info: ApiInfo,
    /// The selected tools, in document order.
    pub tools: Vec<Planned>,
    /// Warnings, and errors confined to single operations.
    pub diagnostics: Vec<Diagnostic>,
    /// What became of the operations so far (`budgeted` and
    /// `over_budget` are counted when tools are built).
    pub stats: BuildStats,
}

/// Plans every operation of `doc` (see [`Plan`]). An operation whose
/// path item, parameters or `x-mcp` cannot be read is skipped with a
/// diagnostic.
pub fn plan(doc: &Document, options: &BuildOptions) -> Plan {
    let mut diags = Vec::new();
    let info = doc.info();
    let security_schemes = doc.security_schemes(&mut diags);
    let walked = walk::draft_all(doc, draft);
    diags.extend(walked.diagnostics);
    // Operations whose path item or parameters do not resolve were dropped
    // by the walk, each with an error diagnostic.
    let declared = walked.declared.max(walked.operations);
    let mut stats = BuildStats {
        operations: declared,
        failed: declared - walked.operations,
        ..BuildStats::default()
    };
    let mut drafts = Vec::with_capacity(walked.drafts.len());
    for drafted in walked.drafts {
        match drafted {
            Ok(Some(d)) => drafts.push(d),
            Ok(None) => stats.excluded += 1,
            Err(d) => {
                stats.failed += 1;
                diags.push(d)
            }
        }
    }
    let named = assign_names(drafts, &options.name_prefix);
    let before = named.len();
    let mut tools: Vec<Planned> = named
        .into_iter()
        .filter(|t| options.selection.keeps(&t.head))
        .collect();
    stats.unselected = before - tools.len();
    if options.descriptions == descriptions::DescriptionMode::Short {
        let mut heads: Vec<ToolHead> = tools.iter().map(|t| t.head.clone()).collect();
        descriptions::shorten_all(&mut heads);
        for (t, h) in tools.iter_mut().zip(heads) {
            t.head.description = h.description;
        }
    }
    Plan {
        info: ApiInfo {
            title: info.title.unwrap_or("API").to_string(),
            version: info.version.unwrap_or_default().to_string(),
            description: info.description.map(str::to_string),
            security_schemes,
            tag_parents: doc.tag_parents(&mut diags),
        },
        tools,
        diagnostics: diags,
        stats,
    }
}

/// Builds the planned tool `planned`: its input and output schemas
/// (within the budgets) and its HTTP binding. Fails when the operation is
/// gone from `doc` or a `$ref` in its request body cannot be followed.
pub fn complete(
    doc: &Document,
    planned: &Site<'_>,
    options: &BuildOptions,
    bundler: &mut SchemaBundler<'_>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<ToolDef, Diagnostic> {
    // The operation's path item is read for this build and let go of
    // after it (see `openapi2mcp_document::lazy`).
    let item = doc.path_item(planned.path);
    complete_in(doc, &item, planned, options, bundler, warnings)
}

/// [`complete`] with the operation's path item read already (`item`, from
/// [`Document::path_item`]): the tools of one path share it.
pub(crate) fn complete_in(
    doc: &Document,
    item: &openapi2mcp_document::model::PathItems,
    planned: &Site<'_>,
    options: &BuildOptions,
    bundler: &mut SchemaBundler<'_>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<ToolDef, Diagnostic> {
    let op = doc
        .operation_in(Some(item), planned.path, planned.method)
        .ok_or_else(|| {
            Diagnostic::error(
                doc.display_name(doc.root_key()),
                "",
                format!(
                    "operation {} {} is no longer in the document",
                    planned.method.to_ascii_uppercase(),
                    planned.path
                ),
            )
        })?;
    let routing = mcp_headers::Routing {
        mode: options.mcp_headers,
        schemes: match options.mcp_headers {
            McpHeaderMode::None => mcp_headers::SchemeNames::default(),
            _ => mcp_headers::SchemeNames::of(&doc.security_schemes(&mut Vec::new())),
        },
    };
    let inputs = inputs::build(&op, bundler, options.schema_budget, &routing, warnings)?;
    let long_running = lro::long_running(&op, warnings);
    let output = outputs::build(
        &op,
        options.output_schemas,
        bundler,
        options.output_schema_budget,
        long_running.as_ref(),
    );
    let head = planned.head;
    // Moved out, not cloned: a fitted output schema is one of the larger
    // values of a tool.
    let (output_schema, output_full, output_shape) = match output {
        Some(o) => (Some(o.schema), o.full, Some(o.shape)),
        None => (None, None, None),
    };
    let mut tool = ToolDef {
        name: head.name.clone(),
        title: head.title.clone(),
        description: head.description.clone(),
        input_schema: inputs.schema,
        input_full: inputs.full,
        output_full,
        output_schema,
        annotations: head.annotations.clone(),
        origin: head.origin.clone(),
        http: HttpBinding {
            method: head.origin.method.clone(),
            path: op.path.to_string(),
            params: inputs.http_params,
            body: inputs.body,
            servers: op.servers(),
            security: head.security.clone(),
            output: output_shape,
            response_media_types: response_media_types(&op),
            response_headers: response_headers(&op),
            lro: long_running.map(|l| l.binding),
            workflow: None,
        },
    };
    if tool.input_full.is_some() {
        name_self(&mut tool.input_schema, &tool.name);
    }
    if tool.output_full.is_some()
        && let Some(out) = &mut tool.output_schema
        && names_self(out)
    {
        // Copied only here: a summary that points at its tool's own
        // full schema is that tool's alone.
        Arc::make_mut(out)
            .values_mut()
            .for_each(|v| name_self(v, &tool.name));
    }
    Ok(tool)
}

/// The media types `op`'s responses document (every status code, in
/// document order, each once, as written): the runtime asks for them in
/// its `Accept` header, JSON first.
fn response_media_types(op: &Operation<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for code in op.response_codes() {
        let Some(response) = op.response(code) else {
            continue;
        };
        for media in response.media_types() {
            if !out.iter().any(|m| m == media.name) {
                out.push(media.name.to_string());
            }
        }
    }
    out
}

/// The headers `op`'s responses document (every status code, in document
/// order, each name once, as written): the runtime shows them to the
/// model when the API sends them (a credential-bearing one never).
fn response_headers(op: &Operation<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for code in op.response_codes() {
        let Some(response) = op.response(code) else {
            continue;
        };
        for header in response.headers() {
            if !out.iter().any(|h| h.eq_ignore_ascii_case(header.name)) {
                out.push(header.name.to_string());
            }
        }
    }
    out
}

/// A tool before its final name is known.
struct Draft {
    name: NameRequest,
    title_from_name: bool,
    planned: Planned,
}

fn draft(op: &Operation<'_>) -> Result<Option<Draft>, Diagnostic> {
    let overrides = op.x_mcp()?;
    if overrides.exclude {
        return Ok(None);
    }
    let operation_id = op.operation_id().map(str::to_string);
    let method = op.method.to_ascii_uppercase();
    let said = naming::Said {
        operation_id: operation_id.as_deref(),
        method: op.method,
        path: op.path,
        summary: op.summary().or(op.description()),
        description: op.description(),
    };
    // What the words say the operation does: its annotations, and a POST
    // that reads is named for reading.
    let reading = semantics::read_operation(&method, &said);
    let (candidates, explicit_name) = match &overrides.name {
        Some(n) => (vec![naming::sanitize(n)], true),
        None => {
            // `x-mcp.annotations.readOnlyHint` settles it, as it does the
            // annotation.
            let reads = overrides
                .annotations
                .read_only_hint
                .unwrap_or(matches!(reading, Some(semantics::Reading::Reads(..))));
            let effect = if reads && method == "POST" {
                naming::Effect::Reads
            } else {
                naming::Effect::AsMethod
            };
            (naming::candidates_for(&said, effect), false)
        }
    };
    let args = inputs::head_args(op);
    let summary = op.summary().map(str::to_string);
    // Without a title or summary, the title is the final name, humanized
    // once names are assigned.
    let given_title = overrides
        .title
        .clone()
        .or_else(|| summary.clone().map(|s| first_line(&s)));
    let title_from_name = given_title.is_none();
    let title = given_title.unwrap_or_default();
    let description = overrides
        .description
        .clone()
        .unwrap_or_else(|| describe(op, summary.as_deref(), &method, &args.params));
    let annotations = annotations::for_operation(&method, reading.as_ref(), &title, &overrides);
    let origin = Origin {
        operation_id,
        method,
        path: op.path.to_string(),
        tags: op.tags(),
        deprecated: op.deprecated(),
    };
    Ok(Some(Draft {
        name: NameRequest {
            candidates,
            explicit: explicit_name,
        },
        title_from_name,
        planned: Planned {
            head: ToolHead {
                name: String::new(),
                title,
                description,
                annotations,
                origin,
                security: op.security(),
                args: args.names,
                steps: Vec::new(),
            },
            path: op.path.to_string(),
            method: op.method.to_string(),
        },
    }))
}

/// Unique names (see [`naming::assign`]): explicit `x-mcp` names claimed
/// first, so adding an override never renames another tool.
fn assign_names(mut drafts: Vec<Draft>, prefix: &str) -> Vec<Planned> {
    // Moved out, not copied: Graph's 11,000 requests of several names
    // each, copied and dropped, were a tenth of planning's time on one
    // core.
    let requests: Vec<NameRequest> = drafts
        .iter_mut()
        .map(|d| std::mem::take(&mut d.name))
        .collect();
    let names = naming::assign(&requests);
    // Graph's 11,000 requests of several names each took 3 ms to free on
    // the one core planning uses here; a few hundred cost less than a
    // thread.
    if requests.len() >= LET_GO_REQUESTS {
        let_go(requests);
    }
    drafts
        .into_iter()
        .zip(names)
        .map(|(mut d, name)| {
            let head = &mut d.planned.head;
            if d.title_from_name {
                head.title = humanize(&name);
                head.annotations.title = head.title.clone();
            }
            head.name = naming::prefixed(prefix, &name);
            d.planned
        })
        .collect()
}

/// Name requests from which planning frees them on a thread of their own
/// (see [`let_go`]).
const LET_GO_REQUESTS: usize = 2_000;

/// Frees `value` on a thread of its own, for large values whose freeing
/// would hold up the thread that goes on (a full list's fitted results,
/// Graph's name requests); when no thread can be had, it is freed here.
pub(crate) fn let_go<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new()
        .name("let-go".into())
        .spawn(move || drop(value));
}

/// Writes the tool's name where a summary points at its own full schema.
fn name_self(schema: &mut Value, name: &str) {
    match schema {
        Value::String(s) if SELF_FINDER.find(s.as_bytes()).is_some() => {
            *s = s.replace(SELF_TOOL, name);
        }
        Value::Object(m) => m.values_mut().for_each(|v| name_self(v, name)),
        Value::Array(items) => items.iter_mut().for_each(|v| name_self(v, name)),
        _ => {}
    }
}

/// Whether a string of `schema` holds [`SELF_TOOL`] (see [`name_self`]).
fn names_self(schema: &Map<String, Value>) -> bool {
    let found = |text: &str| SELF_FINDER.find(text.as_bytes()).is_some();
    schema.values().any(|v| any_text(v, &found))
}

/// Whether a key or string anywhere in `value` is `found`: how a built
/// schema is searched for a marker (its own tool, a missed key).
pub(crate) fn any_text(value: &Value, found: &dyn Fn(&str) -> bool) -> bool {
    match value {
        Value::String(s) => found(s),
        Value::Array(items) => items.iter().any(|v| any_text(v, found)),
        Value::Object(m) => m.iter().any(|(k, v)| found(k) || any_text(v, found)),
        _ => false,
    }
}

/// Finds [`SELF_TOOL`]: every string of a summarized schema is searched,
/// so the searcher is built once (`str::contains` prepares its needle on
/// each call).
static SELF_FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(SELF_TOOL));

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
    params: &[(String, openapi2mcp_model::binding::Location)],
) -> String {
    let summary = summary.map(str::trim).filter(|s| !s.is_empty());
    let description = op
        .description()
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
                    .map(|(arg, location)| format!("{arg} ({})", location.as_str()))
                    .collect();
                t.push_str(&format!(" with {}", names.join(", ")));
            }
            t.push('.');
            t
        }
    };
    if op.deprecated() {
        text.push_str("\n\nDeprecated: prefer another operation where one exists.");
    }
    text
}
