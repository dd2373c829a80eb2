//! The environment variables that are the program's own settings (as
//! opposed to an API's credentials), in one list.
//!
//! Credentials are read from `OPENAPI2MCP_CRED_<SCHEME>_<FIELD>`, and
//! also from the older `OPENAPI2MCP_<SCHEME>_<FIELD>`, which shares the
//! settings' namespace: a document whose apiKey scheme is called `token`
//! (Jupyter Server's) would read `OPENAPI2MCP_TOKEN_KEY`, the token
//! store's key. The run time's `auth` therefore never reads a credential from a
//! name listed here (see [`crate::credential_vars::env_var`]). Every setting the
//! server, the CLI and generated crates read is defined here and only
//! here, clap's `env = ...` attributes included, so that check cannot
//! fall behind the settings; a test walks the command lines and the
//! sources to hold that.

/// The log filter (`--log`).
pub const LOG: &str = "OPENAPI2MCP_LOG";
/// The bearer token MCP clients must send (`--auth-token`).
pub const AUTH_TOKEN: &str = "OPENAPI2MCP_AUTH_TOKEN";
/// The API's base URL (`--base-url`).
pub const BASE_URL: &str = "OPENAPI2MCP_BASE_URL";
/// The secret the token store (file or Redis) is encrypted with.
pub const TOKEN_KEY: &str = "OPENAPI2MCP_TOKEN_KEY";
/// The secret sealing `requestState` and the login pages' states,
/// shared by instances behind a load balancer.
pub const STATE_KEY: &str = "OPENAPI2MCP_STATE_KEY";
/// The client the HTTP server signs people in with at the MCP
/// authorization server (to know who opens a login link).
pub const SIGNIN_CLIENT_ID: &str = "OPENAPI2MCP_SIGNIN_CLIENT_ID";
/// The secret of [`SIGNIN_CLIENT_ID`].
pub const SIGNIN_CLIENT_SECRET: &str = "OPENAPI2MCP_SIGNIN_CLIENT_SECRET";
/// Set by the server on the response-selector worker processes it starts.
pub const SELECTOR_WORKER: &str = "OPENAPI2MCP_SELECTOR_WORKER";
/// The deadline of one whole fetch of a document, overlay or remote
/// `$ref` (`--fetch-timeout`).
pub const FETCH_TIMEOUT: &str = "OPENAPI2MCP_FETCH_TIMEOUT";

/// How long a task is kept (`--task-ttl`).
pub const TASK_TTL: &str = "OPENAPI2MCP_TASK_TTL";
/// The most tasks kept (`--max-tasks`).
pub const MAX_TASKS: &str = "OPENAPI2MCP_MAX_TASKS";
/// The bytes of finished task results kept (`--task-results-bytes`).
pub const TASK_RESULTS_BYTES: &str = "OPENAPI2MCP_TASK_RESULTS_BYTES";
/// The deadline of a request head (`--header-timeout`).
pub const HEADER_TIMEOUT: &str = "OPENAPI2MCP_HEADER_TIMEOUT";
/// The deadline of a request body (`--body-timeout`).
pub const BODY_TIMEOUT: &str = "OPENAPI2MCP_BODY_TIMEOUT";
/// How long an idle connection is kept (`--idle-timeout`).
pub const IDLE_TIMEOUT: &str = "OPENAPI2MCP_IDLE_TIMEOUT";
/// The most connections served (`--max-connections`).
pub const MAX_CONNECTIONS: &str = "OPENAPI2MCP_MAX_CONNECTIONS";
/// The most connections from one address (`--max-connections-per-ip`).
pub const MAX_CONNECTIONS_PER_IP: &str = "OPENAPI2MCP_MAX_CONNECTIONS_PER_IP";
/// The connections kept for health probes (`--ops-reserve`).
pub const OPS_RESERVE: &str = "OPENAPI2MCP_OPS_RESERVE";
/// The most sessions kept (`--max-sessions`).
pub const MAX_SESSIONS: &str = "OPENAPI2MCP_MAX_SESSIONS";
/// How long an idle session is kept (`--session-idle-timeout`).
pub const SESSION_IDLE_TIMEOUT: &str = "OPENAPI2MCP_SESSION_IDLE_TIMEOUT";
/// Threads serving HTTP (`--threads`).
pub const THREADS: &str = "OPENAPI2MCP_THREADS";
/// How long an idle session stays awake (`--session-sleep-after`).
pub const SESSION_SLEEP_AFTER: &str = "OPENAPI2MCP_SESSION_SLEEP_AFTER";

/// Every setting, with what it is (for messages).
pub const ALL: &[(&str, &str)] = &[
    (LOG, "the log filter"),
    (AUTH_TOKEN, "the token MCP clients must send"),
    (BASE_URL, "the API's base URL"),
    (TOKEN_KEY, "the token store's encryption key"),
    (STATE_KEY, "the key sealing request and login states"),
    (SIGNIN_CLIENT_ID, "the login pages' sign-in client"),
    (
        SIGNIN_CLIENT_SECRET,
        "the login pages' sign-in client secret",
    ),
    (SELECTOR_WORKER, "the response-selector worker switch"),
    (FETCH_TIMEOUT, "the deadline of a document fetch"),
    (TASK_TTL, "how long a task is kept"),
    (MAX_TASKS, "the most tasks kept"),
    (
        TASK_RESULTS_BYTES,
        "the bytes of finished task results kept",
    ),
    (HEADER_TIMEOUT, "the deadline of a request head"),
    (BODY_TIMEOUT, "the deadline of a request body"),
    (IDLE_TIMEOUT, "how long an idle connection is kept"),
    (MAX_CONNECTIONS, "the most connections served"),
    (
        MAX_CONNECTIONS_PER_IP,
        "the most connections from one address",
    ),
    (OPS_RESERVE, "the connections kept for health probes"),
    (MAX_SESSIONS, "the most sessions kept"),
    (SESSION_IDLE_TIMEOUT, "how long an idle session is kept"),
    (SESSION_SLEEP_AFTER, "how long an idle session stays awake"),
    (THREADS, "the threads serving HTTP"),
];

/// What `variable` is when it is one of the settings.
pub fn describe(variable: &str) -> Option<&'static str> {
    ALL.iter()
        .find(|(name, _)| *name == variable)
        .map(|(_, what)| *what)
}
