//! The stateful mock (`mock --stateful`, `--state FILE`, and `serve
//! --mock`): a create → get → update → list → delete round trip over real
//! HTTP and through an MCP client, the document's examples as the seed,
//! persistence across a restart of the process, reset, nested collections
//! scoped by their parents, Stripe-like form bodies and list wrappers,
//! caps, a broken state file, and collection recognition on GitHub's and
//! Stripe's descriptions.

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use openapi2mcp::document::LoadOptions;
use openapi2mcp::mock::store::Store;
use openapi2mcp::mock::{self, MockOptions};
use openapi2mcp::pipeline;
use rmcp::ServiceExt;
use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt;

use crate::support::{call, external, large, local, root};

fn stateful() -> MockOptions {
    MockOptions {
        stateful: true,
        ..MockOptions::default()
    }
}

/// A stateful mock of `spec` (with `store`, else in memory), served on a
/// free port; its base URL.
async fn start(spec: &str, store: Option<Arc<Store>>) -> String {
    let mocked = pipeline::load_mock(
        local(spec).to_str().unwrap(),
        &LoadOptions::default(),
        stateful(),
    )
    .unwrap();
    let server = match store {
        Some(store) => mocked.server.with_store(store),
        None => mocked.server,
    };
    let bound = mock::bind(Arc::new(server), ([127, 0, 0, 1], 0).into())
        .await
        .unwrap();
    let base = bound.base_url();
    tokio::spawn(bound.run(std::future::pending()));
    base
}

struct Got {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: Value,
}

async fn send(method: &str, url: &str, body: Option<Value>) -> Got {
    send_with(
        method,
        url,
        &[],
        body.map(|b| ("application/json", b.to_string())),
    )
    .await
}

async fn send_with(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<(&str, String)>,
) -> Got {
    let mut req = reqwest::Client::new().request(method.parse().unwrap(), url);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    if let Some((ct, b)) = body {
        req = req.header("content-type", ct).body(b);
    }
    let resp = req.send().await.expect("the mock answers");
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let bytes = resp.bytes().await.unwrap();
    Got {
        status,
        headers,
        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    }
}

fn ids(list: &Value) -> Vec<Value> {
    list.as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"))
        .iter()
        .map(|p| p["id"].clone())
        .collect()
}

#[tokio::test]
async fn petstore_round_trip_create_get_update_list_delete_over_http() {
    let base = start("specs/petstore.yaml", None).await;
    // The seed: the list example's pets.
    let got = send("GET", &format!("{base}/pets"), None).await;
    assert_eq!(
        (got.status, ids(&got.body)),
        (200, vec![json!(1), json!(2)])
    );

    // Create Bob: Bob comes back (not the example's Rex), with the next id.
    let got = send(
        "POST",
        &format!("{base}/pets"),
        Some(json!({"name": "Bob", "status": "pending", "tags": ["cat"]})),
    )
    .await;
    assert_eq!(got.status, 201);
    assert_eq!(
        got.body,
        json!({"id": 3, "name": "Bob", "status": "pending", "tags": ["cat"]})
    );
    let got = send("GET", &format!("{base}/pets/3"), None).await;
    assert_eq!((got.status, got.body["name"].clone()), (200, json!("Bob")));

    // Update: PATCH merges.
    let got = send(
        "PATCH",
        &format!("{base}/pets/3"),
        Some(json!({"status": "sold"})),
    )
    .await;
    assert_eq!(
        (got.status, got.body),
        (
            200,
            json!({"id": 3, "name": "Bob", "status": "sold", "tags": ["cat"]})
        )
    );

    // List: every pet, filtered by a property, paged by the limit.
    let got = send("GET", &format!("{base}/pets"), None).await;
    assert_eq!(ids(&got.body), vec![json!(1), json!(2), json!(3)]);
    let got = send("GET", &format!("{base}/pets?status=sold"), None).await;
    assert_eq!(ids(&got.body), vec![json!(2), json!(3)]);
    let got = send("GET", &format!("{base}/pets?tags=cat"), None).await;
    assert_eq!(ids(&got.body), vec![json!(2), json!(3)]);
    let got = send("GET", &format!("{base}/pets?limit=1"), None).await;
    assert_eq!(ids(&got.body), vec![json!(1)]);
    assert!(
        got.headers.get("x-next-cursor").is_some(),
        "a further page: the documented cursor header names it"
    );

    // Delete: 204, then the pet is gone (the documented 404 answers).
    let got = send("DELETE", &format!("{base}/pets/3"), None).await;
    assert_eq!(got.status, 204);
    let got = send("GET", &format!("{base}/pets/3"), None).await;
    assert_eq!(
        (got.status, got.body),
        (404, json!({"code": 404, "message": "pet not found"}))
    );
    let got = send("DELETE", &format!("{base}/pets/3"), None).await;
    assert_eq!(got.status, 404);
    let got = send("GET", &format!("{base}/pets"), None).await;
    assert_eq!(ids(&got.body), vec![json!(1), json!(2)]);

    // Ids are not reused; PUT is not documented for pets (405 as before).
    let got = send(
        "POST",
        &format!("{base}/pets"),
        Some(json!({"name": "Kit"})),
    )
    .await;
    assert_eq!(got.body, json!({"id": 4, "name": "Kit"}));

    // The example seed answers GET /pets/1 as the stateless mock did.
    let got = send("GET", &format!("{base}/pets/1"), None).await;
    assert_eq!(
        got.body,
        json!({"id": 1, "name": "Rex", "status": "available", "tags": ["dog"]})
    );
}

#[tokio::test]
async fn validation_prefer_and_action_endpoints_are_unchanged_when_stateful() {
    let base = start("specs/petstore.yaml", None).await;
    // Validation comes first, exactly as without state.
    let got = send(
        "POST",
        &format!("{base}/pets"),
        Some(json!({"tags": ["dog"]})),
    )
    .await;
    assert_eq!(got.status, 400);
    assert!(got.body["detail"].as_str().unwrap().contains("\"name\""));
    let got = send("GET", &format!("{base}/pets/abc"), None).await;
    assert_eq!(got.status, 400);
    let got = send("GET", &format!("{base}/pets"), None).await;
    assert_eq!(ids(&got.body).len(), 2, "nothing invalid was stored");

    // An explicit Prefer wins over the state.
    let got = send_with(
        "GET",
        &format!("{base}/pets/77"),
        &[("prefer", "code=200")],
        None,
    )
    .await;
    assert_eq!((got.status, got.body["name"].clone()), (200, json!("Rex")));
    let got = send_with(
        "POST",
        &format!("{base}/pets"),
        &[("prefer", "example=example")],
        Some(("application/json", r#"{"name":"Bob"}"#.into())),
    )
    .await;
    assert_eq!(got.body["name"], "Rex", "the documented example, as asked");
    let got = send("GET", &format!("{base}/pets"), None).await;
    assert_eq!(ids(&got.body).len(), 2, "a Prefer answer stores nothing");

    // Not a collection or an item: the documented example, as before.
    let got = send("GET", &format!("{base}/pets/1/photo"), None).await;
    assert_eq!(got.status, 200);
}

#[tokio::test]
async fn nested_collections_are_scoped_by_their_parents() {
    let base = start("tests/fixtures/mock-stateful.yaml", None).await;
    let issues = |repo: &str| format!("{base}/repos/octo/{repo}/issues");

    // Every repository starts from the documented issues.
    for repo in ["hello", "world"] {
        let got = send("GET", &issues(repo), None).await;
        let numbers: Vec<&Value> = got
            .body
            .as_array()
            .unwrap()
            .iter()
            .map(|i| &i["number"])
            .collect();
        assert_eq!(numbers, [&json!(1), &json!(2)], "{repo}");
    }
    // The item example (with its body) replaced the list entry of issue 1.
    let got = send("GET", &format!("{}/1", issues("hello")), None).await;
    assert_eq!(got.body["body"], "It crashes.");

    let got = send(
        "POST",
        &issues("hello"),
        Some(json!({"title": "Crash on start", "labels": ["bug"]})),
    )
    .await;
    assert_eq!(got.status, 201);
    // Numbered after the seed; server-set fields from the documented
    // response; the Location header the operation documents.
    assert_eq!(got.body["number"], 3);
    assert_eq!(got.body["title"], "Crash on start");
    assert_eq!(got.body["state"], "open");
    assert_eq!(got.body["created_at"], "2026-01-03T00:00:00Z");
    assert_eq!(
        got.headers.get("location").unwrap(),
        "/api/repos/octo/hello/issues/3"
    );
    let got = send("GET", &format!("{}/3", issues("hello")), None).await;
    assert_eq!(
        (got.status, got.body["title"].clone()),
        (200, json!("Crash on start"))
    );
    // Another repository does not see it; its 404 is problem JSON (none documented).
    let got = send("GET", &format!("{}/3", issues("world")), None).await;
    assert_eq!(got.status, 404);
    assert!(
        got.body["detail"]
            .as_str()
            .unwrap()
            .contains("issue_number `3`"),
        "{}",
        got.body
    );

    // PATCH; then filters: an enum value, `all` (outside the item's enum:
    // no filter), an array parameter; pages of `per_page`.
    let got = send(
        "PATCH",
        &format!("{}/1", issues("hello")),
        Some(json!({"state": "closed", "body": null})),
    )
    .await;
    assert_eq!(got.body["state"], "closed");
    assert!(got.body.get("body").is_none(), "merge patch: null removes");
    let numbers = |v: &Value| -> Vec<i64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|i| i["number"].as_i64().unwrap())
            .collect()
    };
    let got = send("GET", &format!("{}?state=closed", issues("hello")), None).await;
    assert_eq!(numbers(&got.body), [1, 2]);
    let got = send("GET", &format!("{}?state=all", issues("hello")), None).await;
    assert_eq!(numbers(&got.body), [1, 2, 3]);
    // `all` on a property without an enum (GitHub's `state`): no filter.
    let got = send("GET", &format!("{}?kind=all", issues("hello")), None).await;
    assert_eq!(numbers(&got.body), [1, 2, 3]);
    let got = send("GET", &format!("{}?kind=task", issues("hello")), None).await;
    assert_eq!(numbers(&got.body), [2]);
    let got = send("GET", &format!("{}?labels=bug", issues("hello")), None).await;
    assert_eq!(numbers(&got.body), [1, 3]);
    let got = send(
        "GET",
        &format!("{}?per_page=2&page=2", issues("hello")),
        None,
    )
    .await;
    assert_eq!(numbers(&got.body), [3]);

    // An action under an item keeps its documented answer.
    let got = send("PUT", &format!("{}/3/lock", issues("hello")), None).await;
    assert_eq!(got.body, json!({"locked": true}));
}

#[tokio::test]
async fn stripe_like_form_bodies_wrappers_cursors_and_post_updates() {
    let base = start("tests/fixtures/mock-stateful.yaml", None).await;
    let form = |body: &str| Some(("application/x-www-form-urlencoded", body.to_string()));
    let mut made = Vec::new();
    for name in ["Ada", "Bea", "Cy"] {
        let got = send_with(
            "POST",
            &format!("{base}/v1/customers"),
            &[],
            form(&format!(
                "name={name}&email={name}%40example.com&balance=5&metadata[tier]=gold"
            )),
        )
        .await;
        assert_eq!(got.status, 200, "{}", got.body);
        assert_eq!(got.body["name"], name);
        assert_eq!(got.body["balance"], 5, "form text typed by the schema");
        assert_eq!(got.body["metadata"], json!({"tier": "gold"}));
        assert_eq!(got.body["object"], "customer", "required, server-set");
        let id = got.body["id"].as_str().unwrap().to_string();
        assert_eq!(id.len(), 36, "a UUID: {id}");
        made.push(id);
    }
    assert_ne!(made[0], made[1]);

    let got = send("GET", &format!("{base}/v1/customers?limit=2"), None).await;
    assert_eq!(got.body["object"], "list");
    assert_eq!(got.body["has_more"], true);
    let page: Vec<&Value> = got.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["id"])
        .collect();
    assert_eq!(page, [&json!(made[0]), &json!(made[1])]);
    let got = send(
        "GET",
        &format!("{base}/v1/customers?limit=2&starting_after={}", made[1]),
        None,
    )
    .await;
    assert_eq!(got.body["has_more"], false);
    assert_eq!(got.body["data"][0]["id"], made[2]);
    let got = send(
        "GET",
        &format!("{base}/v1/customers?email=Bea%40example.com"),
        None,
    )
    .await;
    assert_eq!(got.body["data"].as_array().unwrap().len(), 1);
    let got = send(
        "GET",
        &format!("{base}/v1/customers?starting_after=cus_nope"),
        None,
    )
    .await;
    assert_eq!(got.status, 400);
    assert!(
        got.body["detail"]
            .as_str()
            .unwrap()
            .contains("starting_after")
    );

    // POST on the item updates (its response is the item schema).
    let got = send_with(
        "POST",
        &format!("{base}/v1/customers/{}", made[0]),
        &[],
        form("name=Ada+L"),
    )
    .await;
    assert_eq!(
        (got.body["name"].clone(), got.body["email"].clone()),
        (json!("Ada L"), json!("Ada@example.com"))
    );

    // DELETE answers the documented marker with the id.
    let got = send("DELETE", &format!("{base}/v1/customers/{}", made[0]), None).await;
    assert_eq!(got.status, 200);
    assert_eq!(got.body["id"], made[0]);
    assert_eq!(got.body["deleted"], true);
    let got = send("GET", &format!("{base}/v1/customers/{}", made[0]), None).await;
    assert_eq!(got.status, 404);
}

#[tokio::test]
async fn reset_restores_the_seed_and_caps_refuse_with_507() {
    let base = start("specs/petstore.yaml", Some(Arc::new(Store::in_memory(3)))).await;
    let root_url = base.trim_end_matches("/v1");
    let got = send(
        "POST",
        &format!("{base}/pets"),
        Some(json!({"name": "Bob"})),
    )
    .await;
    assert_eq!(got.status, 201);
    let got = send(
        "POST",
        &format!("{base}/pets"),
        Some(json!({"name": "Max"})),
    )
    .await;
    assert_eq!(got.status, 507);
    assert!(
        got.body["detail"].as_str().unwrap().contains("3 items"),
        "{}",
        got.body
    );
    let got = send("DELETE", &format!("{base}/pets/1"), None).await;
    assert_eq!(got.status, 204);

    let got = send("GET", &format!("{root_url}/__mock/state"), None).await;
    assert_eq!(got.body["collections"][0]["collection"], "/pets");
    let got = send("POST", &format!("{root_url}/__mock/reset"), None).await;
    assert_eq!((got.status, got.body), (200, json!({"reset": true})));
    let got = send("GET", &format!("{base}/pets"), None).await;
    assert_eq!(ids(&got.body), vec![json!(1), json!(2)]);
    let got = send("GET", &format!("{root_url}/__mock/reset"), None).await;
    assert_eq!(got.status, 405);
}

/// An `openapi2mcp mock` process; its base URL once it listens.
struct Process {
    child: tokio::process::Child,
    url: String,
}

async fn mock_process(args: &[&str]) -> Process {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .arg("mock")
        .args(args)
        .args(["--listen", "127.0.0.1:0"])
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let url = tokio::time::timeout(Duration::from_secs(20), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(at) = line.find("http://") {
                return line[at..].trim().to_string();
            }
        }
        panic!("the mock said nothing of where it listens");
    })
    .await
    .expect("the mock starts");
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Process { child, url }
}

#[tokio::test]
async fn the_state_file_survives_a_restart_of_the_process() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("state.json");
    let file_arg = file.to_str().unwrap();

    let mut first = mock_process(&["specs/petstore.yaml", "--state", file_arg]).await;
    let got = send(
        "POST",
        &format!("{}/pets", first.url),
        Some(json!({"name": "Bob"})),
    )
    .await;
    assert_eq!(got.body["id"], 3);
    let got = send("DELETE", &format!("{}/pets/2", first.url), None).await;
    assert_eq!(got.status, 204);
    first.child.kill().await.unwrap();
    let saved: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(saved["format"], "openapi2mcp-mock-state");

    let mut second = mock_process(&["specs/petstore.yaml", "--state", file_arg]).await;
    let got = send("GET", &format!("{}/pets", second.url), None).await;
    assert_eq!(ids(&got.body), vec![json!(1), json!(3)]);
    let got = send("GET", &format!("{}/pets/3", second.url), None).await;
    assert_eq!(got.body["name"], "Bob");
    let got = send(
        "POST",
        &format!("{}/pets", second.url),
        Some(json!({"name": "Max"})),
    )
    .await;
    assert_eq!(got.body["id"], 4, "the id sequence survives too");
    // Reset empties the file too.
    let origin = second.url.trim_end_matches("/v1").to_string();
    send("POST", &format!("{origin}/__mock/reset"), None).await;
    let saved: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(saved["collections"], json!([]));
    second.child.kill().await.unwrap();

    // Without --stateful or --state: the documented example, as before.
    let mut plain = mock_process(&["specs/petstore.yaml"]).await;
    let got = send(
        "POST",
        &format!("{}/pets", plain.url),
        Some(json!({"name": "Bob"})),
    )
    .await;
    assert_eq!(got.body["name"], "Rex");
    plain.child.kill().await.unwrap();
}

#[test]
fn a_broken_state_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken-state.json");
    std::fs::write(
        &file,
        "{\"format\": \"openapi2mcp-mock-state\", \"version\": 1, \"collections\": [",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args([
            "mock",
            "specs/petstore.yaml",
            "--listen",
            "127.0.0.1:0",
            "--state",
        ])
        .arg(&file)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("broken-state.json") && stderr.contains("line 1"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");

    // The same through `serve --mock --mock-state`.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args(["serve", "specs/petstore.yaml", "--mock", "--mock-state"])
        .arg(&file)
        .env_remove("OPENAPI2MCP_BASE_URL")
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken-state.json"));
}

#[tokio::test]
async fn serve_mock_remembers_what_the_tools_create_change_and_delete() {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.arg("serve")
        .arg(local("specs/petstore.yaml"))
        .arg("--mock")
        .env_remove("OPENAPI2MCP_BASE_URL");
    let client = ().serve(rmcp::transport::TokioChildProcess::new(cmd).unwrap()).await.unwrap();
    let got = call(
        &client,
        "create_pet",
        json!({"name": "Bob", "tags": ["cat"]}),
    )
    .await;
    assert_eq!(got.is_error, Some(false), "{got:?}");
    assert_eq!(
        got.structured_content,
        Some(json!({"id": 3, "name": "Bob", "tags": ["cat"]}))
    );
    let got = call(&client, "get_pet", json!({"petId": 3})).await;
    assert_eq!(got.structured_content.unwrap()["name"], "Bob");
    let got = call(&client, "update_pet", json!({"petId": 3, "status": "sold"})).await;
    assert_eq!(got.structured_content.unwrap()["status"], "sold");
    let got = call(&client, "list_pets", json!({"status": "sold"})).await;
    let listed = got.structured_content.unwrap();
    assert_eq!(listed["result"].as_array().unwrap().len(), 2, "{listed}");
    let got = call(&client, "delete_pet", json!({"petId": 3})).await;
    assert_eq!(got.is_error, Some(false));
    let got = call(&client, "get_pet", json!({"petId": 3})).await;
    assert_eq!(
        got.is_error,
        Some(true),
        "deleted: the API's 404 is an error result"
    );
    // The seed answers as the documented example (the README's main command).
    let got = call(&client, "get_pet", json!({"petId": 1})).await;
    assert_eq!(got.structured_content.unwrap()["name"], "Rex");
    client.cancel().await.unwrap();

    // --mock-stateless: today's example answers.
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.arg("serve")
        .arg(local("specs/petstore.yaml"))
        .args(["--mock", "--mock-stateless"])
        .env_remove("OPENAPI2MCP_BASE_URL");
    let client = ().serve(rmcp::transport::TokioChildProcess::new(cmd).unwrap()).await.unwrap();
    let got = call(&client, "create_pet", json!({"name": "Bob"})).await;
    assert_eq!(got.structured_content.unwrap()["name"], "Rex");
    client.cancel().await.unwrap();
}

/// The recognized collections of a document: `(collection, item, id)`.
fn recognized(path: &std::path::Path) -> Vec<(String, String, String)> {
    let server = pipeline::load_mock(path.to_str().unwrap(), &LoadOptions::default(), stateful())
        .unwrap()
        .server;
    server
        .resources()
        .iter()
        .map(|r| (r.collection.clone(), r.item.clone(), r.id.clone()))
        .collect()
}

#[test]
fn github_collections_are_recognized() {
    let Some(path) = external("@octokit/openapi/generated/api.github.com.json") else {
        return;
    };
    let found = recognized(&path);
    let has = |c: &str, id: &str| found.iter().any(|(col, _, i)| col == c && i == id);
    assert!(
        has("/repos/{owner}/{repo}/issues", "number"),
        "issues by number"
    );
    assert!(
        has("/repos/{owner}/{repo}/pulls", "number"),
        "pulls by number"
    );
    assert!(
        has("/repos/{owner}/{repo}/issues/comments", "id"),
        "comments by id"
    );
    assert!(has("/repos/{owner}/{repo}/hooks", "id"), "hooks by id");
    // A path whose slot names no property of the item is left alone.
    assert!(
        !found.iter().any(|(c, _, _)| c == "/users"),
        "`/users/{{username}}` is a login, not an id: not guessed"
    );
    assert!(found.len() > 50, "{}", found.len());
}

#[test]
fn stripe_collections_are_recognized_with_post_updates() {
    let Some(path) = large("stripe.json") else {
        return;
    };
    let server = pipeline::load_mock(path.to_str().unwrap(), &LoadOptions::default(), stateful())
        .unwrap()
        .server;
    let customers = server
        .resources()
        .iter()
        .find(|r| r.collection == "/v1/customers")
        .expect("/v1/customers is a collection");
    assert_eq!(customers.item, "/v1/customers/{customer}");
    assert_eq!(customers.id, "id");
    assert_eq!(
        customers.list.wrap,
        Some(openapi2mcp::mock::resource::Wrap::In("data".into()))
    );
    assert_eq!(customers.list.after.as_deref(), Some("starting_after"));
    assert_eq!(customers.list.has_more.as_deref(), Some("has_more"));

    // POST /v1/customers/{customer} updates: answered from the store.
    let created = server.respond(
        &mock::MockRequest::new("POST", "/v1/customers")
            .header("content-type", "application/x-www-form-urlencoded"),
    );
    assert_eq!(
        created.status,
        200,
        "{}",
        String::from_utf8_lossy(&created.body)
    );
    let id = created.json().unwrap()["id"].as_str().unwrap().to_string();
    let mut update = mock::MockRequest::new("POST", &format!("/v1/customers/{id}"))
        .header("content-type", "application/x-www-form-urlencoded");
    update.body = b"name=Ada".to_vec();
    let updated = server.respond(&update);
    assert_eq!(updated.json().unwrap()["name"], "Ada");
    let got = server.respond(&mock::MockRequest::new(
        "GET",
        &format!("/v1/customers/{id}"),
    ));
    assert_eq!(got.json().unwrap()["name"], "Ada");
}

/// `serve --mock --watch` rebuilds the mock from each new document: the
/// rebuilt mock shares the store, its options and its path.
#[test]
fn a_rebuilt_mock_keeps_the_store() {
    let spec = local("specs/petstore.yaml");
    let (doc, _) = openapi2mcp::document::load(
        spec.to_str().unwrap(),
        &LoadOptions {
            keep_examples: true,
            ..LoadOptions::default()
        },
    )
    .unwrap();
    let (server, _) = mock::MockServer::new(&doc, stateful());
    let server = server.with_prefix("/old".into());
    let created =
        server.respond(&mock::MockRequest::new("POST", "/old/pets").json(&json!({"name": "Bob"})));
    assert_eq!(created.status, 201);
    let (rebuilt, _) = server.rebuild(&doc);
    assert_eq!(rebuilt.prefix(), "/old");
    let got = rebuilt.respond(&mock::MockRequest::new("GET", "/old/pets/3"));
    assert_eq!(
        (got.status, got.json().unwrap()["name"].clone()),
        (200, json!("Bob"))
    );
    let head = rebuilt.respond(&mock::MockRequest::new("HEAD", "/old/pets/3"));
    assert_eq!((head.status, head.body.len()), (200, 0));
    let head = rebuilt.respond(&mock::MockRequest::new("HEAD", "/old/pets/9"));
    assert_eq!((head.status, head.body.len()), (404, 0));
}

/// `serve --mock` says where its mock listens by default (where
/// `POST /__mock/reset` goes), even with the default log filter.
#[test]
fn serve_mock_logs_where_its_mock_listens() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args(["serve", "specs/petstore.yaml", "--mock"])
        .env_remove("OPENAPI2MCP_BASE_URL")
        .env_remove("RUST_LOG")
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("mock API serving") && stderr.contains("http://127.0.0.1:"),
        "{stderr}"
    );
}
