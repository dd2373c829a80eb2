//! Long-running operations: an API that answers `202 Accepted` with a
//! status URL has only started the work, and a tool result of the bare 202
//! tells a model nothing it can use. This module follows such an
//! operation to its end.
//!
//! # When a call is long-running
//!
//! After the initial response, [`detect`] looks for a status URL:
//!
//! - a `202` with `Azure-AsyncOperation`, `Operation-Location` or
//!   `Location` (in that order of preference), whether or not the
//!   document said the operation is long-running;
//! - a `200` or `201` with `Azure-AsyncOperation` or `Operation-Location`
//!   when the document did (the tool's binding carries an
//!   [`LroBinding`]: see `tools::lro` for that rule): Azure's PUTs answer
//!   `201 Created` and go on provisioning.
//!
//! Anything else (a 202 without a status URL, GitHub's "statistics are
//! being computed") is an ordinary result.
//!
//! # Polling
//!
//! A [`Monitor`] GETs the status URL through exactly the machinery of the
//! call: the operation's credentials (or the MCP client's forwarded
//! `Authorization`), the rate limit, the redirect policy, the per-request
//! `--timeout` and retries, the response size cap, the call's `Accept`.
//!
//! - **When**: after `Retry-After` (seconds or an HTTP date) of the last
//!   answer, clamped to [`MIN_RETRY_AFTER`]..=[`MAX_RETRY_AFTER`]; without
//!   one, [`DEFAULT_POLL_INTERVAL`], growing by half each time the API
//!   names none, up to [`MAX_DEFAULT_INTERVAL`].
//! - **How long**: at most [`LroOptions::timeout`] (`--lro-timeout`,
//!   default 10 minutes) from the initial answer, and at most
//!   [`LroOptions::max_polls`] status requests; past either, the result is
//!   an error naming the status URL (the operation may still be running).
//! - **Running**: a `202`; a 2xx whose body's status (`status`, else
//!   `provisioningState`, else `properties.provisioningState`; compared
//!   case-insensitively) is a known in-progress value (`NotStarted`,
//!   `Running`, `InProgress`, `Queued`, `Pending`, `Creating`, ...); a `429`
//!   or `503` that says when to come back (`Retry-After`).
//! - **Failed**: a status of `Failed` (or `Canceled`/`Cancelled`, `Error`,
//!   `Aborted`): an `isError` result carrying the operation's `error` (or
//!   its whole status body).
//! - **Succeeded**: a status of `Succeeded` (also `Completed`, `Done`,
//!   `Success`): the final result is fetched as [`final_target`] says:
//!   `final-state-via` when the document gives it (`original-uri`: the URL
//!   the call went to; `location`: the initial `Location`;
//!   `azure-async-operation` / `operation-location`: the status body's
//!   `resourceLocation`, else the status body itself); without it, a PUT
//!   or PATCH reads the URL it went to, anything else the initial
//!   `Location` when it is not the status URL, else `resourceLocation`
//!   (Microsoft's REST guidelines), else the status body itself.
//! - **Done without a status**: a 2xx whose body has no status field, or
//!   one this module does not know, is the final result itself (RFC 9110:
//!   the 202's `Location` answers 200 with the result once it exists); a
//!   `303 See Other` is followed to its `Location` by the HTTP client (same
//!   origin only), and what it answers is the result.
//! - **Unreadable**: any other 3xx, a 4xx or 5xx, or no answer at all: an
//!   `isError` result saying the operation's status could not be read,
//!   with the HTTP status and the status URL.
//!
//! The final result goes through the same response → MCP content path as
//! any call, with the tool's output shape; the caller conforms it to the
//! output schema (the tool model advertises the final result's schema for
//! long-running operations: see `tools::lro`).
//!
//! # Credentials never leave the API's origin
//!
//! A status or final URL on another origin (scheme, host, port) than the
//! call is polled only when that origin is listed with
//! `--allow-redirect-origin`, and then without any credential (only
//! `Accept` goes along). Otherwise it is not followed: the result is the
//! 202 with a note naming the status URL (query values masked) and what
//! to do.
//!
//! # Cancelling
//!
//! When the tool's binding has a cancel link (see `tools::lro`),
//! [`Monitor::cancel`] sends that operation, its arguments resolved (see
//! [`resolve_value`]) against the call that started the operation: its
//! arguments (`$request.path.id`, `$request.query.x`,
//! `$request.header.x`, `$request.body#/ptr`), its response
//! (`$response.header.Location`, `$response.body#/id`), `$url`, `$method`
//! and `$statusCode`.
//!
//! # Two ways to wait
//!
//! A call's [`LroMode`] says who waits: [`LroMode::Wait`] (the default)
//! polls inside `Call::send` and returns the final result, a plain
//! blocking call for clients without tasks and for generated crates;
//! [`LroMode::Return`] returns the 202 at once with the [`Monitor`] in
//! `CallReport::pending`, for a server that maps the operation to a task.
//!
//! `status` reads answers (status fields, waits, the status URL), `expr`
//! resolves runtime expressions, `monitor` polls and cancels, `channel`
//! sends a request the way a call does.

mod channel;
mod expr;
mod monitor;
mod status;

use std::time::Duration;

pub use super::binding::{CancelLink, FinalStateVia, LroBinding};
pub(crate) use channel::Channel;
pub use expr::{ExprContext, resolve_value};
pub use monitor::Monitor;
pub(crate) use monitor::{Start, start};
pub use status::{Detected, OpStatus, detect, final_target, read_status, wait_after};

use super::call::CallReport;

/// The shortest wait between two polls, whatever `Retry-After` says.
pub const MIN_RETRY_AFTER: Duration = Duration::from_millis(100);
/// The longest wait between two polls, whatever `Retry-After` says.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);
/// The wait before the first poll when the API names none.
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_secs(1);
/// The longest wait the default interval grows to.
pub const MAX_DEFAULT_INTERVAL: Duration = Duration::from_secs(15);
/// The default `--lro-timeout`: ten minutes.
pub const DEFAULT_LRO_TIMEOUT: Duration = Duration::from_secs(600);
/// The default bound on status requests for one operation.
pub const DEFAULT_MAX_POLLS: u32 = 2_000;

/// How long-running operations are followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LroOptions {
    /// How long an operation is followed from its initial answer
    /// (`--lro-timeout`).
    pub timeout: Duration,
    /// The most status requests for one operation.
    pub max_polls: u32,
}

impl Default for LroOptions {
    fn default() -> Self {
        Self {
            timeout: DEFAULT_LRO_TIMEOUT,
            max_polls: DEFAULT_MAX_POLLS,
        }
    }
}

/// Who waits for a long-running operation (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LroMode {
    /// `Call::send` polls until the operation ends and returns its final
    /// result: the blocking behaviour older clients and generated crates
    /// get.
    #[default]
    Wait,
    /// `Call::send` returns the initial answer at once, with the
    /// [`Monitor`] in `CallReport::pending`, for the caller to poll (a
    /// server mapping the operation to an MCP task).
    Return,
}

/// What one [`Monitor::poll`] found.
#[derive(Debug)]
pub enum LroPoll {
    /// Still running: poll again after `retry_after`.
    Running {
        /// How long until the next poll is due (the API's `Retry-After`,
        /// clamped, or the default interval).
        retry_after: Duration,
        /// The operation's status as the API reported it, when it did
        /// (`Running`, `Running (45%)`).
        status: Option<String>,
    },
    /// Ended: the final result, or the error that ended the wait. Not yet
    /// conformed to the tool's output schema nor redacted: pass it through
    /// `Api::conform` and `Api::redact` like any call's report.
    Done(CallReport),
}

#[cfg(test)]
#[path = "lro_tests.rs"]
mod tests;
