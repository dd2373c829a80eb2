//! The MCP Apps review form (issue #45): a host that renders apps and
//! cannot be asked through elicitation (claude.ai declares the
//! `io.modelcontextprotocol/ui` extension only) gets a destructive call
//! held for review, nothing sent; only the app-only `send_reviewed_call`,
//! with the state the server sealed, sends it, once. The form itself runs
//! in a real host library in scripts/external-clients/apps_host.mjs.

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams};
use serde_json::{Value, json};

use crate::backend::Backend;
use crate::serve::{connect, pet_reply, petstore};
use crate::support::text_of;
use openapi2mcp::server::{Bridge, ServeOptions};

/// A host declaring what claude.ai declares: MCP Apps with HTML views,
/// no elicitation.
#[derive(Clone, Default)]
struct AppsHost;

impl rmcp::ClientHandler for AppsHost {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        serde_json::from_value(json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}},
            "clientInfo": {"name": "apps-host", "version": "1"}
        }))
        .unwrap()
    }
}

type AppsClient = rmcp::service::RunningService<rmcp::RoleClient, AppsHost>;

async fn apps_client(backend: &Backend) -> AppsClient {
    let options = ServeOptions {
        base_url: Some(format!("{}/v1", backend.url())),
        ..ServeOptions::default()
    };
    let bridge = Bridge::new(petstore(), options).unwrap();
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = bridge.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    AppsHost.serve(client_io).await.expect("client connects")
}

async fn call(client: &AppsClient, name: &str, args: Value) -> rmcp::model::CallToolResult {
    let params = CallToolRequestParams::new(name.to_string())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    tokio::time::timeout(std::time::Duration::from_secs(60), client.call_tool(params))
        .await
        .expect("answered within 60 s")
        .expect("a tool result")
}

#[tokio::test]
async fn a_host_rendering_apps_reviews_a_delete_in_the_form_and_only_the_form_sends_it_once() {
    let backend = Backend::start(pet_reply).await;
    let client = apps_client(&backend).await;

    // The destructive tool names the form; the app-only tool is listed.
    let tools = client.list_all_tools().await.unwrap();
    let meta = |name: &str| {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        serde_json::to_value(&tool.meta).unwrap()
    };
    assert_eq!(
        meta("delete_pet")["ui"]["resourceUri"],
        "ui://openapi2mcp/review"
    );
    assert!(meta("get_pet").get("ui").is_none(), "a read names no form");
    assert_eq!(
        meta("send_reviewed_call")["ui"]["visibility"],
        json!(["app"])
    );
    let form = client
        .read_resource(ReadResourceRequestParams::new("ui://openapi2mcp/review"))
        .await
        .unwrap();
    let form = serde_json::to_value(&form.contents[0]).unwrap();
    assert_eq!(form["mimeType"], "text/html;profile=mcp-app");
    assert!(form["text"].as_str().unwrap().contains("ui/initialize"));

    // The call is held: nothing reaches the API; the form gets the request.
    let held = call(&client, "delete_pet", json!({"petId": 7})).await;
    assert!(backend.take().is_empty(), "nothing sent before the review");
    let text = text_of(&held);
    assert!(
        text.starts_with("Not sent yet: `delete_pet` waits for the person to review it"),
        "{text}"
    );
    let review = serde_json::to_value(&held.meta).unwrap()["openapi2mcp/review"].clone();
    assert!(
        review["request"].as_str().unwrap().contains("DELETE"),
        "{review}"
    );
    assert!(
        review["request"].as_str().unwrap().contains("/v1/pets/7"),
        "{review}"
    );
    assert!(
        !text.contains(review["state"].as_str().unwrap()),
        "the model never reads the state"
    );
    let state = review["state"].as_str().unwrap().to_string();

    // A tampered state sends nothing.
    let mut forged = state.clone();
    forged.replace_range(10..11, if &forged[10..11] == "A" { "B" } else { "A" });
    let refused = call(&client, "send_reviewed_call", json!({"state": forged})).await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text_of(&refused).contains("not issued by this server to you"),
        "{}",
        text_of(&refused)
    );
    assert!(backend.take().is_empty());

    // The form's Send: the request goes out, once.
    let sent = call(&client, "send_reviewed_call", json!({"state": state})).await;
    assert_ne!(sent.is_error, Some(true), "{}", text_of(&sent));
    let seen = backend.take();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(
        (seen[0].method.as_str(), seen[0].target.as_str()),
        ("DELETE", "/v1/pets/7")
    );
    let replay = call(&client, "send_reviewed_call", json!({"state": state})).await;
    assert_eq!(replay.is_error, Some(true));
    assert!(
        text_of(&replay).contains("used already"),
        "{}",
        text_of(&replay)
    );
    assert!(backend.take().is_empty(), "one review sends one request");
    client.cancel().await.unwrap();

    // Another client (declaring nothing) neither sees nor reaches the tool.
    let plain = connect(
        petstore(),
        ServeOptions {
            base_url: Some(format!("{}/v1", backend.url())),
            ..ServeOptions::default()
        },
    )
    .await;
    let names: Vec<String> = plain
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(
        !names.iter().any(|n| n == "send_reviewed_call"),
        "{names:?}"
    );
    let params = CallToolRequestParams::new("send_reviewed_call")
        .with_arguments(json!({"state": state}).as_object().cloned().unwrap());
    assert!(plain.call_tool(params).await.is_err(), "unknown to it");
    assert!(backend.take().is_empty());
    plain.cancel().await.unwrap();
}
