//! The MCP Registry entry of a generated crate (`server.json`, schema
//! 2025-09-29): the server as an OCI image built from the crate's
//! Dockerfile, run over stdio, with the environment variables it reads.
//! Names the publisher must own (`io.github.your-org/...`, the image
//! reference) are placeholders to edit before publishing.

use serde_json::{Value, json};

use super::CodegenError;
use super::model::CredentialView;
use openapi2mcp_tools::Catalog;

/// The schema `server.json` follows.
pub const SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json";

/// Longest `description` and `title` the registry accepts.
const MAX_TEXT: usize = 100;

/// `text` cut to `max` characters (an ellipsis marks a cut).
fn fit(text: &str, max: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= max {
        return text;
    }
    let mut cut: String = text.chars().take(max - 1).collect();
    cut.push('…');
    cut
}

/// The `server.json` of the crate `package` generated from `catalog`.
pub fn server_json(
    catalog: &Catalog,
    package: &str,
    credentials: &[CredentialView],
) -> Result<String, CodegenError> {
    let version = "0.1.0";
    let title = if catalog.title.trim().is_empty() {
        package.to_string()
    } else {
        catalog.title.clone()
    };
    let mut environment = vec![json!({
        "name": openapi2mcp_model::settings::BASE_URL,
        "description": "The API's base URL (default: the document's first server)",
        "isRequired": false,
        "format": "string"
    })];
    for credential in credentials {
        environment.push(json!({
            "name": credential.var,
            "description": credential.what.trim_matches(|c| c == '<' || c == '>'),
            "isRequired": false,
            "isSecret": true,
            "format": "string"
        }));
    }
    let entry: Value = json!({
        "$schema": SCHEMA,
        "name": format!("io.github.your-org/{package}"),
        "title": fit(&title, MAX_TEXT),
        "description": fit(&format!("Tools for the {title} API (OpenAPI), served over MCP"), MAX_TEXT),
        "version": version,
        "packages": [{
            "registryType": "oci",
            "identifier": format!("ghcr.io/your-org/{package}:{version}"),
            "runtimeHint": "docker",
            "transport": {"type": "stdio"},
            "environmentVariables": environment
        }]
    });
    let mut text = serde_json::to_string_pretty(&entry)
        .map_err(|e| CodegenError::Setup(format!("server.json: {e}")))?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
