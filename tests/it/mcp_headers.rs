//! `x-mcp-header` end to end (MCP 2026-07-28, SEP-2243): the routing
//! header parameters of `specs/invoicing.yaml` are listed with the
//! annotation, a 2026-07-28 client mirrors them into `Mcp-Param-*`
//! headers, and the server refuses a request whose header disagrees with
//! its body before anything reaches the API (a real backend on
//! 127.0.0.1 records what does).

use std::time::Duration;

use openapi2mcp::server::modes::{ListingOptions, ToolsMode};
use openapi2mcp::server::transport::{HttpTransportOptions, bind_http};
use openapi2mcp::server::{Bridge, ServeOptions};
use rmcp::ServerHandler;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::backend::{Backend, Recorded, Reply};
use crate::serve::{catalog_at, petstore};
use crate::support::call;
use crate::support::local;

const V2026: &str = "2026-07-28";

fn invoices_reply(_: &Recorded) -> Reply {
    (
        200,
        "application/json",
        br#"{"items": [{"id": "inv_1", "customer_id": "cus_1", "status": "open", "currency": "EUR", "total": 100}], "next_cursor": null}"#.to_vec(),
    )
}

fn options(backend: &Backend) -> ServeOptions {
    ServeOptions {
        base_url: Some(backend.url()),
        ..ServeOptions::default()
    }
}

/// A server over `specs/invoicing.yaml` on 127.0.0.1, calling `backend`.
struct Running {
    url: String,
    shutdown: CancellationToken,
    server: tokio::task::JoinHandle<Result<(), openapi2mcp::server::ServeError>>,
}

impl Running {
    async fn start(backend: &Backend, stateless: bool) -> Self {
        let catalog = catalog_at(&local("specs/invoicing.yaml"));
        let bridge = Bridge::new(catalog, options(backend)).unwrap();
        let shutdown = CancellationToken::new();
        let bound = bind_http(
            bridge,
            HttpTransportOptions {
                listen: "127.0.0.1:0".parse().unwrap(),
                stateless,
                ..HttpTransportOptions::default()
            },
            shutdown.clone(),
        )
        .await
        .unwrap();
        Self {
            url: format!("http://{}/mcp", bound.local_addr),
            shutdown,
            server: tokio::spawn(bound.run()),
        }
    }

    async fn stop(self) {
        self.shutdown.cancel();
        tokio::time::timeout(Duration::from_secs(10), self.server)
            .await
            .unwrap()
            .unwrap()
            .unwrap();
    }
}

/// One self-contained 2026-07-28 request (no session): its HTTP status
/// and JSON-RPC message (from a JSON or an event-stream answer).
pub(crate) async fn rpc(
    url: &str,
    method: &str,
    params: Value,
    headers: &[(&str, &str)],
) -> (u16, Value) {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": V2026,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "it", "version": "1"},
    });
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    let mut req = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", V2026)
        .header("mcp-method", method);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = tokio::time::timeout(Duration::from_secs(20), req.body(body.to_string()).send())
        .await
        .expect("answered in time")
        .unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    let message = serde_json::from_str(&text).ok().unwrap_or_else(|| {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .find(|m| m.get("id").is_some())
            .unwrap_or_else(|| panic!("no JSON-RPC answer in {text:?}"))
    });
    (status, message)
}

async fn list_invoices(url: &str, tenant_in_body: &str, headers: &[(&str, &str)]) -> (u16, Value) {
    let mut all = vec![("mcp-name", "list_invoices")];
    all.extend_from_slice(headers);
    rpc(
        url,
        "tools/call",
        json!({"name": "list_invoices", "arguments": {"X-Tenant-ID": tenant_in_body, "limit": 5}}),
        &all,
    )
    .await
}

#[tokio::test]
async fn routing_headers_are_listed_with_x_mcp_header_and_credentials_are_not() {
    let backend = Backend::start(invoices_reply).await;
    let running = Running::start(&backend, false).await;
    let (status, listed) = rpc(&running.url, "tools/list", json!({}), &[]).await;
    assert_eq!(status, 200, "{listed}");
    let tools = listed["result"]["tools"].as_array().unwrap();
    let props = |name: &str| -> Value {
        tools.iter().find(|t| t["name"] == name).unwrap()["inputSchema"]["properties"].clone()
    };
    let create = props("create_invoice");
    assert_eq!(create["X-Tenant-ID"]["x-mcp-header"], "X-Tenant-ID");
    assert_eq!(create["X-Tenant-ID"]["type"], "string");
    assert_eq!(create["X-Data-Region"]["x-mcp-header"], "X-Data-Region");
    assert!(create["Idempotency-Key"].get("x-mcp-header").is_none());
    assert!(
        props("update_invoice")["If-Match"]
            .get("x-mcp-header")
            .is_none()
    );
    // The document's own x-mcp-header, on a query parameter.
    assert_eq!(
        props("get_revenue_report")["region"]["x-mcp-header"],
        "Region"
    );
    // The API key is a credential: never an argument, never mirrored.
    assert!(!listed.to_string().contains("X-Api-Key"));
    running.stop().await;
}

#[tokio::test]
async fn a_matching_mcp_param_header_passes_and_a_mismatch_is_refused_before_the_api() {
    for stateless in [false, true] {
        let backend = Backend::start(invoices_reply).await;
        let running = Running::start(&backend, stateless).await;
        let url = &running.url;

        let (status, answer) =
            list_invoices(url, "acme", &[("mcp-param-x-tenant-id", "acme")]).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
        let seen = backend.take();
        assert_eq!(seen.len(), 1, "stateless={stateless}");
        assert_eq!(seen[0].header("x-tenant-id"), Some("acme"));

        // Base64-wrapped (SEP-2243's encoding for unsafe values) also matches.
        let (status, answer) = list_invoices(
            url,
            "acme",
            &[("Mcp-Param-X-Tenant-ID", "=?base64?YWNtZQ==?=")],
        )
        .await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(backend.take().len(), 1);

        // A load balancer routed on `globex`; the body acts for `acme`.
        let (status, answer) =
            list_invoices(url, "acme", &[("Mcp-Param-X-Tenant-ID", "globex")]).await;
        assert_eq!(status, 400, "{answer}");
        assert_eq!(answer["error"]["code"], -32020, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains("Mcp-Param-X-Tenant-ID"), "{message}");

        // Header left out while the body has the value: refused too.
        let (status, answer) = list_invoices(url, "acme", &[]).await;
        assert_eq!(status, 400, "{answer}");
        assert_eq!(answer["error"]["code"], -32020, "{answer}");

        assert!(
            backend.take().is_empty(),
            "a refused request must not reach the API (stateless={stateless})"
        );
        running.stop().await;
    }
}

#[tokio::test]
async fn older_protocol_versions_are_not_asked_for_mcp_param_headers() {
    let backend = Backend::start(invoices_reply).await;
    let running = Running::start(&backend, true).await;
    let res = reqwest::Client::new()
        .post(&running.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "list_invoices", "arguments": {"X-Tenant-ID": "acme"}}})
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(backend.take().len(), 1);
    running.stop().await;
}

#[tokio::test]
async fn get_tool_hands_rmcp_only_listed_tools_with_mirrored_arguments() {
    let backend = Backend::start(invoices_reply).await;
    let bridge = Bridge::new(
        catalog_at(&local("specs/invoicing.yaml")),
        options(&backend),
    )
    .unwrap();
    let tool = bridge.get_tool("list_invoices").expect("annotated tool");
    assert_eq!(tool.name, "list_invoices");
    assert_eq!(
        tool.input_schema["properties"]["X-Tenant-ID"]["x-mcp-header"],
        "X-Tenant-ID"
    );
    assert!(bridge.get_tool("no_such_tool").is_none());
    // Petstore has no routing header: we validate its arguments ourselves.
    let pets = Bridge::new(petstore(), options(&backend)).unwrap();
    assert!(pets.get_tool("get_pet").is_none());
    // Discovery mode lists meta-tools only: no client has seen the schema.
    let discovery = Bridge::new(
        catalog_at(&local("specs/invoicing.yaml")),
        ServeOptions {
            listing: ListingOptions {
                mode: ToolsMode::Discovery,
                ..ListingOptions::default()
            },
            ..options(&backend)
        },
    )
    .unwrap();
    assert!(discovery.get_tool("list_invoices").is_none());
    // Toolsets mode: a tool any session can list is checked.
    let toolsets = Bridge::new(
        catalog_at(&local("specs/invoicing.yaml")),
        ServeOptions {
            listing: ListingOptions {
                mode: ToolsMode::Toolsets,
                ..ListingOptions::default()
            },
            ..options(&backend)
        },
    )
    .unwrap();
    assert!(toolsets.get_tool("get_revenue_report").is_some());
}

#[tokio::test]
async fn an_rmcp_client_on_2026_07_28_accepts_the_tools_and_mirrors_the_header() {
    use rmcp::model::ProtocolVersion;
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::{ClientLifecycleMode, ClientServiceExt};
    let backend = Backend::start(invoices_reply).await;
    let running = Running::start(&backend, false).await;
    let transport = StreamableHttpClientTransport::from_uri(running.url.clone());
    let client = tokio::time::timeout(
        Duration::from_secs(20),
        ().serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        ),
    )
    .await
    .unwrap()
    .expect("client connects on 2026-07-28");
    // rmcp's client drops a tool whose x-mcp-header annotations are
    // invalid: every tool must survive.
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(
        tools.len(),
        9,
        "{:?}",
        tools.iter().map(|t| &t.name).collect::<Vec<_>>()
    );
    let result = call(&client, "list_invoices", json!({"X-Tenant-ID": "acme"})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let seen = backend.take();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].header("x-tenant-id"), Some("acme"));
    client.cancel().await.unwrap();
    running.stop().await;
}
