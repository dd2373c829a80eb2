//! OpenTelemetry export of the spans calls make (`--otlp`): each
//! `tools/call` is a server span named by the MCP semantic conventions
//! (`tools/call get_pet`, `mcp.method.name`, `gen_ai.tool.name`, …) and
//! each API request a client span under it, sent over OTLP/HTTP
//! (protobuf, or JSON with `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) by the
//! OpenTelemetry SDK's batch processor.
//!
//! The spans are built by [`openapi2mcp_runtime::trace`] (which knows no
//! telemetry library) with the ids that went on the wire, and converted
//! here; the SDK's exporter and batch processor do the rest. Standard
//! `OTEL_EXPORTER_OTLP_*` variables (endpoint, headers, timeout, protocol)
//! and `OTEL_SERVICE_NAME` apply.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use opentelemetry::trace::{
    SpanContext, SpanId, SpanKind as OtelKind, Status, TraceFlags, TraceId, TraceState,
};
use opentelemetry::{InstrumentationScope, KeyValue, Value as OtelValue};
use opentelemetry_otlp::{Protocol, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{
    BatchSpanProcessor, SpanData, SpanEvents, SpanLinks, SpanProcessor,
};

use openapi2mcp_runtime::trace::{AttrValue, FinishedSpan, Sink, SpanKind, SpanSink};

/// How long shutdown waits for the last spans to be sent.
const FLUSH_TIMEOUT: Duration = Duration::from_secs(5);

/// The OTLP exporter behind a [`Sink`].
pub struct OtlpSink {
    processor: BatchSpanProcessor,
    scope: InstrumentationScope,
}

impl std::fmt::Debug for OtlpSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OtlpSink")
    }
}

/// Starts exporting: to `endpoint` (the full traces URL, e.g.
/// `http://127.0.0.1:4318/v1/traces`), or where the `OTEL_EXPORTER_OTLP_*`
/// variables say (default `http://localhost:4318/v1/traces`) when `None`.
/// `service` names this server in the exported resource unless
/// `OTEL_SERVICE_NAME` does.
pub fn start(endpoint: Option<&str>, service: &str) -> Result<Sink, String> {
    let endpoint = endpoint.map(str::to_string);
    let service = std::env::var("OTEL_SERVICE_NAME")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| service.to_string());
    let protocol = match std::env::var("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
        .or_else(|_| std::env::var("OTEL_EXPORTER_OTLP_PROTOCOL"))
        .ok()
        .as_deref()
        .map(str::trim)
    {
        None | Some("" | "http/protobuf") => Protocol::HttpBinary,
        Some("http/json") => Protocol::HttpJson,
        Some(other) => {
            return Err(format!(
                "OTEL_EXPORTER_OTLP_PROTOCOL={other} is not supported by --otlp; use http/protobuf (the default) or http/json"
            ));
        }
    };
    // The SDK's blocking HTTP client owns a runtime of its own: it is made
    // (and later dropped) outside this process's async runtime.
    std::thread::spawn(move || {
        let mut builder = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_protocol(protocol);
        if let Some(url) = &endpoint {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(format!(
                    "--otlp {url}: not an http(s) URL of an OTLP/HTTP traces endpoint (e.g. http://127.0.0.1:4318/v1/traces)"
                ));
            }
            builder = builder.with_endpoint(url.clone());
        }
        let exporter = builder
            .build()
            .map_err(|e| format!("--otlp: cannot create the OTLP exporter: {e}"))?;
        let mut processor = BatchSpanProcessor::builder(exporter).build();
        let resource = Resource::builder_empty()
            .with_attributes([
                KeyValue::new("service.name", service),
                KeyValue::new(
                    "service.version",
                    openapi2mcp_runtime::program::get().version,
                ),
            ])
            .build();
        processor.set_resource(&resource);
        // The instrumentation is this crate, whichever program runs it.
        let scope = InstrumentationScope::builder("openapi2mcp")
            .with_version(env!("CARGO_PKG_VERSION"))
            .build();
        Ok(Sink(Arc::new(OtlpSink { processor, scope })))
    })
    .join()
    .map_err(|_| "--otlp: the exporter could not be started".to_string())?
}

impl SpanSink for OtlpSink {
    fn record(&self, span: FinishedSpan) {
        if let Some(data) = span_data(span, &self.scope) {
            self.processor.on_end(data);
        }
    }

    fn flush(&self) {
        if let Err(e) = self.processor.shutdown_with_timeout(FLUSH_TIMEOUT) {
            tracing::warn!("OTLP export: the last spans may not have been sent: {e}");
        }
    }
}

/// The SDK's form of a finished span; `None` when its ids are malformed
/// (they come from this process, so that is a bug, not input).
fn span_data(span: FinishedSpan, scope: &InstrumentationScope) -> Option<SpanData> {
    let trace_id = TraceId::from_hex(&span.trace_id).ok()?;
    let span_id = SpanId::from_hex(&span.span_id).ok()?;
    let parent_span_id = match &span.parent_id {
        Some(id) => SpanId::from_hex(id).ok()?,
        None => SpanId::INVALID,
    };
    let trace_state = span
        .tracestate
        .as_deref()
        .and_then(|s| s.parse::<TraceState>().ok())
        .unwrap_or_default();
    let status = match &span.error {
        Some(description) => Status::error(description.clone()),
        None => Status::Unset,
    };
    Some(SpanData {
        span_context: SpanContext::new(trace_id, span_id, TraceFlags::SAMPLED, false, trace_state),
        parent_span_id,
        parent_span_is_remote: span.parent_remote,
        span_kind: match span.kind {
            SpanKind::Server => OtelKind::Server,
            SpanKind::Client => OtelKind::Client,
        },
        name: Cow::Owned(span.name),
        start_time: span.start,
        end_time: span.end,
        attributes: span
            .attributes
            .into_iter()
            .map(|(key, value)| {
                let value = match value {
                    AttrValue::Str(s) => OtelValue::from(s),
                    AttrValue::Int(i) => OtelValue::from(i),
                    AttrValue::Bool(b) => OtelValue::from(b),
                };
                KeyValue::new(key, value)
            })
            .collect(),
        dropped_attributes_count: 0,
        events: SpanEvents::default(),
        links: SpanLinks::default(),
        status,
        instrumentation_scope: scope.clone(),
    })
}

#[cfg(test)]
#[path = "otel_tests.rs"]
mod tests;
