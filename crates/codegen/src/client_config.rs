//! MCP client configuration: the `mcpServers` entry that Claude Desktop,
//! Cursor and other clients use to start `openapi2mcp serve` for a document,
//! with a placeholder for each credential variable its security schemes read.

use serde_json::{Map, Value, json};

use openapi2mcp_model::binding::SecurityScheme;
use openapi2mcp_model::credential_vars::env_var;
use openapi2mcp_tools::Catalog;

/// Builds `{"mcpServers": {NAME: {"command", "args", "env"}}}`.
///
/// `command` is the openapi2mcp executable to start, `serve_args` what
/// follows `serve` (the document first), `name` the key (default: the API
/// title as a slug).
pub fn snippet(
    catalog: &Catalog,
    command: &str,
    serve_args: &[String],
    name: Option<&str>,
) -> Value {
    let mut args = vec!["serve".to_string()];
    args.extend(serve_args.iter().cloned());
    snippet_for_command(catalog, command, &args, name)
}

/// [`snippet`] for any server executable (a generated crate's binary):
/// `args` are its whole argument list.
pub fn snippet_for_command(
    catalog: &Catalog,
    command: &str,
    args: &[String],
    name: Option<&str>,
) -> Value {
    let key = name.map_or_else(|| slug(&catalog.title), str::to_string);
    let mut server = Map::new();
    server.insert("command".into(), json!(command));
    server.insert(
        "args".into(),
        Value::Array(args.iter().cloned().map(Value::String).collect()),
    );
    let env = credential_placeholders(catalog);
    if !env.is_empty() {
        server.insert("env".into(), Value::Object(env));
    }
    json!({ "mcpServers": { key: server } })
}

/// One entry per credential variable, valued with what to put there.
pub fn credential_placeholders(catalog: &Catalog) -> Map<String, Value> {
    let mut env = Map::new();
    for (name, scheme) in &catalog.security_schemes {
        let fields: &[(&str, &str)] = match scheme {
            SecurityScheme::ApiKey { .. } => &[("KEY", "API key")],
            SecurityScheme::Http { scheme, .. } if scheme == "basic" => {
                &[("USERNAME", "user name"), ("PASSWORD", "password")]
            }
            SecurityScheme::Http { .. } | SecurityScheme::OpenIdConnect { .. } => {
                &[("TOKEN", "token")]
            }
            SecurityScheme::OAuth2 {
                client_credentials_token_url: Some(_),
                ..
            } => &[
                ("CLIENT_ID", "OAuth client id"),
                ("CLIENT_SECRET", "OAuth client secret"),
            ],
            // Each person's own login (`login`): the client it logs in with.
            SecurityScheme::OAuth2 { login: Some(_), .. } => &[
                ("CLIENT_ID", "OAuth client id (then run `login`)"),
                ("CLIENT_SECRET", "OAuth client secret"),
            ],
            SecurityScheme::OAuth2 { .. } => &[("TOKEN", "OAuth access token")],
            SecurityScheme::MutualTls => &[],
        };
        for (field, what) in fields {
            env.insert(env_var(name, field), json!(format!("<{name}: {what}>")));
        }
        if let SecurityScheme::OAuth2 { login: Some(_), .. } = scheme {
            env.insert(
                openapi2mcp_model::settings::TOKEN_KEY.to_string(),
                json!("<the key of the token file `login` wrote>"),
            );
        }
    }
    env
}

/// `Swagger Petstore` → `swagger-petstore`.
pub fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() { "api".into() } else { out }
}

#[cfg(test)]
#[path = "client_config_tests.rs"]
mod tests;
