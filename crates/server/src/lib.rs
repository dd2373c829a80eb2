#![deny(missing_docs)]
//! The MCP server: the tool model served through the official Rust SDK
//! (`rmcp`). This is the only module that names rmcp types.
//!
//! `tools/list` pages are built once at start-up (each under
//! [`ServeOptions::page_bytes`] when serialized) and handed out by cursor;
//! `tools/call` looks the tool up, validates the arguments against its
//! input schema (validators compiled on first use, then cached), and runs
//! the call through [`openapi2mcp_runtime`]: request → HTTP → response.

mod ask;
mod assemble;
pub mod authz;
pub mod cli;
pub mod code;
pub mod confirm;
pub mod connect;
mod discovery;
pub mod generated_main;
pub mod listing;
mod live;
pub mod login;
mod login_gate;
pub mod meta;
pub mod ops;
mod options;
pub mod otel;
mod prepared;
mod protocol;
mod resources;
mod run;
pub mod seal;
pub mod selection;
mod shape;
pub mod tasks;
pub mod transport;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, DiscoverResult, GetTaskParams,
    GetTaskResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ServerConfig, SubscriptionFilter, Tool, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{Map, Value};

use listing::{ListingOptions, ToolsMode, Toolsets};
use meta::MetaTool;
use openapi2mcp_runtime::call::{
    Api, Call, CallReport, Handlers, Missing, Refused, SendAsIs, ToolId,
};
use openapi2mcp_runtime::catalog::{LazyCatalog, ToolHead};
use openapi2mcp_runtime::lro::LroMode;
use openapi2mcp_runtime::search::ToolIndex;
use openapi2mcp_runtime::select::SELECT_ARG;
use prepared::Prepared;
use shape::server_info;

use assemble::{api_members, search_index};
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
    /// The listing mode, `auto` resolved.
    mode: ToolsMode,
    /// `full` mode's pages (the tools that built, in order), serialized.
    full: listing::FullPages,
    /// The meta-tools listed in this mode, first on every list.
    meta: Vec<(MetaTool, Tool, usize)>,
    /// The search index (discovery mode), built on its own thread so
    /// start-up does not wait for it; `None` until it is ready.
    index: Option<tokio::sync::watch::Receiver<Option<Arc<ToolIndex>>>>,
    /// The toolsets (toolsets mode).
    toolsets: Toolsets,
    /// Toolsets enabled when a session starts, by name.
    initial_toolsets: BTreeSet<String>,
    page_bytes: usize,
    /// Cap on a selector's output (the response size cap).
    select_cap: usize,
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
                enabled: Mutex::new(inner.initial_toolsets.clone()),
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
        let through = inner.meta.iter().any(|(m, ..)| {
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
        let scopes = authz::scopes::for_tools(&heads, &security_schemes, &options.tool_scopes);
        let select_cap = options.http.limits.max_body_bytes;
        let members = api_members(&options, &security_schemes);
        let prepared = Arc::new(Prepared::new(
            &heads,
            source,
            options.response_filter,
            members
                .iter()
                .map(|m| (m.first, Arc::clone(&m.options.headers)))
                .collect(),
        ));
        let listing = options.listing.clone();
        let (mode, full_tokens, serialized) = Self::resolve_mode(&heads, &prepared, &listing);
        tracing::info!(
            tools = heads.len(),
            full_list_tokens = full_tokens,
            auto_budget = listing.auto_budget,
            "listing tools: --tools {} -> {}",
            listing.mode.as_str(),
            mode.as_str()
        );
        let mut toolsets = Toolsets::group(
            heads
                .iter()
                .map(|h| h.origin.tags.first().map(String::as_str)),
        );
        toolsets.nest(&tag_parents);
        let initial_toolsets = if mode == ToolsMode::Toolsets {
            toolsets
                .resolve_names(&listing.toolsets)
                .map_err(ServeError::Options)?
                .into_iter()
                .map(|i| toolsets.names[i].clone())
                .collect()
        } else {
            BTreeSet::new()
        };
        if mode == ToolsMode::Code && !openapi2mcp_runtime::code::sandbox::AVAILABLE {
            return Err(ServeError::Options(
                "--tools code: this server was built without code mode's script engine (the `code` feature of openapi2mcp-server); choose --tools full, discovery or toolsets, or build with the feature".into(),
            ));
        }
        let meta_set: &[MetaTool] = match mode {
            ToolsMode::Discovery => meta::DISCOVERY,
            ToolsMode::Toolsets => meta::TOOLSETS,
            ToolsMode::Code => meta::CODE,
            _ => &[],
        };
        let meta: Vec<(MetaTool, Tool, usize)> = meta_set
            .iter()
            .filter_map(|m| {
                let tool = m.tool(&title)?;
                let size = serde_json::to_vec(&tool).map_or(0, |v| v.len()) + 1;
                Some((*m, tool, size))
            })
            .collect();
        let heads = Arc::new(heads);
        let index = matches!(mode, ToolsMode::Discovery | ToolsMode::Code)
            .then(|| search_index(Arc::clone(&heads)));
        let full = if mode == ToolsMode::Full {
            let started = Instant::now();
            let serialized = serialized
                .unwrap_or_else(|| prepared.serialize_each(&(0..heads.len()).collect::<Vec<_>>()));
            let listed = heads
                .iter()
                .zip(serialized)
                .filter_map(|(head, bytes)| match bytes {
                    Ok(bytes) => Some(bytes),
                    Err(why) => {
                        tracing::warn!(
                            tool = %head.name,
                            "{} {} is not listed: {why}",
                            head.origin.method,
                            head.origin.path
                        );
                        None
                    }
                });
            let full = listing::FullPages::assemble(listed, options.page_bytes);
            tracing::debug!(
                tools = full.tools(),
                pages = full.len(),
                ms = started.elapsed().as_millis() as u64,
                "full list built and serialized"
            );
            full
        } else {
            listing::FullPages::default()
        };
        let info = server_info(
            &title,
            &version,
            description.as_deref(),
            heads.len(),
            mode,
            toolsets.names.len(),
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
            mode,
            full,
            meta,
            index,
            toolsets,
            initial_toolsets,
            page_bytes: options.page_bytes,
            select_cap,
            api,
            handlers,
            scopes,
        })
    }

    /// The listing mode `listing` asks for, `auto` resolved, and the full
    /// list's estimated tokens (0 when not needed). `auto` first bounds the
    /// full list from below by the heads' text alone: when that is over
    /// budget already (any large API), discovery is chosen without
    /// building a single tool; otherwise every tool is built and measured.
    /// When every tool had to be built to decide, their serialized forms
    /// come back too (for the full list).
    fn resolve_mode(
        heads: &[ToolHead],
        prepared: &Prepared,
        listing: &ListingOptions,
    ) -> (ToolsMode, usize, Option<prepared::Serialized>) {
        if listing.mode != ToolsMode::Auto {
            return (listing.mode, 0, None);
        }
        let floor: usize = heads.iter().map(listing::head_bytes).sum();
        let floor_tokens = listing::estimate_tokens(floor);
        if floor_tokens > listing.auto_budget {
            return (ToolsMode::Discovery, floor_tokens, None);
        }
        let serialized = prepared.serialize_each(&(0..heads.len()).collect::<Vec<_>>());
        let bytes: usize = serialized
            .iter()
            .filter_map(|b| b.as_ref().ok().map(|b| b.len() + 1))
            .sum();
        let tokens = listing::estimate_tokens(bytes);
        (
            listing::resolve(listing.mode, tokens, listing.auto_budget),
            tokens,
            Some(serialized),
        )
    }

    /// A handle on the same server for a new MCP session: the toolsets it
    /// has enabled start from `--toolset`.
    pub fn new_session(&self) -> Self {
        let inner = self.shared.current.load_full();
        Self {
            session: Arc::new(Session {
                enabled: Mutex::new(inner.initial_toolsets.clone()),
            }),
            inner,
            shared: Arc::clone(&self.shared),
            request_toolsets: None,
            caller_scopes: None,
        }
    }

    /// The listing mode in force (`auto` resolved).
    pub fn mode(&self) -> ToolsMode {
        self.inner.mode
    }

    /// Number of tools served.
    pub fn tool_count(&self) -> usize {
        self.shared.current.load().api.tool_count()
    }

    /// Runs one call: admit (validate, rate limit) → handler → HTTP →
    /// a result valid for the tool's output schema.
    async fn call(
        &self,
        tool: ToolId,
        args: Map<String, Value>,
        client_authorization: Option<&str>,
        mode: LroMode,
    ) -> CallReport {
        let _flight = self.flight();
        let api = &self.inner.api;
        let mut backend = None;
        let (mut report, label) = match api.admit(tool, args) {
            Ok(args) => {
                let call = Call::new(api, tool, client_authorization).with_lro_mode(mode);
                let started = Instant::now();
                let report = self.inner.handlers.handle(call, args).await;
                backend = Some(started.elapsed());
                (report, "ok")
            }
            Err(Refused::RateLimited(outcome)) => (outcome.into(), "rate_limited"),
            Err(Refused::Invalid(outcome)) => (outcome.into(), "invalid"),
        };
        report.outcome = api.conform(tool, report.outcome);
        let label = if label == "ok" && report.outcome.is_error {
            "error"
        } else {
            label
        };
        ops::record_call(&api.tool(tool).name, label, backend);
        report
    }
}

impl Bridge {
    /// One page of `tools/list` for this catalog and session.
    /// In `full` mode, a transport that writes pages from bytes (`outbox`,
    /// with the request's id) gets the page's bytes there and an answer
    /// whose `tools` it fills in; any other gets the tools as values.
    fn list_page(
        &self,
        request: Option<PaginatedRequestParams>,
        outbox: Option<(&listing::Outbox, &rmcp::model::RequestId)>,
    ) -> Result<ListToolsResult, McpError> {
        let this = self;
        let cursor = request.and_then(|r| r.cursor);
        let inner = &this.inner;
        // Pages are shared by every caller unless the list depends on
        // the caller's scopes.
        if inner.mode == ToolsMode::Full && this.caller_scopes.is_none() {
            let pages = &inner.full;
            let index = match cursor {
                None => 0,
                Some(c) => c
                    .parse::<usize>()
                    .ok()
                    .filter(|i| *i < pages.len())
                    .ok_or_else(|| {
                        McpError::invalid_params(format!("invalid cursor `{c}`"), None)
                    })?,
            };
            let page = pages
                .page(index)
                .ok_or_else(|| McpError::internal_error("no tools/list page", None))?;
            let tools = match outbox {
                Some((outbox, id)) if page.count > 0 => {
                    outbox.put(id.clone(), Arc::clone(&page.bytes));
                    Vec::new()
                }
                _ => page
                    .values()
                    .map_err(|e| McpError::internal_error(format!("tools/list: {e}"), None))?,
            };
            let mut result = ListToolsResult::with_all_items(tools);
            result.next_cursor = (index + 1 < pages.len()).then(|| (index + 1).to_string());
            return Ok(result);
        }
        // Meta-tools first, then (toolsets mode) the enabled toolsets'
        // tools; paged by offset into that list.
        let listed = this.listed_tools();
        let start = match cursor {
            None => 0,
            Some(c) => c
                .parse::<usize>()
                .ok()
                .filter(|i| *i < listed.len().max(1))
                .ok_or_else(|| McpError::invalid_params(format!("invalid cursor `{c}`"), None))?,
        };
        let mut page = Vec::new();
        let mut size = 0;
        let mut end = start;
        for entry in listed.iter().skip(start) {
            let Some((tool, len)) = this.listed(*entry) else {
                end += 1;
                continue;
            };
            if !page.is_empty() && size + len > inner.page_bytes {
                break;
            }
            size += len;
            page.push(tool.clone());
            end += 1;
        }
        let mut result = ListToolsResult::with_all_items(page);
        result.next_cursor = (end < listed.len()).then(|| end.to_string());
        Ok(result)
    }
}

impl ServerHandler for Bridge {
    fn get_info(&self) -> ServerConfig {
        self.shared.current.load().info.clone()
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
        let outbox = context.extensions.get::<listing::Outbox>();
        let mut result = this.list_page(request, outbox.map(|o| (o, &context.id)))?;
        let hints = this.list_hints();
        result.ttl_ms = Some(hints.ttl_ms);
        result.cache_scope = Some(hints.scope);
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
        if matches!(inner.mode, ToolsMode::Discovery | ToolsMode::Code) {
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
        let this = self.fresh_for(&context)?;
        let name = request.name.to_string();
        let args = request.arguments.unwrap_or_default();
        let retry = (
            request.input_responses.as_ref(),
            request.request_state.as_deref(),
        );
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
                return Ok(meta::refuse(format!("tool `{name}` cannot be served: {why}")).into());
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
                    return Ok(meta::refuse(format!(
                        "`{SELECT_ARG}` must be a jq expression (a string), not {}",
                        meta::kind(&other)
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
