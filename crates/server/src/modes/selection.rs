//! Toolsets chosen by the request rather than by a session (`--tools
//! toolsets` on MCP 2026-07-28, which has no sessions): the URL path
//! `/mcp/x/{toolset[,toolset...]}` or the header `X-MCP-Toolsets: a,b`
//! (as GitHub's MCP server does), within the toolsets `--toolset` names
//! when it names any. A 2026-07-28 request over HTTP, or any request to a
//! `--stateless` server, that selects nothing gets the `--toolset` set;
//! sessions of older revisions (and stdio, one client per process) keep
//! enabling toolsets with the meta-tools.

use std::collections::BTreeSet;
use std::sync::Arc;

use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};

use super::super::Bridge;
use super::super::protocol::modern;

/// The header naming the toolsets a request works with.
pub const TOOLSETS_HEADER: &str = "x-mcp-toolsets";

/// The path prefix whose next segment names the toolsets.
pub const TOOLSETS_PATH: &str = "/mcp/x/";

/// The comma-separated names in a header value or path segment, trimmed,
/// empty ones dropped.
fn names(list: &str) -> Vec<String> {
    list.split(',')
        .map(|n| {
            percent_encoding::percent_decode_str(n.trim())
                .decode_utf8_lossy()
                .trim()
                .to_string()
        })
        .filter(|n| !n.is_empty())
        .collect()
}

/// What the HTTP request selects, from its path and header; an error when
/// the two disagree.
fn selected(context: &RequestContext<RoleServer>) -> Result<Option<Vec<String>>, McpError> {
    let Some(parts) = context.extensions.get::<axum::http::request::Parts>() else {
        return Ok(None);
    };
    let path = parts
        .extensions
        .get::<axum::extract::OriginalUri>()
        .map(|o| o.0.path().to_string())
        .unwrap_or_else(|| parts.uri.path().to_string());
    let from_path = path
        .strip_prefix(TOOLSETS_PATH)
        .map(|rest| names(rest.trim_end_matches('/')));
    let from_header = parts
        .headers
        .get(TOOLSETS_HEADER)
        .map(|v| names(&String::from_utf8_lossy(v.as_bytes())));
    match (from_path, from_header) {
        (Some(p), Some(h)) if p != h => Err(McpError::invalid_params(
            format!(
                "the URL path selects toolsets {p:?} but the {TOOLSETS_HEADER} header selects {h:?}: send one of them"
            ),
            None,
        )),
        (Some(p), _) => Ok(Some(p)),
        (None, h) => Ok(h),
    }
}

impl Bridge {
    /// This handle with the catalog current now and the toolsets the
    /// request selects (see the module docs).
    pub(crate) fn fresh_for(&self, context: &RequestContext<RoleServer>) -> Result<Self, McpError> {
        let mut this = self.fresh();
        if !this.inner.scopes.is_empty() {
            this.caller_scopes = context
                .extensions
                .get::<axum::http::request::Parts>()
                .and_then(|p| p.extensions.get::<super::super::authz::Principal>())
                .map(|p| Arc::new(p.scopes.clone()));
        }
        let Some(state) = this.inner.listing.toolsets() else {
            return Ok(this);
        };
        let over_http = context
            .extensions
            .get::<axum::http::request::Parts>()
            .is_some();
        let chosen = match selected(context)? {
            Some(names) => names,
            None if over_http && (modern(context) || this.stateless()) => {
                this.request_toolsets = Some(Arc::new(state.initial.clone()));
                return Ok(this);
            }
            None => return Ok(this),
        };
        let sets = state
            .sets
            .resolve_names(&chosen)
            .map_err(|why| McpError::invalid_params(format!("toolsets: {why}"), None))?;
        let bound = &this.shared.options.listing.toolsets;
        let mut enabled = BTreeSet::new();
        for set in sets {
            let name = state.sets.names[set].clone();
            if !bound.is_empty() && !state.initial.contains(&name) {
                return Err(McpError::invalid_params(
                    format!(
                        "toolset `{name}` is not offered by this server (it offers {:?})",
                        state.initial
                    ),
                    None,
                ));
            }
            enabled.insert(name);
        }
        let chosen = Some(Arc::new(enabled));
        this.request_toolsets = chosen;
        Ok(this)
    }
}

#[cfg(test)]
#[path = "selection_tests.rs"]
mod tests;
