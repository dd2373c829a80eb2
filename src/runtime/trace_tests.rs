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
