//! The command-line surface of a running server, shared by `openapi2mcp
//! serve` and generated crates (whose program, `generated_main` in this
//! crate, flattens the same [`ServeFlags`] and starts logging through
//! [`init_logging`]), so both take the same flags, with the same defaults,
//! and start the same way.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

use clap::builder::RangedU64ValueParser;
use clap::{Args, ValueEnum};

use super::confirm::{ConfirmPolicy, Unconfirmable};

use super::authz::AuthzOptions;
use super::authz::scopes::ToolScopePolicy;
use super::listener::{self, ListenerLimits};
use super::modes::{AUTO_TOKEN_BUDGET, ListingOptions, ToolsMode};
use super::sessions::{self, SessionLimits};
use super::tasks::{self, TaskLimits};
use super::transport::{self, HttpTransportOptions};
use super::{Bridge, ServeError, ServeOptions};
use openapi2mcp_runtime::auth::Credentials;
use openapi2mcp_runtime::auth::fixed::FixedHeaders;
use openapi2mcp_runtime::http::HttpOptions;
use openapi2mcp_runtime::lro::LroOptions;
use openapi2mcp_runtime::response::ResponseLimits;

/// Default log filter: warnings, plus one audit line per tool call.
pub const DEFAULT_LOG_FILTER: &str = "warn,openapi2mcp::audit=info,openapi2mcp::mock=info";

/// How the server talks to MCP clients and reaches the API.
#[derive(Args, Debug, Clone)]
pub struct ServeFlags {
    /// stdio (for desktop clients that spawn the server) or http (streamable HTTP at /mcp).
    #[arg(help_heading = TRANSPORT, long, value_enum, default_value_t = TransportKind::Stdio)]
    pub transport: TransportKind,
    /// Address for --transport http.
    #[arg(help_heading = TRANSPORT, long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Threads serving --transport http (default: half the cores, at least
    /// one). Each call hops between tasks several times; on more threads
    /// than the load needs, every hop may wake another core: on 2 cores one
    /// thread answered a call at a time in 0.61 ms against 0.90 ms with two,
    /// and 64 at a time 26% slower (bench/README, "HTTP load").
    #[arg(help_heading = TRANSPORT, long, value_name = "N", env = openapi2mcp_runtime::settings::THREADS,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub threads: Option<usize>,
    /// Bearer token MCP clients must send (--transport http).
    #[arg(help_heading = IDENTITY, long, env = openapi2mcp_runtime::settings::AUTH_TOKEN, hide_env_values = true)]
    pub auth_token: Option<String>,
    /// No sessions: each HTTP request stands alone (for load balancers).
    #[arg(help_heading = TRANSPORT, long)]
    pub stateless: bool,
    /// Extra Host header values accepted (--transport http; loopback names always are).
    #[arg(help_heading = TRANSPORT, long = "allowed-host")]
    pub allowed_hosts: Vec<String>,
    /// Extra browser Origins accepted, e.g. https://app.example.com:443.
    #[arg(help_heading = TRANSPORT, long = "allowed-origin")]
    pub allowed_origins: Vec<String>,
    /// Base URL of the API, overriding the document's servers.
    #[arg(help_heading = UPSTREAM, long, env = openapi2mcp_runtime::settings::BASE_URL)]
    pub base_url: Option<String>,
    /// Value of a server URL variable, NAME=VALUE (repeatable).
    #[arg(help_heading = UPSTREAM, long = "server-var", value_parser = parse_key_value)]
    pub server_vars: Vec<(String, String)>,
    /// Seconds one API call may take, retries and their waits included.
    #[arg(help_heading = UPSTREAM, long, value_name = "SECS", default_value_t = 30.0, value_parser = parse_timeout)]
    pub timeout: f64,
    /// Seconds a long-running operation (202 Accepted with a status URL) is
    /// polled before the call gives up and names the status URL.
    #[arg(help_heading = CONFIRM_TASKS, long, value_name = "SECS", default_value_t = 600.0, value_parser = parse_lro_timeout)]
    pub lro_timeout: f64,
    /// Largest response body passed to the model, in bytes; longer ones are cut with a marker.
    #[arg(help_heading = UPSTREAM, long, value_name = "BYTES", default_value_t = 1_048_576,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_RESPONSE_BYTES))]
    pub max_response_bytes: usize,
    /// Extra attempts for idempotent calls on connection errors, 502/503/504
    /// and a 429 with Retry-After, all within --timeout.
    #[arg(help_heading = UPSTREAM, long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=MAX_RETRIES))]
    pub retries: u32,
    /// Most tool calls per second sent to the API (token bucket; off by default).
    #[arg(help_heading = UPSTREAM, long, value_name = "CALLS", value_parser = parse_rate)]
    pub rate_limit: Option<f64>,
    /// Burst size for --rate-limit.
    #[arg(help_heading = UPSTREAM, long, value_name = "CALLS", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=MAX_RATE_BURST))]
    pub rate_burst: u32,
    /// Forward the MCP client's Authorization header to the API (--transport http).
    /// Not with --auth-token or --oauth-issuer: their tokens are meant for
    /// this server, and passing them on to the API is the token passthrough
    /// the MCP authorization specification forbids.
    #[arg(help_heading = IDENTITY, long, conflicts_with_all = ["auth_token", "oauth_issuer"])]
    pub forward_authorization: bool,
    /// Send the MCP client's header NAME on to the API, e.g. X-Api-Key for a
    /// key per caller (repeatable; --transport http). It replaces a header
    /// of that name the call would otherwise carry, is masked in results,
    /// and never reaches another origin. Headers this server reads itself
    /// (Authorization, Cookie, Mcp-Session-Id, framing) are refused.
    #[arg(help_heading = IDENTITY, long = "forward-header", value_name = "NAME", value_parser = parse_forward_header)]
    pub forward_headers: Vec<String>,
    /// Another origin API redirects may lead to, e.g. https://cdn.example.com
    /// (repeatable). Redirects within the API's own origin are always
    /// followed; credentials never go to another origin.
    #[arg(help_heading = UPSTREAM, long = "allow-redirect-origin", value_name = "ORIGIN", value_parser = parse_origin)]
    pub redirect_origins: Vec<String>,
    /// Which tools tools/list shows: every tool (full), four meta-tools that
    /// search, describe and call them (discovery), toolsets the client
    /// enables per tag (toolsets), or full while the list fits
    /// --tools-budget and discovery beyond it (auto).
    #[arg(help_heading = TOOL_SHAPE, long, value_enum, default_value_t = ToolsMode::Auto)]
    pub tools: ToolsMode,
    /// Largest tool list, in estimated tokens, that --tools auto lists in full.
    #[arg(help_heading = TOOL_SHAPE, long, default_value_t = AUTO_TOKEN_BUDGET, value_name = "TOKENS",
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_TOOLS_BUDGET))]
    pub tools_budget: usize,
    /// A toolset enabled when a session starts, with --tools toolsets (repeatable).
    #[arg(help_heading = TOOL_SHAPE, long = "toolset", value_name = "NAME")]
    pub toolsets: Vec<String>,
    /// Seconds a code-mode script may run, its API calls included (--tools code).
    #[arg(long, value_name = "SECS", default_value_t = 30.0, value_parser = parse_timeout, help_heading = CODE_MODE)]
    pub code_timeout: f64,
    /// Memory a code-mode script may allocate, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 64, help_heading = CODE_MODE,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=4096))]
    pub code_memory: usize,
    /// API calls a code-mode script may make.
    #[arg(long, value_name = "N", default_value_t = 50, help_heading = CODE_MODE,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=10_000))]
    pub code_calls: usize,
    /// Largest result of a code-mode script, in bytes of JSON.
    #[arg(long, value_name = "BYTES", default_value_t = 65_536, help_heading = CODE_MODE,
          value_parser = RangedU64ValueParser::<usize>::new().range(256..=16 * 1024 * 1024))]
    pub code_output: usize,
    /// Give every tool with a JSON result an optional `response_filter`
    /// argument: a jq expression applied to the result before it is returned.
    #[arg(help_heading = TOOL_SHAPE, long)]
    pub response_filter: bool,
    /// Require OAuth access tokens (JWTs) from this authorization server
    /// (its issuer URL) on --transport http, per the MCP specification.
    #[arg(long, value_name = "URL", help_heading = CLIENT_AUTHZ)]
    pub oauth_issuer: Option<String>,
    /// Canonical URL of this server's MCP endpoint as clients reach it
    /// (e.g. https://mcp.example.com/mcp): the audience tokens must carry.
    #[arg(long, value_name = "URL", help_heading = CLIENT_AUTHZ)]
    pub resource_url: Option<String>,
    /// The issuer's JWKS URL (default: discovered from its metadata).
    #[arg(long, value_name = "URL", help_heading = CLIENT_AUTHZ)]
    pub jwks_url: Option<String>,
    /// Where people's browsers reach this server (e.g.
    /// https://mcp.example.com), for the pages through which each person
    /// logs in to the API with their own account (with --oauth-issuer and
    /// a token store; default: the origin of --resource-url).
    #[arg(long, value_name = "URL", help_heading = CLIENT_AUTHZ)]
    pub public_url: Option<String>,
    /// A scope every request's token needs (repeatable).
    #[arg(
        long = "required-scope",
        value_name = "SCOPE",
        help_heading = CLIENT_AUTHZ
    )]
    pub required_scopes: Vec<String>,
    /// Scope needed to call read-only tools.
    #[arg(long, value_name = "SCOPE", help_heading = CLIENT_AUTHZ)]
    pub scope_read: Option<String>,
    /// Scope needed to call every other tool.
    #[arg(long, value_name = "SCOPE", help_heading = CLIENT_AUTHZ)]
    pub scope_write: Option<String>,
    /// Require the OAuth scopes each operation's `security` names in the document.
    #[arg(long, help_heading = CLIENT_AUTHZ, conflicts_with_all = ["scope_read", "scope_write"])]
    pub tool_scopes_from_document: bool,
    /// Which calls a person must confirm before they are sent: the
    /// resolved request (method, URL without secrets, body) is shown
    /// through MCP elicitation and nothing is sent until it is accepted.
    /// `destructive`: operations annotated destructive (DELETE by default);
    /// `writes`: every operation that is not read-only; `none`.
    /// Default: `destructive`; `none` when `serve --mock` answers the calls.
    #[arg(help_heading = CONFIRM_TASKS, long, value_enum)]
    pub confirm: Option<ConfirmPolicy>,
    /// What happens to a call needing confirmation when the client cannot
    /// be asked (no elicitation capability, as in claude.ai, Claude
    /// Desktop, Gemini CLI and opencode, or stateless HTTP on an older
    /// protocol revision): `allow` sends it, logged, relying on the host's
    /// own approval of tool calls (the tool is annotated destructive);
    /// `refuse` refuses it with an error saying so.
    #[arg(help_heading = CONFIRM_TASKS, long, value_enum, default_value_t = Unconfirmable::Allow)]
    pub unconfirmed: Unconfirmable,
    /// Never ask the person for required arguments a call lacks: the call
    /// fails validation naming what is missing. By default they are asked
    /// (one elicitation form, when the client declared elicitation and
    /// every missing argument is a string, number, integer, boolean or
    /// string enum).
    #[arg(help_heading = CONFIRM_TASKS, long = "no-ask-missing", action = clap::ArgAction::SetFalse)]
    pub ask_missing: bool,
    /// The older spelling, `--ask-missing true|false`, still read (a
    /// value where every other switch is a flag); it wins over
    /// `--no-ask-missing`.
    #[arg(long = "ask-missing", value_name = "BOOL", hide = true)]
    pub ask_missing_value: Option<bool>,
    /// Export a span per tool call (MCP semantic conventions) and per API
    /// request over OpenTelemetry OTLP/HTTP: to URL (the traces endpoint,
    /// e.g. http://127.0.0.1:4318/v1/traces), or where the standard
    /// OTEL_EXPORTER_OTLP_* variables say when no URL is given (default
    /// http://localhost:4318/v1/traces). Calls without a client trace
    /// start one; a client's unsampled trace is not exported.
    #[arg(help_heading = OBSERVABILITY, long, value_name = "URL", num_args = 0..=1, default_missing_value = "")]
    pub otlp: Option<String>,
    /// The store of the tokens people obtained with `login` or the HTTP
    /// server's login pages: `keyring:` (the OS keyring), a file
    /// encrypted with OPENAPI2MCP_TOKEN_KEY, or redis://host:port[/db]
    /// for instances that share it. Default on stdio: the OS keyring when
    /// one answers, else ~/.local/share/openapi2mcp/tokens.enc when
    /// OPENAPI2MCP_TOKEN_KEY is set; on HTTP that file when the key is
    /// set. OAuth2 schemes with an authorization code or device flow and
    /// a _CLIENT_ID then call the API as the person who logged in.
    #[arg(help_heading = IDENTITY, long, value_name = "STORE")]
    pub token_store: Option<std::path::PathBuf>,
    /// Seconds a call runs before it continues as an MCP task, for
    /// clients that declared the tasks extension (they poll tasks/get for
    /// the result and may cancel it); others wait for the result.
    #[arg(help_heading = CONFIRM_TASKS, long, value_name = "SECS", default_value_t = 5.0, value_parser = parse_task_after)]
    pub task_after: f64,
    /// Seconds a call of a client without the tasks extension runs before
    /// it is answered with a handle and goes on; the client's model reads
    /// the result with the get_call_result tool. `off`: such clients wait
    /// for every call to end (a long-running operation up to
    /// --lro-timeout), which most hosts give up on after a minute or two.
    #[arg(help_heading = CONFIRM_TASKS, long, value_name = "SECS|off", default_value = "30", value_parser = parse_handle_after)]
    pub handle_after: HandleAfter,
    /// Seconds a task (and its result) is kept after its creation; one
    /// still running then is cancelled. The `ttlMs` of every task.
    #[arg(help_heading = CONFIRM_TASKS, long, value_name = "SECS", env = openapi2mcp_runtime::settings::TASK_TTL,
          default_value_t = tasks::DEFAULT_TASK_TTL.as_secs_f64(), value_parser = parse_task_ttl)]
    pub task_ttl: f64,
    /// Tasks kept at once; past it the oldest finished task is forgotten
    /// (logged), and when all are running a new call is answered directly.
    #[arg(help_heading = CONFIRM_TASKS, long, value_name = "N", env = openapi2mcp_runtime::settings::MAX_TASKS,
          default_value_t = tasks::DEFAULT_MAX_TASKS,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_CONNECTIONS))]
    pub max_tasks: usize,
    /// Bytes of finished tasks' results kept at once (their JSON text);
    /// past it the oldest finished tasks are forgotten (logged).
    #[arg(help_heading = CONFIRM_TASKS, long, value_name = "BYTES", env = openapi2mcp_runtime::settings::TASK_RESULTS_BYTES,
          default_value_t = tasks::DEFAULT_TASK_RESULT_BYTES,
          value_parser = RangedU64ValueParser::<usize>::new().range(1024..=MAX_TASK_RESULT_BYTES))]
    pub task_results_bytes: usize,
    /// /readyz also checks that the API at --base-url answers.
    #[arg(help_heading = TRANSPORT, long)]
    pub ready_check_backend: bool,
    /// Seconds shutdown (SIGTERM) waits for calls in flight.
    #[arg(help_heading = TRANSPORT, long, value_name = "SECS", default_value_t = 10.0, value_parser = parse_shutdown_grace)]
    pub shutdown_grace: f64,
    /// A header sent on every API request, as `Name: value` (repeatable);
    /// `${VAR}` in the value reads the environment variable VAR, so a key
    /// need not be written into a client's configuration. For documents
    /// that declare no security scheme, or headers an API wants of every
    /// caller. Replaces a header of the same name; never logged; a tool
    /// argument for that header is taken out of the tool.
    #[arg(help_heading = UPSTREAM, long = "header", value_name = "'NAME: VALUE'")]
    pub headers: Vec<String>,
    /// Seconds a request head (request line and headers) may take to
    /// arrive: from the connection's accept, or from the first byte of the
    /// next request on a kept-alive connection. Slower clients are cut.
    #[arg(long, value_name = "SECS", env = openapi2mcp_runtime::settings::HEADER_TIMEOUT, help_heading = HTTP_LIMITS,
          default_value_t = listener::DEFAULT_HEADER_TIMEOUT.as_secs_f64(), value_parser = parse_listener_timeout)]
    pub header_timeout: f64,
    /// Seconds a request body may take to arrive, from its head.
    #[arg(long, value_name = "SECS", env = openapi2mcp_runtime::settings::BODY_TIMEOUT, help_heading = HTTP_LIMITS,
          default_value_t = listener::DEFAULT_BODY_TIMEOUT.as_secs_f64(), value_parser = parse_listener_timeout)]
    pub body_timeout: f64,
    /// Seconds a kept-alive connection may wait for its next request
    /// (responses being sent, SSE streams included, are never cut).
    #[arg(long, value_name = "SECS", env = openapi2mcp_runtime::settings::IDLE_TIMEOUT, help_heading = HTTP_LIMITS,
          default_value_t = listener::DEFAULT_IDLE_TIMEOUT.as_secs_f64(), value_parser = parse_listener_timeout)]
    pub idle_timeout: f64,
    /// Connections served at once. Past this (or the per-IP cap) a reserve
    /// of --ops-reserve connections answers /healthz, /readyz and /metrics
    /// only, and 503 with Retry-After on any other path.
    #[arg(long, value_name = "N", env = openapi2mcp_runtime::settings::MAX_CONNECTIONS, help_heading = HTTP_LIMITS,
          default_value_t = listener::DEFAULT_MAX_CONNECTIONS,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_CONNECTIONS))]
    pub max_connections: usize,
    /// Connections served at once from one IP address (IPv6: one /64); 0
    /// for no per-IP cap (behind a reverse proxy, whose one address every
    /// connection then has).
    #[arg(long, value_name = "N", env = openapi2mcp_runtime::settings::MAX_CONNECTIONS_PER_IP, help_heading = HTTP_LIMITS,
          default_value_t = listener::DEFAULT_MAX_CONNECTIONS_PER_IP,
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_CONNECTIONS))]
    pub max_connections_per_ip: usize,
    /// Connections accepted past the caps for the operations endpoints only.
    #[arg(long, value_name = "N", env = openapi2mcp_runtime::settings::OPS_RESERVE, help_heading = HTTP_LIMITS,
          default_value_t = listener::OPS_RESERVE,
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_OPS_RESERVE))]
    pub ops_reserve: usize,
    /// Sessions kept at once (HTTP with sessions); creating one more closes
    /// the least recently used (logged).
    #[arg(long, value_name = "N", env = openapi2mcp_runtime::settings::MAX_SESSIONS, help_heading = HTTP_LIMITS,
          default_value_t = sessions::DEFAULT_MAX_SESSIONS,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_CONNECTIONS))]
    pub max_sessions: usize,
    /// Seconds a session without requests lives; its client then gets 404
    /// and starts a new one.
    #[arg(long, value_name = "SECS", env = openapi2mcp_runtime::settings::SESSION_IDLE_TIMEOUT, help_heading = HTTP_LIMITS,
          default_value_t = sessions::DEFAULT_SESSION_IDLE.as_secs_f64(), value_parser = parse_session_idle)]
    pub session_idle_timeout: f64,
    /// Seconds an idle session (no request, no stream open) stays awake;
    /// then only its client's initialize parameters are kept (a few
    /// hundred bytes instead of about 100 KiB) and its next request wakes
    /// it. `off`: sessions stay awake until they expire.
    #[arg(long, value_name = "SECS|off", env = openapi2mcp_runtime::settings::SESSION_SLEEP_AFTER, help_heading = HTTP_LIMITS,
          default_value = "30", value_parser = parse_session_sleep)]
    pub session_sleep_after: SessionSleep,
}

// The help headings of `serve` (and a generated crate's command line),
// one per concern, so 70-odd flags read as groups. The program's own
// document, selection and tool-shape flags use the same names.
/// How clients reach the server: transport, address, allowed hosts, start and stop.
const TRANSPORT: &str = "Transport";
/// The HTTP listener's bounds.
const HTTP_LIMITS: &str = "HTTP limits";
/// Who may call and as whom the API is called (tokens, forwarded credentials, logins).
const IDENTITY: &str = "Identity";
/// OAuth authorization of MCP clients.
const CLIENT_AUTHZ: &str = "Authorization (OAuth)";
/// The calls to the API: where, how long, how often, which headers.
const UPSTREAM: &str = "API calls";
/// Which tools are listed and how (listing mode, budget, selectors).
const TOOL_SHAPE: &str = "Tool shape";
/// Code mode's sandbox budgets.
const CODE_MODE: &str = "Code mode";
/// Confirmations of destructive calls, and long calls as tasks.
const CONFIRM_TASKS: &str = "Confirmations and tasks";
/// Traces and logs.
const OBSERVABILITY: &str = "Observability";

/// `--forward-header NAME`: a header name this server does not read itself.
fn parse_forward_header(name: &str) -> Result<String, String> {
    match openapi2mcp_runtime::forward::refusal(name) {
        Some(why) => Err(why),
        None => Ok(name.to_string()),
    }
}

/// Why --forward-authorization cannot go with --auth-token or --oauth-issuer.
const TOKEN_PASSTHROUGH: &str = "--forward-authorization cannot be used with --auth-token or --oauth-issuer: the Authorization header then carries a token meant for this server, and forwarding it to the API is token passthrough, which the MCP authorization specification forbids";

/// Which transport serves MCP clients.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum TransportKind {
    /// Newline-delimited JSON-RPC on stdin/stdout.
    Stdio,
    /// Streamable HTTP at `/mcp`.
    Http,
}

/// The longest --timeout: a day.
pub const MAX_TIMEOUT_SECS: f64 = 86_400.0;
/// The shortest --timeout: a millisecond.
pub const MIN_TIMEOUT_SECS: f64 = 0.001;
/// The largest --max-response-bytes: 1 GiB.
pub const MAX_RESPONSE_BYTES: u64 = 1 << 30;
/// The most --retries (the deadline bounds them anyway).
pub const MAX_RETRIES: i64 = 100;
/// The --rate-limit range, in calls per second: one call in 1,000 s to a
/// million a second.
pub const RATE_LIMIT_RANGE: (f64, f64) = (0.001, 1_000_000.0);
/// The largest --rate-burst.
pub const MAX_RATE_BURST: i64 = 1_000_000;
/// The largest --tools-budget, in tokens.
pub const MAX_TOOLS_BUDGET: u64 = 1_000_000_000;
/// The largest --task-results-bytes: 16 GiB.
pub const MAX_TASK_RESULT_BYTES: u64 = 16 << 30;

/// The most --max-connections (and --max-connections-per-ip, --max-sessions, --max-tasks).
pub const MAX_CONNECTIONS: u64 = 1_000_000;
/// The largest --ops-reserve.
pub const MAX_OPS_RESERVE: u64 = 10_000;
/// The longest listener timeout (--header-timeout, --body-timeout,
/// --idle-timeout): an hour.
pub const MAX_LISTENER_TIMEOUT_SECS: f64 = 3_600.0;
/// The shortest listener timeout: a tenth of a second.
pub const MIN_LISTENER_TIMEOUT_SECS: f64 = 0.1;

/// The longest --shutdown-grace: an hour.
pub const MAX_SHUTDOWN_GRACE_SECS: f64 = 3_600.0;

/// A number within `min..=max` (finite: not NaN, not infinite), for
/// clap; `what` names the unit in the message.
pub fn number_in(s: &str, min: f64, max: f64, what: &str) -> Result<f64, String> {
    let n: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number; give {what} from {min} to {max}"))?;
    if !(n.is_finite() && (min..=max).contains(&n)) {
        return Err(format!("give {what} from {min} to {max}"));
    }
    Ok(n)
}

fn parse_timeout(s: &str) -> Result<f64, String> {
    number_in(s, MIN_TIMEOUT_SECS, MAX_TIMEOUT_SECS, "seconds")
}

fn parse_lro_timeout(s: &str) -> Result<f64, String> {
    number_in(s, MIN_TIMEOUT_SECS, MAX_TIMEOUT_SECS, "seconds")
}

fn parse_rate(s: &str) -> Result<f64, String> {
    number_in(
        s,
        RATE_LIMIT_RANGE.0,
        RATE_LIMIT_RANGE.1,
        "calls per second",
    )
}

fn parse_listener_timeout(s: &str) -> Result<f64, String> {
    number_in(
        s,
        MIN_LISTENER_TIMEOUT_SECS,
        MAX_LISTENER_TIMEOUT_SECS,
        "seconds",
    )
}

/// --task-ttl: a second to a week.
fn parse_task_ttl(s: &str) -> Result<f64, String> {
    number_in(s, 1.0, 7.0 * MAX_TIMEOUT_SECS, "seconds")
}

fn parse_session_idle(s: &str) -> Result<f64, String> {
    number_in(s, 1.0, MAX_TIMEOUT_SECS, "seconds")
}

/// `--threads`' default: half the cores this process may run on, at least
/// one (the other half left to the kernel's network stack and whatever
/// shares the machine; see the flag).
pub fn default_http_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
}

/// See [`release_memory_when_idle`].
static IDLE_RELEASE: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Has every thread of the HTTP server's runtime call `release` when it
/// runs out of work, before it sleeps: the program's allocator gives back
/// what the thread's freed objects held (see the binary's `alloc` module;
/// a per-thread allocator otherwise keeps memory freed by other threads
/// until the owning thread allocates again, which an idle thread never
/// does). Set once, before the runtime is built; later calls are ignored.
pub fn release_memory_when_idle(release: fn()) {
    let _ = IDLE_RELEASE.set(release);
}

/// `--session-sleep-after`: seconds, or `off` (`None`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SessionSleep(pub Option<Duration>);

fn parse_session_sleep(s: &str) -> Result<SessionSleep, String> {
    if s.trim().eq_ignore_ascii_case("off") {
        return Ok(SessionSleep(None));
    }
    number_in(s, 0.1, MAX_TIMEOUT_SECS, "seconds")
        .map(|secs| SessionSleep(Some(Duration::from_secs_f64(secs))))
}

fn parse_shutdown_grace(s: &str) -> Result<f64, String> {
    number_in(s, 0.0, MAX_SHUTDOWN_GRACE_SECS, "seconds")
}

/// `--handle-after`: seconds, or `off` (`None`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HandleAfter(pub Option<Duration>);

/// --handle-after: `off`, or a tenth of a second to a day.
fn parse_handle_after(s: &str) -> Result<HandleAfter, String> {
    if s.trim().eq_ignore_ascii_case("off") {
        return Ok(HandleAfter(None));
    }
    number_in(s, 0.1, MAX_TIMEOUT_SECS, "seconds (or `off`)")
        .map(|secs| HandleAfter(Some(Duration::from_secs_f64(secs))))
}

/// --task-after: 0 (every call of a tasks-capable client is a task) to a day.
fn parse_task_after(s: &str) -> Result<f64, String> {
    number_in(s, 0.0, MAX_TIMEOUT_SECS, "seconds")
}

/// An origin (`scheme://host[:port]`) for --allow-redirect-origin.
fn parse_origin(s: &str) -> Result<String, String> {
    let parsed = url::Url::parse(s).map_err(|e| format!("`{s}` is not an origin URL: {e}"))?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err(format!(
            "`{s}` is not an http(s) origin like https://cdn.example.com"
        ));
    }
    if parsed.path() != "/" || parsed.query().is_some() || !parsed.username().is_empty() {
        return Err(format!(
            "`{s}` has a path, query or user name; give just scheme://host[:port]"
        ));
    }
    Ok(s.trim_end_matches('/').to_string())
}

fn parse_key_value(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .ok_or_else(|| format!("expected NAME=VALUE, got `{s}`"))
}

impl ServeFlags {
    /// The token store, when one is configured: `--token-store`; else on
    /// stdio (one person, their machine) the OS keyring when it answers,
    /// else the default file when OPENAPI2MCP_TOKEN_KEY is set; on HTTP
    /// the default file when that key is set.
    fn token_store(&self) -> Result<Option<openapi2mcp_runtime::call::TokenStoreHandle>, String> {
        use openapi2mcp_runtime::auth::store::{
            TOKEN_KEY_ENV, default_location, default_path, open_store,
        };
        let keyed = std::env::var(TOKEN_KEY_ENV).is_ok_and(|k| !k.is_empty());
        let location = match (&self.token_store, self.transport, keyed) {
            (Some(path), ..) => path.to_string_lossy().into_owned(),
            (None, TransportKind::Stdio, _) => match default_location() {
                Ok(location) => location,
                Err(why) => {
                    tracing::debug!("no token store: {why}");
                    return Ok(None);
                }
            },
            (None, TransportKind::Http, true) => default_path().to_string_lossy().into_owned(),
            (None, TransportKind::Http, false) => return Ok(None),
        };
        let store = open_store(&location).map_err(|e| format!("--token-store: {e}"))?;
        Ok(Some(openapi2mcp_runtime::call::TokenStoreHandle(store)))
    }

    /// The server options these flags ask for, with credentials from the
    /// environment; an error names the flag that is out of range.
    pub fn options(&self) -> Result<ServeOptions, String> {
        // The parser checks each number; flags built by hand are checked here.
        parse_timeout(&self.timeout.to_string()).map_err(|e| format!("--timeout: {e}"))?;
        parse_lro_timeout(&self.lro_timeout.to_string())
            .map_err(|e| format!("--lro-timeout: {e}"))?;
        parse_timeout(&self.code_timeout.to_string())
            .map_err(|e| format!("--code-timeout: {e}"))?;
        if !self.toolsets.is_empty() && self.tools != ToolsMode::Toolsets {
            return Err("--toolset only applies with --tools toolsets".into());
        }
        parse_shutdown_grace(&self.shutdown_grace.to_string())
            .map_err(|e| format!("--shutdown-grace: {e}"))?;
        let oauth_flags = self.resource_url.is_some()
            || self.jwks_url.is_some()
            || !self.required_scopes.is_empty()
            || self.scope_read.is_some()
            || self.scope_write.is_some()
            || self.tool_scopes_from_document
            || self.public_url.is_some();
        if self.oauth_issuer.is_none() && oauth_flags {
            return Err(
                "--resource-url, --jwks-url, --public-url and the scope flags need --oauth-issuer"
                    .into(),
            );
        }
        if self.oauth_issuer.is_some() {
            if self.transport != TransportKind::Http {
                return Err("--oauth-issuer needs --transport http".into());
            }
            if self.resource_url.is_none() {
                return Err("--oauth-issuer needs --resource-url (the URL clients use for this server's MCP endpoint, e.g. https://mcp.example.com/mcp)".into());
            }
            if self.auth_token.is_some() {
                return Err("--auth-token and --oauth-issuer exclude each other".into());
            }
        }
        if self.forward_authorization && (self.auth_token.is_some() || self.oauth_issuer.is_some())
        {
            return Err(TOKEN_PASSTHROUGH.into());
        }
        if !self.forward_headers.is_empty() && self.transport != TransportKind::Http {
            return Err("--forward-header needs --transport http: on stdio there is one client and no request headers to forward".into());
        }
        if self.ready_check_backend && self.base_url.is_none() {
            return Err("--ready-check-backend needs --base-url (the API /readyz checks)".into());
        }
        if let Some(rate) = self.rate_limit {
            parse_rate(&rate.to_string()).map_err(|e| format!("--rate-limit: {e}"))?;
        }
        Ok(ServeOptions {
            base_url: self.base_url.clone(),
            server_variables: self.server_vars.iter().cloned().collect::<BTreeMap<_, _>>(),
            http: HttpOptions {
                timeout: Duration::from_secs_f64(self.timeout),
                retries: self.retries,
                limits: ResponseLimits {
                    max_body_bytes: self.max_response_bytes,
                },
                redirect_origins: self.redirect_origins.clone(),
                lro: LroOptions {
                    timeout: Duration::from_secs_f64(self.lro_timeout),
                    ..LroOptions::default()
                },
                ..HttpOptions::default()
            },
            rate_limit: self.rate_limit.map(|r| (r, self.rate_burst)),
            credentials: Credentials::from_env(),
            forward_authorization: self.forward_authorization,
            forward_headers: self.forward_headers.clone(),
            listing: ListingOptions {
                mode: self.tools,
                auto_budget: self.tools_budget,
                toolsets: self.toolsets.clone(),
            },
            response_filter: self.response_filter,
            confirm: self.confirm.unwrap_or_default(),
            unconfirmed: self.unconfirmed,
            ask_missing: self.ask_missing_value.unwrap_or(self.ask_missing),
            token_store: self.token_store()?,
            spans: match self.otlp.as_deref() {
                None => None,
                Some(url) => Some(super::otel::start(
                    Some(url).filter(|u| !u.is_empty()),
                    openapi2mcp_runtime::program::get().name,
                )?),
            },
            task_after: Duration::from_secs_f64(self.task_after),
            handle_after: self.handle_after.0,
            tasks: TaskLimits {
                max_tasks: self.max_tasks.max(1),
                max_result_bytes: self.task_results_bytes,
                ttl: Duration::from_secs_f64(
                    parse_task_ttl(&self.task_ttl.to_string())
                        .map_err(|e| format!("--task-ttl: {e}"))?,
                ),
            },
            code: super::modes::code::CodeBudgets {
                wall: Duration::from_secs_f64(self.code_timeout),
                memory_bytes: self.code_memory * 1024 * 1024,
                calls: self.code_calls,
                output_bytes: self.code_output,
            },
            headers: std::sync::Arc::new(
                FixedHeaders::from_env(&self.headers).map_err(|e| format!("--header: {e}"))?,
            ),
            tool_scopes: if self.tool_scopes_from_document {
                ToolScopePolicy::Document
            } else if self.scope_read.is_some() || self.scope_write.is_some() {
                ToolScopePolicy::ReadWrite {
                    read: self.scope_read.clone(),
                    write: self.scope_write.clone(),
                }
            } else {
                ToolScopePolicy::None
            },
            ..ServeOptions::default()
        })
    }

    /// The HTTP listener's timeouts and caps; an error names the flag out
    /// of range (flags built by hand are checked here).
    pub fn listener_limits(&self) -> Result<ListenerLimits, ServeError> {
        let secs = |flag: &str, v: f64| {
            parse_listener_timeout(&v.to_string())
                .map(Duration::from_secs_f64)
                .map_err(|e| ServeError::Options(format!("{flag}: {e}")))
        };
        if self.max_connections == 0 {
            return Err(ServeError::Options(
                "--max-connections: give at least 1".into(),
            ));
        }
        Ok(ListenerLimits {
            header_timeout: secs("--header-timeout", self.header_timeout)?,
            body_timeout: secs("--body-timeout", self.body_timeout)?,
            idle_timeout: secs("--idle-timeout", self.idle_timeout)?,
            max_connections: self.max_connections,
            max_connections_per_ip: self.max_connections_per_ip,
            ops_reserve: self.ops_reserve,
        })
    }

    /// The count cap and idle expiry of HTTP sessions.
    pub fn session_limits(&self) -> Result<SessionLimits, ServeError> {
        let idle = parse_session_idle(&self.session_idle_timeout.to_string())
            .map_err(|e| ServeError::Options(format!("--session-idle-timeout: {e}")))?;
        if self.max_sessions == 0 {
            return Err(ServeError::Options(
                "--max-sessions: give at least 1".into(),
            ));
        }
        Ok(SessionLimits {
            max_sessions: self.max_sessions,
            idle_timeout: Duration::from_secs_f64(idle),
            sleep_after: self.session_sleep_after.0,
        })
    }

    /// OAuth authorization, when --oauth-issuer asks for it.
    pub fn authz_options(&self) -> Option<AuthzOptions> {
        let issuer = self.oauth_issuer.as_deref()?;
        let resource = self.resource_url.as_deref().unwrap_or_default();
        let mut o = AuthzOptions::new(resource, issuer, self.jwks_url.clone());
        o.required_scopes = self.required_scopes.clone();
        Some(o)
    }

    /// The async runtime for this transport: stdio serves one client, and a
    /// single thread avoids cross-thread wake-ups on every message; HTTP
    /// serves many, on `--threads` threads (half the cores by default).
    pub fn runtime(&self) -> std::io::Result<tokio::runtime::Runtime> {
        match self.transport {
            TransportKind::Stdio => tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build(),
            TransportKind::Http => tokio::runtime::Builder::new_multi_thread()
                .worker_threads(self.threads.unwrap_or_else(default_http_threads))
                .enable_all()
                .on_thread_park(|| {
                    if let Some(release) = IDLE_RELEASE.get() {
                        release();
                    }
                })
                .build(),
        }
    }

    /// Serves `bridge` on the chosen transport until the client leaves
    /// (stdio) or SIGINT/SIGTERM (HTTP). `program` names the process in
    /// the line that tells where the HTTP endpoint is.
    pub async fn serve(&self, bridge: Bridge, program: &str) -> Result<(), ServeError> {
        tracing::info!(tools = bridge.tool_count(), "serving");
        let spans = bridge.span_sink();
        let served = self.serve_on(bridge, program).await;
        if let Some(sink) = spans {
            // The batch processor's last spans; it blocks, so off the runtime.
            let _ = tokio::task::spawn_blocking(move || sink.0.flush()).await;
        }
        served
    }

    async fn serve_on(&self, bridge: Bridge, program: &str) -> Result<(), ServeError> {
        match self.transport {
            TransportKind::Stdio => transport::serve_stdio(bridge).await,
            TransportKind::Http => {
                let shutdown = transport::shutdown_on_signals();
                let bound = transport::bind_http(
                    bridge,
                    HttpTransportOptions {
                        listen: self.listen,
                        auth_token: self.auth_token.clone(),
                        stateless: self.stateless,
                        allowed_hosts: self.allowed_hosts.clone(),
                        allowed_origins: self.allowed_origins.clone(),
                        authz: self.authz_options(),
                        ready_url: self
                            .ready_check_backend
                            .then(|| self.base_url.clone())
                            .flatten(),
                        shutdown_grace: Duration::from_secs_f64(self.shutdown_grace.max(0.0)),
                        public_url: self.public_url.clone(),
                        limits: self.listener_limits()?,
                        sessions: self.session_limits()?,
                    },
                    shutdown,
                )
                .await?;
                eprintln!("{program}: MCP endpoint at http://{}/mcp", bound.local_addr);
                bound.run().await
            }
        }
    }
}

/// Logs to stderr (stdout belongs to the protocol in stdio mode), filtered
/// by `RUST_LOG` when set, else by `filter`. Colours only on a terminal
/// (and not with `NO_COLOR`): MCP hosts, systemd and container runtimes
/// write stderr to files, where escape codes are noise.
pub fn init_logging(filter: &str) {
    use std::io::IsTerminal as _;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .or_else(|_| tracing_subscriber::EnvFilter::try_new(filter))
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let colours = std::io::stderr().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(colours)
        .init();
}

#[cfg(test)]
#[path = "cli_tests.rs"]
mod tests;
