//! W3C trace context (`traceparent`, `tracestate`) carried from the MCP
//! request that asked for a call to the HTTP requests the call sends, so
//! that a trace started by the client continues into the API: MCP
//! 2026-07-28 lets a request carry `traceparent` in its `_meta` (SEP-414).
//!
//! The context is a task-local set around one call ([`scope`]); every
//! request the call sends (retries, redirects, long-running operation
//! polls, the cancel link) carries the client's trace id with a span id
//! of its own (a child of the call's span), and the client's `tracestate`.
//!
//! When spans are exported (a [`SpanSink`] is attached, `--otlp`), a call
//! without a client trace starts one, the call's span and each API
//! request's span are handed to the sink when they end (sampled traces
//! only), and the ids on the wire are the ids exported. The sink is a
//! trait so that this module stays free of any telemetry library.

use std::future::Future;
use std::sync::Arc;
use std::time::SystemTime;

tokio::task_local! {
    static CONTEXT: TraceContext;
}

/// One call's place in a trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceContext {
    /// 32 lowercase hex digits, the client's (or a new trace's).
    pub trace_id: String,
    /// 16 lowercase hex digits: the span of this server's call, the parent
    /// of the API requests' spans.
    pub span_id: String,
    /// The span the client gave as parent; `None` for a trace this server
    /// started.
    pub parent_id: Option<String>,
    /// Trace flags, 2 hex digits (`01`: sampled).
    pub flags: String,
    /// The client's `tracestate`, passed on unchanged.
    pub tracestate: Option<String>,
    /// Where finished spans go, when they are exported.
    pub sink: Option<Sink>,
}

/// Whether a span was received (a call) or sent (an API request).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpanKind {
    /// This server's handling of an MCP request.
    Server,
    /// A request this server sent to the API.
    Client,
}

/// An attribute value of a span.
#[derive(Debug, Clone, PartialEq)]
pub enum AttrValue {
    /// A string.
    Str(String),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

impl From<&str> for AttrValue {
    fn from(value: &str) -> Self {
        AttrValue::Str(value.to_string())
    }
}

impl From<String> for AttrValue {
    fn from(value: String) -> Self {
        AttrValue::Str(value)
    }
}

impl From<i64> for AttrValue {
    fn from(value: i64) -> Self {
        AttrValue::Int(value)
    }
}

/// A span that ended, as handed to a [`SpanSink`].
#[derive(Debug, Clone, PartialEq)]
pub struct FinishedSpan {
    /// 32 hex digits.
    pub trace_id: String,
    /// 16 hex digits.
    pub span_id: String,
    /// The parent span's id, if any.
    pub parent_id: Option<String>,
    /// Whether the parent is the client's (in another process).
    pub parent_remote: bool,
    /// Span name (`tools/call get_pet`, `GET`).
    pub name: String,
    /// Server or client.
    pub kind: SpanKind,
    /// When it began.
    pub start: SystemTime,
    /// When it ended.
    pub end: SystemTime,
    /// Attributes, by the OpenTelemetry semantic conventions.
    pub attributes: Vec<(&'static str, AttrValue)>,
    /// The error description when the span failed.
    pub error: Option<String>,
    /// The trace's `tracestate`.
    pub tracestate: Option<String>,
}

/// Receives finished spans (the OTLP exporter, a test's collector).
pub trait SpanSink: Send + Sync + 'static {
    /// Takes one finished span; must not block for long.
    fn record(&self, span: FinishedSpan);

    /// Sends what is still held (at shutdown).
    fn flush(&self) {}
}

/// A shared [`SpanSink`] (compared by identity).
#[derive(Clone)]
pub struct Sink(pub Arc<dyn SpanSink>);

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sink")
    }
}

impl PartialEq for Sink {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Sink {}

fn is_hex(s: &str, len: usize) -> bool {
    s.len() == len
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The trace id, parent id and flags of a `traceparent` value (version
/// `00` and future versions read as `00` does); `None` when malformed or
/// all-zero, which the W3C specification says to ignore.
pub fn parse(traceparent: &str) -> Option<(String, String, String)> {
    let mut parts = traceparent.trim().split('-');
    let version = parts.next()?;
    let (trace_id, parent_id, flags) = (parts.next()?, parts.next()?, parts.next()?);
    if !is_hex(version, 2) || version == "ff" || (version == "00" && parts.next().is_some()) {
        return None;
    }
    if !is_hex(trace_id, 32) || !is_hex(parent_id, 16) || !is_hex(flags, 2) {
        return None;
    }
    if trace_id.bytes().all(|b| b == b'0') || parent_id.bytes().all(|b| b == b'0') {
        return None;
    }
    Some((trace_id.into(), parent_id.into(), flags.into()))
}

/// `N` random bytes as hex, not all zero.
fn random_hex<const N: usize>() -> String {
    let mut bytes = [0u8; N];
    if aws_lc_rs::rand::fill(&mut bytes).is_err() || bytes.iter().all(|b| *b == 0) {
        // The system generator failed: a time-derived id still tells spans apart.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos())
            | 1;
        let time = nanos.to_be_bytes();
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = time[time.len() - 1 - (i % time.len())];
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A fresh random span id (16 hex digits, not all zero).
fn new_span_id() -> String {
    random_hex::<8>()
}

impl TraceContext {
    /// The context of a call made for a request carrying `traceparent`
    /// (and `tracestate`); `None` when `traceparent` is malformed.
    pub fn child_of(traceparent: &str, tracestate: Option<&str>) -> Option<Self> {
        let (trace_id, parent_id, flags) = parse(traceparent)?;
        Some(Self {
            trace_id,
            span_id: new_span_id(),
            parent_id: Some(parent_id),
            flags,
            tracestate: tracestate
                .map(str::trim)
                .filter(|s| !s.is_empty() && s.len() <= 512)
                .map(str::to_string),
            sink: None,
        })
    }

    /// A new trace started by this server (for a call without one, when
    /// spans are exported), sampled.
    pub fn root() -> Self {
        Self {
            trace_id: random_hex::<16>(),
            span_id: new_span_id(),
            parent_id: None,
            flags: "01".into(),
            tracestate: None,
            sink: None,
        }
    }

    /// The same context, exporting its spans to `sink`.
    pub fn exporting(mut self, sink: Option<Sink>) -> Self {
        self.sink = sink;
        self
    }

    /// Whether the trace is sampled (flag `01`): only sampled spans are
    /// exported.
    pub fn sampled(&self) -> bool {
        u8::from_str_radix(&self.flags, 16).is_ok_and(|f| f & 1 == 1)
    }

    /// The `traceparent` naming this call's span as parent.
    pub fn traceparent(&self) -> String {
        self.traceparent_for(&self.span_id)
    }

    /// The `traceparent` of a request whose own span is `span_id`.
    pub fn traceparent_for(&self, span_id: &str) -> String {
        format!("00-{}-{}-{}", self.trace_id, span_id, self.flags)
    }

    /// A span id for one API request of this call.
    pub fn child_span_id(&self) -> String {
        new_span_id()
    }

    /// Hands a finished span of this trace to the sink, when spans are
    /// exported and the trace is sampled.
    pub fn record(&self, span: FinishedSpan) {
        if let Some(sink) = &self.sink
            && self.sampled()
        {
            sink.0.record(span);
        }
    }

    /// Whether finished spans go anywhere (so that building them is worth
    /// it).
    pub fn records(&self) -> bool {
        self.sink.is_some() && self.sampled()
    }
}

/// Runs `call` with `context` as the trace context of the requests it
/// sends (none: they carry none).
pub async fn scope<F: Future>(context: Option<TraceContext>, call: F) -> F::Output {
    match context {
        Some(context) => CONTEXT.scope(context, call).await,
        None => call.await,
    }
}

/// The trace context of the call running on this task, if any.
pub fn current() -> Option<TraceContext> {
    CONTEXT.try_with(Clone::clone).ok()
}

#[cfg(test)]
#[path = "trace_tests.rs"]
mod tests;
