//! What the tools of code mode (`--tools code`) do (their definitions are
//! in [`super::meta`]): `search_api` answers with TypeScript declarations
//! of the operations that match a task; `execute` and `execute_read_only`
//! run a script in the sandbox of [`crate::code::sandbox`], each
//! `api.<tool>(args)` call of which runs exactly as `tools/call` of that
//! tool does: the same lookup, selector argument, confirmation gate,
//! validation, request, auth, redirects, retries, rate limit, long-running
//! operation, conformance to the output schema, redaction, audit line and
//! span ([`Bridge::run_tool`]). The script sees only arguments and
//! results: credentials stay on this side.
//!
//! `execute_read_only` refuses every operation that is not read-only (so
//! a client may auto-approve it); `execute` is annotated destructive. An
//! operation that needs a person's confirmation (`--confirm`) asks through
//! `elicitation/create` on sessions that can be asked; a 2026-07-28 client
//! (whose questions are `InputRequiredResult`s, answered by a retry of the
//! whole request) cannot be asked in the middle of a script, so such a call
//! fails in the script with a message saying so.
//!
//! At most [`MAX_SCRIPTS`] scripts run at once, and at most
//! [`MAX_SCRIPTS_PER_CALLER`] of one caller's: a caller's scripts beyond
//! its share wait for its own to finish, not for everyone's.

use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rmcp::model::{CallToolResponse, CallToolResult};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{Map, Value, json};

use super::super::Bridge;
use super::super::confirm::Gate;
use super::super::run::CallEnv;
use super::meta::{MetaTool, kind, ok, refuse, string_arg};
use crate::code::sandbox::{self, Budgets, Host, HostAnswer, ScriptError};
#[cfg(feature = "search")]
use crate::code::typescript::{self, Operation};
use openapi2mcp_runtime::call::{Missing, RESPONSE_META_KEY};
use openapi2mcp_runtime::fair::{Busy, FairPool};
use openapi2mcp_runtime::select::SELECT_ARG;

/// Longest script accepted, in bytes.
pub const MAX_SCRIPT_BYTES: usize = 64 * 1024;

/// Most operations `search_api` declares at once.
#[cfg(feature = "search")]
const MAX_LIMIT: usize = 20;
/// Operations declared when the caller gives no limit.
#[cfg(feature = "search")]
const DEFAULT_LIMIT: usize = 5;
/// Longest `search_api` answer, in characters (whole declarations only).
#[cfg(feature = "search")]
const MAX_SEARCH_CHARS: usize = 24_000;

/// Scripts running at once (each holds a blocking thread and up to its
/// memory budget); more wait.
pub const MAX_SCRIPTS: usize = 8;

/// Scripts one caller may run at once (see
/// [`super::super::run::fair_caller`]): a quarter of [`MAX_SCRIPTS`], so
/// one caller's runaway scripts leave the others' room to run.
pub const MAX_SCRIPTS_PER_CALLER: usize = MAX_SCRIPTS / 4;

/// The slots of running scripts, shared fairly between callers.
static RUNNING: std::sync::LazyLock<FairPool> =
    std::sync::LazyLock::new(|| FairPool::new(MAX_SCRIPTS, MAX_SCRIPTS_PER_CALLER));

/// Sets the script's cancellation flag when dropped.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// One operation call a script asks for, with where its answer goes.
type Request = (String, Value, std::sync::mpsc::Sender<HostAnswer>);

/// The script side of the channel: each call is sent to the request's
/// task and waited for, within the time the script has left.
struct ChannelHost {
    requests: tokio::sync::mpsc::UnboundedSender<Request>,
}

impl Host for ChannelHost {
    fn call(&self, name: &str, args: Value, remaining: Duration) -> HostAnswer {
        let (reply, answer) = std::sync::mpsc::channel();
        if self.requests.send((name.to_string(), args, reply)).is_err() {
            return HostAnswer::Cancelled;
        }
        match answer.recv_timeout(remaining) {
            Ok(answer) => answer,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => HostAnswer::TimedOut,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => HostAnswer::Cancelled,
        }
    }
}

impl Bridge {
    /// `search_api` in a build without the `search` feature (where code
    /// mode is refused at start-up).
    #[cfg(not(feature = "search"))]
    pub(crate) async fn search_api(&self, _args: &Map<String, Value>) -> CallToolResult {
        refuse("search_api is not available: this server was built without the `search` feature")
    }

    /// `search_api`: the matching operations as TypeScript declarations.
    #[cfg(feature = "search")]
    pub(crate) async fn search_api(&self, args: &Map<String, Value>) -> CallToolResult {
        let m = MetaTool::CodeSearch;
        let index = match self.index().await {
            Ok(index) => index,
            Err(why) => return refuse(why),
        };
        let query = match string_arg(m, args, "query") {
            Ok(q) => q,
            Err(why) => return refuse(why),
        };
        let limit = match super::meta::limit_arg(m, args, DEFAULT_LIMIT, MAX_LIMIT) {
            Ok(n) => n,
            Err(why) => return refuse(why),
        };
        // Operations the caller's scopes do not allow are not found.
        let hits = self.visible_hits(&index, query, limit, None);
        if hits.is_empty() {
            return ok(
                json!({"query": query, "operations": []}),
                format!(
                    "No operation matches \"{query}\". Try other words for the task or the thing it acts on."
                ),
            );
        }
        let inner = &self.inner;
        let mut declarations = Vec::new();
        let mut names = Vec::new();
        let mut size = 0;
        let mut left_out = 0;
        for hit in &hits {
            let head = &inner.heads[hit.index];
            let Ok(shown) = inner.prepared.get(hit.index) else {
                continue;
            };
            let input = Value::Object((*shown.tool.input_schema).clone());
            let wrapped = self
                .inner
                .api
                .find(&head.name)
                .ok()
                .and_then(|t| self.wrapped_key(t));
            let output = shown
                .tool
                .output_schema
                .as_ref()
                .map(|o| Value::Object((**o).clone()));
            let text = typescript::declare(&Operation {
                name: &head.name,
                title: &head.title,
                description: &head.description,
                method: &head.origin.method,
                path: &head.origin.path,
                read_only: head.annotations.read_only_hint,
                input: &input,
                output: output.as_ref(),
                // A script gets a wrapped body (an array) unwrapped.
                output_key: wrapped.as_deref(),
            });
            if !declarations.is_empty() && size + text.len() > MAX_SEARCH_CHARS {
                left_out += 1;
                continue;
            }
            size += text.len();
            declarations.push(text);
            names.push(head.name.clone());
        }
        let mut text = String::from("declare namespace api {\n");
        for d in &declarations {
            for line in d.lines() {
                text.push_str("  ");
                text.push_str(line);
                text.push('\n');
            }
        }
        text.push('}');
        if left_out > 0 {
            text.push_str(&format!(
                "\n// {left_out} more matching operation(s) left out for size: search with more specific words."
            ));
        }
        text.push_str(
            "\n// Call them in a script: `const r = await api.NAME({...}); return r;` with execute_read_only (read-only operations) or execute. `response(r)` gives what the response said beside r: {headers, next}; a paged list's next page is `await api[next.tool](next.arguments)`.",
        );
        ok(
            json!({"query": query, "operations": names, "declarations": text}),
            text,
        )
    }

    /// `execute` and `execute_read_only`: runs the script, its calls
    /// through [`Bridge::script_call`].
    pub(crate) async fn execute(
        &self,
        m: MetaTool,
        args: &Map<String, Value>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let script = match string_arg(m, args, "script") {
            Ok(s) => s.to_string(),
            Err(why) => return Ok(refuse(why).into()),
        };
        if script.len() > MAX_SCRIPT_BYTES {
            return Ok(refuse(format!(
                "{}: the script is {} bytes, more than {MAX_SCRIPT_BYTES}; keep it short, it runs the operations, not the data",
                m.name(),
                script.len()
            ))
            .into());
        }
        let budgets = self.shared.options.code;
        let caller = super::super::run::fair_caller(context);
        let _permit = match RUNNING.acquire(caller.as_deref(), budgets.wall).await {
            Ok(permit) => permit,
            Err(Busy::Caller { share, .. }) => {
                return Ok(refuse(format!(
                    "{}: not run: {share} scripts of this caller are running already (its share of the server's {MAX_SCRIPTS}); wait for one to finish",
                    m.name()
                ))
                .into());
            }
            Err(Busy::Pool { total }) => {
                return Ok(refuse(format!(
                    "{}: not run: the server runs {total} scripts at once already; try again shortly",
                    m.name()
                ))
                .into());
            }
        };
        let started = Instant::now();
        let deadline = started + budgets.wall;
        let names: Vec<String> = self.inner.heads.iter().map(|h| h.name.clone()).collect();
        let (requests, mut incoming) = tokio::sync::mpsc::unbounded_channel::<Request>();
        let cancel = Arc::new(AtomicBool::new(false));
        // If this request is dropped (the client went away), the script
        // stops at once rather than at its wall-time budget.
        let _stop_when_dropped = StopOnDrop(Arc::clone(&cancel));
        let run_cancel = Arc::clone(&cancel);
        let mut running = tokio::task::spawn_blocking(move || {
            let host: Rc<dyn Host> = Rc::new(ChannelHost { requests });
            sandbox::run(&script, &names, host, budgets, run_cancel)
        });
        let outcome = loop {
            tokio::select! {
                done = &mut running => break done,
                Some((name, call_args, reply)) = incoming.recv() => {
                    let remaining = deadline.saturating_duration_since(Instant::now());
                    let answer = tokio::select! {
                        answer = self.script_call(m, &name, call_args, context) => answer,
                        () = tokio::time::sleep(remaining) => HostAnswer::TimedOut,
                        () = context.ct.cancelled() => HostAnswer::Cancelled,
                    };
                    let _ = reply.send(answer);
                }
                () = context.ct.cancelled() => {
                    cancel.store(true, Ordering::Relaxed);
                    // A call the script is waiting for is answered now,
                    // and any later one fails at once.
                    incoming.close();
                    while let Ok((_, _, reply)) = incoming.try_recv() {
                        let _ = reply.send(HostAnswer::Cancelled);
                    }
                    break (&mut running).await;
                }
            }
        };
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(e) => Err(ScriptError::Engine(e.to_string())),
        };
        let result = match outcome {
            Ok(done) => {
                tracing::info!(
                    target: "openapi2mcp::audit",
                    tool = m.name(),
                    calls = done.calls,
                    bytes = done.json.len(),
                    duration_ms = started.elapsed().as_millis() as u64,
                    "script finished"
                );
                let mut text = done.json.clone();
                let mut structured = json!({"result": done.value, "calls": done.calls});
                if !done.log.is_empty() {
                    text.push_str("\n\nconsole:\n");
                    text.push_str(&done.log);
                    structured["console"] = json!(done.log);
                }
                ok(structured, text)
            }
            Err(ScriptError::Cancelled) => {
                return Err(McpError::internal_error("cancelled by the client", None));
            }
            Err(e) => {
                tracing::info!(
                    target: "openapi2mcp::audit",
                    tool = m.name(),
                    duration_ms = started.elapsed().as_millis() as u64,
                    error = %e,
                    "script failed"
                );
                refuse(format!("{}: {e}", m.name()))
            }
        };
        Ok(result.into())
    }

    /// One `api.<name>(args)` of a script, as `tools/call` of `name` would
    /// run it.
    async fn script_call(
        &self,
        m: MetaTool,
        name: &str,
        args: Value,
        context: &RequestContext<RoleServer>,
    ) -> HostAnswer {
        let failed = |why: String| HostAnswer::Failed(why);
        let mut args = match args {
            Value::Object(map) => map,
            other => {
                return failed(format!(
                    "the arguments must be an object, not {}",
                    kind(&other)
                ));
            }
        };
        let tool = match self.inner.api.find(name) {
            Ok(tool) => tool,
            Err(Missing::Unknown) => return failed(format!("no operation `{name}`")),
            Err(Missing::Broken(why)) => {
                return failed(format!("`{name}` cannot be served: {why}"));
            }
        };
        let head = &self.inner.heads[tool.index()];
        if m == MetaTool::ExecuteReadOnly && !head.annotations.read_only_hint {
            return failed(format!(
                "`{name}` is not read-only ({} {}); execute_read_only runs only read-only operations: run this script with execute",
                head.origin.method, head.origin.path
            ));
        }
        if let Some(refusal) = self.scope_refusal(name, context) {
            return failed(refusal);
        }
        let mut select = None;
        if self.selectable(tool) {
            match args.remove(SELECT_ARG) {
                None | Some(Value::Null) => {}
                Some(Value::String(s)) if !s.trim().is_empty() => select = Some(s),
                Some(other) => {
                    return failed(format!(
                        "`{SELECT_ARG}` must be a jq expression (a string), not {}",
                        kind(&other)
                    ));
                }
            }
        }
        // Missing arguments are not asked for in a script (validation names
        // them); a confirmation is, where the client can be asked now.
        if self.needs_confirmation(tool) {
            match self.gate(tool, name, &mut args, None, None, context).await {
                Ok(Gate::Proceed) => {}
                Ok(Gate::Answer(answer)) => {
                    return failed(match *answer {
                        CallToolResponse::Complete(result) => text_of(&result),
                        _ => format!(
                            "`{name}` needs a person's confirmation, which this client (MCP 2026-07-28) can only give between requests, not in the middle of a script; nothing was sent"
                        ),
                    });
                }
                Err(e) => return failed(e.message.to_string()),
            }
        }
        let wrapped = if select.is_none() {
            self.wrapped_key(tool)
        } else {
            None
        };
        let mut env = CallEnv::of(context, &self.shared.options);
        // One progress sequence per request: the script's calls send none.
        env.without_progress();
        match self
            .run_tool(tool, name, args, select.as_deref(), env)
            .await
        {
            Ok(result) if result.is_error == Some(true) => failed(text_of(&result)),
            Ok(result) => {
                let response = result
                    .meta
                    .as_ref()
                    .and_then(|m| m.get(RESPONSE_META_KEY))
                    .cloned();
                HostAnswer::Ok(value_of(result, wrapped.as_deref()), response)
            }
            Err(e) => failed(e.message.to_string()),
        }
    }
}

/// The text of a result's text blocks.
fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Bridge {
    /// Why the request's OAuth token may not call tool `name` (its scope
    /// rule, `--scope-read`/`--scope-write`/`--tool-scopes-from-document`),
    /// for calls made behind another tool (a script's, a call meta-tool's):
    /// the HTTP guard checks the scopes of the tool a `tools/call` names,
    /// which there is `execute` or `call_tool`, so each call behind it is
    /// checked here. `None`: allowed.
    pub(crate) fn scope_refusal(
        &self,
        name: &str,
        context: &RequestContext<RoleServer>,
    ) -> Option<String> {
        let rule = self.inner.scopes.get(name)?;
        let granted = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<super::super::authz::Principal>())
            .map(|p| p.scopes.clone())
            .unwrap_or_default();
        super::super::authz::scopes::check(rule, &granted).err().map(|needed| {
            format!(
                "`{name}` needs the OAuth scope {}, which this request's access token does not carry; nothing was sent",
                needed.join(" ")
            )
        })
    }

    /// The property a tool's structured content wraps a non-object body
    /// in (an array is `{"items": [...]}` there), if it does.
    fn wrapped_key(&self, tool: openapi2mcp_runtime::call::ToolId) -> Option<String> {
        match &self.inner.api.tool(tool).http.output {
            Some(openapi2mcp_runtime::binding::OutputShape::Wrapped { key }) => Some(key.clone()),
            _ => None,
        }
    }
}

/// What a script gets from a successful call: the body as the API sent
/// it (structured content, unwrapped when `wrapped` names the property a
/// non-object body is wrapped in), else the text as JSON, else the text.
fn value_of(result: CallToolResult, wrapped: Option<&str>) -> Value {
    if let Some(mut structured) = result.structured_content {
        if let Some(key) = wrapped
            && let Some(map) = structured.as_object_mut()
            && map.len() == 1
            && let Some(body) = map.remove(key)
        {
            return body;
        }
        return structured;
    }
    // The body is the last block (notes such as the response headers
    // come before it); a body that is not JSON comes back as all the text.
    if let Some(body) = result.content.last().and_then(|c| c.as_text())
        && let Ok(value) = serde_json::from_str(&body.text)
    {
        return value;
    }
    let text = text_of(&result);
    serde_json::from_str(&text).unwrap_or(Value::String(text))
}

/// The budgets of code mode's scripts (`--code-*` flags).
pub type CodeBudgets = Budgets;

#[cfg(test)]
#[path = "code_tests.rs"]
mod tests;
