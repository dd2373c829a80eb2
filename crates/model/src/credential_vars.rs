//! The names of the variables an API's credentials are read from:
//! `OPENAPI2MCP_CRED_<SCHEME>_<FIELD>`, or the older
//! `OPENAPI2MCP_<SCHEME>_<FIELD>` where that name is not one of the
//! program's [`crate::settings`]. Here, beside the settings, because the
//! run time reads these variables and the generator writes their names
//! (client configurations, generated READMEs): one rule for both.

/// Prefix of every credential variable (and of the program's settings).
pub const ENV_PREFIX: &str = "OPENAPI2MCP_";

/// Prefix of the credentials' own namespace, which no setting enters.
pub const CRED_PREFIX: &str = "OPENAPI2MCP_CRED_";

/// The scheme name upper-cased, every run of characters other than ASCII
/// letters and digits replaced by one `_`.
fn normalized(scheme: &str) -> String {
    let mut out = String::new();
    let mut in_gap = false;
    for c in scheme.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_uppercase());
            in_gap = false;
        } else if !in_gap {
            out.push('_');
            in_gap = true;
        }
    }
    out
}

/// `OPENAPI2MCP_<SCHEME>`: the scheme name upper-cased, every run of
/// characters other than ASCII letters and digits replaced by one `_`
/// (the older credential names' prefix).
pub fn env_var_prefix(scheme: &str) -> String {
    format!("{ENV_PREFIX}{}", normalized(scheme))
}

/// `OPENAPI2MCP_<SCHEME>_<FIELD>`: the older name of a credential, in the
/// settings' namespace; read only where it is not a setting
/// ([`collision`]).
pub fn legacy_env_var(scheme: &str, field: &str) -> String {
    format!("{}_{field}", env_var_prefix(scheme))
}

/// `OPENAPI2MCP_CRED_<SCHEME>_<FIELD>`: a credential's name in a namespace
/// of its own, always read first.
pub fn cred_env_var(scheme: &str, field: &str) -> String {
    format!("{CRED_PREFIX}{}_{field}", normalized(scheme))
}

/// Why the older name of scheme `scheme`'s `field` is not read as a
/// credential: it is one of the program's settings (what it is is
/// returned), or it lies in the credentials' own namespace (another
/// scheme's name there).
pub fn collision(scheme: &str, field: &str) -> Option<&'static str> {
    let legacy = legacy_env_var(scheme, field);
    crate::settings::describe(&legacy).or_else(|| {
        legacy
            .starts_with(CRED_PREFIX)
            .then_some("a name in the credentials' own namespace")
    })
}

/// The variable to set for scheme `scheme`'s `field`, as messages name it:
/// `OPENAPI2MCP_<SCHEME>_<FIELD>` (e.g. `env_var("api_key", "KEY")` is
/// `OPENAPI2MCP_API_KEY_KEY`), or `OPENAPI2MCP_CRED_<SCHEME>_<FIELD>` when
/// that name is one of the program's settings ([`collision`]): a scheme
/// called `token` has its key in `OPENAPI2MCP_CRED_TOKEN_KEY`, since
/// `OPENAPI2MCP_TOKEN_KEY` is the token store's key. The `CRED_` name
/// works for every scheme (the run time's `auth::Credentials::credential`).
pub fn env_var(scheme: &str, field: &str) -> String {
    if collision(scheme, field).is_some() {
        cred_env_var(scheme, field)
    } else {
        legacy_env_var(scheme, field)
    }
}
