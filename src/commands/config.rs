//! `config`: the `mcpServers` entry a client needs to start `openapi2mcp
//! serve` for a document, with absolute paths (clients start the server
//! from elsewhere) and this executable as the command.

use serde_json::Value;

use super::CommandError;
use crate::client_config;
use crate::tools::Catalog;

/// What the entry starts.
#[derive(Debug, Clone, Default)]
pub struct ConfigCommand {
    /// The document, a path or a URL.
    pub location: String,
    /// Overlays `serve` applies, in order.
    pub overlays: Vec<String>,
    /// Key of the entry (default: the API title as a slug).
    pub name: Option<String>,
    /// Serve from the built-in mock.
    pub mock: bool,
    /// Base URL of the API.
    pub base_url: Option<String>,
}

/// The `{"mcpServers": {...}}` entry for `catalog`.
pub fn entry(catalog: &Catalog, command: &ConfigCommand) -> Result<Value, CommandError> {
    let program = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok())
        .map_or_else(|| "openapi2mcp".to_string(), |p| p.display().to_string());
    let mut serve_args = vec![absolute(&command.location)?];
    for overlay in &command.overlays {
        serve_args.extend(["--overlay".to_string(), absolute(overlay)?]);
    }
    if command.mock {
        serve_args.push("--mock".into());
    }
    if let Some(url) = &command.base_url {
        serve_args.extend(["--base-url".to_string(), url.clone()]);
    }
    Ok(client_config::snippet(
        catalog,
        &program,
        &serve_args,
        command.name.as_deref(),
    ))
}

/// A URL as it is; a path made absolute.
fn absolute(location: &str) -> Result<String, CommandError> {
    Ok(if location.contains("://") {
        location.to_string()
    } else {
        std::path::absolute(location)
            .map_err(|source| CommandError::Resolve {
                location: location.to_string(),
                source,
            })?
            .display()
            .to_string()
    })
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
