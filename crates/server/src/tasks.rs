//! Calls that outlive their request, as MCP Tasks (the
//! `io.modelcontextprotocol/tasks` extension, SEP-2663), for clients that
//! declared the extension.
//!
//! A call that has not finished after `--task-after` becomes a task: the
//! client gets a `CreateTaskResult` at once and polls `tasks/get` for the
//! call's result; `tasks/cancel` stops the HTTP call. A call that finishes
//! sooner is answered directly, as for every other client. Tasks live in
//! memory (with several instances, route `tasks/*` by their `Mcp-Name`
//! header, which carries the task id), and each task belongs to the caller
//! who created it: another caller asking for it is told it does not exist.
//!
//! The store is bounded, oldest first, each eviction logged:
//! - **TTL** (`--task-ttl`, default an hour, the `ttlMs` each task
//!   carries): a task is forgotten that long after its creation; one still
//!   running then is cancelled (its HTTP call stopped).
//! - **Count** (`--max-tasks`, default 1,000): a new task past the cap
//!   makes room by forgetting the oldest finished task; when every task is
//!   still running, the new call is not made a task and its client waits
//!   for the result, as clients without the extension do.
//! - **Result bytes** (`--task-results-bytes`, default 64 MiB): the results
//!   of finished tasks, kept as their JSON text, are forgotten oldest first
//!   past this total; a single result larger than it is replaced by an
//!   error saying so.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolResponse, CallToolResult, CreateTaskResult, DetailedTask, GetTaskResult, JsonObject,
    Task, TaskPayload, TaskStatus,
};
use rmcp::service::RequestContext;
use rmcp::task_manager::current_timestamp;
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

/// Default `--task-ttl`: an hour, past the default long-running operation
/// deadline (`--lro-timeout`, ten minutes) with time to collect the result.
pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(3_600);

/// Default `--max-tasks`.
pub const DEFAULT_MAX_TASKS: usize = 1_000;

/// Default `--task-results-bytes`: 64 MiB, sixty-four results of the
/// default `--max-response-bytes`.
pub const DEFAULT_TASK_RESULT_BYTES: usize = 64 * 1024 * 1024;

/// Suggested `tasks/get` polling interval.
const POLL_INTERVAL_MS: u64 = 1_000;

/// The bounds of the task store (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskLimits {
    /// Tasks kept at once, running or finished.
    pub max_tasks: usize,
    /// Total bytes of the finished tasks' results (their JSON text).
    pub max_result_bytes: usize,
    /// How long a task is kept after its creation.
    pub ttl: Duration,
}

impl Default for TaskLimits {
    fn default() -> Self {
        Self {
            max_tasks: DEFAULT_MAX_TASKS,
            max_result_bytes: DEFAULT_TASK_RESULT_BYTES,
            ttl: DEFAULT_TASK_TTL,
        }
    }
}

/// The tasks of this server and who created each.
pub(super) struct Tasks {
    pub(super) limits: TaskLimits,
    book: Arc<Mutex<Book>>,
    /// Wakes whoever waits for a task to end ([`Tasks::wait`]).
    settled: Arc<tokio::sync::Notify>,
}

impl Default for Tasks {
    fn default() -> Self {
        Self::new(TaskLimits::default())
    }
}

/// The tasks kept, in the order of their creation.
#[derive(Default)]
struct Book {
    entries: HashMap<String, Entry>,
    /// Creation turn → task id; the first entry is the oldest task.
    order: BTreeMap<u64, String>,
    next_turn: u64,
    /// Bytes of the results kept.
    result_bytes: usize,
}

struct Entry {
    turn: u64,
    /// Who created it ([`caller_digest`]).
    owner: String,
    created: Instant,
    /// What `tasks/get` shows besides the payload.
    task: Task,
    state: State,
}

enum State {
    Running {
        /// Cancelled on `tasks/cancel`: the call stops cooperatively.
        cancel: CancellationToken,
        /// Stops the call outright when the task is forgotten.
        abort: Option<tokio::task::AbortHandle>,
    },
    /// The result as JSON text (the object `tasks/get` inlines), and its size.
    Completed(Box<str>),
    Failed(JsonObject),
    Cancelled,
}

impl State {
    fn finished(&self) -> bool {
        !matches!(self, State::Running { .. })
    }

    fn result_bytes(&self) -> usize {
        match self {
            State::Completed(text) => text.len(),
            _ => 0,
        }
    }

    fn payload(&self) -> TaskPayload {
        match self {
            State::Running { .. } => TaskPayload::Working,
            State::Completed(text) => TaskPayload::Completed {
                result: serde_json::from_str(text).unwrap_or_default(),
            },
            State::Failed(error) => TaskPayload::Failed {
                error: error.clone(),
            },
            State::Cancelled => TaskPayload::Cancelled,
        }
    }
}

/// How a task stands, for a caller who reads it through a tool
/// (`get_call_result`) rather than `tasks/get`.
pub(super) enum Standing {
    /// Still running, with its status message.
    Running(Option<String>),
    /// Ended with this result.
    Completed(CallToolResult),
    /// Ended without a result, for this reason.
    Failed(String),
    /// Stopped before it ended.
    Cancelled,
}

/// Why a task's call stopped without a result.
pub(super) enum TaskExit {
    Cancelled,
    Error(McpError),
}

/// Why a task is forgotten, for the log.
#[derive(Clone, Copy)]
enum Forget {
    Expired,
    CountCap,
    BytesCap,
}

impl Book {
    /// Drops `id`, stopping its call if it still runs; logs why.
    fn forget(&mut self, id: &str, why: Forget, limits: &TaskLimits) {
        let Some(entry) = self.entries.remove(id) else {
            return;
        };
        self.order.remove(&entry.turn);
        self.result_bytes = self.result_bytes.saturating_sub(entry.state.result_bytes());
        let running = !entry.state.finished();
        if let State::Running { cancel, abort } = &entry.state {
            cancel.cancel();
            if let Some(abort) = abort {
                abort.abort();
            }
        }
        let age = entry.created.elapsed().as_secs();
        match why {
            Forget::Expired => tracing::info!(
                task = %id, age_secs = age, running,
                "task expired after --task-ttl ({} s) and was forgotten{}",
                limits.ttl.as_secs(),
                if running { "; its call was stopped" } else { "" }
            ),
            Forget::CountCap => tracing::warn!(
                task = %id, age_secs = age, max_tasks = limits.max_tasks,
                "task cap reached (--max-tasks): the oldest finished task was forgotten"
            ),
            Forget::BytesCap => tracing::warn!(
                task = %id, age_secs = age, max_result_bytes = limits.max_result_bytes,
                "task results over --task-results-bytes: the oldest finished task was forgotten"
            ),
        }
    }

    /// Forgets the tasks past their TTL (the oldest ones: the TTL is the
    /// same for all).
    fn sweep(&mut self, limits: &TaskLimits) {
        loop {
            let Some((_, id)) = self.order.first_key_value() else {
                return;
            };
            let expired = self
                .entries
                .get(id)
                .is_none_or(|e| e.created.elapsed() >= limits.ttl);
            if !expired {
                return;
            }
            let id = id.clone();
            self.forget(&id, Forget::Expired, limits);
            // An id without its entry (never the case) must not loop.
            self.order.retain(|_, i| *i != id);
        }
    }

    /// The oldest finished task other than `keep`.
    fn oldest_finished(&self, keep: Option<&str>) -> Option<String> {
        self.order
            .values()
            .find(|id| {
                Some(id.as_str()) != keep
                    && self.entries.get(*id).is_some_and(|e| e.state.finished())
            })
            .cloned()
    }
}

/// A running task's link to its entry.
pub(super) struct TaskHandle {
    id: String,
    book: Arc<Mutex<Book>>,
    /// Cancelled when the task is to stop (`tasks/cancel`).
    pub(super) cancel: CancellationToken,
}

impl TaskHandle {
    /// Shows `message` as the task's status message.
    pub(super) fn set_status_message(&self, message: String) {
        let mut book = self.book.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = book.entries.get_mut(&self.id) {
            entry.task.status_message = Some(message);
            entry.task.last_updated_at = current_timestamp();
        }
    }
}

/// A random task id in the shape of a UUID (version 4).
fn task_id() -> String {
    let mut b = [0u8; 16];
    if super::seal::os_random(&mut b).is_err() {
        // No kernel randomness: unique still, from the clock and a counter.
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos() as u64;
        b[..8].copy_from_slice(&t.to_be_bytes());
        b[8..].copy_from_slice(&n.to_be_bytes());
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// The JSON-RPC error object of `error`, as `tasks/get` shows a failure.
fn error_object(error: &McpError) -> JsonObject {
    match serde_json::to_value(error) {
        Ok(Value::Object(map)) => map,
        _ => JsonObject::new(),
    }
}

impl Tasks {
    /// A store within `limits`.
    pub(super) fn new(limits: TaskLimits) -> Self {
        Self {
            limits,
            book: Arc::default(),
            settled: Arc::default(),
        }
    }

    fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new task owned by `owner`, shown as running with the status
    /// message `status`, and the handle its call reports through; `None`
    /// when the store is full of running tasks. Run its call with
    /// [`Self::start`].
    pub(super) fn reserve(&self, owner: String, status: String) -> Option<(Task, TaskHandle)> {
        let id = task_id();
        let now = current_timestamp();
        let mut task = Task::new(id.clone(), TaskStatus::Working, now.clone(), now);
        task.ttl_ms = Some(u64::try_from(self.limits.ttl.as_millis()).unwrap_or(u64::MAX));
        task.poll_interval_ms = Some(POLL_INTERVAL_MS);
        task.status_message = Some(status);
        let cancel = CancellationToken::new();
        let mut book = self.book();
        book.sweep(&self.limits);
        while book.entries.len() >= self.limits.max_tasks.max(1) {
            let oldest = book.oldest_finished(None)?;
            book.forget(&oldest, Forget::CountCap, &self.limits);
        }
        let turn = book.next_turn;
        book.next_turn += 1;
        book.order.insert(turn, id.clone());
        book.entries.insert(
            id.clone(),
            Entry {
                turn,
                owner,
                created: Instant::now(),
                task: task.clone(),
                state: State::Running {
                    cancel: cancel.clone(),
                    abort: None,
                },
            },
        );
        let handle = TaskHandle {
            id,
            book: Arc::clone(&self.book),
            cancel,
        };
        Some((task, handle))
    }

    /// Runs the call of the task `id` (from [`Self::reserve`]); its end is
    /// recorded as the task's.
    pub(super) fn start<Fut>(&self, id: &str, call: Fut)
    where
        Fut: Future<Output = Result<CallToolResult, TaskExit>> + Send + 'static,
    {
        let book = Arc::clone(&self.book);
        let limits = self.limits.clone();
        let settled_id = id.to_string();
        let settled = Arc::clone(&self.settled);
        let handle = tokio::spawn(async move {
            let exit = call.await;
            settle(&book, &settled_id, exit, &limits);
            settled.notify_waiters();
        });
        let mut book = self.book();
        match book.entries.get_mut(id) {
            Some(Entry {
                state: State::Running { abort, .. },
                ..
            }) => *abort = Some(handle.abort_handle()),
            Some(_) => {}
            // Forgotten already (expired at once): stop the call.
            None => handle.abort(),
        }
    }

    /// The task `task_id` of `caller`, as `tasks/get` shows it.
    fn get(&self, task_id: &str, caller: &str) -> Result<DetailedTask, McpError> {
        let mut book = self.book();
        book.sweep(&self.limits);
        let entry = owned(&book, task_id, caller)?;
        Ok(DetailedTask::new(entry.task.clone(), entry.state.payload()))
    }

    /// Asks the task's call to stop (cooperatively: it settles as
    /// `cancelled` once it has).
    fn cancel(&self, task_id: &str, caller: &str) -> Result<(), McpError> {
        let mut book = self.book();
        book.sweep(&self.limits);
        let entry = owned(&book, task_id, caller)?;
        if let State::Running { cancel, .. } = &entry.state {
            cancel.cancel();
        }
        Ok(())
    }

    /// How the task `task_id` of `caller` stands once it has ended, or at
    /// `until` if it has not.
    pub(super) async fn wait(
        &self,
        task_id: &str,
        caller: &str,
        until: Instant,
    ) -> Result<Standing, McpError> {
        // Each turn ends the wait or sleeps until a task settles or the
        // deadline passes: bounded by the deadline.
        loop {
            let notified = self.settled.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            {
                let mut book = self.book();
                book.sweep(&self.limits);
                let entry = owned(&book, task_id, caller)?;
                if entry.state.finished() || Instant::now() >= until {
                    return Ok(entry.standing());
                }
            }
            tokio::select! {
                () = &mut notified => {}
                () = tokio::time::sleep_until(until.into()) => {}
            }
        }
    }

    /// Checks that the task exists for `caller` (`tasks/update`).
    fn check(&self, task_id: &str, caller: &str) -> Result<(), McpError> {
        let mut book = self.book();
        book.sweep(&self.limits);
        owned(&book, task_id, caller).map(|_| ())
    }
}

impl Entry {
    /// How the task stands ([`Standing`]).
    fn standing(&self) -> Standing {
        match &self.state {
            State::Running { .. } => Standing::Running(self.task.status_message.clone()),
            State::Completed(text) => match serde_json::from_str(text) {
                Ok(result) => Standing::Completed(result),
                Err(e) => Standing::Failed(format!("the result could not be read back: {e}")),
            },
            State::Failed(error) => Standing::Failed(
                error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("the call failed")
                    .to_string(),
            ),
            State::Cancelled => Standing::Cancelled,
        }
    }
}

/// The entry of `task_id` when `caller` created it.
fn owned<'a>(book: &'a Book, task_id: &str, caller: &str) -> Result<&'a Entry, McpError> {
    match book.entries.get(task_id) {
        Some(entry) if entry.owner == caller => Ok(entry),
        // Someone else's task, or none: the same answer, so ids of
        // other callers' tasks cannot be probed.
        _ => Err(McpError::invalid_params(
            format!("unknown task: {task_id}"),
            None,
        )),
    }
}

/// Records how the task `id` ended, within the result bytes cap.
fn settle(
    book: &Mutex<Book>,
    id: &str,
    exit: Result<CallToolResult, TaskExit>,
    limits: &TaskLimits,
) {
    let state = match exit {
        Ok(result) => match serde_json::to_string(&result) {
            Ok(text) if text.len() <= limits.max_result_bytes => State::Completed(text.into()),
            Ok(text) => {
                tracing::warn!(task = %id, bytes = text.len(), max_result_bytes = limits.max_result_bytes,
                    "a task result is larger than --task-results-bytes: kept as an error");
                State::Failed(error_object(&McpError::internal_error(
                    format!(
                        "the result ({} bytes) is larger than this server keeps for a task (--task-results-bytes {}); call the tool without tasks, or narrow the result",
                        text.len(),
                        limits.max_result_bytes
                    ),
                    None,
                )))
            }
            Err(e) => State::Failed(error_object(&McpError::internal_error(
                format!("the result could not be serialized: {e}"),
                None,
            ))),
        },
        Err(TaskExit::Cancelled) => State::Cancelled,
        Err(TaskExit::Error(error)) => State::Failed(error_object(&error)),
    };
    let mut book = book.lock().unwrap_or_else(|e| e.into_inner());
    let bytes = state.result_bytes();
    let Some(entry) = book.entries.get_mut(id) else {
        return;
    };
    entry.task.status = state.payload().status();
    entry.task.last_updated_at = current_timestamp();
    entry.state = state;
    book.result_bytes += bytes;
    while book.result_bytes > limits.max_result_bytes {
        let Some(oldest) = book.oldest_finished(Some(id)) else {
            break;
        };
        book.forget(&oldest, Forget::BytesCap, limits);
    }
}

impl Bridge {
    /// The result of a call whose report came back in
    /// [`LroMode::Return`]: the long-running operation it started (if
    /// any) followed to its end (see [`follow`]) and its final outcome
    /// delivered ([`openapi2mcp_runtime::call::Api::complete`]); a report
    /// without one was delivered by the call itself (its selector
    /// applied: applying it again would select from the selection).
    pub(super) async fn finish(
        &self,
        tool: ToolId,
        report: CallReport,
        status: impl Fn(String),
        cancelled: impl Future<Output = ()>,
        name: &str,
        select: Option<&str>,
    ) -> Result<CallToolResult, TaskExit> {
        if report.pending.is_none() {
            return Ok(super::shape::report_result(report, name));
        }
        let report = follow(report, status, cancelled, name).await?;
        let outcome = self.inner.api.complete(tool, report.outcome, select).await;
        Ok(to_result(outcome))
    }
}

/// Follows a long-running operation the report started (if any) to its
/// end, telling `status` of its progress; once `cancelled` resolves,
/// sends the cancel operation the document links (if any) and stops.
async fn follow(
    mut report: CallReport,
    status: impl Fn(String),
    cancelled: impl Future<Output = ()>,
    name: &str,
) -> Result<CallReport, TaskExit> {
    let Some(mut monitor) = report.pending.take() else {
        return Ok(report);
    };
    let operation = monitor.operation().to_string();
    tokio::pin!(cancelled);
    loop {
        tokio::select! {
            polled = monitor.poll() => match polled {
                LroPoll::Done(done) => return Ok(done),
                LroPoll::Running { status: now, .. } => {
                    let now = now.unwrap_or_else(|| "running".into());
                    status(format!("{operation}: {now}"));
                }
            },
            () = &mut cancelled => {
                match monitor.cancel().await {
                    Some(sent) => tracing::info!(target: "openapi2mcp::audit", tool = %name, status = sent.status.unwrap_or(0), is_error = sent.outcome.is_error, "task cancelled: the document's cancel operation was sent"),
                    None => tracing::info!(target: "openapi2mcp::audit", tool = %name, "task cancelled: the document links no cancel operation; polling stopped"),
                }
                return Err(TaskExit::Cancelled);
            }
        }
    }
}

pub(super) fn joined<T>(
    result: Result<Result<T, McpError>, tokio::task::JoinError>,
) -> Result<T, McpError> {
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
            if let Some(after) = self.hands_out_handles() {
                return self
                    .run_with_handle(tool, name, args, select, context, after)
                    .await;
            }
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
        // `--task-after 0`: every call is a task (no race with a fast call).
        let early = if self.shared.options.task_after.is_zero() {
            None
        } else {
            tokio::select! {
                result = &mut handle => Some(joined(result)?),
                () = tokio::time::sleep(self.shared.options.task_after) => None,
                () = context.ct.cancelled() => {
                    cancel.cancel();
                    handle.abort();
                    return Err(McpError::internal_error("cancelled by the client", None));
                }
            }
        };
        let status = match &early {
            // Answered in time and not long-running: the plain result.
            Some(report) if report.pending.is_none() => {
                let report = early.expect("matched Some");
                return Ok(super::shape::report_result(report, name).into());
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
        // The store may be full of running tasks: then the client waits.
        let Some((created, task)) = self.shared.tasks.reserve(caller_digest(context), status)
        else {
            tracing::warn!(
                tool = %name,
                max_tasks = self.shared.tasks.limits.max_tasks,
                "every task slot holds a running call (--max-tasks): this call is answered when it ends, not as a task"
            );
            let report = match early {
                Some(report) => report,
                None => tokio::select! {
                    result = handle => joined(result)?,
                    () = context.ct.cancelled() => {
                        cancel.cancel();
                        return Err(McpError::internal_error("cancelled by the client", None));
                    }
                },
            };
            let ct = context.ct.clone();
            let result = openapi2mcp_runtime::trace::scope(
                trace,
                self.finish(
                    tool,
                    report,
                    |_| {},
                    async move { ct.cancelled().await },
                    name,
                    select.as_deref(),
                ),
            )
            .await
            .map_err(|exit| match exit {
                TaskExit::Cancelled => McpError::internal_error("cancelled by the client", None),
                TaskExit::Error(e) => e,
            })?;
            return Ok(result.into());
        };
        let this = self.clone();
        let audit_name = name.to_string();
        let call = async move {
            let report = match early {
                Some(report) => report,
                None => tokio::select! {
                    result = handle => joined(result).map_err(TaskExit::Error)?,
                    () = task.cancel.cancelled() => {
                        cancel.cancel();
                        tracing::info!(target: "openapi2mcp::audit", tool = %audit_name, "task cancelled by the client");
                        return Err(TaskExit::Cancelled);
                    }
                },
            };
            let cancelled = task.cancel.clone();
            openapi2mcp_runtime::trace::scope(
                trace,
                this.finish(
                    tool,
                    report,
                    |message| task.set_status_message(message),
                    async move { cancelled.cancelled().await },
                    &audit_name,
                    select.as_deref(),
                ),
            )
            .await
        };
        self.shared.tasks.start(&created.task_id, call);
        tracing::info!(target: "openapi2mcp::audit", tool = %name, task = %created.task_id, "tools/call continues as a task");
        Ok(CreateTaskResult::new(created).into())
    }

    /// `tasks/get` for the caller who created the task.
    pub(super) fn task(
        &self,
        task_id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        let task = self.shared.tasks.get(task_id, &caller_digest(context))?;
        Ok(GetTaskResult::new(task))
    }

    /// `tasks/cancel` for the caller who created the task.
    pub(super) fn cancel_task_of(
        &self,
        task_id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.shared.tasks.cancel(task_id, &caller_digest(context))
    }

    /// `tasks/update`: our tasks never wait for input, so responses are
    /// acknowledged and ignored, as the extension says of unknown keys.
    pub(super) fn update_task_of(
        &self,
        task_id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.shared.tasks.check(task_id, &caller_digest(context))
    }
}

#[cfg(test)]
#[path = "tasks_tests.rs"]
mod tests;
