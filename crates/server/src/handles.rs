//! Long calls for clients without Tasks: a call still running after
//! `--handle-after` (a long-running operation the API answered `202` with
//! a status URL, or a slow API) is answered with a **handle** before the
//! client's own timeout, and goes on; the read-only `get_call_result`
//! tool returns its result once it is there.
//!
//! Most hosts declare no tasks extension (Claude Code, Cursor, Codex, the
//! SDKs' defaults) and give up on a call after a minute or two (the
//! TypeScript SDK's default request timeout is 60 s; Codex's tool timeout
//! too), so a call that blocks until `--lro-timeout` (ten minutes) is lost
//! to them. A handle is a task of [`super::tasks`] read through a tool:
//! the same store, bounds (`--max-tasks`, `--task-results-bytes`,
//! `--task-ttl`) and owner (the caller who made the call; another caller
//! is told the handle is unknown). When the store is full of running
//! calls, the call is waited for, as before.
//!
//! A handle answer is `isError` when the tool declares an output schema:
//! the SDKs check a success against it (and the handle is not the API's
//! result), while an error's content is read as it is.

use std::time::{Duration, Instant};

use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use super::Bridge;
use super::modes::meta::{self, MetaTool};
use super::protocol::caller_digest;
use super::run::CallEnv;
use super::tasks::{Standing, TaskExit, joined};
use openapi2mcp_runtime::call::ToolId;
use openapi2mcp_runtime::lro::LroMode;

/// Default `--handle-after`: half a minute, under the 60 s that the
/// TypeScript SDK and Codex wait for a call by default.
pub const DEFAULT_HANDLE_AFTER: Duration = Duration::from_secs(30);

/// The argument of `get_call_result`.
const HANDLE_ARG: &str = "handle";

impl Bridge {
    /// Whether calls of this catalog may be answered with a handle: the
    /// listing offers `get_call_result` (see [`super::modes::Listing`]).
    pub(super) fn hands_out_handles(&self) -> Option<Duration> {
        let after = self.shared.options.handle_after?;
        self.meta_tool(MetaTool::CallResult.name())
            .is_some()
            .then_some(after)
    }

    /// Runs a call of a client without tasks: its result when it ends
    /// within `after`, else a handle to it (see the module docs).
    pub(super) async fn run_with_handle(
        &self,
        tool: ToolId,
        name: &str,
        args: Map<String, Value>,
        select: Option<String>,
        context: &RequestContext<RoleServer>,
        after: Duration,
    ) -> Result<CallToolResponse, McpError> {
        let deadline = Instant::now() + after;
        let mut env = CallEnv::of(context, &self.shared.options);
        let cancel = CancellationToken::new();
        env.cancel = cancel.clone();
        let trace = env.trace.clone();
        let progress_end = env.progress_end();
        // The operation's state once it is followed (empty until then).
        let (status, mut statuses) = tokio::sync::watch::channel(String::new());
        let this = self.clone();
        let called = name.to_string();
        let stop = cancel.clone();
        // Polled here until `after`; only a call still running then is
        // spawned to outlive this request (no task for the quick ones).
        let mut call: std::pin::Pin<
            Box<dyn std::future::Future<Output = Result<CallToolResult, TaskExit>> + Send>,
        > = Box::pin(async move {
            let report = this
                .run_report(tool, &called, args, select.as_deref(), env, LroMode::Return)
                .await
                .map_err(TaskExit::Error)?;
            if let Some(monitor) = &report.pending {
                status.send_replace(format!(
                    "{} accepted; following {}",
                    monitor.operation(),
                    monitor.status_url_for_display()
                ));
            }
            openapi2mcp_runtime::trace::scope(
                trace,
                this.finish(
                    tool,
                    report,
                    |message| {
                        status.send_replace(message);
                    },
                    async move { stop.cancelled().await },
                    &called,
                    select.as_deref(),
                ),
            )
            .await
        });
        tokio::select! {
            exit = &mut call => return exit.map(Into::into).map_err(exit_error),
            () = tokio::time::sleep_until(deadline.into()) => {}
            () = context.ct.cancelled() => {
                // Dropping the call stops it.
                cancel.cancel();
                return Err(McpError::internal_error("cancelled by the client", None));
            }
        }
        let mut call = tokio::spawn(call);
        let ended = |exit: Result<Result<CallToolResult, TaskExit>, _>| {
            joined(exit.map(|r| r.map_err(exit_error)))
        };
        let mut now = statuses.borrow_and_update().clone();
        if now.is_empty() {
            let http = &self.inner.api.tool(tool).http;
            now = format!("calling {} {}", http.method, http.path);
        }
        let Some((created, task)) = self
            .shared
            .tasks
            .reserve(caller_digest(context), now.clone())
        else {
            tracing::warn!(
                tool = %name,
                max_tasks = self.shared.tasks.limits.max_tasks,
                "every task slot holds a running call (--max-tasks): this call is answered when it ends, not with a handle"
            );
            return tokio::select! {
                exit = call => Ok(ended(exit)?.into()),
                () = context.ct.cancelled() => {
                    cancel.cancel();
                    Err(McpError::internal_error("cancelled by the client", None))
                }
            };
        };
        // The request is answered with the handle: no more progress for it.
        if let Some(end) = &progress_end {
            end.store(true, std::sync::atomic::Ordering::Release);
        }
        let audit_name = name.to_string();
        self.shared.tasks.start(&created.task_id, async move {
            // Each turn ends with the call, or passes on a status change
            // or the task's cancellation (once): bounded by the call.
            let mut watching = true;
            let mut stopping = false;
            loop {
                tokio::select! {
                    exit = &mut call => {
                        return match joined(exit.map(|r| r.map_err(exit_error))) {
                            Ok(result) => Ok(result),
                            Err(_) if stopping => Err(TaskExit::Cancelled),
                            Err(e) => Err(TaskExit::Error(e)),
                        };
                    }
                    changed = statuses.changed(), if watching => match changed {
                        Ok(()) => task.set_status_message(statuses.borrow_and_update().clone()),
                        Err(_) => watching = false,
                    },
                    () = task.cancel.cancelled(), if !stopping => {
                        stopping = true;
                        cancel.cancel();
                        tracing::info!(target: "openapi2mcp::audit", tool = %audit_name, "call behind a handle cancelled");
                    }
                }
            }
        });
        tracing::info!(target: "openapi2mcp::audit", tool = %name, handle = %created.task_id, after_secs = after.as_secs_f64(), "tools/call answered with a handle; the call goes on");
        let declares_output = self.inner.api.tool(tool).output_schema.is_some();
        Ok(handle_answer(name, &created.task_id, &now, after, declares_output).into())
    }

    /// `get_call_result`: the result of the caller's call behind the
    /// handle once it has ended (waiting up to `--handle-after` for it),
    /// else that it is still running.
    pub(super) async fn call_result(
        &self,
        args: &Map<String, Value>,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let m = MetaTool::CallResult;
        let handle = match meta::string_arg(m, args, HANDLE_ARG) {
            Ok(handle) => handle.trim().to_string(),
            Err(why) => return meta::refuse(why),
        };
        let after = self
            .shared
            .options
            .handle_after
            .unwrap_or(DEFAULT_HANDLE_AFTER);
        let caller = caller_digest(context);
        let waited = tokio::select! {
            standing = self.shared.tasks.wait(&handle, &caller, Instant::now() + after) => standing,
            () = context.ct.cancelled() => return meta::refuse("cancelled by the client"),
        };
        match waited {
            Ok(Standing::Completed(result)) => result,
            Ok(Standing::Running(status)) => {
                let status = status.unwrap_or_else(|| "running".into());
                meta::ok(
                    json!({HANDLE_ARG: handle, "status": "working", "statusMessage": status}),
                    format!(
                        "Still running ({status}). Call `{}` again with {} for its result.",
                        m.name(),
                        json!({HANDLE_ARG: handle})
                    ),
                )
            }
            Ok(Standing::Failed(why)) => meta::refuse(format!("The call failed: {why}")),
            Ok(Standing::Cancelled) => meta::refuse("The call was cancelled before it ended."),
            Err(_) => meta::refuse(format!(
                "Unknown handle `{handle}`: no call of yours has it. A handle is kept for {} after its call began (--task-ttl), and is only shown to the caller who made the call.",
                minutes(self.shared.tasks.limits.ttl)
            )),
        }
    }
}

/// The error a call's exit is answered with.
fn exit_error(exit: TaskExit) -> McpError {
    match exit {
        TaskExit::Cancelled => McpError::internal_error("cancelled by the client", None),
        TaskExit::Error(e) => e,
    }
}

/// What a call still running after `after` is answered with.
fn handle_answer(
    tool: &str,
    handle: &str,
    status: &str,
    after: Duration,
    declares_output: bool,
) -> CallToolResult {
    let text = format!(
        "`{tool}` has not finished after {} s ({status}) and goes on. Call `{}` with {} for its result; it waits a while for the call to end, and can be called again.",
        trim_secs(after),
        MetaTool::CallResult.name(),
        json!({HANDLE_ARG: handle})
    );
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    if declares_output {
        // Not the tool's result: an SDK checks a success against the
        // tool's output schema (see the module docs).
        result.is_error = Some(true);
    } else {
        result.structured_content = Some(json!({
            HANDLE_ARG: handle,
            "status": "working",
            "statusMessage": status,
        }));
    }
    result
}

/// `d` in seconds, without a fraction when whole.
fn trim_secs(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs.fract() == 0.0 {
        format!("{}", secs as u64)
    } else {
        format!("{secs:.1}")
    }
}

/// `d` in words for a message (minutes, or seconds under two minutes).
fn minutes(d: Duration) -> String {
    if d.as_secs() < 120 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} minutes", d.as_secs() / 60)
    }
}

#[cfg(test)]
#[path = "handles_tests.rs"]
mod tests;
