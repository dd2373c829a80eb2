//! The meta-tools of the `discovery`, `toolsets` and `code` listing modes: their
//! definitions (short: together they must cost a model under 1,000
//! tokens, whatever the API's size) and what they do.
//!
//! Annotations stay truthful through the meta-tools: a client that
//! auto-approves read-only tools may auto-approve `call_read_only_tool`,
//! which refuses every tool that is not read-only; everything else goes
//! through `call_tool`, annotated as destructive and not idempotent (the
//! worst any tool behind it may be), so a client asks before a write or a
//! delete exactly as it would for the tool itself.

use rmcp::model::{CallToolResult, ContentBlock, Tool};
use serde_json::{Map, Value, json};

/// Which meta-tool a name refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaTool {
    /// Ranked search over the catalog.
    Search,
    /// Full definitions of named tools.
    Describe,
    /// Calls a read-only tool.
    CallReadOnly,
    /// Calls any tool.
    Call,
    /// Lists the toolsets.
    ListToolsets,
    /// Switches toolsets on.
    EnableToolset,
    /// Switches toolsets off.
    DisableToolset,
    /// Code mode: TypeScript declarations of the operations for a task.
    CodeSearch,
    /// Code mode: runs a script that calls read-only operations only.
    ExecuteReadOnly,
    /// Code mode: runs a script that may call any operation.
    Execute,
    /// The result of a call answered with a handle (a client without
    /// tasks whose call outlived `--handle-after`; see `handles`).
    CallResult,
}

/// The meta-tools of discovery mode, in listing order.
pub const DISCOVERY: &[MetaTool] = &[
    MetaTool::Search,
    MetaTool::Describe,
    MetaTool::CallReadOnly,
    MetaTool::Call,
];

/// The tools of code mode, in listing order.
pub const CODE: &[MetaTool] = &[
    MetaTool::CodeSearch,
    MetaTool::ExecuteReadOnly,
    MetaTool::Execute,
];

/// The meta-tools of toolsets mode, in listing order.
pub const TOOLSETS: &[MetaTool] = &[
    MetaTool::ListToolsets,
    MetaTool::EnableToolset,
    MetaTool::DisableToolset,
];

/// The tool every mode but `code` lists last when calls may be answered
/// with a handle (`--handle-after`).
pub const HANDLES: &[MetaTool] = &[MetaTool::CallResult];

impl MetaTool {
    /// The tool name a client calls.
    pub fn name(self) -> &'static str {
        match self {
            MetaTool::Search => "search_tools",
            MetaTool::Describe => "describe_tools",
            MetaTool::CallReadOnly => "call_read_only_tool",
            MetaTool::Call => "call_tool",
            MetaTool::ListToolsets => "list_toolsets",
            MetaTool::EnableToolset => "enable_toolset",
            MetaTool::DisableToolset => "disable_toolset",
            MetaTool::CodeSearch => "search_api",
            MetaTool::ExecuteReadOnly => "execute_read_only",
            MetaTool::Execute => "execute",
            MetaTool::CallResult => "get_call_result",
        }
    }

    /// The meta-tool among `set` called `name`.
    pub fn find(set: &[MetaTool], name: &str) -> Option<MetaTool> {
        set.iter().copied().find(|m| m.name() == name)
    }

    /// The definition `tools/list` carries.
    pub fn definition(self, api_title: &str) -> Value {
        let call_args = |which: &str| {
            json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": format!("Name of the {which} (from search_tools).")},
                    "arguments": {"type": "object", "description": "Its arguments, as describe_tools shows its inputSchema."},
                    "select": {"type": "string", "description": "Optional jq expression applied to the JSON result, e.g. {name, id}."}
                },
                "required": ["name"]
            })
        };
        let names_arg = |what: &str, max: u32| {
            json!({
                "type": "object",
                "properties": {
                    "names": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": max, "description": what}
                },
                "required": ["names"]
            })
        };
        let script_arg = || {
            json!({
                "type": "object",
                "properties": {
                    "script": {"type": "string", "description": "Body of an async JavaScript function: `const p = await api.get_x({id: 1}); return {name: p.name};`. Return only what you need (JSON)."}
                },
                "required": ["script"]
            })
        };
        let (title, description, input, annotations) = match self {
            MetaTool::Search => (
                "Search tools",
                format!(
                    "Find the {api_title} API operations for a task. Returns the best matches: name, title, summary, method, path, and whether each is read-only."
                ),
                json!({
                    "type": "object",
                    "properties": {
                        "query": {"type": "string", "description": "The task in words, e.g. \"list open pull requests\"."},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
                        "tag": {"type": "string", "description": "Only tools with this tag."}
                    },
                    "required": ["query"]
                }),
                json!({"readOnlyHint": true, "openWorldHint": false}),
            ),
            MetaTool::Describe => (
                "Describe tools",
                "Full definitions of tools by name: inputSchema, outputSchema and annotations.".to_string(),
                names_arg("Tool names from search_tools.", 20),
                json!({"readOnlyHint": true, "openWorldHint": false}),
            ),
            MetaTool::CallReadOnly => (
                "Call a read-only tool",
                "Call a read-only tool (one search_tools marks readOnly). Refuses any other tool: use call_tool for those.".to_string(),
                call_args("read-only tool"),
                json!({"readOnlyHint": true}),
            ),
            MetaTool::Call => (
                "Call a tool",
                "Call any tool, including ones that create, change or delete data.".to_string(),
                call_args("tool"),
                json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false}),
            ),
            MetaTool::ListToolsets => (
                "List toolsets",
                format!(
                    "The groups of {api_title} API tools, whether each is enabled, and what it holds. Enable one with enable_toolset to list its tools."
                ),
                json!({"type": "object", "properties": {}}),
                json!({"readOnlyHint": true, "openWorldHint": false}),
            ),
            MetaTool::EnableToolset => (
                "Enable toolsets",
                "Add the tools of one or more toolsets to the tool list.".to_string(),
                names_arg("Toolset names from list_toolsets.", 50),
                json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}),
            ),
            MetaTool::CodeSearch => (
                "Search the API",
                format!(
                    "Find {api_title} API operations for a task: TypeScript declarations of the best matches (arguments, result, docs, examples), each callable in a script as api.NAME(args)."
                ),
                json!({
                    "type": "object",
                    "properties": {
                        "query": {"type": "string", "description": "The task in words, e.g. \"list open pull requests\"."},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5}
                    },
                    "required": ["query"]
                }),
                json!({"readOnlyHint": true, "openWorldHint": false}),
            ),
            MetaTool::ExecuteReadOnly => (
                "Run a read-only script",
                "Run a script that calls read-only API operations (search_api marks them) and returns a result. No network, clock or timers; limited time, memory and calls. Other operations fail: use execute.".to_string(),
                script_arg(),
                json!({"readOnlyHint": true}),
            ),
            MetaTool::Execute => (
                "Run a script",
                "Run a script that may call any API operation, including ones that create, change or delete data, and returns a result.".to_string(),
                script_arg(),
                json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false}),
            ),
            MetaTool::CallResult => (
                "Get a call's result",
                "The result of a call that was answered with a handle because it was still running (a long-running operation or a slow API). Waits a while for it; if the call is still running, says so, and can be called again with the same handle.".to_string(),
                json!({
                    "type": "object",
                    "properties": {
                        "handle": {"type": "string", "description": "The handle the call was answered with."}
                    },
                    "required": ["handle"]
                }),
                json!({"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}),
            ),
            MetaTool::DisableToolset => (
                "Disable toolsets",
                "Remove the tools of one or more toolsets from the tool list.".to_string(),
                names_arg("Toolset names from list_toolsets.", 50),
                json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}),
            ),
        };
        let mut annotations = annotations;
        if let Some(a) = annotations.as_object_mut() {
            a.insert("title".into(), json!(title));
        }
        json!({
            "name": self.name(),
            "title": title,
            "description": description,
            "inputSchema": input,
            "annotations": annotations,
        })
    }

    /// The definition as rmcp's type.
    pub fn tool(self, api_title: &str) -> Option<Tool> {
        serde_json::from_value(self.definition(api_title)).ok()
    }
}

/// A successful meta-tool result: `structured` as structured content and
/// `text` for clients that only show text.
pub fn ok(structured: Value, text: String) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured);
    result
}

/// A meta-tool call the model must correct: `isError` with the reason.
pub fn refuse(reason: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(reason.into())])
}

/// The string argument `key`, or the reason to refuse the call.
pub fn string_arg<'a>(
    tool: MetaTool,
    args: &'a Map<String, Value>,
    key: &str,
) -> Result<&'a str, String> {
    match args.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s),
        Some(Value::String(_)) => Err(format!("{}: `{key}` must not be empty", tool.name())),
        Some(other) => Err(format!(
            "{}: `{key}` must be a string, not {}",
            tool.name(),
            kind(other)
        )),
        None => Err(format!("{}: the argument `{key}` is required", tool.name())),
    }
}

/// The optional argument `limit`: an integer from 1 to `max`, `default`
/// when absent; or the reason to refuse the call.
pub fn limit_arg(
    tool: MetaTool,
    args: &Map<String, Value>,
    default: usize,
    max: usize,
) -> Result<usize, String> {
    match args.get("limit") {
        None | Some(Value::Null) => Ok(default),
        Some(v) => match v.as_u64() {
            Some(n) if (1..=max as u64).contains(&n) => Ok(n as usize),
            _ => Err(format!(
                "{}: `limit` must be an integer from 1 to {max}, not {v}",
                tool.name()
            )),
        },
    }
}

/// The list of names in `names` (a string is taken as a list of one), or
/// the reason to refuse the call.
pub fn names_arg(
    tool: MetaTool,
    args: &Map<String, Value>,
    max: usize,
) -> Result<Vec<String>, String> {
    let names: Vec<String> = match args.get("names") {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(items)) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match item {
                    Value::String(s) => out.push(s.clone()),
                    other => {
                        return Err(format!(
                            "{}: `names[{i}]` must be a string, not {}",
                            tool.name(),
                            kind(other)
                        ));
                    }
                }
            }
            out
        }
        Some(other) => {
            return Err(format!(
                "{}: `names` must be an array of strings, not {}",
                tool.name(),
                kind(other)
            ));
        }
        None => {
            return Err(format!("{}: the argument `names` is required", tool.name()));
        }
    };
    if names.is_empty() {
        return Err(format!("{}: `names` is empty", tool.name()));
    }
    if names.len() > max {
        return Err(format!(
            "{}: at most {max} names per call, got {}",
            tool.name(),
            names.len()
        ));
    }
    Ok(names)
}

/// The JSON kind of `v`, for messages.
pub use openapi2mcp_runtime::wire::json_kind as kind;

#[cfg(test)]
#[path = "meta_tests.rs"]
mod tests;
