//! How a catalog becomes what the server shows and returns: each tool as
//! rmcp's `Tool` (with the selector argument under `--response-filter`),
//! the `initialize` answer, and call outcomes as
//! `CallToolResult`s. Done once at start-up, except [`to_result`].

use std::sync::Arc;

use rmcp::model::{
    CallToolResult, ContentBlock, ResourceContents, ServerCapabilities, ServerConfig, Tool,
};
use serde_json::{Value, json};

use super::ServeError;
use super::modes::ToolsMode;
use openapi2mcp_runtime::call::{CallReport, RESPONSE_META_KEY, ToolEndpoint};
use openapi2mcp_runtime::catalog::{ORIGIN_META_KEY, ToolDef};
use openapi2mcp_runtime::response::{Content, ToolOutcome};
use openapi2mcp_runtime::select::{self, SELECT_ARG};

/// Splits a tool definition into the listed MCP tool and what calls need,
/// moving (not copying) the schemas.
pub(super) fn into_tool(def: ToolDef) -> Result<(Tool, ToolEndpoint), ServeError> {
    let ToolDef {
        name,
        title,
        description,
        input_schema,
        output_schema,
        input_full,
        output_full,
        annotations,
        origin,
        http,
    } = def;
    let object = |v: Value, what: &str| match v {
        Value::Object(m) => Ok(Arc::new(m)),
        _ => Err(ServeError::Tool {
            name: name.clone(),
            reason: format!("{what} is not a JSON object"),
        }),
    };
    let input_schema = object(input_schema, "inputSchema")?;
    let mut tool = Tool::new(name.clone(), description, Arc::clone(&input_schema));
    tool.title = Some(title);
    tool.output_schema = output_schema;
    let bad = |e: serde_json::Error| ServeError::Tool {
        name: name.clone(),
        reason: e.to_string(),
    };
    tool.annotations = Some(serde_json::from_value(annotations.to_mcp_json()).map_err(bad)?);
    tool.meta = Some(serde_json::from_value(json!({ ORIGIN_META_KEY: origin })).map_err(bad)?);
    let endpoint = ToolEndpoint {
        name: name.clone(),
        http,
        input_schema,
        output_schema: tool.output_schema.clone(),
        input_full: input_full
            .map(|v| object(v, "the full inputSchema"))
            .transpose()?,
        output_full: output_full
            .map(|v| object(v, "the full outputSchema"))
            .transpose()?,
    };
    Ok((tool, endpoint))
}

/// Gives a tool with a JSON result the selector argument and widens its
/// output schema to accept a selection; returns whether it did.
pub(super) fn add_selector(tool: &mut Tool) -> bool {
    let Some(output) = tool.output_schema.as_ref() else {
        return false;
    };
    let mut input = (*tool.input_schema).clone();
    let properties = input.entry("properties").or_insert_with(|| json!({}));
    let Some(properties) = properties.as_object_mut() else {
        return false;
    };
    if properties.contains_key(SELECT_ARG) {
        tracing::warn!(
            tool = %tool.name,
            "the tool has its own `{SELECT_ARG}` argument: it takes no selector"
        );
        return false;
    }
    properties.insert(SELECT_ARG.into(), select::select_arg_schema());
    tool.output_schema = Some(Arc::new(select::widen_output_schema(output)));
    tool.input_schema = Arc::new(input);
    true
}

pub(super) fn server_info(
    title: &str,
    version: &str,
    description: Option<&str>,
    tool_count: usize,
    mode: ToolsMode,
    toolset_count: usize,
) -> ServerConfig {
    let program = openapi2mcp_runtime::program::get();
    let implementation = serde_json::from_value(json!({
        "name": program.name,
        "title": format!("{title} (via openapi2mcp)"),
        "version": program.version,
    }))
    .unwrap_or_else(|_| rmcp::model::Implementation::from_build_env());
    let version = if version.is_empty() {
        String::new()
    } else {
        format!(" (version {version})")
    };
    let mut instructions = match mode {
        ToolsMode::Discovery => format!(
            "Tools for the {title} API{version}: {tool_count} operations, reached through meta-tools. Find operations with search_tools, read their arguments with describe_tools, then run read-only ones with call_read_only_tool and any other with call_tool."
        ),
        ToolsMode::Code => format!(
            "Tools for the {title} API{version}: {tool_count} operations, reached from scripts. search_api returns TypeScript declarations of the operations for a task; execute_read_only (read-only operations) and execute run a short JavaScript async function body in which each operation is `await api.NAME({{...}})`, and return what it returns."
        ),
        ToolsMode::Toolsets => format!(
            "Tools for the {title} API{version}: {tool_count} operations in {toolset_count} toolsets. list_toolsets shows them; enable_toolset adds a toolset's tools to the tool list, disable_toolset removes them."
        ),
        _ => format!(
            "Tools for the {title} API{version}: {tool_count} tools, one per HTTP operation. Read-only tools are annotated readOnlyHint; arguments follow each tool's inputSchema."
        ),
    };
    if let Some(d) = description.map(str::trim).filter(|d| !d.is_empty()) {
        let short: String = d.chars().take(1500).collect();
        instructions.push_str("\n\n");
        instructions.push_str(&short);
    }
    instructions.push_str(
        "\n\nWhere a tool's schema is summarized to save space, the summary names a resource (openapi2mcp://schemas/{name}, or the tool's own full schema) that holds the full schema; arguments are always checked against the full schema.",
    );
    let capabilities = if mode == ToolsMode::Toolsets {
        ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_resources()
            .enable_resources_list_changed()
            .enable_prompts()
            .enable_tasks()
            .build()
    } else {
        // Reloads (SIGHUP, --watch) change the list in every mode.
        ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_resources()
            .enable_resources_list_changed()
            .enable_prompts()
            .enable_tasks()
            .build()
    };
    ServerConfig::new(capabilities)
        .with_server_info(implementation)
        .with_instructions(instructions)
}

/// Maps our SDK-neutral outcome to rmcp's result (built directly: this
/// runs on every call).
/// A call's report as the client gets it: its outcome as a result
/// ([`to_result`]), with what the response said beside its body (the
/// headers shown, the next page's arguments) in `_meta` under
/// [`RESPONSE_META_KEY`].
pub(super) fn report_result(report: CallReport, tool: &str) -> CallToolResult {
    let notes = report.response;
    let mut result = to_result(report.outcome);
    if let Some(notes) = notes {
        result
            .meta
            .get_or_insert_with(Default::default)
            .insert(RESPONSE_META_KEY.into(), notes.to_meta(tool));
    }
    result
}

pub(super) fn to_result(outcome: ToolOutcome) -> CallToolResult {
    let content: Vec<ContentBlock> = outcome
        .content
        .into_iter()
        .map(|c| match c {
            Content::Text(text) => ContentBlock::text(text),
            Content::Image {
                data_base64,
                mime_type,
            } => ContentBlock::image(data_base64, mime_type),
            Content::Blob {
                uri,
                mime_type,
                blob_base64,
            } => ContentBlock::resource(
                ResourceContents::blob(blob_base64, uri).with_mime_type(mime_type),
            ),
        })
        .collect();
    let mut result = if outcome.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    result.structured_content = outcome.structured;
    result
}
