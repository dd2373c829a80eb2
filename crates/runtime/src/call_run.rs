//! One whole call of a tool, the single path every caller takes: the
//! arguments checked (input schema, rate limit), the tool's handler run
//! (which sends the request and maps the response), the result conformed
//! to the output schema, configured secrets masked, and the caller's
//! selector applied. The live server and generated crates (through the
//! server crate) run calls only through [`Api::run`], so "a call" means
//! one thing everywhere; what is left to them is the protocol around it
//! (progress, cancellation, tasks, the MCP result's shape).
//!
//! A long-running operation the caller chose to follow itself
//! ([`LroMode::Return`]) comes back conformed but not yet delivered: once
//! followed to its end, [`Api::complete`] finishes it the same way.

use crate::forward::Forwarded;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use super::{Api, Call, CallReport, Handlers, Refused, ToolId};
use crate::lro::LroMode;
use crate::response::ToolOutcome;

/// What a caller asks of one call.
#[derive(Debug, Clone)]
pub struct CallRequest<'a> {
    /// The tool.
    pub tool: ToolId,
    /// Its arguments, as the client sent them (a selector argument
    /// already taken out).
    pub args: Map<String, Value>,
    /// The MCP client's own headers a call may send on (its
    /// `Authorization` for [`super::ApiOptions::forward_authorization`],
    /// those [`super::ApiOptions::forward_headers`] names).
    pub client: &'a Forwarded,
    /// What happens when the API answers with a long-running operation.
    pub lro: LroMode,
    /// A jq expression selecting from the result (see [`crate::select`]).
    pub selector: Option<&'a str>,
}

impl<'a> CallRequest<'a> {
    /// A call of `tool` with `args` that waits for a long-running
    /// operation and returns the whole result.
    pub fn new(tool: ToolId, args: Map<String, Value>) -> Self {
        Self {
            tool,
            args,
            client: &crate::forward::NONE,
            lro: LroMode::Wait,
            selector: None,
        }
    }
}

/// How a call ended, for metrics and audit lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The API was called and the result is not an error.
    Ok,
    /// The API was called and the result is an error (the API's, or one
    /// made while mapping, conforming or selecting).
    Error,
    /// The arguments were refused before anything was sent.
    Invalid,
    /// The rate limit refused the call before anything was sent.
    RateLimited,
}

impl Verdict {
    /// The verdict as a metric label.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Error => "error",
            Verdict::Invalid => "invalid",
            Verdict::RateLimited => "rate_limited",
        }
    }
}

/// A call's end: the report (its outcome delivered unless a long-running
/// operation is pending), the verdict, and how long the handler took
/// (`None` when nothing was sent).
#[derive(Debug)]
pub struct Ran {
    /// Status, outcome and any pending long-running operation.
    pub report: CallReport,
    /// How the call ended.
    pub verdict: Verdict,
    /// Time spent in the handler (the API round trip and custom code).
    pub backend: Option<Duration>,
}

impl Api {
    /// Runs one whole call: admit → `handlers` → conform → (unless a
    /// long-running operation is pending) redact → selector.
    pub async fn run(&self, handlers: &dyn Handlers, request: CallRequest<'_>) -> Ran {
        let CallRequest {
            tool,
            args,
            client,
            lro,
            selector,
        } = request;
        let (report, verdict, backend) = match self.admit(tool, args) {
            Ok(args) => {
                let call = Call::new(self, tool, client).with_lro_mode(lro);
                let started = Instant::now();
                let report = handlers.handle(call, args).await;
                (report, Verdict::Ok, Some(started.elapsed()))
            }
            Err(Refused::RateLimited(outcome)) => (outcome.into(), Verdict::RateLimited, None),
            Err(Refused::Invalid(outcome)) => (outcome.into(), Verdict::Invalid, None),
        };
        let mut report = CallReport {
            outcome: self.conform(tool, report.outcome),
            ..report
        };
        if report.pending.is_none() {
            report.outcome = self
                .deliver(tool, report.outcome, selector, report.status)
                .await;
        }
        let verdict = match verdict {
            Verdict::Ok if report.outcome.is_error => Verdict::Error,
            other => other,
        };
        Ran {
            report,
            verdict,
            backend,
        }
    }

    /// The final outcome of a long-running operation [`Api::run`] left
    /// pending, followed to its end by the caller: conformed and
    /// delivered as [`Api::run`] would have.
    pub async fn complete(
        &self,
        tool: ToolId,
        outcome: ToolOutcome,
        selector: Option<&str>,
    ) -> ToolOutcome {
        let outcome = self.conform(tool, outcome);
        self.deliver(tool, outcome, selector, None).await
    }

    /// A conformed outcome as the client gets it: secrets masked, then
    /// the selector applied (its output capped at the API's response
    /// size cap). A selector that fails on a result the API gave (the
    /// request was sent; `status` is the API's answer when known) says
    /// so, see [`sent_but_not_shown`].
    async fn deliver(
        &self,
        tool: ToolId,
        outcome: ToolOutcome,
        selector: Option<&str>,
        status: Option<u16>,
    ) -> ToolOutcome {
        let outcome = self.redact(tool, outcome);
        match selector {
            Some(expression) => {
                let cap = self.member(tool).options.http.limits.max_body_bytes;
                let answered = !outcome.is_error;
                let selected = crate::select::select_outcome(expression, outcome, cap).await;
                if answered && selected.is_error {
                    let method = &self.tool(tool).http.method;
                    return sent_but_not_shown(method, status, selected);
                }
                selected
            }
            None => outcome,
        }
    }
}

/// Methods whose requests change nothing, so that calling again is
/// harmless.
const SAFE_METHODS: [&str; 4] = ["GET", "HEAD", "OPTIONS", "TRACE"];

/// The error of a selector that failed on the result of a request that
/// was sent (`failed`, the selector's error): it says the request was
/// sent and what the API answered, and that the response is not shown
/// because of the selector. A request that changes data (any method but
/// GET, HEAD, OPTIONS, TRACE; a workflow's steps) is not to be sent again
/// to see its response: that would repeat the change.
fn sent_but_not_shown(method: &str, status: Option<u16>, failed: ToolOutcome) -> ToolOutcome {
    let why: String = failed
        .content
        .iter()
        .filter_map(|c| match c {
            crate::response::Content::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" ");
    let answered = match status {
        Some(status) => format!("the API answered HTTP {status}"),
        None => "the API answered".to_string(),
    };
    let method = method.to_ascii_uppercase();
    let text = if method == "WORKFLOW" {
        format!(
            "The workflow ran (its steps' requests were sent) and {answered}, but its result is not shown because {why}. Do not run the workflow again to see its result: that would send its requests again."
        )
    } else if SAFE_METHODS.contains(&method.as_str()) {
        format!(
            "The {method} request was sent and {answered}, but its response is not shown because {why}. Call again with another selector, or without one."
        )
    } else {
        format!(
            "The {method} request was sent and {answered}: the change it asked for may have been made. Its response is not shown because {why}. Do not send this {method} again to see its response: that would repeat the change; read the resource with a read operation instead."
        )
    };
    ToolOutcome {
        content: vec![crate::response::Content::Text(text)],
        structured: None,
        is_error: true,
    }
}
