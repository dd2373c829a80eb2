//! Calls that outlive their request, as MCP Tasks (the
//! `io.modelcontextprotocol/tasks` extension, SEP-2663), for clients that
//! declared the extension.
//!
//! A call that has not finished after `--task-after` becomes a task: the
//! client gets a `CreateTaskResult` at once and polls `tasks/get` for the
//! call's result; `tasks/cancel` stops the HTTP call. A call that finishes
//! sooner is answered directly, as for every other client. Tasks live in
//! rmcp's [`TaskManager`] (in memory: with several instances, route
//! `tasks/*` by their `Mcp-Name` header, which carries the task id), and
//! each task belongs to the caller who created it: another caller asking
//! for it is told it does not exist.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use rmcp::model::{CallToolResponse, CreateTaskResult, DetailedTask, GetTaskResult};
use rmcp::service::RequestContext;
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::Bridge;
use super::protocol::caller_digest;
use super::run::CallEnv;
use super::shape::to_result;
use openapi2mcp_runtime::call::{CallReport, ToolId};
use openapi2mcp_runtime::lro::{LroMode, LroPoll};

/// Default `--task-after`: how long a call runs before it becomes a task.
pub const DEFAULT_TASK_AFTER: Duration = Duration::from_secs(5);

/// How long a task (and its result) is kept: a day, past the longest
/// per-call deadline and long-running operation.
const TASK_TTL_MS: u64 = 86_400_000;

/// Suggested `tasks/get` polling interval.
const POLL_INTERVAL_MS: u64 = 1_000;

/// The tasks of this server and who created each.
#[derive(Default)]
pub(super) struct Tasks {
    manager: TaskManager,
    owners: Mutex<Owners>,
}

/// Who created each task; entries of tasks the manager has dropped
/// (expired) are pruned whenever the map doubles past the last prune.
#[derive(Default)]
struct Owners {
    by_task: HashMap<String, String>,
    prune_at: usize,
}

/// The size from which the owners of expired tasks are pruned.
const PRUNE_FROM: usize = 1_024;

impl Tasks {
    fn remember(&self, task_id: String, caller: String) {
        let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        owners.by_task.insert(task_id, caller);
        if owners.by_task.len() >= owners.prune_at.max(PRUNE_FROM) {
            owners
                .by_task
                .retain(|id, _| self.manager.get_task(id).is_ok());
            owners.prune_at = (owners.by_task.len() * 2).max(PRUNE_FROM);
        }
    }

    fn owned(&self, task_id: &str, caller: &str) -> Result<(), McpError> {
        let owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
        match owners.by_task.get(task_id) {
            Some(owner) if owner == caller => Ok(()),
            // Someone else's task, or none: the same answer, so ids of
            // other callers' tasks cannot be probed.
            _ => Err(McpError::invalid_params(
                format!("unknown task: {task_id}"),
                None,
            )),
        }
    }
}

/// Follows a long-running operation the report started (if any) to its
/// end, keeping the task's status message current; on `tasks/cancel`,
/// sends the cancel operation the document links (if any) and stops.
async fn follow(
    mut report: CallReport,
    task: &TaskContext,
    name: &str,
) -> Result<CallReport, TaskExit> {
    let Some(mut monitor) = report.pending.take() else {
        return Ok(report);
    };
    let operation = monitor.operation().to_string();
    loop {
        tokio::select! {
            polled = monitor.poll() => match polled {
                LroPoll::Done(done) => return Ok(done),
                LroPoll::Running { status, .. } => {
                    let status = status.unwrap_or_else(|| "running".into());
                    task.set_status_message(format!("{operation}: {status}"));
                }
            },
            () = task.cancelled() => {
                match monitor.cancel().await {
                    Some(sent) => tracing::info!(target: "openapi2mcp::audit", tool = %name, status = sent.status.unwrap_or(0), is_error = sent.outcome.is_error, "task cancelled: the document's cancel operation was sent"),
                    None => tracing::info!(target: "openapi2mcp::audit", tool = %name, "task cancelled: the document links no cancel operation; polling stopped"),
                }
                return Err(TaskExit::Cancelled);
            }
        }
    }
}

fn joined<T>(result: Result<Result<T, McpError>, tokio::task::JoinError>) -> Result<T, McpError> {
    result.unwrap_or_else(|e| {
        Err(McpError::internal_error(
            format!("the call stopped unexpectedly: {e}"),
            None,
        ))
    })
}

impl Bridge {
    /// Runs a call of `tool`: directly, or as a task when the client
    /// declared the tasks extension and the call outlives `--task-after`
    /// or starts a long-running operation (a `202` with a status URL,
    /// which the task then follows to its final result).
    pub(super) async fn run_call(
        &self,
        tool: ToolId,
        name: &str,
        args: Map<String, Value>,
        select: Option<String>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let tasks_declared = context
            .client_capabilities()
            .is_some_and(|c| c.supports_tasks());
        if !tasks_declared {
            return Ok(self
                .run_tool(
                    tool,
                    name,
                    args,
                    select.as_deref(),
                    CallEnv::of(context, &self.shared.options),
                )
                .await?
                .into());
        }
        // The call runs on its own, so that it can outlive this request.
        let mut env = CallEnv::of(context, &self.shared.options);
        let cancel = CancellationToken::new();
        env.cancel = cancel.clone();
        let trace = env.trace.clone();
        let this = self.clone();
        let called = name.to_string();
        let selector = select.clone();
        let mut handle = tokio::spawn(async move {
            this.run_report(
                tool,
                &called,
                args,
                selector.as_deref(),
                env,
                LroMode::Return,
            )
            .await
        });
        let early = tokio::select! {
            result = &mut handle => Some(joined(result)?),
            () = tokio::time::sleep(self.shared.options.task_after) => None,
            () = context.ct.cancelled() => {
                cancel.cancel();
                handle.abort();
                return Err(McpError::internal_error("cancelled by the client", None));
            }
        };
        let status = match &early {
            // Answered in time and not long-running: the plain result.
            Some(report) if report.pending.is_none() => {
                let report = early.expect("matched Some");
                return Ok(to_result(report.outcome).into());
            }
            Some(report) => report
                .pending
                .as_ref()
                .map(|m| {
                    format!(
                        "{} accepted; following {}",
                        m.operation(),
                        m.status_url_for_display()
                    )
                })
                .unwrap_or_default(),
            None => {
                let http = &self.inner.api.tool(tool).http;
                format!("calling {} {}", http.method, http.path)
            }
        };
        let options = TaskOptions::new()
            .with_ttl_ms(TASK_TTL_MS)
            .with_poll_interval_ms(POLL_INTERVAL_MS)
            .with_status_message(status);
        let this = self.clone();
        let audit_name = name.to_string();
        let task = self.shared.tasks.manager.spawn(options, move |task| {
            Box::pin(async move {
                let report = match early {
                    Some(report) => report,
                    None => tokio::select! {
                        result = handle => joined(result).map_err(TaskExit::Error)?,
                        () = task.cancelled() => {
                            cancel.cancel();
                            tracing::info!(target: "openapi2mcp::audit", tool = %audit_name, "task cancelled by the client");
                            return Err(TaskExit::Cancelled);
                        }
                    },
                };
                let report =
                    openapi2mcp_runtime::trace::scope(trace, follow(report, &task, &audit_name)).await?;
                let outcome = this
                    .inner
                    .api
                    .complete(tool, report.outcome, select.as_deref())
                    .await;
                Ok(to_result(outcome))
            })
        });
        tracing::info!(target: "openapi2mcp::audit", tool = %name, task = %task.task_id, "tools/call continues as a task");
        self.shared
            .tasks
            .remember(task.task_id.clone(), caller_digest(context));
        Ok(CreateTaskResult::new(task).into())
    }

    /// `tasks/get` for the caller who created the task.
    pub(super) fn task(
        &self,
        task_id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        self.shared.tasks.owned(task_id, &caller_digest(context))?;
        let task: DetailedTask = self.shared.tasks.manager.get_task(task_id)?;
        Ok(GetTaskResult::new(task))
    }

    /// `tasks/cancel` for the caller who created the task.
    pub(super) fn cancel_task_of(
        &self,
        task_id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.shared.tasks.owned(task_id, &caller_digest(context))?;
        self.shared.tasks.manager.cancel_task(task_id)
    }

    /// `tasks/update`: our tasks never wait for input, so responses are
    /// acknowledged and ignored, as the extension says of unknown keys.
    pub(super) fn update_task_of(
        &self,
        task_id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.shared.tasks.owned(task_id, &caller_digest(context))?;
        self.shared.tasks.manager.update_task(task_id, [])
    }
}

#[cfg(test)]
#[path = "tasks_tests.rs"]
mod tests;
