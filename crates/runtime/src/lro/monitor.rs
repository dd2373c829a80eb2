//! The [`Monitor`] of one long-running operation: polls its status URL,
//! fetches the final result, and sends the document's cancel operation.

use super::super::forward::Forwarded;
use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};
use tokio::time::Instant;

use super::super::binding::{FinalStateVia, HttpBinding, OutputShape, SecurityRequirement};
use super::super::call::CallReport;
use super::super::redirect::origin_of;
use super::super::request::{self, RequestDraft};
use super::super::response::{
    self, Content, HttpResponse, ResponseLimits, ToolOutcome, TransportFailure,
};
use super::super::wire::{display_url, redact_url};
use super::channel::{Channel, get_draft};
use super::expr::{ExprContext, resolve_value};
use super::status::{Detected, OpStatus, final_target, names_wait, read_status, wait_after};
use super::{LroOptions, LroPoll, MAX_RETRY_AFTER};

/// How often a request refused by the rate limit is tried again before
/// the refusal is the answer (each wait at most [`MAX_RETRY_AFTER`]).
const RATE_LIMIT_ATTEMPTS: u32 = 8;

/// Everything [`start`] needs from the call that got a status URL.
pub(crate) struct Start<'a> {
    /// The API's client, authenticator and rate limit.
    pub channel: Channel,
    /// The called operation's binding.
    pub binding: &'a HttpBinding,
    /// The call's arguments.
    pub args: &'a Map<String, Value>,
    /// The status URL and the initial `Location`.
    pub detected: Detected,
    /// The call's URL before credentials were added.
    pub url: String,
    /// The call's method, upper-case.
    pub method: &'a str,
    /// The call's body as sent.
    pub request_body: Option<&'a [u8]>,
    /// The initial answer.
    pub response: &'a HttpResponse,
    /// The MCP client's `Authorization`, when it is forwarded to the API.
    pub forwarded: &'a Forwarded,
    /// The call's `Accept` header, sent with every status request.
    pub accept: Option<String>,
    /// `--lro-timeout` and the poll bound.
    pub options: LroOptions,
    /// The response size cap.
    pub limits: ResponseLimits,
    /// Origins besides the API's that may be reached, without credentials
    /// (`--allow-redirect-origin`).
    pub allowed_origins: &'a [String],
    /// `--base-url`, for the cancel operation.
    pub base_url: Option<&'a str>,
    /// Server variables, for the cancel operation.
    pub server_variables: &'a BTreeMap<String, String>,
}

/// Follows one long-running operation to its end (see the module docs of
/// [`super`]). Owns everything it needs (a clone of the API's client,
/// authenticator and rate limit), so it outlives the call that made it
/// and may move to another task. Not `Clone`: one operation, one monitor.
/// Boxed, so that a [`CallReport`] without one stays small.
pub struct Monitor(Box<State>);

/// What a [`Monitor`] knows and has seen.
struct State {
    channel: Channel,
    security: Vec<SecurityRequirement>,
    forwarded: Forwarded,
    output: Option<OutputShape>,
    accept: Option<String>,
    limits: ResponseLimits,
    api_origin: String,
    allowed_origins: Vec<String>,
    /// "POST https://api.example.com/exports": the call, for messages.
    request_line: String,
    method: String,
    original_url: String,
    status_url: String,
    location: Option<String>,
    final_state_via: Option<FinalStateVia>,
    cancel: Option<PreparedCancel>,
    timeout: Duration,
    deadline: Instant,
    max_polls: u32,
    polls: u32,
    /// Answers in a row that named no wait (the default interval grows).
    quiet: u32,
    next_poll: Instant,
    last_status: Option<String>,
}

/// The cancel operation, its arguments resolved when the operation
/// started (authenticated when sent).
struct PreparedCancel {
    link: String,
    operation: String,
    security: Vec<SecurityRequirement>,
    draft: Result<RequestDraft, String>,
}

impl fmt::Debug for Monitor {
    /// Never shows a credential: URLs with their query values masked, no
    /// forwarded `Authorization`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let this = &self.0;
        f.debug_struct("Monitor")
            .field("operation", &this.request_line)
            .field("status_url", &this.status_url_for_display())
            .field("polls", &this.polls)
            .field("last_status", &this.last_status)
            .field(
                "cancel",
                &this.cancel.as_ref().map(|c| c.operation.as_str()),
            )
            .finish_non_exhaustive()
    }
}

/// A monitor for the operation `start` describes, or, when its status URL
/// is on another origin that may not be reached, the note that says so
/// (to add to the initial answer).
pub(crate) fn start(start: Start<'_>) -> Result<Monitor, String> {
    let api_origin = origin_of(&start.url).unwrap_or_default();
    let request_line = format!("{} {}", start.method, display_url(&start.url));
    let status_url = start.detected.status_url.clone();
    let status_origin = origin_of(&status_url).unwrap_or_default();
    if status_origin != api_origin && !allowed(start.allowed_origins, &status_origin) {
        return Err(format!(
            "The API accepted the request and is processing it as a long-running operation, but its status URL {} is on another origin ({status_origin}) than the API ({api_origin}), so it is not polled: the API's credentials never leave its origin. If {status_origin} is trusted, start the server with --allow-redirect-origin {status_origin} to poll it without credentials.",
            redact_url(&status_url)
        ));
    }
    let lro = start.binding.lro.as_ref();
    let cancel = lro.and_then(|l| l.cancel.as_deref()).map(|link| {
        let ctx = ExprContext {
            url: &start.url,
            method: start.method,
            binding: start.binding,
            args: start.args,
            request_body: start.request_body,
            status: start.response.status,
            response_headers: &start.response.headers,
            response_body: &start.response.body,
        };
        let draft = link
            .arguments
            .iter()
            .map(|a| {
                resolve_value(&a.value, &ctx)
                    .map(|v| (a.arg.clone(), v))
                    .map_err(|e| format!("link parameter `{}`: {e}", a.arg))
            })
            .collect::<Result<Map<String, Value>, String>>()
            .and_then(|args| {
                request::draft_at(&link.http, &args, start.server_variables, start.base_url)
                    .map_err(|e| e.to_string())
            });
        PreparedCancel {
            link: link.link.clone(),
            operation: link.operation.clone(),
            security: link.http.security.clone(),
            draft,
        }
    });
    let now = Instant::now();
    let first_wait = wait_after(&start.response.headers, 0, SystemTime::now());
    Ok(Monitor(Box::new(State {
        channel: start.channel,
        security: start.binding.security.clone(),
        forwarded: start.forwarded.clone(),
        output: start.binding.output.clone(),
        accept: start.accept,
        limits: start.limits,
        api_origin,
        allowed_origins: start.allowed_origins.to_vec(),
        request_line,
        method: start.method.to_string(),
        original_url: start.url.clone(),
        status_url,
        location: start.detected.location,
        final_state_via: lro.and_then(|l| l.final_state_via),
        cancel,
        timeout: start.options.timeout,
        deadline: now
            .checked_add(start.options.timeout)
            .unwrap_or_else(|| now + Duration::from_secs(30 * 365 * 86_400)),
        max_polls: start.options.max_polls.max(1),
        polls: 0,
        quiet: u32::from(!names_wait(&start.response.headers)),
        next_poll: now + first_wait,
        last_status: None,
    })))
}

/// Whether `origin` is one of `allowed` (in any spelling `origin_of` reads).
fn allowed(allowed: &[String], origin: &str) -> bool {
    allowed
        .iter()
        .any(|a| origin_of(a).is_some_and(|a| a == origin))
}

/// What one GET came to.
enum Fetched {
    /// An answer.
    Answer(HttpResponse),
    /// The rate limit asks to wait this long first.
    Limited(Duration),
    /// No answer: the outcome says why.
    Failed(ToolOutcome),
}

impl Monitor {
    /// The status URL, safe to show and log (query values and user info
    /// masked).
    pub fn status_url_for_display(&self) -> String {
        self.0.status_url_for_display()
    }

    /// The call that started the operation, e.g. `POST
    /// https://api.example.com/exports` (no query string).
    pub fn operation(&self) -> &str {
        &self.0.request_line
    }

    /// How long until the next poll is due (zero when it is).
    pub fn next_poll_in(&self) -> Duration {
        self.0.next_poll.saturating_duration_since(Instant::now())
    }

    /// Whether the document links a cancel operation
    /// ([`Monitor::cancel`] sends it).
    pub fn can_cancel(&self) -> bool {
        self.0.cancel.is_some()
    }

    /// Waits until the next poll is due (the API's `Retry-After`, never
    /// past the deadline), then reads the status once: still running, or
    /// done with the final result (fetched per the final-state rule) or
    /// the error that ended it. Past `--lro-timeout` or the poll bound,
    /// done with an error naming the status URL. Call it again after
    /// `Running`; it sleeps for you.
    pub async fn poll(&mut self) -> LroPoll {
        self.0.poll().await
    }

    /// Polls until the operation ends (the blocking behaviour of
    /// [`super::LroMode::Wait`]); bounded by the deadline and the poll
    /// bound.
    pub async fn wait(mut self) -> CallReport {
        loop {
            if let LroPoll::Done(report) = self.poll().await {
                return report;
            }
        }
    }

    /// Sends the cancel operation the document links from this
    /// operation's response, and reports what the API answered; `None`
    /// when the document links none. The report is an error when the
    /// link's arguments could not be resolved or the API refused.
    pub async fn cancel(&self) -> Option<CallReport> {
        self.0.cancel().await
    }
}

impl State {
    fn status_url_for_display(&self) -> String {
        redact_url(&self.status_url)
    }

    async fn poll(&mut self) -> LroPoll {
        tokio::time::sleep_until(self.next_poll.min(self.deadline)).await;
        if self.polls >= self.max_polls {
            return LroPoll::Done(self.gave_up(false));
        }
        self.polls += 1;
        let url = self.status_url.clone();
        let answer = match self.get(&url, true).await {
            Fetched::Answer(answer) => answer,
            Fetched::Limited(wait) => {
                self.next_poll = Instant::now() + wait;
                return self.still_running(None);
            }
            Fetched::Failed(outcome) => return LroPoll::Done(self.unreadable(outcome, None)),
        };
        let body: Option<Value> = serde_json::from_slice(&answer.body).ok();
        tracing::debug!(
            operation = %self.request_line,
            status_url = %self.status_url_for_display(),
            poll = self.polls,
            http_status = answer.status,
            "polled a long-running operation"
        );
        let reading = match answer.status {
            // Still accepted, not done: only a failure it reports ends it.
            202 => match read_status(body.as_ref()) {
                done @ (OpStatus::Failed(_) | OpStatus::Canceled(_)) => done,
                OpStatus::Running(label) => OpStatus::Running(label),
                OpStatus::Succeeded(_) | OpStatus::Unknown => OpStatus::Running(None),
            },
            200..=299 => read_status(body.as_ref()),
            429 | 503 if names_wait(&answer.headers) => OpStatus::Running(None),
            _ => {
                let outcome = self.status_outcome(&answer);
                return LroPoll::Done(self.unreadable(outcome, Some(answer.status)));
            }
        };
        match reading {
            OpStatus::Running(label) => {
                self.schedule(&answer.headers);
                if label.is_some() {
                    self.last_status.clone_from(&label);
                }
                self.still_running(label)
            }
            OpStatus::Unknown => LroPoll::Done(self.result_from(&answer, &url)),
            OpStatus::Succeeded(_) => LroPoll::Done(self.fetch_final(&answer, body.as_ref()).await),
            OpStatus::Failed(label) => {
                LroPoll::Done(self.failed(&answer, body.as_ref(), &label, "failed"))
            }
            OpStatus::Canceled(label) => {
                LroPoll::Done(self.failed(&answer, body.as_ref(), &label, "was canceled"))
            }
        }
    }

    async fn cancel(&self) -> Option<CallReport> {
        let cancel = self.cancel.as_ref()?;
        let what = format!(
            "the cancel operation `{}` (link `{}` of this operation's response)",
            cancel.operation, cancel.link
        );
        let mut draft = match &cancel.draft {
            Ok(draft) => draft.clone(),
            Err(why) => {
                return Some(
                    response::invalid_arguments(&format!("{what} cannot be sent: {why}")).into(),
                );
            }
        };
        match self
            .channel
            .authenticate(&cancel.security, &self.forwarded, &mut draft)
            .await
        {
            Ok(_) => {}
            Err(e) => return Some(response::not_authenticated(&e.to_string()).into()),
        }
        let prepared = draft.finish();
        let line = format!("{} {}", prepared.method, display_url(&prepared.url));
        let patience = Instant::now() + MAX_RETRY_AFTER;
        if let Err(outcome) = self.wait_for_rate_limit(patience).await {
            return Some(outcome.into());
        }
        tracing::debug!(operation = %self.request_line, cancel = %line, "cancelling a long-running operation");
        let report = match self.channel.client.send(&prepared).await {
            Ok(answer) => {
                let mut outcome = response::from_response(&answer, None, &self.limits, &line);
                let verdict = if outcome.is_error {
                    "the API refused it"
                } else {
                    "the API accepted it; the operation may take a moment to stop"
                };
                outcome.content.insert(
                    0,
                    Content::Text(format!(
                        "Sent {what} for {}: {line} answered HTTP {}, so {verdict}.",
                        self.request_line, answer.status
                    )),
                );
                CallReport {
                    outcome,
                    status: Some(answer.status),
                    pending: None,
                    response: None,
                }
            }
            Err(failure) => response::from_transport_failure(&failure, &line).into(),
        };
        Some(report)
    }

    /// Sets the next poll after an answer with `headers`.
    fn schedule(&mut self, headers: &[(String, String)]) {
        if names_wait(headers) {
            self.quiet = 0;
        } else {
            self.quiet = self.quiet.saturating_add(1);
        }
        let wait = wait_after(headers, self.quiet.saturating_sub(1), SystemTime::now());
        self.next_poll = Instant::now() + wait;
    }

    /// `Running`, unless the deadline or the poll bound has been reached.
    fn still_running(&self, status: Option<String>) -> LroPoll {
        let now = Instant::now();
        if now >= self.deadline {
            return LroPoll::Done(self.gave_up(true));
        }
        if self.polls >= self.max_polls {
            return LroPoll::Done(self.gave_up(false));
        }
        LroPoll::Running {
            retry_after: self.next_poll.saturating_duration_since(now),
            status: status.or_else(|| self.last_status.clone()),
        }
    }

    /// The error when the operation is still running at the deadline
    /// (`timed_out`) or after the most polls.
    fn gave_up(&self, timed_out: bool) -> CallReport {
        let why = if timed_out {
            format!(
                "did not finish within {} seconds (--lro-timeout)",
                trim_secs(self.timeout)
            )
        } else {
            format!("was still running after {} status requests", self.polls)
        };
        let last = match &self.last_status {
            Some(status) => format!(" (last status: {status})"),
            None => String::new(),
        };
        let text = format!(
            "The long-running operation started by {} {why}; it may still be running. Its status is at {}{last}. Check that status later instead of starting the operation again.",
            self.request_line,
            self.status_url_for_display()
        );
        response_error(vec![Content::Text(text)], None)
    }

    /// The error when the status could not be read.
    fn unreadable(&self, outcome: ToolOutcome, status: Option<u16>) -> CallReport {
        let mut content = vec![Content::Text(format!(
            "The status of the long-running operation started by {} could not be read from {}{}; the operation may still be running.",
            self.request_line,
            self.status_url_for_display(),
            status.map(|s| format!(" (HTTP {s})")).unwrap_or_default()
        ))];
        content.extend(outcome.content);
        response_error(content, status)
    }

    /// `answer` (from the status resource) as an outcome, with no output
    /// shape: for messages.
    fn status_outcome(&self, answer: &HttpResponse) -> ToolOutcome {
        let line = format!("GET {}", display_url(&self.status_url));
        response::from_response(answer, None, &self.limits, &line)
    }

    /// The error for an operation that ended in `label` (`verb`: "failed",
    /// "was canceled"), carrying its `error` or its whole status body.
    fn failed(
        &self,
        answer: &HttpResponse,
        body: Option<&Value>,
        label: &str,
        verb: &str,
    ) -> CallReport {
        let error = body.and_then(|b| b.get("error")).map(describe_error);
        let mut content = vec![Content::Text(format!(
            "The long-running operation started by {} {verb} (status `{label}` at {}){}. Do not expect its result; fix the cause before starting it again.",
            self.request_line,
            self.status_url_for_display(),
            error.map(|e| format!(": {e}")).unwrap_or_default()
        ))];
        content.extend(self.status_outcome(answer).content);
        response_error(content, Some(answer.status))
    }

    /// The final result, once the status said the operation succeeded.
    async fn fetch_final(&self, answer: &HttpResponse, body: Option<&Value>) -> CallReport {
        let target = final_target(
            self.final_state_via,
            &self.method,
            &self.original_url,
            self.location.as_deref(),
            &self.status_url,
            body,
        );
        let Some(url) = target.filter(|t| *t != self.status_url) else {
            return self.result_from(answer, &self.status_url);
        };
        let origin = origin_of(&url).unwrap_or_default();
        if origin != self.api_origin && !allowed(&self.allowed_origins, &origin) {
            let mut content = vec![Content::Text(format!(
                "The long-running operation started by {} succeeded. Its result is at {} on another origin ({origin}), which is not fetched: the API's credentials never leave its origin. If {origin} is trusted, start the server with --allow-redirect-origin {origin}. The operation's final status follows.",
                self.request_line,
                redact_url(&url)
            ))];
            content.extend(self.status_outcome(answer).content);
            return CallReport {
                outcome: ToolOutcome {
                    content,
                    structured: None,
                    is_error: false,
                },
                status: Some(answer.status),
                pending: None,
                response: None,
            };
        }
        if let Err(outcome) = self.wait_for_rate_limit(self.deadline).await {
            return outcome.into();
        }
        match self.get(&url, false).await {
            Fetched::Answer(result) if (200..300).contains(&result.status) => {
                self.result_from(&result, &url)
            }
            Fetched::Answer(result) => {
                let line = format!("GET {}", display_url(&url));
                let outcome = response::from_response(&result, None, &self.limits, &line);
                self.result_unreadable(&url, outcome, Some(result.status))
            }
            Fetched::Limited(wait) => {
                self.result_unreadable(&url, response::rate_limited(wait.as_secs_f64()), None)
            }
            Fetched::Failed(outcome) => self.result_unreadable(&url, outcome, None),
        }
    }

    /// The error when the operation succeeded but its result could not be
    /// fetched from `url`.
    fn result_unreadable(
        &self,
        url: &str,
        outcome: ToolOutcome,
        status: Option<u16>,
    ) -> CallReport {
        let mut content = vec![Content::Text(format!(
            "The long-running operation started by {} succeeded, but its result could not be read from {}. Do not start the operation again; read the result later.",
            self.request_line,
            redact_url(url)
        ))];
        content.extend(outcome.content);
        response_error(content, status)
    }

    /// `answer` from `url` as the operation's result, through the same
    /// response path as any call (with the tool's output shape).
    fn result_from(&self, answer: &HttpResponse, url: &str) -> CallReport {
        let line = format!("GET {}", display_url(url));
        CallReport {
            outcome: response::from_response(answer, self.output.as_ref(), &self.limits, &line),
            status: Some(answer.status),
            pending: None,
            response: None,
        }
    }

    /// Waits until the rate limit lets a request through (each wait at
    /// most [`MAX_RETRY_AFTER`], never past `deadline`), or says it did not.
    async fn wait_for_rate_limit(&self, deadline: Instant) -> Result<(), ToolOutcome> {
        for _ in 0..RATE_LIMIT_ATTEMPTS {
            match self.channel.try_acquire() {
                Ok(()) => return Ok(()),
                Err(wait) => {
                    let wait = wait.min(MAX_RETRY_AFTER);
                    if Instant::now() + wait > deadline {
                        return Err(response::rate_limited(wait.as_secs_f64()));
                    }
                    tokio::time::sleep(wait).await;
                }
            }
        }
        Err(response::rate_limited(MAX_RETRY_AFTER.as_secs_f64()))
    }

    /// GETs `url` as the call was sent: its `Accept`, and its
    /// credentials when the URL is on the API's origin (none elsewhere).
    /// With `limit`, takes a token from the rate limit first, or says how
    /// long to wait for one.
    async fn get(&self, url: &str, limit: bool) -> Fetched {
        if limit && let Err(wait) = self.channel.try_acquire() {
            return Fetched::Limited(wait);
        }
        let line = format!("GET {}", display_url(url));
        let Some(mut draft) = get_draft(url, self.accept.as_deref()) else {
            return Fetched::Failed(response::from_transport_failure(
                &TransportFailure::Other("the URL is not an http(s) URL".into()),
                &line,
            ));
        };
        let same_origin = origin_of(url).is_some_and(|o| o == self.api_origin);
        if same_origin
            && let Err(e) = self
                .channel
                .authenticate(&self.security, &self.forwarded, &mut draft)
                .await
        {
            return Fetched::Failed(response::not_authenticated(&e.to_string()));
        }
        match self.channel.client.send(&draft.finish()).await {
            Ok(answer) => Fetched::Answer(answer),
            Err(failure) => Fetched::Failed(response::from_transport_failure(&failure, &line)),
        }
    }
}

/// An error report.
fn response_error(content: Vec<Content>, status: Option<u16>) -> CallReport {
    CallReport {
        outcome: ToolOutcome {
            content,
            structured: None,
            is_error: true,
        },
        status,
        pending: None,
        response: None,
    }
}

/// An operation's `error` member in a line: `code: message` when it has
/// them (Azure, Microsoft REST guidelines), else its JSON (cut short).
fn describe_error(error: &Value) -> String {
    let text = |k: &str| error.get(k).and_then(Value::as_str);
    match (text("code"), text("message")) {
        (Some(code), Some(message)) => format!("{code}: {message}"),
        (None, Some(message)) => message.to_string(),
        _ => match error {
            Value::String(s) => s.clone(),
            other => other.to_string().chars().take(500).collect(),
        },
    }
}

/// `600` for ten minutes, `0.5` for half a second.
fn trim_secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s}")
    }
}
