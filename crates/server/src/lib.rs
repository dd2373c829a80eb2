#![deny(missing_docs)]
//! The MCP server: the tool model served through the official Rust SDK
//! (`rmcp`). This is the only module that names rmcp types.
//!
//! `tools/list` pages are built once at start-up (each under
//! [`ServeOptions::page_bytes`] when serialized) and handed out by cursor;
//! `tools/call` looks the tool up, validates the arguments against its
//! input schema (validators compiled on first use, then cached), and runs
//! the call through [`openapi2mcp_runtime`]: request → HTTP → response.
//!
//! What only a server needs lives here, not in the run time: the listing
//! modes ([`modes`]), the search index behind discovery and code mode
//! (`search`, the `search` feature) and code mode's JavaScript sandbox
//! ([`code`]; QuickJS with the `code` feature).

mod app_review;
mod ask;
mod assemble;
pub mod authz;
pub mod cli;
pub mod code;
pub mod confirm;
pub mod connect;
pub mod generated_main;
pub mod handles;
pub mod listener;
mod live;
pub mod login;
mod login_gate;
pub mod modes;
mod once;
pub mod ops;
mod options;
pub mod otel;
mod prepared;
mod protocol;
mod resources;
mod run;
pub mod seal;
#[cfg(feature = "search")]
pub mod search;
mod session_owner;
pub mod sessions;
mod shape;
mod stdio;
pub mod tasks;
pub mod transport;
mod wide_integers;
mod workflows;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, DiscoverResult, GetTaskParams,
    GetTaskResult, InitializeRequestParams, InitializeResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerConfig, SubscriptionFilter, Tool,
    UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{Map, Value};

use modes::meta::MetaTool;
use modes::{Listing, ToolsMode};
use openapi2mcp_runtime::call::{
    Api, CallReport, CallRequest, Handlers, Missing, SendAsIs, ToolId,
};
use openapi2mcp_runtime::catalog::{LazyCatalog, ToolHead};
use openapi2mcp_runtime::lro::LroMode;
use openapi2mcp_runtime::select::SELECT_ARG;
use prepared::Prepared;
use shape::server_info;

use assemble::api_members;
pub use options::ServeOptions;

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
    /// The options ask for something this catalog cannot give (an
    /// unknown toolset).
    #[error("{0}")]
    Options(String),
    /// The transport failed.
    #[error("transport error: {0}")]
    Transport(String),
}

/// The MCP server; cheap to clone (shared state). Each MCP session gets
/// its own [`Bridge::new_session`] (the toolsets it has enabled); clones
/// share the session. The catalog can be replaced while the server runs
/// ([`Bridge::reload`]); each request works on the catalog current when it
/// started (`inner`, a snapshot taken by [`Bridge::fresh`]).
#[derive(Clone)]
pub struct Bridge {
    inner: Arc<Inner>,
    session: Arc<Session>,
    shared: Arc<live::Shared>,
    /// Toolsets chosen by the request being answered (see
    /// [`selection`]); `None`: the session's.
    request_toolsets: Option<Arc<BTreeSet<String>>>,
    /// The scopes of the caller's validated token, when tools have scope
    /// rules (`--scope-read`/`--scope-write`/`--tool-scopes-from-document`):
    /// lists and searches then show only the tools those scopes allow.
    caller_scopes: Option<Arc<BTreeSet<String>>>,
}

struct Inner {
    info: ServerConfig,
    title: String,
    /// What is known of every tool without building it, in catalog order.
    heads: Arc<Vec<ToolHead>>,
    /// The tools, built when first listed, described or called.
    prepared: Arc<Prepared>,
    /// The listing mode (`auto` resolved) and that mode's state.
    listing: Listing,
    page_bytes: usize,
    api: Api,
    handlers: Arc<dyn Handlers>,
    /// Scope rules of the tools that need scopes (OAuth authorization).
    scopes: HashMap<String, authz::scopes::ScopeRule>,
}

/// One MCP session's state.
#[derive(Debug, Default)]
struct Session {
    /// Enabled toolsets (toolsets mode), by name: a session outlives
    /// reloads, and a reloaded catalog may number its toolsets otherwise
    /// (each request resolves the names against the catalog it works on;
    /// a name the catalog no longer has is skipped, and counts again if a
    /// later reload brings it back).
    enabled: Mutex<BTreeSet<String>>,
}

impl Bridge {
    /// Prepares everything `tools/list` and `tools/call` need; calls send
    /// their arguments to the API as they are.
    pub fn new(catalog: impl Into<LazyCatalog>, options: ServeOptions) -> Result<Self, ServeError> {
        Self::with_handlers(catalog, options, Arc::new(SendAsIs))
    }

    /// [`Bridge::new`], with admitted calls run by `handlers` (a generated
    /// crate's per-operation functions).
    pub fn with_handlers(
        catalog: impl Into<LazyCatalog>,
        options: ServeOptions,
        handlers: Arc<dyn Handlers>,
    ) -> Result<Self, ServeError> {
        let sealer = seal::Sealer::from_env().map_err(ServeError::Options)?;
        let inner = Arc::new(Self::build_inner(
            catalog.into(),
            options.clone(),
            Arc::clone(&handlers),
        )?);
        Ok(Self {
            // The one session of stdio (and of a bridge served directly)
            // starts with `--toolset`'s toolsets, as HTTP sessions do.
            session: Arc::new(Session {
                enabled: Mutex::new(inner.listing.initial_toolsets()),
            }),
            inner: Arc::clone(&inner),
            shared: Arc::new(live::Shared::new(inner, options, handlers, sealer)),
            request_toolsets: None,
            caller_scopes: None,
        })
    }

    /// Where spans are exported, if anywhere (`--otlp`): flushed when the
    /// server stops.
    pub fn span_sink(&self) -> Option<openapi2mcp_runtime::trace::Sink> {
        self.shared.options.spans.clone()
    }

    /// This handle with the catalog current now.
    fn fresh(&self) -> Self {
        Self {
            inner: self.shared.current.load_full(),
            session: Arc::clone(&self.session),
            shared: Arc::clone(&self.shared),
            request_toolsets: None,
            caller_scopes: None,
        }
    }

    /// The scope rule of a tool (empty: no scope needed).
    pub fn tool_scopes(&self, name: &str) -> authz::scopes::ScopeRule {
        let inner = self.shared.current.load();
        inner.scopes.get(name).cloned().unwrap_or_default()
    }

    /// The scope rule of a `tools/call` of `name` whose arguments name
    /// `target`: a call meta-tool (discovery and toolsets modes) needs
    /// the scopes of the tool it calls, so it is no way around them.
    pub fn call_scopes(&self, name: &str, target: Option<&str>) -> authz::scopes::ScopeRule {
        let inner = self.shared.current.load();
        let through = inner.listing.meta.iter().any(|(m, ..)| {
            m.name() == name && matches!(m, MetaTool::Call | MetaTool::CallReadOnly)
        });
        let tool = match (through, target) {
            (true, Some(target)) => target,
            _ => name,
        };
        inner.scopes.get(tool).cloned().unwrap_or_default()
    }

    /// Whether the caller of this request may see and call the tool at
    /// `index` (always, unless tools have scope rules and the caller's
    /// token lacks one).
    pub(crate) fn allowed(&self, index: usize) -> bool {
        let Some(granted) = &self.caller_scopes else {
            return true;
        };
        self.inner
            .heads
            .get(index)
            .and_then(|h| self.inner.scopes.get(&h.name))
            .is_none_or(|rule| authz::scopes::check(rule, granted).is_ok())
    }

    /// Whether some security scheme is served with each person's own
    /// login (a token store is configured and the scheme has a login flow
    /// and a client id).
    pub fn serves_logins(&self) -> bool {
        self.shared
            .current
            .load()
            .api
            .authenticators()
            .any(|(_, auth)| auth.has_logins())
    }

    /// Every scope some tool needs.
    pub fn scopes_mentioned(&self) -> BTreeSet<String> {
        authz::scopes::mentioned(self.shared.current.load().scopes.values())
    }

    /// Everything `tools/list` and `tools/call` need for one catalog.
    /// Tools are built here only when the mode lists them all (`full`,
    /// or `auto` deciding between full and discovery on a small API).
    fn build_inner(
        catalog: LazyCatalog,
        options: ServeOptions,
        handlers: Arc<dyn Handlers>,
    ) -> Result<Inner, ServeError> {
        let LazyCatalog {
            title,
            version,
            description,
            security_schemes,
            tag_parents,
            heads,
            source,
        } = catalog;
        if options.response_filter && !openapi2mcp_runtime::select::AVAILABLE {
            return Err(ServeError::Options(
                "--response-filter: this server was built without the `jq` feature of openapi2mcp-server; build with the feature or leave the flag out".into(),
            ));
        }
        let scopes = authz::scopes::for_tools(&heads, &security_schemes, &options.tool_scopes);
        let members = api_members(&options, &security_schemes);
        let prepared = Arc::new(Prepared::new(
            &heads,
            source,
            options.response_filter,
            members
                .iter()
                .map(|m| (m.first, Arc::clone(&m.options.headers)))
                .collect(),
            options.confirm,
        ));
        let listing = Listing::build(
            &heads,
            &prepared,
            &tag_parents,
            &title,
            &options.listing,
            options.page_bytes,
            options.handle_after.is_some(),
        )?;
        let info = server_info(
            &title,
            &version,
            description.as_deref(),
            heads.len(),
            listing.mode,
            listing.toolset_count(),
        );
        let names = heads.iter().map(|h| h.name.clone()).collect();
        let endpoints: Arc<dyn openapi2mcp_runtime::call::EndpointSource> = prepared.clone();
        let api = Api::with_members(names, endpoints, members).map_err(ServeError::Client)?;
        for line in api.describe_auth() {
            tracing::info!("auth: {line}");
        }
        Ok(Inner {
            info,
            title,
            heads,
            prepared,
            listing,
            page_bytes: options.page_bytes,
            api,
            handlers,
            scopes,
        })
    }

    /// A handle on the same server for a new MCP session: the toolsets it
    /// has enabled start from `--toolset`.
    pub fn new_session(&self) -> Self {
        let inner = self.shared.current.load_full();
        Self {
            session: Arc::new(Session {
                enabled: Mutex::new(inner.listing.initial_toolsets()),
            }),
            inner,
            shared: Arc::clone(&self.shared),
            request_toolsets: None,
            caller_scopes: None,
        }
    }

    /// The listing mode in force (`auto` resolved).
    pub fn mode(&self) -> ToolsMode {
        self.inner.listing.mode
    }

    /// Number of tools served.
    pub fn tool_count(&self) -> usize {
        self.shared.current.load().api.tool_count()
    }

    /// Whether `tool` takes the selector argument (`--response-filter`).
    pub(crate) fn selectable(&self, tool: ToolId) -> bool {
        self.inner
            .prepared
            .get(tool.index())
            .is_ok_and(|shown| shown.selectable)
    }

    /// Runs one whole call through the runtime's single entry point
    /// ([`Api::run`]: admit → handler → HTTP → conform → redact →
    /// selector), counting it for metrics.
    async fn call(
        &self,
        tool: ToolId,
        args: Map<String, Value>,
        client: &openapi2mcp_runtime::forward::Forwarded,
        mode: LroMode,
        selector: Option<&str>,
    ) -> CallReport {
        let _flight = self.flight();
        let api = &self.inner.api;
        let request = CallRequest {
            tool,
            args,
            client,
            lro: mode,
            selector,
        };
        let ran = api.run(self.inner.handlers.as_ref(), request).await;
        ops::record_call(&api.tool(tool).name, ran.verdict.as_str(), ran.backend);
        ran.report
    }
}

impl ServerHandler for Bridge {
    fn get_info(&self) -> ServerConfig {
        self.shared.current.load().info.clone()
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        // rmcp replays the handshake of an HTTP session that slept (see
        // `sessions`), marked with the session's id: its toolsets return.
        if let Some(restored) =
            context
                .extensions
                .get::<rmcp::transport::streamable_http_server::session::SessionRestoreMarker>()
        {
            self.restore_session_toolsets(&restored.id);
        }
        context.peer.set_peer_info(request.clone());
        self.negotiate_initialize(&request)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.register_peer(context.peer);
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let this = self.fresh_for(&context)?;
        let outbox = context.extensions.get::<modes::Outbox>();
        let mut result = this.list_page(request, outbox.map(|o| (o, &context.id)))?;
        let hints = this.list_hints();
        result.ttl_ms = Some(hints.ttl_ms);
        result.cache_scope = Some(hints.scope);
        if result.next_cursor.is_none() && this.sends_reviews(&context) {
            // The review form's tool, on the last page, for this client
            // only: the answer is then private to it.
            if let Some(tool) = app_review::send_tool() {
                match outbox.and_then(|o| o.take(&context.id).map(|bytes| (o, bytes))) {
                    Some((outbox, bytes)) => {
                        let tool = serde_json::to_vec(&tool).map_err(|e| {
                            McpError::internal_error(format!("tools/list: {e}"), None)
                        })?;
                        let mut page = Vec::with_capacity(bytes.len() + 1 + tool.len());
                        page.extend_from_slice(&bytes);
                        page.push(b',');
                        page.extend_from_slice(&tool);
                        outbox.put(context.id.clone(), page.into());
                    }
                    None => result.tools.push(tool),
                }
                result.cache_scope = Some(rmcp::model::CacheScope::Private);
            }
        }
        this.stamp(&mut result.meta, &context);
        Ok(result)
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, McpError> {
        let this = self.fresh();
        let hints = this.resource_hints();
        Ok(DiscoverResult::from_server_info(
            ServerHandler::supported_protocol_versions(&this).into_owned(),
            this.get_info(),
        )
        .with_ttl_ms(hints.ttl_ms)
        .with_cache_scope(hints.scope))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        // The prompts capability is declared (clients list prompts
        // whatever we say) and the list is empty: the API's operations
        // are tools, not prompts.
        let mut result = ListPromptsResult::with_all_items(Vec::new());
        let hints = self.resource_hints();
        result.ttl_ms = Some(hints.ttl_ms);
        result.cache_scope = Some(hints.scope);
        self.stamp(&mut result.meta, &context);
        Ok(result)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(protocol::deliverable(requested))
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        self.task(&request.task_id, &context)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.cancel_task_of(&request.task_id, &context)
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.update_task_of(&request.task_id, &context)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), McpError> {
        let id = self.shared.listeners.add(context.sink().clone());
        context.cancelled().await;
        self.shared.listeners.remove(id);
        Ok(())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        self.resources_page(request, context).await
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        self.resource_templates(request, context).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        self.read_one(request, context).await
    }

    /// What rmcp's streamable HTTP server checks `Mcp-Param-*` headers
    /// against (SEP-2243, MCP 2026-07-28): the tool's name and input
    /// schema, for a tool `tools/list` can show whose arguments carry
    /// `x-mcp-header`. A mismatching or missing header is then refused
    /// (HTTP 400, JSON-RPC -32020) before the call reaches the API. Every
    /// other tool is `None`: we validate arguments ourselves, with
    /// messages a model can act on. Discovery mode lists only meta-tools,
    /// so a client has never seen a catalog tool's schema there (and sends
    /// no header for it): `None` too. The tool comes from the prepared
    /// tools (built once, then shared with listing and calls).
    fn get_tool(&self, name: &str) -> Option<Tool> {
        let inner = self.shared.current.load();
        if matches!(inner.listing.mode, ToolsMode::Discovery | ToolsMode::Code) {
            return None;
        }
        let index = inner.api.index_of(name)?;
        let shown = inner.prepared.get(index).ok()?;
        shown.mirrors_headers.then(|| {
            Tool::new(
                shown.tool.name.clone(),
                "",
                Arc::clone(&shown.tool.input_schema),
            )
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        // Integers beyond 64 bits as the client wrote them, for what is
        // built from the arguments before the call (a confirmation's
        // preview and digest) as for the call itself.
        let exact = wide_integers::of(&context);
        openapi2mcp_runtime::exact::scope(exact, self.answer_call(request, context)).await
    }
}

impl Bridge {
    /// `tools/call`: a meta-tool, or a tool of the catalog through its
    /// confirmation gate and the call.
    async fn answer_call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let this = self.fresh_for(&context)?;
        let name = request.name.to_string();
        let args = request.arguments.unwrap_or_default();
        let retry = (
            request.input_responses.as_ref(),
            request.request_state.as_deref(),
        );
        if name == app_review::SEND_TOOL && this.sends_reviews(&context) {
            let mut response = this.send_reviewed(&args, &context).await?;
            if let CallToolResponse::Complete(result) = &mut response {
                this.stamp(&mut result.meta, &context);
            }
            return Ok(response);
        }
        if let Some(m) = this.meta_tool(&name) {
            let mut response = this.call_meta(m, args, retry, &context).await?;
            if let CallToolResponse::Complete(result) = &mut response {
                this.stamp(&mut result.meta, &context);
            }
            return Ok(response);
        }
        let tool = match this.inner.api.find(&name) {
            Ok(tool) => tool,
            Err(Missing::Unknown) => {
                return Err(McpError::invalid_params(
                    format!("unknown tool `{name}`"),
                    None,
                ));
            }
            Err(Missing::Broken(why)) => {
                return Ok(
                    modes::meta::refuse(format!("tool `{name}` cannot be served: {why}")).into(),
                );
            }
        };
        if let Some(refusal) = this.not_enabled(tool) {
            return Ok(refusal.into());
        }
        let mut args = args;
        let mut select = None;
        if this.selectable(tool) {
            match args.remove(SELECT_ARG) {
                None | Some(Value::Null) => {}
                Some(Value::String(s)) if !s.trim().is_empty() => select = Some(s),
                Some(other) => {
                    return Ok(modes::meta::refuse(format!(
                        "`{SELECT_ARG}` must be a jq expression (a string), not {}",
                        modes::meta::kind(&other)
                    ))
                    .into());
                }
            }
        }
        if let confirm::Gate::Answer(answer) = this
            .gate(tool, &name, &mut args, retry.0, retry.1, &context)
            .await?
        {
            return Ok(*answer);
        }
        // The catalog `tool` was found in: a reload may have replaced
        // `self`'s since the session began.
        let mut response = this.run_call(tool, &name, args, select, &context).await?;
        if let CallToolResponse::Complete(result) = &mut response {
            this.stamp(&mut result.meta, &context);
        }
        Ok(response)
    }
}

#[cfg(test)]
mod tests;
