//! MCP 2026-07-28 end to end: a client of the new revision (rmcp's, in
//! `Discover` lifecycle: no initialize, per-request `_meta`) hears of a
//! reload over `subscriptions/listen`; raw JSON-RPC over stateless
//! streamable HTTP sees truthful capabilities, caching hints, `resultType`
//! and the server's identity in `_meta`, while a 2025 request keeps the
//! older shapes.

use std::sync::Arc;
use std::time::Duration;

use openapi2mcp::runtime::schemas::Schemas;
use openapi2mcp::server::transport::{HttpTransportOptions, bind_http};
use openapi2mcp::server::{Bridge, ServeOptions};
use rmcp::model::{ProtocolVersion, ServerNotification, SubscriptionFilter};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use crate::serve::{catalog_at, petstore};
use crate::support::local;

/// The `_meta` every 2026-07-28 request carries.
pub(crate) fn meta_2026() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "it", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// A stateless streamable HTTP server over `bridge`; its URL and the token
/// that stops it.
pub(crate) async fn http_server(bridge: Bridge) -> (String, CancellationToken) {
    let shutdown = CancellationToken::new();
    let bound = bind_http(
        bridge,
        HttpTransportOptions {
            listen: "127.0.0.1:0".parse().unwrap(),
            stateless: true,
            ..HttpTransportOptions::default()
        },
        shutdown.clone(),
    )
    .await
    .unwrap();
    let url = format!("http://{}/mcp", bound.local_addr);
    tokio::spawn(bound.run());
    (url, shutdown)
}

/// One JSON-RPC request over HTTP with `version` in the header (and, for
/// 2026-07-28, in `_meta`); the HTTP status and the JSON-RPC message.
pub(crate) async fn rpc(url: &str, version: &str, method: &str, params: Value) -> (u16, Value) {
    let mut params = params;
    if version >= "2026-07-28" {
        params["_meta"] = meta_2026();
    }
    // SEP-2243: the routing name mirrored into `Mcp-Name`.
    let name = ["name", "uri", "taskId"]
        .iter()
        .find_map(|k| params.get(*k).and_then(Value::as_str))
        .unwrap_or_default()
        .to_string();
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    let mut request = reqwest::Client::new().post(url);
    if !name.is_empty() && method != "prompts/list" {
        request = request.header("mcp-name", name);
    }
    let res = request
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", version)
        .header("mcp-method", method)
        .body(body.to_string())
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    // JSON, or SSE whose last data line is the response.
    let json = serde_json::from_str(&text).unwrap_or_else(|_| {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .rfind(|m| m.get("id").is_some())
            .unwrap_or_else(|| panic!("no JSON-RPC response in {text}"))
    });
    (status, json)
}

#[tokio::test]
async fn a_2026_client_hears_of_a_reload_on_its_listen_stream() {
    let bridge = Bridge::new(petstore(), ServeOptions::default()).unwrap();
    let handle = bridge.clone();
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = rmcp::ServiceExt::serve(bridge, server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = ()
        .serve_with_lifecycle(
            client_io,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("a 2026-07-28 client connects without initialize");
    let mut filter = SubscriptionFilter::new();
    filter.tools_list_changed = Some(true);
    let mut subscription = client.listen(filter).await.expect("listen is acknowledged");
    assert_eq!(subscription.acknowledged().tools_list_changed, Some(true));
    // The API's tools, get_call_result aside (reload counts those).
    let before = client.list_all_tools().await.unwrap().len() - 1;

    // A reload to a bigger document: the stream hears of it.
    let bigger = catalog_at(&local("specs/features.yaml"));
    let count = handle.reload(bigger, Schemas::default()).await.unwrap();
    assert_ne!(
        count, before,
        "the reload must change the list for this test to mean anything"
    );
    let heard = tokio::time::timeout(Duration::from_secs(10), subscription.next())
        .await
        .expect("a notification within 10 s")
        .expect("the stream is healthy")
        .expect("the stream is open");
    assert!(
        matches!(heard, ServerNotification::ToolListChangedNotification(_)),
        "{heard:?}"
    );
    assert_eq!(client.list_all_tools().await.unwrap().len(), count + 1);
    subscription.cancel().await.unwrap();
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn stateless_answers_carry_truthful_capabilities_and_cache_hints() {
    let bridge = Bridge::new(petstore(), ServeOptions::default()).unwrap();
    let (url, shutdown) = http_server(bridge).await;

    let (status, discover) = rpc(&url, "2026-07-28", "server/discover", json!({})).await;
    assert_eq!(status, 200, "{discover}");
    let result = &discover["result"];
    let caps = &result["capabilities"];
    assert_eq!(caps["tools"]["listChanged"], true, "{result}");
    assert_eq!(caps["resources"]["listChanged"], true, "{result}");
    assert!(
        caps.get("prompts").is_some(),
        "prompts/list is answered: {result}"
    );
    assert_eq!(result["cacheScope"], "public", "{result}");
    assert!(result["ttlMs"].as_u64().unwrap() > 0, "{result}");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "openapi2mcp"
    );

    // The same list for everyone: public, with a real TTL, and the server named.
    let (_, list) = rpc(&url, "2026-07-28", "tools/list", json!({})).await;
    let result = &list["result"];
    assert_eq!(result["resultType"], "complete", "{result}");
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(result["ttlMs"], 300_000);
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "openapi2mcp"
    );
    let (_, prompts) = rpc(&url, "2026-07-28", "prompts/list", json!({})).await;
    assert_eq!(prompts["result"]["prompts"], json!([]), "{prompts}");
    assert_eq!(prompts["result"]["cacheScope"], "public", "{prompts}");

    let (_, read) = rpc(
        &url,
        "2026-07-28",
        "resources/read",
        json!({"uri": "openapi2mcp://tools/get_pet/input-schema"}),
    )
    .await;
    let result = &read["result"];
    assert_eq!(result["resultType"], "complete", "{read}");
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(result["contents"][0]["mimeType"], "application/schema+json");
    assert!(result["_meta"]["io.modelcontextprotocol/serverInfo"].is_object());

    let (_, call) = rpc(
        &url,
        "2026-07-28",
        "tools/call",
        json!({"name": "get_pet", "arguments": {}}),
    )
    .await;
    let result = &call["result"];
    assert_eq!(result["resultType"], "complete", "{call}");
    assert!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"].is_object(),
        "{call}"
    );

    // A 2025 request keeps the older shapes: no resultType, no stamp.
    let (_, old) = rpc(&url, "2025-06-18", "tools/list", json!({})).await;
    let result = &old["result"];
    assert!(result.get("resultType").is_none(), "{result}");
    assert!(result.get("_meta").is_none(), "{result}");
    shutdown.cancel();
}

#[tokio::test]
async fn lists_behind_a_token_are_private() {
    // Behind --auth-token a shared cache must not hand the list to anyone.
    let bridge = Bridge::new(petstore(), ServeOptions::default()).unwrap();
    let shutdown = CancellationToken::new();
    let bound = bind_http(
        bridge,
        HttpTransportOptions {
            listen: "127.0.0.1:0".parse().unwrap(),
            stateless: true,
            auth_token: Some("s3cret-token".into()),
            ..HttpTransportOptions::default()
        },
        shutdown.clone(),
    )
    .await
    .unwrap();
    let url = format!("http://{}/mcp", bound.local_addr);
    tokio::spawn(bound.run());
    let mut params = json!({});
    params["_meta"] = meta_2026();
    let res = reqwest::Client::new()
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/list")
        .header("authorization", "Bearer s3cret-token")
        .body(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params})
                .to_string(),
        )
        .send()
        .await
        .unwrap();
    let list: Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    assert_eq!(list["result"]["cacheScope"], "private", "{list}");
    shutdown.cancel();
}

// --- confirmation before destructive calls -------------------------------

use crate::backend::Backend;
use crate::serve::pet_reply;
use openapi2mcp::server::modes::{ListingOptions, ToolsMode};
use rmcp::handler::client::ClientHandler;
use rmcp::model::{
    CallToolRequestParams, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction,
};
use rmcp::service::{RequestContext, RoleClient};

pub(crate) fn petstore_on(backend: &Backend) -> ServeOptions {
    ServeOptions {
        base_url: Some(format!("{}/v1", backend.url())),
        ..ServeOptions::default()
    }
}

/// `rpc`, with the 2026 `_meta` declaring elicitation (or not).
pub(crate) async fn call_2026(url: &str, params: Value, elicitation: bool) -> (u16, Value) {
    let mut params = params;
    let mut meta = meta_2026();
    if elicitation {
        meta["io.modelcontextprotocol/clientCapabilities"] = json!({"elicitation": {}});
    }
    params["_meta"] = meta;
    let name = params["name"].as_str().unwrap_or_default().to_string();
    let body = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": params});
    let res = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", name)
        .body(body.to_string())
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, reply_of(&res.text().await.unwrap()))
}

fn answer(action: &str, ticked: Option<bool>) -> Value {
    match ticked {
        Some(t) => json!({"action": action, "content": {"confirm": t}}),
        None => json!({"action": action}),
    }
}

#[tokio::test]
async fn a_2026_client_confirms_a_delete_before_anything_is_sent() {
    let backend = Backend::start(pet_reply).await;
    let bridge = Bridge::new(petstore(), petstore_on(&backend)).unwrap();
    let (url, shutdown) = http_server(bridge).await;
    let first = json!({"name": "delete_pet", "arguments": {"petId": 1}});

    // The question: the resolved request, and a sealed state; nothing sent.
    let (_, asked) = call_2026(&url, first.clone(), true).await;
    let result = &asked["result"];
    assert_eq!(result["resultType"], "input_required", "{asked}");
    let question = &result["inputRequests"]["confirm"];
    assert_eq!(question["method"], "elicitation/create", "{asked}");
    assert_eq!(question["params"]["mode"], "form");
    let message = question["params"]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("DELETE {}/v1/pets/1", backend.url())),
        "{message}"
    );
    let state = result["requestState"].as_str().unwrap().to_string();
    assert!(
        backend.take().is_empty(),
        "nothing is sent before the answer"
    );

    // Declined, cancelled, or submitted unticked: still nothing sent.
    for (action, ticked, says) in [
        ("decline", None, "declined"),
        ("cancel", None, "dismissed"),
        ("accept", Some(false), "declined"),
    ] {
        let mut retry = first.clone();
        retry["inputResponses"] = json!({"confirm": answer(action, ticked)});
        retry["requestState"] = json!(state);
        let (_, refused) = call_2026(&url, retry, true).await;
        assert_eq!(refused["result"]["isError"], true, "{refused}");
        let text = refused["result"]["content"][0]["text"].as_str().unwrap();
        assert!(
            text.starts_with("Not sent") && text.contains(says),
            "{text}"
        );
        assert!(backend.take().is_empty(), "{action} sends nothing");
    }

    // The same state for other arguments is no confirmation of them: asked again.
    let mut other = json!({"name": "delete_pet", "arguments": {"petId": 2}});
    other["inputResponses"] = json!({"confirm": answer("accept", Some(true))});
    other["requestState"] = json!(state);
    let (_, again) = call_2026(&url, other, true).await;
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");
    assert!(backend.take().is_empty());

    // A state altered on the way: refused as such.
    let mut forged = first.clone();
    forged["inputResponses"] = json!({"confirm": answer("accept", Some(true))});
    let mut chars: Vec<char> = state.chars().collect();
    let i = chars.len() / 2;
    chars[i] = if chars[i] == 'A' { 'B' } else { 'A' };
    forged["requestState"] = json!(chars.into_iter().collect::<String>());
    let (_, refused) = call_2026(&url, forged, true).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(backend.take().is_empty());

    // Accepted: exactly the request shown is sent, once.
    let mut accepted = first.clone();
    accepted["inputResponses"] = json!({"confirm": answer("accept", Some(true))});
    accepted["requestState"] = json!(state);
    let (_, done) = call_2026(&url, accepted, true).await;
    assert_ne!(done["result"]["isError"], true, "{done}");
    let seen = backend.take();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        (seen[0].method.as_str(), seen[0].target.as_str()),
        ("DELETE", "/v1/pets/1")
    );

    // Reads are never asked about.
    let (_, read) = call_2026(
        &url,
        json!({"name": "get_pet", "arguments": {"petId": 1}}),
        true,
    )
    .await;
    assert_eq!(read["result"]["resultType"], "complete", "{read}");
    shutdown.cancel();
}

#[tokio::test]
async fn clients_that_cannot_be_asked_are_refused_or_let_through_as_configured() {
    let backend = Backend::start(pet_reply).await;
    let delete = json!({"name": "delete_pet", "arguments": {"petId": 1}});

    // By default (--unconfirmed allow): sent without asking, on 2026-07-28
    // and on an older revision over stateless HTTP, the host's own
    // approval relied on.
    let (url, shutdown) =
        http_server(Bridge::new(petstore(), petstore_on(&backend)).unwrap()).await;
    let (_, sent) = call_2026(&url, delete.clone(), false).await;
    assert_ne!(sent["result"]["isError"], true, "{sent}");
    let (_, old) = rpc(&url, "2025-06-18", "tools/call", delete.clone()).await;
    assert_ne!(old["result"]["isError"], true, "{old}");
    assert_eq!(backend.take().len(), 2);
    shutdown.cancel();

    // --unconfirmed refuse, 2026-07-28 without elicitation: -32021 naming
    // the capability, HTTP 400.
    let mut strict = petstore_on(&backend);
    strict.unconfirmed = openapi2mcp::server::confirm::Unconfirmable::Refuse;
    let bridge = Bridge::new(petstore(), strict).unwrap();
    let (url, shutdown) = http_server(bridge).await;
    let (status, refused) = call_2026(&url, delete.clone(), false).await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert!(
        refused["error"]["data"]["requiredCapabilities"]["elicitation"].is_object(),
        "{refused}"
    );
    assert_eq!(status, 400);
    // Older revision over stateless HTTP: no way to ask, a tool error that says why.
    let (_, old) = rpc(&url, "2025-06-18", "tools/call", delete.clone()).await;
    let text = old["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert_eq!(old["result"]["isError"], true, "{old}");
    assert!(
        text.contains("--unconfirmed refuse") && text.contains("--confirm none"),
        "{text}"
    );
    assert!(backend.take().is_empty());
    shutdown.cancel();

    // --confirm writes: a POST is asked about too; in discovery mode the
    // call_tool meta-tool asks the same way.
    let mut options = petstore_on(&backend);
    options.confirm = openapi2mcp::server::confirm::ConfirmPolicy::Writes;
    options.listing = ListingOptions {
        mode: ToolsMode::Discovery,
        ..ListingOptions::default()
    };
    let (url, shutdown) = http_server(Bridge::new(petstore(), options).unwrap()).await;
    let through = json!({"name": "call_tool", "arguments": {"name": "create_pet", "arguments": {"name": "Bob"}}});
    let (_, asked) = call_2026(&url, through, true).await;
    assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");
    let message = asked["result"]["inputRequests"]["confirm"]["params"]["message"]
        .as_str()
        .unwrap();
    assert!(
        message.contains("POST") && message.contains("Bob"),
        "{message}"
    );
    assert!(backend.take().is_empty());
    // Arguments the call would refuse are refused, not asked about.
    let invalid = json!({"name": "call_tool", "arguments": {"name": "create_pet", "arguments": {"body": {"name": "Bob"}}}});
    let (_, refused) = call_2026(&url, invalid, true).await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert!(backend.take().is_empty());
    shutdown.cancel();
}

/// An older-revision client with a session that answers `elicitation/create`.
#[derive(Clone)]
struct Answering(ElicitationAction, Option<bool>);

impl ClientHandler for Answering {
    fn get_info(&self) -> ClientConfig {
        serde_json::from_value(json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "answering", "version": "1"}
        }))
        .unwrap()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        let ElicitRequestParams::FormElicitationParams { message, .. } = request else {
            panic!("a form was expected");
        };
        assert!(message.contains("DELETE"), "{message}");
        let mut result = ElicitResult::new(self.0.clone());
        if let Some(t) = self.1 {
            result = result.with_content(json!({"confirm": t}));
        }
        Ok(result)
    }
}

#[tokio::test]
async fn an_older_client_is_asked_over_its_session() {
    let backend = Backend::start(pet_reply).await;
    for (answering, sent) in [
        (Answering(ElicitationAction::Accept, Some(true)), 1),
        (Answering(ElicitationAction::Decline, None), 0),
        (Answering(ElicitationAction::Cancel, None), 0),
    ] {
        let bridge = Bridge::new(petstore(), petstore_on(&backend)).unwrap();
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            if let Ok(running) = rmcp::ServiceExt::serve(bridge, server_io).await {
                let _ = running.waiting().await;
            }
        });
        let client = rmcp::ServiceExt::serve(answering.clone(), client_io)
            .await
            .unwrap();
        let params = CallToolRequestParams::new("delete_pet")
            .with_arguments(json!({"petId": 1}).as_object().unwrap().clone());
        let result = client.call_tool(params).await.unwrap();
        assert_eq!(result.is_error == Some(true), sent == 0, "{result:?}");
        assert_eq!(backend.take().len(), sent, "{:?}", answering.0);
        client.cancel().await.unwrap();
    }

    // A session client without elicitation (claude.ai, Gemini CLI,
    // opencode declare none): sent by default, the host's own approval
    // relied on; refused with --unconfirmed refuse, nothing sent.
    for (unconfirmed, sent) in [
        (openapi2mcp::server::confirm::Unconfirmable::Allow, 1),
        (openapi2mcp::server::confirm::Unconfirmable::Refuse, 0),
    ] {
        let mut options = petstore_on(&backend);
        options.unconfirmed = unconfirmed;
        let bridge = Bridge::new(petstore(), options).unwrap();
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            if let Ok(running) = rmcp::ServiceExt::serve(bridge, server_io).await {
                let _ = running.waiting().await;
            }
        });
        let client = rmcp::ServiceExt::serve((), client_io).await.unwrap();
        let params = CallToolRequestParams::new("delete_pet")
            .with_arguments(json!({"petId": 1}).as_object().unwrap().clone());
        let result = client.call_tool(params).await.unwrap();
        assert_eq!(result.is_error, Some(sent == 0), "{result:?}");
        assert_eq!(backend.take().len(), sent, "{unconfirmed:?}");
        client.cancel().await.unwrap();
    }
}

// --- missing required arguments ------------------------------------------

#[tokio::test]
async fn a_2026_client_is_asked_for_missing_arguments_then_to_confirm() {
    let backend = Backend::start(pet_reply).await;
    let bridge = Bridge::new(petstore(), petstore_on(&backend)).unwrap();
    let (url, shutdown) = http_server(bridge).await;
    let first = json!({"name": "delete_pet", "arguments": {}});

    // Round 1: the form for the missing `petId`.
    let (_, asked) = call_2026(&url, first.clone(), true).await;
    let result = &asked["result"];
    assert_eq!(result["resultType"], "input_required", "{asked}");
    let form = &result["inputRequests"]["arguments"]["params"];
    assert_eq!(form["mode"], "form", "{asked}");
    assert_eq!(form["requestedSchema"]["required"], json!(["petId"]));
    assert_eq!(
        form["requestedSchema"]["properties"]["petId"]["type"],
        "integer"
    );
    assert!(result["inputRequests"].get("confirm").is_none(), "{asked}");
    let args_state = result["requestState"].as_str().unwrap().to_string();

    // A confirmation answer sent with the arguments question's state is no
    // confirmation: the person never saw the request.
    let mut sneaky = first.clone();
    sneaky["inputResponses"] = json!({"confirm": answer("accept", Some(true))});
    sneaky["requestState"] = json!(args_state);
    let (_, again) = call_2026(&url, sneaky, true).await;
    assert!(
        again["result"]["inputRequests"]["arguments"].is_object(),
        "{again}"
    );
    assert!(backend.take().is_empty());

    // Declined: not sent.
    let mut declined = first.clone();
    declined["inputResponses"] = json!({"arguments": {"action": "decline"}});
    declined["requestState"] = json!(args_state);
    let (_, refused) = call_2026(&url, declined, true).await;
    let text = refused["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("Not sent") && text.contains("`petId`"),
        "{text}"
    );

    // A value of the wrong type is refused naming the field.
    let mut wrong = first.clone();
    wrong["inputResponses"] =
        json!({"arguments": {"action": "accept", "content": {"petId": "seven"}}});
    wrong["requestState"] = json!(args_state);
    let (_, refused) = call_2026(&url, wrong, true).await;
    let text = refused["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("`petId`") && text.contains("integer"),
        "{text}"
    );
    assert!(backend.take().is_empty());

    // Round 2: the value given; now the resolved request is confirmed, and
    // the new state carries the value (the retry resends only `{}`).
    let mut filled = first.clone();
    filled["inputResponses"] = json!({"arguments": {"action": "accept", "content": {"petId": 4}}});
    filled["requestState"] = json!(args_state);
    let (_, confirm) = call_2026(&url, filled, true).await;
    let question = &confirm["result"]["inputRequests"]["confirm"]["params"];
    let message = question["message"].as_str().unwrap_or_default();
    assert!(message.contains("/v1/pets/4"), "{confirm}");
    let confirm_state = confirm["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(backend.take().is_empty());

    // Round 3: accepted; the request shown is sent.
    let mut accepted = first.clone();
    accepted["inputResponses"] = json!({"confirm": answer("accept", Some(true))});
    accepted["requestState"] = json!(confirm_state);
    let (_, done) = call_2026(&url, accepted, true).await;
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    let seen = backend.take();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        (seen[0].method.as_str(), seen[0].target.as_str()),
        ("DELETE", "/v1/pets/4")
    );

    // A read is only asked for what it lacks, then sent.
    let read = json!({"name": "get_pet", "arguments": {}});
    let (_, asked) = call_2026(&url, read.clone(), true).await;
    let state = asked["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_string();
    let mut filled = read.clone();
    filled["inputResponses"] = json!({"arguments": {"action": "accept", "content": {"petId": 2}}});
    filled["requestState"] = json!(state);
    let (_, done) = call_2026(&url, filled, true).await;
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert_eq!(backend.take()[0].target, "/v1/pets/2");

    // Without elicitation, validation names what is missing.
    let (_, invalid) = call_2026(&url, read.clone(), false).await;
    let text = invalid["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert_eq!(invalid["result"]["isError"], true, "{invalid}");
    assert!(text.contains("petId"), "{text}");
    assert!(backend.take().is_empty());
    shutdown.cancel();

    // --no-ask-missing: the same.
    let mut options = petstore_on(&backend);
    options.ask_missing = false;
    let (url, shutdown) = http_server(Bridge::new(petstore(), options).unwrap()).await;
    let (_, invalid) = call_2026(&url, read, true).await;
    assert_eq!(invalid["result"]["isError"], true, "{invalid}");
    assert!(backend.take().is_empty());
    shutdown.cancel();
}

/// An older-revision client that fills the missing-arguments form with
/// `petId` and ticks confirmations, counting the forms it saw.
#[derive(Clone, Default)]
struct Filling(Arc<std::sync::Mutex<Vec<String>>>);

impl ClientHandler for Filling {
    fn get_info(&self) -> ClientConfig {
        Answering(ElicitationAction::Accept, Some(true)).get_info()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        let ElicitRequestParams::FormElicitationParams {
            requested_schema, ..
        } = request
        else {
            panic!("a form was expected");
        };
        let fields: Vec<String> = requested_schema.properties.keys().cloned().collect();
        let content = if fields.contains(&"petId".to_string()) {
            json!({"petId": 3})
        } else {
            json!({"confirm": true})
        };
        self.0.lock().unwrap().push(fields.join(","));
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content))
    }
}

#[tokio::test]
async fn an_older_client_is_asked_for_missing_arguments_over_its_session() {
    let backend = Backend::start(pet_reply).await;
    let bridge = Bridge::new(petstore(), petstore_on(&backend)).unwrap();
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = rmcp::ServiceExt::serve(bridge, server_io).await {
            let _ = running.waiting().await;
        }
    });
    let filling = Filling::default();
    let client = rmcp::ServiceExt::serve(filling.clone(), client_io)
        .await
        .unwrap();
    for (tool, method, forms) in [
        ("get_pet", "GET", vec!["petId"]),
        ("delete_pet", "DELETE", vec!["petId", "confirm"]),
    ] {
        let params = CallToolRequestParams::new(tool).with_arguments(Map::new());
        let result = client.call_tool(params).await.unwrap();
        assert_ne!(result.is_error, Some(true), "{result:?}");
        let seen = backend.take();
        assert_eq!(seen.len(), 1, "{tool}");
        assert_eq!(
            (seen[0].method.as_str(), seen[0].target.as_str()),
            (method, "/v1/pets/3")
        );
        assert_eq!(
            std::mem::take(&mut *filling.0.lock().unwrap()),
            forms,
            "{tool}"
        );
    }
    client.cancel().await.unwrap();
}

// --- tasks ------------------------------------------------------------------

/// A document whose one operation answers in 3 s on the test backend
/// (`/files/slow`).
pub(crate) fn files_catalog() -> openapi2mcp::tools::Catalog {
    let doc = json!({"openapi": "3.0.3", "info": {"title": "Files", "version": "1"}, "paths": {
        "/files/{name}": {"get": {"operationId": "getFile", "parameters": [
            {"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok", "content": {"text/plain": {"schema": {"type": "string"}}}}}}}}});
    let doc = openapi2mcp::document::Document::from_value("files.yaml", doc).unwrap();
    openapi2mcp::tools::build(&doc, &openapi2mcp::tools::BuildOptions::default()).0
}

pub(crate) fn slow_reply(r: &crate::backend::Recorded) -> crate::backend::Reply {
    (
        200,
        "text/plain",
        format!("contents of {}", r.target).into_bytes(),
    )
}

/// A 2026-07-28 request whose client declared the tasks extension.
pub(crate) async fn rpc_tasks(url: &str, method: &str, params: Value) -> Value {
    let capabilities = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    rpc_2026_as(url, None, method, params, capabilities).await
}

/// A 2026-07-28 request from a client declaring `capabilities`, sent
/// with `token` as its bearer token when given; the JSON-RPC response.
pub(crate) async fn rpc_2026_as(
    url: &str,
    token: Option<&str>,
    method: &str,
    params: Value,
    capabilities: Value,
) -> Value {
    let mut params = params;
    let mut meta = meta_2026();
    meta["io.modelcontextprotocol/clientCapabilities"] = capabilities;
    params["_meta"] = meta;
    let name = ["name", "taskId"]
        .iter()
        .find_map(|k| params.get(*k).and_then(Value::as_str))
        .unwrap_or_default()
        .to_string();
    let body = json!({"jsonrpc": "2.0", "id": 11, "method": method, "params": params});
    let mut request = reqwest::Client::new().post(url);
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let text = request
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method)
        .header("mcp-name", name)
        .body(body.to_string())
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    reply_of(&text)
}

/// The JSON-RPC response in an HTTP body: plain JSON, or the last `data:`
/// line of an SSE stream carrying one (servers with sessions stream).
pub(crate) fn reply_of(text: &str) -> Value {
    if let Ok(value) = serde_json::from_str(text) {
        return value;
    }
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .rfind(|message| message.get("id").is_some())
        .unwrap_or_else(|| panic!("no JSON-RPC response in {text}"))
}

/// Polls `tasks/get` until the task is terminal (at most 10 s).
pub(crate) async fn settle(url: &str, task_id: &str) -> Value {
    for _ in 0..100 {
        let got = rpc_tasks(url, "tasks/get", json!({"taskId": task_id})).await;
        let status = got["result"]["status"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if ["completed", "failed", "cancelled"].contains(&status.as_str()) {
            return got;
        }
        assert_eq!(status, "working", "{got}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("task {task_id} did not settle in 10 s");
}

#[tokio::test]
async fn a_slow_call_becomes_a_task_for_a_client_that_declared_tasks() {
    let backend = Backend::start(slow_reply).await;
    let options = ServeOptions {
        base_url: Some(backend.url()),
        task_after: Duration::from_millis(300),
        ..ServeOptions::default()
    };
    let (url, shutdown) = http_server(Bridge::new(files_catalog(), options).unwrap()).await;

    // tasks/get before any task: the id is unknown (-32602).
    let unknown = rpc_tasks(&url, "tasks/get", json!({"taskId": "no-such-task"})).await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");

    // Fast calls are answered directly.
    let fast = rpc_tasks(
        &url,
        "tools/call",
        json!({"name": "get_file", "arguments": {"name": "a"}}),
    )
    .await;
    assert_eq!(fast["result"]["resultType"], "complete", "{fast}");

    // A slow one becomes a task, whose result is the call's.
    let started = rpc_tasks(
        &url,
        "tools/call",
        json!({"name": "get_file", "arguments": {"name": "slow"}}),
    )
    .await;
    assert_eq!(started["result"]["resultType"], "task", "{started}");
    assert_eq!(started["result"]["status"], "working");
    let task_id = started["result"]["taskId"].as_str().unwrap().to_string();
    let done = settle(&url, &task_id).await;
    assert_eq!(done["result"]["status"], "completed", "{done}");
    assert_eq!(
        done["result"]["result"]["content"][0]["text"], "contents of /files/slow",
        "{done}"
    );

    // Cancelled: the HTTP call stops (the backend never finishes answering it).
    backend.take();
    let started = rpc_tasks(
        &url,
        "tools/call",
        json!({"name": "get_file", "arguments": {"name": "slow"}}),
    )
    .await;
    let task_id = started["result"]["taskId"].as_str().unwrap().to_string();
    let ack = rpc_tasks(&url, "tasks/cancel", json!({"taskId": task_id})).await;
    assert!(ack.get("error").is_none(), "{ack}");
    let cancelled = settle(&url, &task_id).await;
    assert_eq!(cancelled["result"]["status"], "cancelled", "{cancelled}");
    tokio::time::sleep(Duration::from_millis(3500)).await;
    assert!(
        backend.take().is_empty(),
        "the cancelled request was never completed"
    );

    // A client without the extension waits for the result, as before.
    let (_, blocking) = rpc(
        &url,
        "2026-07-28",
        "tools/call",
        json!({"name": "get_file", "arguments": {"name": "slow"}}),
    )
    .await;
    assert_eq!(blocking["result"]["resultType"], "complete", "{blocking}");
    assert_eq!(
        blocking["result"]["content"][0]["text"],
        "contents of /files/slow"
    );
    shutdown.cancel();
}

// --- toolsets chosen by the request ------------------------------------------

/// A stateless server in toolsets mode; `bound` names the `--toolset`s.
async fn toolsets_server(backend: &Backend, bound: &[&str]) -> (String, CancellationToken) {
    let mut options = petstore_on(backend);
    options.listing = ListingOptions {
        mode: ToolsMode::Toolsets,
        toolsets: bound.iter().map(|s| s.to_string()).collect(),
        ..ListingOptions::default()
    };
    let bridge = Bridge::new(petstore(), options).unwrap();
    let shutdown = CancellationToken::new();
    let bound = bind_http(
        bridge,
        HttpTransportOptions {
            listen: "127.0.0.1:0".parse().unwrap(),
            stateless: true,
            ..HttpTransportOptions::default()
        },
        shutdown.clone(),
    )
    .await
    .unwrap();
    let url = format!("http://{}", bound.local_addr);
    tokio::spawn(bound.run());
    (url, shutdown)
}

/// Tool names of `tools/list` at `path` (with an optional toolsets
/// header), or the error.
async fn names_at(
    base: &str,
    path: &str,
    header: Option<&str>,
    version: &str,
) -> Result<Vec<String>, Value> {
    let mut params = json!({});
    if version >= "2026-07-28" {
        params["_meta"] = meta_2026();
    }
    let mut request = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", version)
        .header("mcp-method", "tools/list");
    if let Some(h) = header {
        request = request.header("x-mcp-toolsets", h);
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params});
    let reply: Value = serde_json::from_str(
        &request
            .body(body.to_string())
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
    )
    .unwrap();
    match reply["result"]["tools"].as_array() {
        Some(tools) => Ok(tools
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()),
        None => Err(reply),
    }
}

#[tokio::test]
async fn stateless_toolsets_are_chosen_by_path_or_header() {
    let backend = Backend::start(pet_reply).await;
    let (base, shutdown) = toolsets_server(&backend, &[]).await;
    for version in ["2026-07-28", "2025-06-18"] {
        // Nothing chosen: only list_toolsets (no session to enable into)
        // and get_call_result.
        assert_eq!(
            names_at(&base, "/mcp", None, version).await.unwrap(),
            ["list_toolsets", "get_call_result"]
        );
        // By path, or by header: that toolset's tools.
        let by_path = names_at(&base, "/mcp/x/pets", None, version).await.unwrap();
        assert!(by_path.contains(&"get_pet".to_string()), "{by_path:?}");
        assert!(!by_path.iter().any(|n| n.contains("photo")), "{by_path:?}");
        assert!(!by_path.contains(&"enable_toolset".to_string()));
        assert_eq!(
            names_at(&base, "/mcp", Some("pets"), version)
                .await
                .unwrap(),
            by_path
        );
        let both = names_at(&base, "/mcp/x/pets,photos", None, version)
            .await
            .unwrap();
        assert!(both.contains(&"get_pet_photo".to_string()), "{both:?}");
    }
    // Unknown names and disagreeing path and header are errors that say so.
    let unknown = names_at(&base, "/mcp/x/nosuch", None, "2026-07-28")
        .await
        .unwrap_err();
    assert!(
        unknown["error"]["message"]
            .as_str()
            .unwrap()
            .contains("pets, photos"),
        "{unknown}"
    );
    let clash = names_at(&base, "/mcp/x/pets", Some("photos"), "2026-07-28")
        .await
        .unwrap_err();
    assert_eq!(clash["error"]["code"], -32602, "{clash}");

    // Calls follow the same selection.
    let call = |path: &'static str| {
        let base = base.clone();
        async move {
            let mut params = json!({"name": "get_pet", "arguments": {"petId": 1}});
            params["_meta"] = meta_2026();
            let body = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params});
            let text = reqwest::Client::new()
                .post(format!("{base}{path}"))
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", "2026-07-28")
                .header("mcp-method", "tools/call")
                .header("mcp-name", "get_pet")
                .body(body.to_string())
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            serde_json::from_str::<Value>(&text).unwrap()
        }
    };
    let allowed = call("/mcp/x/pets").await;
    assert_ne!(allowed["result"]["isError"], true, "{allowed}");
    let refused = call("/mcp/x/photos").await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert_eq!(backend.take().len(), 1);
    shutdown.cancel();

    // --toolset bounds what a request may choose.
    let (base, shutdown) = toolsets_server(&backend, &["pets"]).await;
    let plain = names_at(&base, "/mcp", None, "2026-07-28").await.unwrap();
    assert!(
        plain.contains(&"get_pet".to_string()),
        "the --toolset set by default: {plain:?}"
    );
    let outside = names_at(&base, "/mcp/x/photos", None, "2026-07-28")
        .await
        .unwrap_err();
    assert!(
        outside["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not offered"),
        "{outside}"
    );
    shutdown.cancel();
}

// --- trace context ------------------------------------------------------------

#[tokio::test]
async fn a_clients_trace_continues_into_the_api_request() {
    let backend = Backend::start(pet_reply).await;
    let (url, shutdown) =
        http_server(Bridge::new(petstore(), petstore_on(&backend)).unwrap()).await;
    let client_parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    let mut params = json!({"name": "get_pet", "arguments": {"petId": 1}});
    let mut meta = meta_2026();
    meta["traceparent"] = json!(client_parent);
    meta["tracestate"] = json!("congo=t61rcWkgMzE");
    params["_meta"] = meta;
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": params});
    let reply: Value = reqwest::Client::new()
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "get_pet")
        .body(body.to_string())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_ne!(reply["result"]["isError"], true, "{reply}");
    let seen = backend.take();
    let sent = seen[0]
        .header("traceparent")
        .expect("a traceparent on the API request");
    let parts: Vec<&str> = sent.split('-').collect();
    assert_eq!(parts[0], "00");
    assert_eq!(
        parts[1], "4bf92f3577b34da6a3ce929d0e0e4736",
        "the client's trace id"
    );
    assert_ne!(
        parts[2], "00f067aa0ba902b7",
        "this server's span is the parent"
    );
    assert_eq!(parts[3], "01");
    assert_eq!(seen[0].header("tracestate"), Some("congo=t61rcWkgMzE"));

    // No trace from the client: none invented.
    let (_, plain) = rpc(
        &url,
        "2026-07-28",
        "tools/call",
        json!({"name": "get_pet", "arguments": {"petId": 1}}),
    )
    .await;
    assert_ne!(plain["result"]["isError"], true, "{plain}");
    assert_eq!(backend.take()[0].header("traceparent"), None);
    shutdown.cancel();
}
