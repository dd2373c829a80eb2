use std::time::{Duration, SystemTime};

use opentelemetry::trace::{SpanKind as OtelKind, Status};

use super::*;

fn finished(kind: SpanKind, error: Option<&str>) -> FinishedSpan {
    let start = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    FinishedSpan {
        trace_id: "4bf92f3577b34da6a3ce929d0e0e4736".into(),
        span_id: "00f067aa0ba902b7".into(),
        parent_id: Some("b7ad6b7169203331".into()),
        parent_remote: true,
        name: "tools/call get_pet".into(),
        kind,
        start,
        end: start + Duration::from_millis(12),
        attributes: vec![
            ("mcp.method.name", "tools/call".into()),
            ("jsonrpc.request.id", "7".into()),
            ("http.response.status_code", 200i64.into()),
            ("flag", AttrValue::Bool(true)),
        ],
        error: error.map(str::to_string),
        tracestate: Some("congo=t61rcWkgMzE".into()),
    }
}

#[test]
fn a_finished_span_keeps_its_ids_times_attributes_and_status() {
    let scope = InstrumentationScope::builder("openapi2mcp").build();
    let data = span_data(finished(SpanKind::Server, None), &scope).unwrap();
    assert_eq!(
        data.span_context.trace_id().to_string(),
        "4bf92f3577b34da6a3ce929d0e0e4736"
    );
    assert_eq!(data.span_context.span_id().to_string(), "00f067aa0ba902b7");
    assert_eq!(data.parent_span_id.to_string(), "b7ad6b7169203331");
    assert!(data.parent_span_is_remote);
    assert_eq!(data.span_kind, OtelKind::Server);
    assert_eq!(data.name, "tools/call get_pet");
    assert_eq!(
        data.end_time.duration_since(data.start_time).unwrap(),
        Duration::from_millis(12)
    );
    assert_eq!(data.status, Status::Unset);
    assert_eq!(
        data.span_context.trace_state().header(),
        "congo=t61rcWkgMzE"
    );
    let attribute = |key: &str| {
        data.attributes
            .iter()
            .find(|kv| kv.key.as_str() == key)
            .map(|kv| kv.value.clone())
    };
    assert_eq!(attribute("mcp.method.name"), Some("tools/call".into()));
    assert_eq!(attribute("http.response.status_code"), Some(200i64.into()));
    assert_eq!(attribute("flag"), Some(true.into()));
}

#[test]
fn errors_set_the_status_and_roots_have_no_parent() {
    let scope = InstrumentationScope::builder("openapi2mcp").build();
    let mut span = finished(SpanKind::Client, Some("tool_error"));
    span.parent_id = None;
    let data = span_data(span, &scope).unwrap();
    assert_eq!(data.span_kind, OtelKind::Client);
    assert_eq!(data.status, Status::error("tool_error"));
    assert_eq!(data.parent_span_id, SpanId::INVALID);
    let mut broken = finished(SpanKind::Client, None);
    broken.trace_id = "not hex".into();
    assert!(span_data(broken, &scope).is_none());
}

#[test]
fn unsupported_protocols_and_urls_are_refused_clearly() {
    let err = start(Some("localhost:4318"), "t").unwrap_err();
    assert!(err.contains("--otlp localhost:4318"), "{err}");
}
