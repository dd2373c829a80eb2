//! `--otlp`: the spans of a tool call and of its API request reach an
//! OTLP/HTTP collector on loopback, decoded with the OpenTelemetry
//! project's own protobuf definitions (`opentelemetry-proto`), with the ids
//! that went on the wire and the MCP semantic conventions' names.

use std::time::Duration;

use openapi2mcp::server::Bridge;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use serde_json::{Value, json};

use crate::backend::{Backend, Recorded, Reply};
use crate::protocol::{http_server, meta_2026};
use crate::serve::{pet_reply, petstore};

fn accepted(_: &Recorded) -> Reply {
    (200, "application/x-protobuf", Vec::new())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn attribute(span: &Span, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .find(|kv| kv.key == key)
        .and_then(|kv| kv.value.as_ref())
        .and_then(|v| v.value.as_ref())
        .map(|v| match v {
            AnyValue::StringValue(s) => s.clone(),
            AnyValue::IntValue(i) => i.to_string(),
            AnyValue::BoolValue(b) => b.to_string(),
            other => format!("{other:?}"),
        })
}

/// Every span the collector received, with the resource's service name.
fn spans(collector: &Backend) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    for request in collector.take() {
        assert_eq!(request.target, "/v1/traces");
        assert_eq!(
            request.header("content-type"),
            Some("application/x-protobuf")
        );
        let export = ExportTraceServiceRequest::decode(request.body.as_slice())
            .expect("an OTLP protobuf export");
        for resource in export.resource_spans {
            let service = resource
                .resource
                .as_ref()
                .and_then(|r| r.attributes.iter().find(|kv| kv.key == "service.name"))
                .and_then(|kv| kv.value.as_ref())
                .and_then(|v| v.value.as_ref())
                .map(|v| format!("{v:?}"))
                .unwrap_or_default();
            for scope in resource.scope_spans {
                for span in scope.spans {
                    out.push((service.clone(), span));
                }
            }
        }
    }
    out
}

async fn call(url: &str, traceparent: Option<&str>) -> Value {
    let mut params = json!({"name": "get_pet", "arguments": {"petId": 1}});
    let mut meta = meta_2026();
    if let Some(parent) = traceparent {
        meta["traceparent"] = json!(parent);
    }
    params["_meta"] = meta;
    let body = json!({"jsonrpc": "2.0", "id": 41, "method": "tools/call", "params": params});
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "get_pet")
        .body(body.to_string())
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn call_and_request_spans_reach_an_otlp_collector() {
    let backend = Backend::start(pet_reply).await;
    let collector = Backend::start(accepted).await;
    let sink = openapi2mcp::server::otel::start(
        Some(&format!("{}/v1/traces", collector.url())),
        "petstore-mcp",
    )
    .unwrap();
    let mut options = crate::protocol::petstore_on(&backend);
    options.spans = Some(sink.clone());
    let bridge = Bridge::new(petstore(), options).unwrap();
    let (url, shutdown) = http_server(bridge).await;

    // 1. The client's trace, sampled.
    let client = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    let reply = call(&url, Some(client)).await;
    assert_ne!(reply["result"]["isError"], true, "{reply}");
    let wire = backend.take()[0].header("traceparent").unwrap().to_string();
    // 2. No client trace: this server starts one.
    call(&url, None).await;
    let root_wire = backend.take()[0]
        .header("traceparent")
        .expect("a trace is started when spans are exported")
        .to_string();
    // 3. The client's trace, not sampled: continued, not exported.
    call(
        &url,
        Some("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"),
    )
    .await;
    let unsampled = backend.take()[0].header("traceparent").unwrap().to_string();
    assert!(unsampled.ends_with("-00"), "{unsampled}");
    shutdown.cancel();
    tokio::task::spawn_blocking(move || sink.0.flush())
        .await
        .unwrap();

    let spans = spans(&collector);
    assert_eq!(
        spans.len(),
        4,
        "two spans for each sampled call: {spans:#?}"
    );
    assert!(
        spans
            .iter()
            .all(|(service, _)| service.contains("petstore-mcp"))
    );
    let of_trace = |trace: &str| -> Vec<&Span> {
        spans
            .iter()
            .map(|(_, s)| s)
            .filter(|s| hex(&s.trace_id) == trace)
            .collect()
    };
    let traced = of_trace("4bf92f3577b34da6a3ce929d0e0e4736");
    let server = traced
        .iter()
        .find(|s| s.name == "tools/call get_pet")
        .expect("the call's span");
    let request = traced
        .iter()
        .find(|s| s.name == "GET")
        .expect("the request's span");
    // Kinds: SERVER = 2, CLIENT = 3 in OTLP.
    assert_eq!((server.kind, request.kind), (2, 3));
    assert_eq!(
        hex(&server.parent_span_id),
        "00f067aa0ba902b7",
        "the client's span is the parent"
    );
    assert_eq!(
        request.parent_span_id, server.span_id,
        "the request under the call"
    );
    let wire_parts: Vec<&str> = wire.split('-').collect();
    assert_eq!(
        wire_parts[2],
        hex(&request.span_id),
        "the id on the wire is the exported one"
    );
    for (key, value) in [
        ("mcp.method.name", "tools/call"),
        ("gen_ai.tool.name", "get_pet"),
        ("gen_ai.operation.name", "execute_tool"),
        ("jsonrpc.request.id", "41"),
        ("mcp.protocol.version", "2026-07-28"),
        ("network.transport", "tcp"),
    ] {
        assert_eq!(attribute(server, key).as_deref(), Some(value), "{key}");
    }
    assert_eq!(attribute(server, "error.type"), None);
    assert_eq!(
        attribute(request, "http.request.method").as_deref(),
        Some("GET")
    );
    assert_eq!(
        attribute(request, "http.response.status_code").as_deref(),
        Some("200")
    );
    assert_eq!(
        attribute(request, "url.full"),
        Some(format!("{}/v1/pets/1", backend.url()))
    );
    assert!(request.end_time_unix_nano >= request.start_time_unix_nano);
    assert!(server.end_time_unix_nano >= request.end_time_unix_nano);

    let root_parts: Vec<&str> = root_wire.split('-').collect();
    let started = of_trace(root_parts[1]);
    assert_eq!(started.len(), 2, "{started:#?}");
    let root = started.iter().find(|s| s.kind == 2).unwrap();
    assert!(root.parent_span_id.is_empty(), "a root span");
}
