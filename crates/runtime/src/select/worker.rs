//! Selectors run in a separate process: the server's own executable,
//! started again in worker mode (its `main` calls [`serve_as_worker`]
//! first), with the selector and its input on stdin and the answer on
//! stdout. The worker is started with a memory budget and a CPU backstop
//! (rlimits, set between fork and exec), is killed and reaped at the
//! deadline, and may crash (a stack overflow, an allocation past the
//! budget) without touching the server: the call gets an error naming
//! the likely cause. A pool bounds how many run at once, in all and per
//! caller (see [`crate::fair`]): one client's runaway selectors cannot
//! keep another's from running.
//!
//! Protocol (version [`PROTOCOL`], in the [`WORKER_ENV`] variable):
//! the request is `<max_bytes> <expression length>\n<expression><input
//! JSON>`; the reply is a tag line (`ok`, `invalid`, `failed`, `limit`)
//! followed by the selected JSON or the reason.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::fair::{Busy, FairPool};

use super::{SelectError, TIME_LIMIT, eval};

/// The environment variable that puts a process in worker mode; its
/// value is the protocol version.
pub const WORKER_ENV: &str = crate::settings::SELECTOR_WORKER;

/// The argument a worker is started with: a program without the worker
/// hook (a test harness, another CLI) refuses it and exits at once
/// instead of doing its usual work.
const WORKER_ARG: &str = "--openapi2mcp-selector-worker";

/// Version of the request/reply format.
const PROTOCOL: &str = "1";

/// Address space a worker may use, in bytes: the executable's mappings,
/// the selector's input, and what the evaluation builds. A selector that
/// needs more dies of it, and the call says so.
pub const MEMORY_LIMIT: u64 = 1 << 30;

/// CPU seconds after which the kernel stops a worker (SIGXCPU, then
/// SIGKILL a second later): a backstop for the deadline, should the
/// server itself be stopped before it kills the worker.
const CPU_LIMIT_SECS: u64 = TIME_LIMIT.as_secs() + 1;

/// Most bytes of a worker's stderr read (to tell a crash's cause).
const STDERR_CAP: u64 = 8 << 10;

/// Bytes a reply may take beyond the output cap (its tag line, an
/// array's brackets, a reason).
const REPLY_SLACK: usize = 8 << 10;

/// Longest a killed worker is waited for to be reaped.
const REAP_WAIT: Duration = Duration::from_secs(1);

static PROGRAM: OnceLock<PathBuf> = OnceLock::new();

static PERMITS: OnceLock<FairPool> = OnceLock::new();

/// Sets the program started as a selector worker (it must call
/// [`serve_as_worker`] first thing in `main`), for an embedder whose own
/// executable does not. The first call wins; `Err` gives back a path set
/// after the first.
pub fn set_worker_program(path: PathBuf) -> Result<(), PathBuf> {
    PROGRAM.set(path)
}

/// The program started as a worker: the one set with
/// [`set_worker_program`], else this process's own executable
/// (`/proc/self/exe` on Linux, which still runs after the file on disk
/// was replaced by an upgrade).
fn program() -> PathBuf {
    if let Some(path) = PROGRAM.get() {
        return path.clone();
    }
    let proc_exe = Path::new("/proc/self/exe");
    if proc_exe.exists() {
        return proc_exe.to_path_buf();
    }
    std::env::current_exe().unwrap_or_else(|_| proc_exe.to_path_buf())
}

/// How many selector workers may run at once: one per core, at least two
/// and at most eight. Calls beyond wait up to [`TIME_LIMIT`] for one.
pub fn max_workers() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(2, 8)
}

/// How many of them one caller's selectors may use at once (a quarter,
/// at least one): [`crate::fair::share_of`] [`max_workers`].
fn max_workers_per_caller() -> usize {
    crate::fair::share_of(max_workers())
}

fn permits() -> &'static FairPool {
    PERMITS.get_or_init(|| FairPool::new(max_workers(), max_workers_per_caller()))
}

/// Worker mode: when this process was started as a selector worker, runs
/// the one evaluation it was started for (stdin to stdout) and returns
/// the exit code `main` should return at once; `None` in every other
/// process. Call it first thing in `main`, before any runtime or thread
/// starts.
pub fn serve_as_worker() -> Option<u8> {
    let version = std::env::var_os(WORKER_ENV)?;
    let reply = if version == PROTOCOL {
        let mut request = Vec::new();
        match std::io::stdin().lock().read_to_end(&mut request) {
            Ok(_) => answer(&request),
            Err(e) => format!("failed\ncannot read the request: {e}").into_bytes(),
        }
    } else {
        format!(
            "failed\nthe worker speaks protocol {PROTOCOL}, not {}",
            version.to_string_lossy()
        )
        .into_bytes()
    };
    let mut stdout = std::io::stdout().lock();
    let written = stdout.write_all(&reply).and_then(|()| stdout.flush());
    Some(if written.is_ok() { 0 } else { 1 })
}

/// The reply to one request (see the module documentation).
fn answer(request: &[u8]) -> Vec<u8> {
    let Some((expression, input, max_bytes)) = parse_request(request) else {
        return b"failed\nthe request is malformed".to_vec();
    };
    match eval::evaluate(expression, input, max_bytes) {
        Ok(value) => {
            let mut out = b"ok\n".to_vec();
            // A `Value` always serializes.
            let _ = serde_json::to_writer(&mut out, &value);
            out
        }
        Err(SelectError::Invalid { reason, .. }) => format!("invalid\n{reason}").into_bytes(),
        Err(SelectError::Failed { reason, .. }) => format!("failed\n{reason}").into_bytes(),
        Err(SelectError::Limit { reason, .. }) => format!("limit\n{reason}").into_bytes(),
        Err(e @ SelectError::NotBuilt { .. }) => format!("failed\n{e}").into_bytes(),
    }
}

/// `(expression, input, max_bytes)` of a request.
fn parse_request(request: &[u8]) -> Option<(&str, &[u8], usize)> {
    let newline = request.iter().position(|&b| b == b'\n')?;
    let header = std::str::from_utf8(&request[..newline]).ok()?;
    let (max_bytes, length) = header.split_once(' ')?;
    let max_bytes: usize = max_bytes.parse().ok()?;
    let length: usize = length.parse().ok()?;
    let rest = &request[newline + 1..];
    let expression = std::str::from_utf8(rest.get(..length)?).ok()?;
    Some((expression, &rest[length..], max_bytes))
}

fn encode_request(expression: &str, input: &Value, max_bytes: usize) -> Vec<u8> {
    let mut request = format!("{max_bytes} {}\n{expression}", expression.len()).into_bytes();
    // A `Value` always serializes.
    let _ = serde_json::to_writer(&mut request, input);
    request
}

/// Evaluates `expression` on `input` in a worker process: see
/// [`super::apply`].
pub(super) async fn apply(
    expression: &str,
    input: Value,
    max_bytes: usize,
) -> Result<Value, SelectError> {
    apply_with(&program(), expression, input, max_bytes).await
}

/// [`apply`] with `program` as the worker.
pub(super) async fn apply_with(
    program: &Path,
    expression: &str,
    input: Value,
    max_bytes: usize,
) -> Result<Value, SelectError> {
    eval::check_length(expression)?;
    let limit = |reason: String| SelectError::Limit {
        expression: expression.to_string(),
        reason,
    };
    let failed = |reason: String| SelectError::Failed {
        expression: expression.to_string(),
        reason,
    };
    let caller = crate::fair::current_caller();
    let _permit = match permits().acquire(caller.as_deref(), TIME_LIMIT).await {
        Ok(permit) => permit,
        Err(Busy::Caller { share, total }) => {
            return Err(limit(format!(
                "was not run: {share} selectors at once already run for this caller (its share of the server's {total} selector workers)"
            )));
        }
        Err(Busy::Pool { total }) => {
            return Err(limit(format!(
                "was not run: the server is evaluating {total} selectors at once already"
            )));
        }
    };
    let request = encode_request(expression, &input, max_bytes);
    drop(input);
    let started = Instant::now();
    let ended = run(program, &request, max_bytes.saturating_add(REPLY_SLACK)).await;
    tracing::debug!(
        target: "openapi2mcp::select",
        elapsed_us = started.elapsed().as_micros() as u64,
        "selector evaluated in a worker"
    );
    match ended {
        Ended::Replied(reply) => match read_reply(&reply) {
            Some(Ok(value)) => Ok(value),
            Some(Err((kind, reason))) => Err(kind(expression.to_string(), reason)),
            None => Err(failed(format!(
                "the selector worker ({}) gave no answer it could read; it must be openapi2mcp or a server it generated",
                program.display()
            ))),
        },
        Ended::TimedOut => Err(limit(format!(
            "ran longer than {} s and was stopped",
            TIME_LIMIT.as_secs()
        ))),
        Ended::TooLong => Err(limit(format!("produced more than {max_bytes} bytes"))),
        Ended::Crashed(why) => Err(limit(why)),
        Ended::Broken(why) | Ended::NotStarted(why) => Err(failed(why)),
    }
}

/// A [`SelectError`] variant, given the expression and the reason.
type ErrorKind = fn(String, String) -> SelectError;

/// The selected value, or the error's kind and reason, of a reply;
/// `None` for a reply that is neither.
fn read_reply(reply: &[u8]) -> Option<Result<Value, (ErrorKind, String)>> {
    let newline = reply.iter().position(|&b| b == b'\n')?;
    let (tag, body) = (&reply[..newline], &reply[newline + 1..]);
    let kind: ErrorKind = match tag {
        b"ok" => return serde_json::from_slice(body).ok().map(Ok),
        b"invalid" => |expression, reason| SelectError::Invalid { expression, reason },
        b"failed" => |expression, reason| SelectError::Failed { expression, reason },
        b"limit" => |expression, reason| SelectError::Limit { expression, reason },
        _ => return None,
    };
    Some(Err((kind, String::from_utf8_lossy(body).into_owned())))
}

/// How a worker run ended.
enum Ended {
    /// It exited after writing a reply.
    Replied(Vec<u8>),
    /// It was killed at the deadline.
    TimedOut,
    /// Its reply passed the cap; it was killed.
    TooLong,
    /// It died of a signal (the selector hit a limit); the likely cause.
    Crashed(String),
    /// It exited without a reply (not a worker, or a broken one); why.
    Broken(String),
    /// It could not be started.
    NotStarted(String),
}

/// Starts a worker, gives it `request`, and reads at most `cap` bytes of
/// reply before [`TIME_LIMIT`]; the worker is gone (reaped) on return.
async fn run(program: &Path, request: &[u8], cap: usize) -> Ended {
    let mut command = tokio::process::Command::new(program);
    command
        .arg(WORKER_ARG)
        .env_clear()
        .env(WORKER_ENV, PROTOCOL)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    limit_resources(&mut command);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            return Ended::NotStarted(format!(
                "the selector worker ({}) could not be started: {e}",
                program.display()
            ));
        }
    };
    let (Some(mut stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Ended::NotStarted("the selector worker has no pipes".into());
    };
    let exchange = async {
        let write = async {
            // A worker that dies early closes its stdin: its exit tells why.
            let _ = stdin.write_all(request).await;
            drop(stdin);
        };
        let read = async {
            let mut reply = Vec::new();
            let _ = stdout.take(cap as u64 + 1).read_to_end(&mut reply).await;
            // Dropping `stdout` here ends a worker still writing.
            reply
        };
        let read_err = async {
            let mut text = Vec::new();
            let _ = stderr.take(STDERR_CAP).read_to_end(&mut text).await;
            text
        };
        let ((), reply, err) = tokio::join!(write, read, read_err);
        (reply, err, child.wait().await)
    };
    let outcome = tokio::time::timeout(TIME_LIMIT, exchange).await;
    let ended = match outcome {
        Err(_) => Ended::TimedOut,
        Ok((reply, _, _)) if reply.len() > cap => Ended::TooLong,
        Ok((reply, _, Ok(status))) if status.success() => Ended::Replied(reply),
        Ok((_, err, Ok(status))) => crash_cause(program, status, &err),
        Ok((_, _, Err(e))) => Ended::Broken(format!("the selector worker was lost: {e}")),
    };
    // Kill and reap whatever is left (the deadline passed, or the reply
    // was too long); `kill_on_drop` covers a call that is itself dropped.
    if matches!(ended, Ended::TimedOut | Ended::TooLong) {
        let _ = child.start_kill();
        let _ = tokio::time::timeout(REAP_WAIT, child.wait()).await;
    }
    ended
}

/// How a worker that exited without success ended: the likely cause,
/// for the model.
fn crash_cause(program: &Path, status: std::process::ExitStatus, stderr: &[u8]) -> Ended {
    let stderr = String::from_utf8_lossy(stderr);
    let signal = exit_signal(status);
    if stderr.contains("overflowed its stack") || signal == Some(SIGSEGV) {
        return Ended::Crashed(
            "nests or recurses too deeply: its evaluation ran out of stack and was stopped".into(),
        );
    }
    if stderr.contains("memory allocation of")
        || stderr.contains("capacity overflow")
        || stderr.contains("Cannot allocate memory")
        || stderr.contains("out of memory")
    {
        return Ended::Crashed(format!(
            "needed more than the {} MiB memory budget and was stopped",
            MEMORY_LIMIT >> 20
        ));
    }
    if signal == Some(SIGXCPU) {
        return Ended::Crashed(format!(
            "used more than {CPU_LIMIT_SECS} s of CPU and was stopped"
        ));
    }
    if signal == Some(SIGKILL) {
        return Ended::Crashed("was stopped by the system (out of CPU time or memory)".into());
    }
    let first_line = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    match signal {
        Some(signal) => Ended::Crashed(
            format!("stopped its evaluation (signal {signal}) {first_line}")
                .trim_end()
                .to_string(),
        ),
        None => Ended::Broken(
            format!(
                "the selector worker ({}) ended without an answer ({status}) {first_line}",
                program.display()
            )
            .trim_end()
            .to_string(),
        ),
    }
}

const SIGKILL: i32 = 9;
const SIGSEGV: i32 = 11;
const SIGXCPU: i32 = 24;

#[cfg(unix)]
fn exit_signal(status: std::process::ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

#[cfg(not(unix))]
fn exit_signal(_status: std::process::ExitStatus) -> Option<i32> {
    None
}

/// Sets the worker's rlimits between fork and exec, so they hold from
/// its first instruction (before its allocator reserves anything):
/// [`MEMORY_LIMIT`] of address space, [`CPU_LIMIT_SECS`] of CPU, and no
/// core dump.
#[cfg(unix)]
fn limit_resources(command: &mut tokio::process::Command) {
    let memory = libc::rlimit {
        rlim_cur: MEMORY_LIMIT as libc::rlim_t,
        rlim_max: MEMORY_LIMIT as libc::rlim_t,
    };
    let cpu = libc::rlimit {
        rlim_cur: CPU_LIMIT_SECS as libc::rlim_t,
        rlim_max: (CPU_LIMIT_SECS + 1) as libc::rlim_t,
    };
    let core = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: the closure runs in the forked child before exec, where only
    // async-signal-safe calls are allowed: it makes three `setrlimit`
    // system calls on values computed before the fork, and allocates
    // nothing.
    unsafe {
        command.pre_exec(move || {
            for (resource, limit) in [
                (libc::RLIMIT_AS, &memory),
                (libc::RLIMIT_CPU, &cpu),
                (libc::RLIMIT_CORE, &core),
            ] {
                if libc::setrlimit(resource, limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
}

#[cfg(not(unix))]
fn limit_resources(_command: &mut tokio::process::Command) {}
