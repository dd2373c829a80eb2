//! The QuickJS engine behind [`super::run`] (the `code` feature): a fresh
//! runtime per script, the `api` object, budgets enforced.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rquickjs::context::intrinsic;
use rquickjs::promise::PromiseState;
use rquickjs::{Context, Ctx, Function, Object, Promise, Runtime, Value as JsValue};
use serde_json::Value;

use super::{Budgets, Finished, Host, HostAnswer, ScriptError};

/// The file name scripts are evaluated under (what error lines refer to).
const SCRIPT_FILE: &str = "script.js";

/// Longest text of `console.log` kept, in bytes (the rest is dropped with a note).
const MAX_LOG_BYTES: usize = 8 * 1024;

/// Stack the engine may use (the thread's own is larger).
const MAX_STACK_BYTES: usize = 512 * 1024;

/// Why the run was stopped from outside the script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    WallTime,
    Calls,
    Cancelled,
}

/// State shared by the host functions and the interrupt handler.
#[derive(Debug, Default)]
struct RunState {
    calls: usize,
    last: Option<String>,
    stop: Option<Stop>,
    log: String,
}

/// Defines `api` and `console` from the operation names and the host
/// functions; evaluated as `api.js`.
const PRELUDE: &str = r#"(function (names, call, log) {
  "use strict";
  const target = Object.create(null);
  for (const name of names) {
    target[name] = async function (args) {
      if (args === undefined || args === null) args = {};
      if (typeof args !== "object" || Array.isArray(args)) {
        throw new TypeError("api." + name + " takes one object of arguments, not " + (Array.isArray(args) ? "an array" : typeof args));
      }
      const answer = JSON.parse(call(name, JSON.stringify(args)));
      if (Object.prototype.hasOwnProperty.call(answer, "error")) {
        const error = new Error(answer.error);
        error.operation = name;
        throw error;
      }
      if (answer.response && answer.ok !== null && typeof answer.ok === "object") {
        Object.defineProperty(answer.ok, RESPONSE, { value: Object.freeze(answer.response) });
      }
      return answer.ok;
    };
  }
  // What the response said beside a result (an object or array a call
  // returned): {headers, next: {tool, arguments}}, or undefined. Kept
  // under a symbol: not enumerated, not in JSON.stringify.
  const RESPONSE = Symbol("response");
  globalThis.response = function (result) {
    return result !== null && typeof result === "object" ? result[RESPONSE] : undefined;
  };
  Object.freeze(target);
  globalThis.api = new Proxy(target, {
    get(t, p) {
      if (typeof p !== "string" || p in t) return t[p];
      if (p === "then" || p === "toJSON") return undefined;
      if (p in Object.prototype) return Object.prototype[p];
      throw new TypeError("api." + p + " is not an operation of this API (search finds them)");
    },
  });
  const text = (v) => (typeof v === "string" ? v : String(JSON.stringify(v)));
  const write = (...items) => log(items.map(text).join(" "));
  globalThis.console = Object.freeze({ log: write, info: write, warn: write, error: write });
})"#;

/// Runs `script` with the operations `names` reachable as `api.<name>`,
/// each call handed to `host`, within `budgets`; `cancel` stops it.
/// Blocks the thread (run it on a blocking thread).
pub(super) fn run(
    script: &str,
    names: &[String],
    host: Rc<dyn Host>,
    budgets: Budgets,
    cancel: Arc<AtomicBool>,
) -> Result<Finished, ScriptError> {
    let started = Instant::now();
    let deadline = started + budgets.wall;
    let engine = |e: rquickjs::Error| ScriptError::Engine(e.to_string());
    let runtime = Runtime::new().map_err(engine)?;
    runtime.set_memory_limit(budgets.memory_bytes);
    runtime.set_max_stack_size(MAX_STACK_BYTES);
    let state = Rc::new(RefCell::new(RunState::default()));
    {
        let state = Rc::clone(&state);
        let cancel = Arc::clone(&cancel);
        runtime.set_interrupt_handler(Some(Box::new(move || {
            let mut state = state.borrow_mut();
            if state.stop.is_none() {
                if cancel.load(Ordering::Relaxed) {
                    state.stop = Some(Stop::Cancelled);
                } else if Instant::now() >= deadline {
                    state.stop = Some(Stop::WallTime);
                }
            }
            state.stop.is_some()
        })));
    }
    // The language only: no Date or Performance (clocks), no typed
    // arrays or weak references (nothing needs them).
    type Intrinsics = (
        intrinsic::Eval,
        intrinsic::RegExpCompiler,
        intrinsic::RegExp,
        intrinsic::Json,
        intrinsic::Proxy,
        intrinsic::MapSet,
        intrinsic::Promise,
    );
    let context = Context::custom::<Intrinsics>(&runtime).map_err(engine)?;
    let outcome = context.with(|ctx| -> Result<String, ScriptError> {
        install(
            &ctx,
            names,
            host,
            Rc::clone(&state),
            budgets,
            deadline,
            &cancel,
        )?;
        let wrapped = format!("(async function main() {{{script}\n}})()");
        let mut options = rquickjs::context::EvalOptions::default();
        options.strict = true;
        options.global = true;
        options.filename = Some(SCRIPT_FILE.to_string());
        let promise: Promise = match ctx.eval_with_options(wrapped, options) {
            Ok(p) => p,
            Err(_) => return Err(thrown(&ctx, ctx.catch())),
        };
        // Settles the script's promise: every operation settles at once,
        // so the jobs run out when the script is done or stuck.
        while state.borrow().stop.is_none() && ctx.execute_pending_job() {}
        if state.borrow().stop.is_some() {
            return Ok(String::new());
        }
        match promise.state() {
            PromiseState::Resolved => {
                let value: JsValue = match promise.result::<JsValue>() {
                    Some(Ok(v)) => v,
                    _ => return Err(thrown(&ctx, ctx.catch())),
                };
                match ctx.json_stringify(value) {
                    Ok(Some(text)) => text.to_string().map_err(engine),
                    Ok(None) => Ok("null".to_string()),
                    Err(_) => Err(thrown(&ctx, ctx.catch())),
                }
            }
            PromiseState::Rejected => {
                let _ = promise.result::<JsValue>();
                Err(thrown(&ctx, ctx.catch()))
            }
            PromiseState::Pending => Err(ScriptError::Unsettled),
        }
    });
    let state = Rc::try_unwrap(state)
        .map(RefCell::into_inner)
        .unwrap_or_else(|shared| std::mem::take(&mut *shared.borrow_mut()));
    match state.stop {
        Some(Stop::WallTime) => {
            return Err(ScriptError::WallTime(budgets.wall, state.calls, state.last));
        }
        Some(Stop::Calls) => return Err(ScriptError::Calls(budgets.calls, state.last)),
        Some(Stop::Cancelled) => return Err(ScriptError::Cancelled),
        None => {}
    }
    let json = match outcome {
        Ok(json) => json,
        Err(ScriptError::Thrown { message, .. }) if is_out_of_memory(&message) => {
            return Err(ScriptError::Memory(
                budgets.memory_bytes,
                state.calls,
                state.last,
            ));
        }
        Err(e) => return Err(e),
    };
    if json.len() > budgets.output_bytes {
        let preview = cut_preview(&json, budgets.output_bytes);
        return Err(ScriptError::Output {
            size: json.len(),
            limit: budgets.output_bytes,
            preview,
        });
    }
    let value = serde_json::from_str(&json).map_err(|e| ScriptError::Engine(e.to_string()))?;
    Ok(Finished {
        value,
        json,
        calls: state.calls,
        log: state.log,
    })
}

/// The first `limit` bytes of `json` closed at whole items, as JSON text.
fn cut_preview(json: &str, limit: usize) -> Option<String> {
    let cut = openapi2mcp_runtime::jsoncut::cut(&json.as_bytes()[..limit.min(json.len())])?;
    serde_json::to_string(&cut.value).ok()
}

/// Whether an error message is the engine's allocation failure.
fn is_out_of_memory(message: &str) -> bool {
    message.contains("out of memory")
}

/// Defines `api` and `console`.
fn install<'js>(
    ctx: &Ctx<'js>,
    names: &[String],
    host: Rc<dyn Host>,
    state: Rc<RefCell<RunState>>,
    budgets: Budgets,
    deadline: Instant,
    cancel: &Arc<AtomicBool>,
) -> Result<(), ScriptError> {
    let engine = |e: rquickjs::Error| ScriptError::Engine(e.to_string());
    let call_state = Rc::clone(&state);
    let cancel = Arc::clone(cancel);
    let call = Function::new(ctx.clone(), move |name: String, args: String| -> String {
        let answer = |key: &str, value: Value| {
            let mut map = serde_json::Map::new();
            map.insert(key.to_string(), value);
            Value::Object(map).to_string()
        };
        {
            let mut state = call_state.borrow_mut();
            if state.stop.is_some() {
                return answer("error", Value::from("the script was stopped"));
            }
            if state.calls >= budgets.calls {
                state.stop = Some(Stop::Calls);
                return answer(
                    "error",
                    Value::from(format!(
                        "over the budget of {} API calls per script",
                        budgets.calls
                    )),
                );
            }
            state.calls += 1;
            state.last = Some(name.clone());
        }
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            call_state.borrow_mut().stop = Some(Stop::WallTime);
            return answer("error", Value::from("out of wall time"));
        }
        let args: Value = serde_json::from_str(&args).unwrap_or(Value::Null);
        match host.call(&name, args, remaining) {
            HostAnswer::Ok(value, None) => answer("ok", value),
            HostAnswer::Ok(value, Some(response)) => {
                let mut map = serde_json::Map::new();
                map.insert("ok".into(), value);
                map.insert("response".into(), response);
                Value::Object(map).to_string()
            }
            HostAnswer::Failed(why) => answer("error", Value::from(why)),
            HostAnswer::TimedOut => {
                call_state.borrow_mut().stop = Some(Stop::WallTime);
                answer("error", Value::from("out of wall time"))
            }
            HostAnswer::Cancelled => {
                cancel.store(true, Ordering::Relaxed);
                call_state.borrow_mut().stop = Some(Stop::Cancelled);
                answer("error", Value::from("cancelled"))
            }
        }
    })
    .map_err(engine)?;
    let log_state = state;
    let log = Function::new(ctx.clone(), move |line: String| {
        let mut state = log_state.borrow_mut();
        if state.log.len() >= MAX_LOG_BYTES {
            return;
        }
        let room = MAX_LOG_BYTES - state.log.len();
        if line.len() + 1 > room {
            let mut end = room.saturating_sub(1);
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            state.log.push_str(&line[..end]);
            state.log.push_str("\n… (console output cut)\n");
            return;
        }
        state.log.push_str(&line);
        state.log.push('\n');
    })
    .map_err(engine)?;
    let mut options = rquickjs::context::EvalOptions::default();
    options.strict = true;
    options.filename = Some("api.js".to_string());
    let prelude: Function = ctx.eval_with_options(PRELUDE, options).map_err(engine)?;
    let names_js = rquickjs::Array::new(ctx.clone()).map_err(engine)?;
    for (i, name) in names.iter().enumerate() {
        names_js.set(i, name.as_str()).map_err(engine)?;
    }
    prelude
        .call::<_, ()>((names_js, call, log))
        .map_err(engine)?;
    Ok(())
}

/// A thrown value as a [`ScriptError::Thrown`]: its message, the script
/// line (the first frame of the stack in the script), and the operation
/// when an operation's failure was thrown.
fn thrown<'js>(_ctx: &Ctx<'js>, value: JsValue<'js>) -> ScriptError {
    let Some(object) = value.as_object() else {
        let message = if value.is_string() {
            value
                .as_string()
                .and_then(|s| s.to_string().ok())
                .unwrap_or_default()
        } else {
            format!("{value:?}")
        };
        return ScriptError::Thrown {
            message,
            line: None,
            operation: None,
        };
    };
    let text = |obj: &Object<'js>, key: &str| -> Option<String> {
        obj.get::<_, Option<rquickjs::String>>(key)
            .ok()
            .flatten()
            .and_then(|s| s.to_string().ok())
    };
    let name = text(object, "name");
    let message = text(object, "message").unwrap_or_default();
    let stack = text(object, "stack").unwrap_or_default();
    let operation = text(object, "operation");
    let message = match (&name, &operation) {
        (Some(n), None) if !n.is_empty() => format!("{n}: {message}"),
        _ => message,
    };
    ScriptError::Thrown {
        message,
        line: script_line(&stack),
        operation,
    }
}

/// The first line number of the script in a stack trace.
fn script_line(stack: &str) -> Option<u32> {
    let at = stack.find(SCRIPT_FILE)? + SCRIPT_FILE.len();
    let rest = stack[at..].strip_prefix(':')?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}
