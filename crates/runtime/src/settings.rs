//! The environment variables that are the program's own settings (as
//! opposed to an API's credentials), in one list.
//!
//! Credentials are read from `OPENAPI2MCP_CRED_<SCHEME>_<FIELD>`, and
//! also from the older `OPENAPI2MCP_<SCHEME>_<FIELD>`, which shares the
//! settings' namespace: a document whose apiKey scheme is called `token`
//! (Jupyter Server's) would read `OPENAPI2MCP_TOKEN_KEY`, the token
//! store's key. [`crate::auth`] therefore never reads a credential from a
//! name listed here (see [`crate::auth::env_var`]). Every setting the
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
];

/// What `variable` is when it is one of the settings.
pub fn describe(variable: &str) -> Option<&'static str> {
    ALL.iter()
        .find(|(name, _)| *name == variable)
        .map(|(_, what)| *what)
}
