//! W3C trace context (`traceparent`, `tracestate`) carried from the MCP
//! request that asked for a call to the HTTP requests the call sends, so
//! that a trace started by the client continues into the API: MCP
//! 2026-07-28 lets a request carry `traceparent` in its `_meta` (SEP-414).
//!
//! The context is a task-local set around one call ([`scope`]); every
//! request the call sends (retries, redirects, long-running operation
//! polls, the cancel link) carries the client's trace id with this
//! server's own span id as parent, and the client's `tracestate`.

use std::future::Future;

tokio::task_local! {
    static CONTEXT: TraceContext;
}

/// One call's place in a trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceContext {
    /// 32 lowercase hex digits, the client's.
    pub trace_id: String,
    /// 16 lowercase hex digits: the span of this server's call, the parent
    /// of the API's work.
    pub span_id: String,
    /// The span the client gave as parent.
    pub parent_id: String,
    /// Trace flags, 2 hex digits (`01`: sampled).
    pub flags: String,
    /// The client's `tracestate`, passed on unchanged.
    pub tracestate: Option<String>,
}

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

/// A fresh random span id (16 hex digits, not all zero).
fn new_span_id() -> String {
    let mut bytes = [0u8; 8];
    if aws_lc_rs::rand::fill(&mut bytes).is_err() || bytes == [0; 8] {
        // The system generator failed: a time-derived id still tells spans apart.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
            | 1;
        bytes = nanos.to_be_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl TraceContext {
    /// The context of a call made for a request carrying `traceparent`
    /// (and `tracestate`); `None` when `traceparent` is malformed.
    pub fn child_of(traceparent: &str, tracestate: Option<&str>) -> Option<Self> {
        let (trace_id, parent_id, flags) = parse(traceparent)?;
        Some(Self {
            trace_id,
            span_id: new_span_id(),
            parent_id,
            flags,
            tracestate: tracestate
                .map(str::trim)
                .filter(|s| !s.is_empty() && s.len() <= 512)
                .map(str::to_string),
        })
    }

    /// The `traceparent` header of the requests this call sends.
    pub fn traceparent(&self) -> String {
        format!("00-{}-{}-{}", self.trace_id, self.span_id, self.flags)
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
