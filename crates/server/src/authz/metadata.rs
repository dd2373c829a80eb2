//! OAuth 2.0 Protected Resource Metadata (RFC 9728): the document that
//! tells an MCP client which authorization server issues tokens for this
//! server, and where that document lives.
//!
//! The MCP specification makes a protected MCP server publish it and point
//! at it from every `401` (`WWW-Authenticate: Bearer resource_metadata=…`),
//! so a client can discover, unaided, where to get a token and for which
//! resource (`resource` is the value clients put in RFC 8707's `resource`
//! parameter, and the audience tokens must carry).

use serde_json::{Value, json};
use url::Url;

/// The well-known path prefix of RFC 9728 §3.
pub const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The metadata URL RFC 9728 §3.1 derives from a resource identifier: the
/// well-known segment inserted between the host and the path
/// (`https://h/mcp` → `https://h/.well-known/oauth-protected-resource/mcp`).
pub fn metadata_url(resource: &Url) -> String {
    let mut origin = resource.origin().ascii_serialization();
    origin.push_str(WELL_KNOWN);
    let path = resource.path().trim_end_matches('/');
    origin.push_str(path);
    origin
}

/// The paths this server answers the metadata on: the one derived from the
/// resource (path-suffixed) and the bare well-known path, which clients of
/// earlier drafts and simple probes ask for.
pub fn paths(resource: &Url) -> Vec<String> {
    let suffix = resource.path().trim_end_matches('/');
    let mut out = vec![WELL_KNOWN.to_string()];
    if !suffix.is_empty() {
        out.push(format!("{WELL_KNOWN}{suffix}"));
    }
    out
}

/// The metadata document (RFC 9728 §2): `resource` and
/// `authorization_servers` as the MCP specification requires, plus the
/// optional fields that help a client ask for the right token.
pub fn document(
    resource: &Url,
    authorization_servers: &[String],
    scopes_supported: &[String],
    resource_name: Option<&str>,
) -> Value {
    let mut doc = json!({
        "resource": resource.as_str(),
        "authorization_servers": authorization_servers,
        "bearer_methods_supported": ["header"],
    });
    if !scopes_supported.is_empty() {
        doc["scopes_supported"] = json!(scopes_supported);
    }
    if let Some(name) = resource_name {
        doc["resource_name"] = json!(name);
    }
    doc
}

#[cfg(test)]
#[path = "metadata_tests.rs"]
mod tests;
