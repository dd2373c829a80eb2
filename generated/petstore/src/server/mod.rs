//! The MCP server: the tool model served through the official Rust SDK
//! (`rmcp`). This is the only module that names rmcp types.
//!
//! `tools/list` pages are built once at start-up (each under
//! [`ServeOptions::page_bytes`] when serialized) and handed out by cursor;
//! `tools/call` looks the tool up, validates the arguments against its
//! input schema (validators compiled on first use, then cached), and runs
//! the call through [`crate::runtime`]: request → HTTP → response.

pub mod cli;
pub mod transport;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};

use crate::runtime::auth::Credentials;
use crate::runtime::call::{
    Api, ApiOptions, Call, CallReport, Handlers, SendAsIs, ToolId, ToolSpec,
};
use crate::runtime::catalog::{Catalog, ORIGIN_META_KEY, ToolDef};
use crate::runtime::http::HttpOptions;
use crate::runtime::response::{Content, ToolOutcome};
use crate::runtime::schemas::{
    DOCUMENT_URI, SchemaResource, Schemas, component_schema, schema_uri, tool_schema_uri,
};

/// How the server reaches the API and shapes its answers.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Base URL overriding the document's `servers`.
    pub base_url: Option<String>,
    /// Values for `{variables}` in server URLs.
    pub server_variables: BTreeMap<String, String>,
    /// Timeouts, retries and the response size cap.
    pub http: HttpOptions,
    /// Upper bound on one serialized `tools/list` page.
    pub page_bytes: usize,
    /// Calls per second and burst size; `None` for no limit.
    pub rate_limit: Option<(f64, u32)>,
    /// Credentials for the API's security schemes (see [`crate::runtime::auth`]).
    pub credentials: Credentials,
    /// Forward the MCP client's `Authorization` header to the API (HTTP
    /// transport only; off by default).
    pub forward_authorization: bool,
    /// The full schemas behind budgeted tools, served as resources and
    /// used to check arguments.
    pub schemas: Schemas,
}

impl Default for ServeOptions {
    fn default() -> Self {
        Self {
            base_url: None,
            server_variables: BTreeMap::new(),
            http: HttpOptions::default(),
            page_bytes: 256 * 1024,
            rate_limit: None,
            credentials: Credentials::default(),
            forward_authorization: false,
            schemas: Schemas::default(),
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A tool could not be expressed as an MCP tool (a bug, reported as such).
    #[error("tool `{name}` cannot be served: {reason}")]
    Tool {
        /// The tool.
        name: String,
        /// What went wrong.
        reason: String,
    },
    /// The HTTP client could not be created.
    #[error("{0}")]
    Client(String),
    /// The transport failed.
    #[error("transport error: {0}")]
    Transport(String),
}

/// The MCP server for one catalog; cheap to clone (shared state).
#[derive(Clone)]
pub struct Bridge {
    inner: Arc<Inner>,
}

struct Inner {
    info: ServerConfig,
    title: String,
    pages: Vec<Vec<Tool>>,
    api: Api,
    handlers: Arc<dyn Handlers>,
}

impl Bridge {
    /// Prepares everything `tools/list` and `tools/call` need; calls send
    /// their arguments to the API as they are.
    pub fn new(catalog: Catalog, options: ServeOptions) -> Result<Self, ServeError> {
        Self::with_handlers(catalog, options, Arc::new(SendAsIs))
    }

    /// [`Bridge::new`], with admitted calls run by `handlers` (a generated
    /// crate's per-operation functions).
    pub fn with_handlers(
        catalog: Catalog,
        options: ServeOptions,
        handlers: Arc<dyn Handlers>,
    ) -> Result<Self, ServeError> {
        let info = server_info(&catalog);
        let title = catalog.title.clone();
        let mut tools = Vec::with_capacity(catalog.tools.len());
        let mut specs = Vec::with_capacity(catalog.tools.len());
        for def in catalog.tools {
            let (tool, spec) = into_tool(def)?;
            tools.push(tool);
            specs.push(spec);
        }
        let pages = paginate(tools, options.page_bytes);
        let api_options = ApiOptions {
            base_url: options.base_url,
            server_variables: options.server_variables,
            http: options.http,
            rate_limit: options.rate_limit,
            credentials: options.credentials,
            forward_authorization: options.forward_authorization,
            schemas: options.schemas,
        };
        let api =
            Api::new(&catalog.security_schemes, specs, api_options).map_err(ServeError::Client)?;
        for line in api.describe_auth() {
            tracing::info!("auth: {line}");
        }
        Ok(Self {
            inner: Arc::new(Inner {
                info,
                title,
                pages,
                api,
                handlers,
            }),
        })
    }

    /// Number of tools served.
    pub fn tool_count(&self) -> usize {
        self.inner.api.tool_count()
    }

    /// Runs one call: admit (validate, rate limit) → handler → HTTP →
    /// a result valid for the tool's output schema.
    async fn call(
        &self,
        tool: ToolId,
        args: Map<String, Value>,
        client_authorization: Option<&str>,
    ) -> CallReport {
        let api = &self.inner.api;
        let mut report = match api.admit(tool, args) {
            Ok(args) => {
                let call = Call::new(api, tool, client_authorization);
                self.inner.handlers.handle(call, args).await
            }
            Err(refused) => refused.into(),
        };
        report.outcome = api.conform(tool, report.outcome);
        report
    }
}

/// Splits a tool definition into the listed MCP tool and what calls need,
/// moving (not copying) the schemas.
fn into_tool(def: ToolDef) -> Result<(Tool, ToolSpec), ServeError> {
    let ToolDef {
        name,
        title,
        description,
        input_schema,
        output_schema,
        input_full,
        output_full,
        annotations,
        origin,
        http,
    } = def;
    let object = |v: Value, what: &str| match v {
        Value::Object(m) => Ok(Arc::new(m)),
        _ => Err(ServeError::Tool {
            name: name.clone(),
            reason: format!("{what} is not a JSON object"),
        }),
    };
    let input_schema = object(input_schema, "inputSchema")?;
    let mut tool = Tool::new(name.clone(), description, Arc::clone(&input_schema));
    tool.title = Some(title);
    tool.output_schema = output_schema
        .map(|o| object(o, "outputSchema"))
        .transpose()?;
    let bad = |e: serde_json::Error| ServeError::Tool {
        name: name.clone(),
        reason: e.to_string(),
    };
    tool.annotations = Some(serde_json::from_value(annotations.to_mcp_json()).map_err(bad)?);
    tool.meta = Some(serde_json::from_value(json!({ ORIGIN_META_KEY: origin })).map_err(bad)?);
    let spec = ToolSpec {
        name: name.clone(),
        http,
        input_schema,
        output_schema: tool.output_schema.clone(),
        input_full: input_full
            .map(|v| object(v, "the full inputSchema"))
            .transpose()?,
        output_full: output_full
            .map(|v| object(v, "the full outputSchema"))
            .transpose()?,
    };
    Ok((tool, spec))
}

/// Splits the tool list into pages whose serialized size stays under
/// `max_bytes` (at least one tool per page).
fn paginate(tools: Vec<Tool>, max_bytes: usize) -> Vec<Vec<Tool>> {
    let mut pages = Vec::new();
    let mut page = Vec::new();
    let mut size = 0;
    for tool in tools {
        let len = serde_json::to_vec(&tool).map_or(0, |v| v.len()) + 1;
        if !page.is_empty() && size + len > max_bytes {
            pages.push(std::mem::take(&mut page));
            size = 0;
        }
        size += len;
        page.push(tool);
    }
    if !page.is_empty() || pages.is_empty() {
        pages.push(page);
    }
    pages
}

fn server_info(catalog: &Catalog) -> ServerConfig {
    let implementation = serde_json::from_value(json!({
        "name": env!("CARGO_PKG_NAME"),
        "title": format!("{} (via openapi2mcp)", catalog.title),
        "version": env!("CARGO_PKG_VERSION"),
    }))
    .unwrap_or_else(|_| rmcp::model::Implementation::from_build_env());
    let mut instructions = format!(
        "Tools for the {} API{}: {} tools, one per HTTP operation. Read-only tools are annotated readOnlyHint; arguments follow each tool's inputSchema.",
        catalog.title,
        if catalog.version.is_empty() {
            String::new()
        } else {
            format!(" (version {})", catalog.version)
        },
        catalog.tools.len()
    );
    if let Some(d) = catalog
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        let short: String = d.chars().take(1500).collect();
        instructions.push_str("\n\n");
        instructions.push_str(&short);
    }
    instructions.push_str(
        "\n\nWhere a tool's schema is summarized to save space, the summary names a resource (openapi2mcp://schemas/{name}, or the tool's own full schema) that holds the full schema; arguments are always checked against the full schema.",
    );
    ServerConfig::new(
        ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .build(),
    )
    .with_server_info(implementation)
    .with_instructions(instructions)
}

/// Maps our SDK-neutral outcome to rmcp's result.
fn to_result(outcome: ToolOutcome) -> CallToolResult {
    let content: Vec<ContentBlock> = outcome
        .content
        .into_iter()
        .filter_map(|c| {
            let v = match c {
                Content::Text(text) => json!({"type": "text", "text": text}),
                Content::Image {
                    data_base64,
                    mime_type,
                } => {
                    json!({"type": "image", "data": data_base64, "mimeType": mime_type})
                }
                Content::Blob {
                    uri,
                    mime_type,
                    blob_base64,
                } => json!({
                    "type": "resource",
                    "resource": {"uri": uri, "mimeType": mime_type, "blob": blob_base64}
                }),
            };
            serde_json::from_value(v).ok()
        })
        .collect();
    let mut result = if outcome.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    result.structured_content = outcome.structured;
    result
}

impl ServerHandler for Bridge {
    fn get_info(&self) -> ServerConfig {
        self.inner.info.clone()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let pages = &self.inner.pages;
        let index = match request.and_then(|r| r.cursor) {
            None => 0,
            Some(c) => c
                .parse::<usize>()
                .ok()
                .filter(|i| *i < pages.len())
                .ok_or_else(|| McpError::invalid_params(format!("invalid cursor `{c}`"), None))?,
        };
        let mut result = ListToolsResult::with_all_items(pages[index].clone());
        result.next_cursor = (index + 1 < pages.len()).then(|| (index + 1).to_string());
        Ok(result)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        const PAGE: usize = 500;
        let source = self.inner.api.schemas();
        let names = source.components();
        // Entry 0 is the document (when there is one), then the components.
        let document = source.document_json().is_some();
        let total = names.len() + usize::from(document);
        let start = match request.and_then(|r| r.cursor) {
            None => 0,
            Some(c) => c
                .parse::<usize>()
                .ok()
                .filter(|i| *i < total.max(1))
                .ok_or_else(|| McpError::invalid_params(format!("invalid cursor `{c}`"), None))?,
        };
        let end = (start + PAGE).min(total);
        let mut items = Vec::with_capacity(end - start);
        for i in start..end {
            let v = if document && i == 0 {
                json!({
                    "uri": DOCUMENT_URI,
                    "name": "openapi-document",
                    "title": format!("{} API description", self.inner.title),
                    "description": "The OpenAPI description these tools were made from, as loaded (Swagger 2.0 upgraded to OpenAPI 3.0; webhooks left out).",
                    "mimeType": "application/json",
                })
            } else {
                let key = &names[i - usize::from(document)];
                json!({
                    "uri": schema_uri(key),
                    "name": key,
                    "description": format!("JSON Schema (2020-12) of the `{key}` component, with every schema it references."),
                    "mimeType": "application/schema+json",
                })
            };
            if let Ok(r) = serde_json::from_value(v) {
                items.push(r);
            }
        }
        let mut result = ListResourcesResult::with_all_items(items);
        result.next_cursor = (end < total).then(|| end.to_string());
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        let templates = [
            json!({
                "uriTemplate": "openapi2mcp://schemas/{name}",
                "name": "component-schema",
                "description": "The full JSON Schema (2020-12) of one component schema of the API description, with every schema it references.",
                "mimeType": "application/schema+json",
            }),
            json!({
                "uriTemplate": "openapi2mcp://tools/{tool}/input-schema",
                "name": "tool-input-schema",
                "description": "The full input schema of a tool, where its listed inputSchema summarizes nested objects.",
                "mimeType": "application/schema+json",
            }),
            json!({
                "uriTemplate": "openapi2mcp://tools/{tool}/output-schema",
                "name": "tool-output-schema",
                "description": "The full output schema of a tool, where its listed outputSchema summarizes nested objects.",
                "mimeType": "application/schema+json",
            }),
        ];
        let items = templates
            .into_iter()
            .filter_map(|t| serde_json::from_value(t).ok())
            .collect();
        Ok(ListResourceTemplatesResult::with_all_items(items))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = request.uri;
        let api = &self.inner.api;
        let not_found = |why: String| McpError::resource_not_found(why, Some(json!({"uri": uri})));
        let (text, mime) = match SchemaResource::parse(&uri) {
            Some(SchemaResource::Document) => match api.schemas().document_json() {
                Some(text) => (text.to_string(), "application/json"),
                None => {
                    return Err(not_found(
                        "this server does not carry its API description".into(),
                    ));
                }
            },
            Some(SchemaResource::Component(key)) => {
                let schema = component_schema(&key, api.schemas()).ok_or_else(|| {
                    not_found(format!(
                        "no component schema `{key}`; resources/list names them all"
                    ))
                })?;
                (schema.to_string(), "application/schema+json")
            }
            Some(SchemaResource::ToolInput(name) | SchemaResource::ToolOutput(name)) => {
                let output = uri.ends_with("/output-schema");
                let tool = api
                    .find(&name)
                    .ok_or_else(|| not_found(format!("no tool `{name}`")))?;
                let schema = api
                    .full_schema(tool, output)
                    .ok_or_else(|| not_found(format!("tool `{name}` has no output schema")))?;
                (schema.to_string(), "application/schema+json")
            }
            None => {
                return Err(not_found(format!(
                    "unknown resource `{uri}`: this server serves {DOCUMENT_URI}, openapi2mcp://schemas/{{name}} and {}",
                    tool_schema_uri("{tool}", false)
                )));
            }
        };
        let result: ReadResourceResult = serde_json::from_value(json!({
            "contents": [{"uri": uri, "mimeType": mime, "text": text}]
        }))
        .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(result.into())
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let _ = name;
        None // we validate ourselves, with messages a model can act on
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        let Some(tool) = self.inner.api.find(&name) else {
            return Err(McpError::invalid_params(
                format!("unknown tool `{name}`"),
                None,
            ));
        };
        let http = &self.inner.api.tool(tool).http;
        let args = request.arguments.unwrap_or_default();
        let started = Instant::now();
        let progress = context.meta.get_progress_token();
        if let Some(token) = &progress {
            let note = ProgressNotificationParam::new(token.clone(), 0.0)
                .with_total(1.0)
                .with_message(format!("calling {} {}", http.method, http.path));
            let _ = context.peer.notify_progress(note).await;
        }
        let client_authorization = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|p| p.headers.get(axum::http::header::AUTHORIZATION))
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let report = tokio::select! {
            report = self.call(tool, args, client_authorization.as_deref()) => report,
            () = context.ct.cancelled() => {
                tracing::info!(target: "openapi2mcp::audit", tool = %name, "tools/call cancelled by the client");
                return Err(McpError::internal_error("cancelled by the client", None));
            }
        };
        if let Some(token) = progress {
            let done = ProgressNotificationParam::new(token, 1.0)
                .with_total(1.0)
                .with_message("done");
            let _ = context.peer.notify_progress(done).await;
        }
        tracing::info!(
            target: "openapi2mcp::audit",
            tool = %name,
            status = report.status.unwrap_or(0),
            is_error = report.outcome.is_error,
            duration_ms = started.elapsed().as_millis() as u64,
            "tools/call"
        );
        let outcome = self.inner.api.redact(report.outcome);
        Ok(to_result(outcome).into())
    }
}
