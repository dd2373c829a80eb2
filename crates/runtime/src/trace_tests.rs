use super::*;

const CLIENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

#[test]
fn traceparent_is_read_strictly() {
    let (trace, parent, flags) = parse(CLIENT).unwrap();
    assert_eq!(trace, "4bf92f3577b34da6a3ce929d0e0e4736");
    assert_eq!(parent, "00f067aa0ba902b7");
    assert_eq!(flags, "01");
    for bad in [
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
    ] {
        assert!(parse(bad).is_none(), "{bad}");
    }
}

#[test]
fn a_call_continues_the_clients_trace_with_a_span_of_its_own() {
    let a = TraceContext::child_of(CLIENT, Some("vendor=x")).unwrap();
    let b = TraceContext::child_of(CLIENT, None).unwrap();
    assert!(
        a.traceparent()
            .starts_with("00-4bf92f3577b34da6a3ce929d0e0e4736-")
    );
    assert!(a.traceparent().ends_with("-01"));
    assert_ne!(a.span_id, "00f067aa0ba902b7");
    assert_ne!(a.span_id, b.span_id, "each call its own span");
    assert!(is_hex(&a.span_id, 16));
    assert_eq!(a.tracestate.as_deref(), Some("vendor=x"));
}

#[tokio::test]
async fn the_context_is_seen_inside_its_scope_only() {
    let ctx = TraceContext::child_of(CLIENT, None);
    let inside = scope(ctx.clone(), async { current() }).await;
    assert_eq!(inside, ctx);
    assert_eq!(current(), None);
    assert_eq!(scope(None, async { current() }).await, None);
}

struct Count(std::sync::Mutex<Vec<String>>);

impl SpanSink for Count {
    fn record(&self, span: FinishedSpan) {
        self.0.lock().unwrap().push(span.name);
    }
}

fn span(name: &str) -> FinishedSpan {
    FinishedSpan {
        trace_id: "4bf92f3577b34da6a3ce929d0e0e4736".into(),
        span_id: "00f067aa0ba902b7".into(),
        parent_id: None,
        parent_remote: false,
        name: name.into(),
        kind: SpanKind::Server,
        start: SystemTime::now(),
        end: SystemTime::now(),
        attributes: Vec::new(),
        error: None,
        tracestate: None,
    }
}

#[test]
fn only_sampled_traces_with_a_sink_record_spans() {
    let count = Arc::new(Count(Default::default()));
    let sink = Sink(count.clone());
    let root = TraceContext::root();
    assert!(is_hex(&root.trace_id, 32) && is_hex(&root.span_id, 16));
    assert_eq!(root.parent_id, None);
    assert!(root.sampled());
    assert!(!root.records(), "no sink, nothing recorded");
    root.record(span("dropped"));
    let root = root.exporting(Some(sink.clone()));
    assert!(root.records());
    root.record(span("kept"));
    let unsampled = TraceContext::child_of(
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
        None,
    )
    .unwrap()
    .exporting(Some(sink));
    assert!(!unsampled.sampled() && !unsampled.records());
    unsampled.record(span("unsampled"));
    assert_eq!(*count.0.lock().unwrap(), vec!["kept".to_string()]);
    // Each request gets its own span id under the call's.
    let a = root.child_span_id();
    assert_ne!(a, root.span_id);
    assert!(root.traceparent_for(&a).contains(&a));
}
