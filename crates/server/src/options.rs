//! [`ServeOptions`]: everything a server is started with, from the
//! command line's flags ([`super::cli`]) or a generated crate's main.

use std::collections::BTreeMap;

use super::confirm;
use super::modes::ListingOptions;
use super::{authz, protocol, tasks};
use openapi2mcp_runtime::auth::Credentials;
use openapi2mcp_runtime::auth::fixed::FixedHeaders;
use openapi2mcp_runtime::http::HttpOptions;
use openapi2mcp_runtime::schemas::Schemas;

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
    /// Credentials for the API's security schemes (see [`openapi2mcp_runtime::auth`]).
    pub credentials: Credentials,
    /// Forward the MCP client's `Authorization` header to the API (HTTP
    /// transport only; off by default).
    pub forward_authorization: bool,
    /// The MCP client's headers sent on to the API by name
    /// (`--forward-header`; HTTP transport only).
    pub forward_headers: Vec<String>,
    /// The full schemas behind budgeted tools, served as resources and
    /// used to check arguments.
    pub schemas: Schemas,
    /// Which tools `tools/list` shows (`--tools`).
    pub listing: ListingOptions,
    /// Every tool with a JSON result takes an optional jq selector
    /// argument ([`select::SELECT_ARG`]) applied before the result is
    /// returned (`--response-filter`).
    pub response_filter: bool,
    /// Scopes an MCP client's token needs per tool (HTTP transport with
    /// OAuth authorization; see [`authz::scopes`]).
    pub tool_scopes: authz::scopes::ToolScopePolicy,
    /// How long (ms) 2026-07-28 clients may treat lists and the
    /// document's resources as fresh (`ttlMs`).
    pub list_ttl_ms: u64,
    /// Which calls a person confirms before they are sent (`--confirm`).
    pub confirm: confirm::ConfirmPolicy,
    /// What to do when the client cannot be asked (`--unconfirmed`).
    pub unconfirmed: confirm::Unconfirmable,
    /// Whether required arguments a call lacks are asked of the person
    /// through elicitation (`--ask-missing`).
    pub ask_missing: bool,
    /// Where the spans of calls and API requests are exported (`--otlp`).
    pub spans: Option<openapi2mcp_runtime::trace::Sink>,
    /// People's tokens from `login` (per-user identity towards the API).
    pub token_store: Option<openapi2mcp_runtime::call::TokenStoreHandle>,
    /// How long a call of a client that declared the tasks extension runs
    /// before it becomes a task (`--task-after`).
    pub task_after: std::time::Duration,
    /// How long a call of a client without the tasks extension runs
    /// before it is answered with a handle (`--handle-after`; `None`:
    /// waited for to its end).
    pub handle_after: Option<std::time::Duration>,
    /// How many tasks, how many bytes of their results, and for how long
    /// they are kept (`--max-tasks`, `--task-results-bytes`, `--task-ttl`).
    pub tasks: tasks::TaskLimits,
    /// Budgets of code mode's scripts (`--code-*`).
    pub code: super::modes::code::CodeBudgets,
    /// Headers added to every API request (`--header`); the arguments
    /// they would fill are taken out of the tools.
    pub headers: std::sync::Arc<FixedHeaders>,
    /// The APIs of a server of several (`serve --config`), in tool order;
    /// empty: the catalog's one API, reached as the fields above say.
    /// Each member's options replace the per-API fields above
    /// (`base_url` … `headers`) for its tools.
    pub members: Vec<openapi2mcp_runtime::call::ApiMember>,
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
            forward_headers: Vec::new(),
            schemas: Schemas::default(),
            listing: ListingOptions::default(),
            response_filter: false,
            tool_scopes: authz::scopes::ToolScopePolicy::None,
            list_ttl_ms: protocol::DEFAULT_LIST_TTL_MS,
            confirm: confirm::ConfirmPolicy::default(),
            unconfirmed: confirm::Unconfirmable::default(),
            ask_missing: true,
            spans: None,
            token_store: None,
            task_after: tasks::DEFAULT_TASK_AFTER,
            handle_after: Some(super::handles::DEFAULT_HANDLE_AFTER),
            tasks: tasks::TaskLimits::default(),
            code: super::modes::code::CodeBudgets::default(),
            headers: std::sync::Arc::default(),
            members: Vec::new(),
        }
    }
}
