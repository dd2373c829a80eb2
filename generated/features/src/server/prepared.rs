//! The server's tools, each built the first time a client needs it: listed
//! in `full` mode or an enabled toolset, described, or called. Start-up
//! only knows the heads ([`ToolHead`]: names, descriptions, hints), so a
//! server over Microsoft Graph's 11,000 operations that lists four
//! meta-tools builds nothing it is not asked for; every tool is built at
//! most once per catalog and then shared by listing and calls.

use std::sync::{Arc, OnceLock};

use rmcp::model::Tool;

use super::shape::{add_selector, into_tool};
use crate::runtime::call::{EndpointSource, ToolEndpoint};
use crate::runtime::catalog::{ToolHead, ToolSource};

/// One tool as the server shows it, and what calls need of it.
pub(super) struct Shown {
    /// The tool as `tools/list` and `describe_tools` carry it.
    pub tool: Tool,
    /// Its serialized size plus a separator, for paging.
    pub size: usize,
    /// Whether it takes the selector argument (`--response-filter`).
    pub selectable: bool,
    /// Whether an argument of it is annotated `x-mcp-header`: clients
    /// mirror it into an `Mcp-Param-*` header, which rmcp checks against
    /// the body (see `Bridge::get_tool`).
    pub mirrors_headers: bool,
    endpoint: ToolEndpoint,
}

/// Every tool of one catalog, built on demand.
pub(super) struct Prepared {
    source: Arc<dyn ToolSource>,
    response_filter: bool,
    slots: Vec<OnceLock<Result<Shown, String>>>,
}

impl Prepared {
    /// Tools of `heads`, built by `source` when first needed.
    pub fn new(heads: &[ToolHead], source: Arc<dyn ToolSource>, response_filter: bool) -> Self {
        Self {
            source,
            response_filter,
            slots: heads.iter().map(|_| OnceLock::new()).collect(),
        }
    }

    /// Tool `index` as shown, building it on first use; `Err` says why it
    /// cannot be served.
    pub fn get(&self, index: usize) -> Result<&Shown, &str> {
        let Some(slot) = self.slots.get(index) else {
            return Err("no such tool");
        };
        slot.get_or_init(|| self.build(index))
            .as_ref()
            .map_err(String::as_str)
    }

    fn build(&self, index: usize) -> Result<Shown, String> {
        let def = self.source.build(index)?;
        let name = def.name.clone();
        let (mut tool, endpoint) = into_tool(def).map_err(|e| e.to_string())?;
        let selectable = self.response_filter && add_selector(&mut tool);
        let size = serde_json::to_vec(&tool).map_or(0, |v| v.len()) + 1;
        let mirrors_headers = mirrors_headers(&tool);
        tracing::debug!(tool = %name, bytes = size, "tool built");
        Ok(Shown {
            tool,
            size,
            selectable,
            mirrors_headers,
            endpoint,
        })
    }
}

/// The SEP-2243 schema keyword naming the header an argument is mirrored
/// into (the tool model writes it; see `tools::mcp_headers`).
const MCP_HEADER: &str = "x-mcp-header";

/// Whether a property of `tool`'s input schema (at any depth along
/// `properties`, as SEP-2243 clients look) carries `x-mcp-header`.
fn mirrors_headers(tool: &Tool) -> bool {
    fn walk(schema: &serde_json::Map<String, serde_json::Value>, depth: usize) -> bool {
        let Some(serde_json::Value::Object(props)) = schema.get("properties") else {
            return false;
        };
        props
            .values()
            .filter_map(|p| p.as_object())
            .any(|p| p.contains_key(MCP_HEADER) || (depth < 8 && walk(p, depth + 1)))
    }
    walk(&tool.input_schema, 0)
}

impl EndpointSource for Prepared {
    fn endpoint(&self, index: usize) -> Result<ToolEndpoint, String> {
        self.get(index)
            .map(|shown| shown.endpoint.clone())
            .map_err(str::to_string)
    }
}
