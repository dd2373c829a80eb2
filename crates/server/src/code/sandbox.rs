//! Runs one script of code mode in a fresh QuickJS runtime.
//!
//! The script is the body of an async function: it `await`s operations of
//! the `api` object and `return`s its result (JSON). The runtime has only
//! the language itself (objects, arrays, strings, JSON, RegExp, Map/Set,
//! Promise, Proxy): no `Date` or `performance` (no clock), no timers, no
//! modules, no `fetch`/`require`/`process`/`std`/`os`. Credentials never
//! enter it: an operation's function sends its name and arguments to the
//! [`Host`], which runs the call outside and hands back only the result.
//!
//! Budgets ([`Budgets`]): wall time (an interrupt handler stops the
//! engine, and every host call is bounded by the time left), memory (the
//! runtime's allocator limit), number of operation calls, and the size of
//! the returned JSON. An overrun ends the run with [`ScriptError`] naming
//! the budget and its value, even when the script catches the error an
//! operation threw.
//!
//! A script calls operations one after another: an operation's function
//! blocks the engine while the host runs the call (the promise it returns
//! is already settled), so `Promise.all` works but does not overlap calls.

use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::Value;

#[cfg(feature = "code")]
#[path = "engine.rs"]
mod engine;
/// The limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budgets {
    /// Wall time, host calls included.
    pub wall: Duration,
    /// Memory the engine may allocate, in bytes.
    pub memory_bytes: usize,
    /// Operation calls.
    pub calls: usize,
    /// Size of the returned JSON, in bytes.
    pub output_bytes: usize,
}

impl Default for Budgets {
    fn default() -> Self {
        Self {
            wall: Duration::from_secs(30),
            memory_bytes: 64 * 1024 * 1024,
            calls: 50,
            output_bytes: 64 * 1024,
        }
    }
}

/// What the host answers for one operation call.
#[derive(Debug, Clone, PartialEq)]
pub enum HostAnswer {
    /// The call's result (what `tools/call` returns: structured content,
    /// else the text parsed as JSON, else the text), and what the response
    /// said beside it (the result's `openapi2mcp/response` `_meta`: the
    /// headers shown and the next page's call), which the script reads
    /// with `response(result)`.
    Ok(Value, Option<Value>),
    /// The call failed (an `isError` result, or refused before it was
    /// sent): thrown in the script as an `Error` naming the operation.
    Failed(String),
    /// The time left ran out while the call was under way.
    TimedOut,
    /// The run was cancelled.
    Cancelled,
}

/// Runs the API calls a script makes. Implemented by the server, which
/// runs each call exactly as `tools/call` does.
pub trait Host {
    /// Runs operation `name` with `args`, within `remaining`.
    fn call(&self, name: &str, args: Value, remaining: Duration) -> HostAnswer;
}

/// What a finished script gives back.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    /// The returned value (`null` for `undefined`).
    pub value: Value,
    /// Its JSON text.
    pub json: String,
    /// Operation calls made.
    pub calls: usize,
    /// What the script wrote with `console.log`.
    pub log: String,
}

/// Why a script did not give a result.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScriptError {
    /// The wall-time budget ran out.
    #[error(
        "the script ran out of its wall-time budget of {} ms{}; do less per script, or split the work",
        .0.as_millis(), progress(*.1, .2)
    )]
    WallTime(Duration, usize, Option<String>),
    /// The memory budget ran out.
    #[error(
        "the script ran out of its memory budget of {} MiB{}; keep fewer or smaller values",
        .0 / (1024 * 1024), progress(*.1, .2)
    )]
    Memory(usize, usize, Option<String>),
    /// The script tried more operation calls than its budget.
    #[error(
        "the script tried more than its budget of {} API calls (the last allowed was {}); split the work, or use list operations that return more per call",
        .0, .1.as_deref().map_or("none".to_string(), |o| format!("api.{o}"))
    )]
    Calls(usize, Option<String>),
    /// The returned JSON is larger than the output budget.
    #[error(
        "the script's result is {size} bytes of JSON, over the output budget of {limit} bytes; return only the fields and items needed (map, filter, slice){}",
        .preview.as_deref().map_or(String::new(), |p| format!(". The first part, cut at whole items: {p}"))
    )]
    Output {
        /// Size of the result.
        size: usize,
        /// The budget.
        limit: usize,
        /// The result cut to the budget at whole items, when it could be.
        preview: Option<String>,
    },
    /// The script threw (or a failed operation's error was not caught).
    #[error("{}", thrown_text(.message, *.line, .operation.as_deref()))]
    Thrown {
        /// The error's message (`Name: message`).
        message: String,
        /// The script line it was thrown at, when known.
        line: Option<u32>,
        /// The operation whose failure it is, when an operation failed.
        operation: Option<String>,
    },
    /// The script awaited something that never settles (there are no
    /// timers or events: only operations, which settle at once).
    #[error("the script's result never settled: it awaits a promise nothing resolves")]
    Unsettled,
    /// The client cancelled the call.
    #[error("cancelled by the client")]
    Cancelled,
    /// The engine could not be started (a bug or the machine's limits).
    #[error("the script engine failed: {0}")]
    Engine(String),
    /// This build has no script engine (built without the `code` feature).
    #[error(
        "this server was built without code mode's script engine (the `code` feature of openapi2mcp-runtime); call the tools directly"
    )]
    NotBuilt,
}

fn progress(calls: usize, last: &Option<String>) -> String {
    match last {
        Some(op) => format!(" after {calls} API call(s), the last api.{op}"),
        None => String::new(),
    }
}

fn thrown_text(message: &str, line: Option<u32>, operation: Option<&str>) -> String {
    let at = line.map_or(String::new(), |l| format!(" at line {l}"));
    match operation {
        Some(op) => format!("the script failed{at}: the operation api.{op} failed: {message}"),
        None => format!("the script threw{at}: {message}"),
    }
}

/// Whether this build has the engine (the `code` feature): without it,
/// `--tools code` is refused at start-up and [`run`] answers
/// [`ScriptError::NotBuilt`].
pub const AVAILABLE: bool = cfg!(feature = "code");

/// Runs `script` with the operations `names` reachable as `api.<name>`,
/// each call handed to `host`, within `budgets`; `cancel` stops it.
/// Blocks the thread (run it on a blocking thread).
pub fn run(
    script: &str,
    names: &[String],
    host: Rc<dyn Host>,
    budgets: Budgets,
    cancel: Arc<AtomicBool>,
) -> Result<Finished, ScriptError> {
    #[cfg(feature = "code")]
    return engine::run(script, names, host, budgets, cancel);
    #[cfg(not(feature = "code"))]
    {
        let _ = (script, names, host, budgets, cancel);
        Err(ScriptError::NotBuilt)
    }
}

#[cfg(test)]
#[path = "sandbox_tests.rs"]
mod tests;
