//! Code mode (`--tools code`, issue 25) end to end with rmcp's client:
//! three tools under 1,000 tokens whatever the API's size; a script's
//! chain of operations sends, request for request, what the same calls
//! through `tools/call` in full mode send; budgets, thrown errors,
//! forbidden globals and attempts at credentials each end in a clear
//! `isError` and the server goes on serving.

use std::sync::{Arc, OnceLock};

use openapi2mcp::document::LoadOptions;
use openapi2mcp::mock::{self, MockOptions};
use openapi2mcp::pipeline::{self, PipelineOptions};
use openapi2mcp::runtime::auth::Credentials;
use openapi2mcp::server::ServeOptions;
use openapi2mcp::server::confirm::ConfirmPolicy;
use openapi2mcp::server::modes::code::CodeBudgets;
use openapi2mcp::server::modes::{ListingOptions, ToolsMode};
use openapi2mcp::tools::Catalog;
use rmcp::model::CallToolResult;
use serde_json::json;

use crate::backend::{Backend, Recorded, Reply};
use crate::serve::connect;
use crate::support::{call, text_of};
use crate::support::{external, large, local};

const GITHUB: &str = "@octokit/openapi/generated/api.github.com.json";
const SECRET: &str = "s3cr3t-token-for-code-mode";

fn petstore() -> Catalog {
    pipeline::load_catalog(
        local("specs/petstore.yaml").to_str().unwrap(),
        &PipelineOptions::default(),
    )
    .unwrap()
    .catalog
}

fn github() -> Option<&'static Catalog> {
    static CATALOG: OnceLock<Option<Catalog>> = OnceLock::new();
    CATALOG
        .get_or_init(|| {
            let path = external(GITHUB)?;
            Some(
                pipeline::load_catalog(path.to_str().unwrap(), &PipelineOptions::default())
                    .expect("GitHub loads")
                    .catalog,
            )
        })
        .as_ref()
}

fn tokens(text: &str) -> usize {
    tiktoken_rs::o200k_base()
        .expect("o200k_base")
        .encode_ordinary(text)
        .len()
}

fn options(mode: ToolsMode, base_url: String) -> ServeOptions {
    ServeOptions {
        base_url: Some(base_url),
        listing: ListingOptions {
            mode,
            ..ListingOptions::default()
        },
        credentials: Credentials::from_pairs([("OPENAPI2MCP_BEARER_TOKEN", SECRET)]),
        confirm: ConfirmPolicy::None,
        ..ServeOptions::default()
    }
}

async fn execute(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    script: &str,
) -> CallToolResult {
    call(client, "execute", json!({"script": script})).await
}

fn pet_reply(r: &Recorded) -> Reply {
    let body = match (r.method.as_str(), r.target.split('?').next().unwrap()) {
        ("GET", "/pets") => {
            br#"[{"id":1,"name":"Rex","status":"available","tags":["dog"]},{"id":2,"name":"Tom","status":"sold","tags":["cat"]}]"#.to_vec()
        }
        ("GET", p) if p.starts_with("/pets/") => {
            br#"{"id":1,"name":"Rex","status":"available","tags":["dog"]}"#.to_vec()
        }
        ("PATCH", _) => br#"{"id":1,"name":"Rex II","status":"available","tags":["dog"]}"#.to_vec(),
        ("DELETE", _) => return (204, "text/plain", Vec::new()),
        _ => br#"{"id":3,"name":"New","status":"available"}"#.to_vec(),
    };
    (200, "application/json", body)
}

/// What the backend saw of a request, everything that must be the same
/// whichever way the call was made.
fn wire(r: &Recorded) -> (String, String, Vec<(String, String)>, Vec<u8>) {
    (
        r.method.clone(),
        r.target.clone(),
        r.headers.clone(),
        r.body.clone(),
    )
}

#[tokio::test]
async fn code_mode_lists_three_tools_within_a_thousand_tokens_on_big_apis() {
    let mut checked = 0;
    for catalog in [
        github().cloned(),
        large("graph.json").map(|p| {
            pipeline::load_catalog(p.to_str().unwrap(), &PipelineOptions::default())
                .expect("Graph loads")
                .catalog
        }),
    ]
    .into_iter()
    .flatten()
    {
        let client = connect(
            catalog.clone(),
            options(ToolsMode::Code, "http://127.0.0.1:9".into()),
        )
        .await;
        let tools = client.list_all_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(names, ["search_api", "execute_read_only", "execute"]);
        let listed = serde_json::to_string(&json!({"tools": tools})).unwrap();
        let count = tokens(&listed);
        assert!(count <= 1000, "{}: {count} tokens: {listed}", catalog.title);
        let hints = |n: &str| {
            tools
                .iter()
                .find(|t| t.name == n)
                .unwrap()
                .annotations
                .clone()
                .unwrap()
        };
        assert_eq!(hints("search_api").read_only_hint, Some(true));
        assert_eq!(hints("execute_read_only").read_only_hint, Some(true));
        assert_eq!(hints("execute").read_only_hint, Some(false));
        assert_eq!(hints("execute").destructive_hint, Some(true));
        client.cancel().await.unwrap();
        checked += 1;
    }
    assert_eq!(checked, 2, "GitHub and Microsoft Graph were both checked");
}

#[test]
fn list_footprint_reports_code_mode() {
    let Some(path) = external(GITHUB) else { return };
    let out = assert_cmd::Command::cargo_bin("openapi2mcp")
        .unwrap()
        .args(["list", path.to_str().unwrap(), "--footprint"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("tokens of tools/list"))
        .unwrap_or_else(|| panic!("{text}"));
    let code: usize = line
        .split("; code ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no code count in {line}"));
    assert!((100..=1000).contains(&code), "{line}");
}

#[tokio::test]
async fn a_three_operation_chain_sends_exactly_what_direct_calls_send() {
    let backend = Backend::start(pet_reply).await;
    let code = connect(petstore(), options(ToolsMode::Code, backend.url())).await;
    let result = execute(
        &code,
        "const pets = await api.list_pets({limit: 2, status: 'available'});\n\
         const pet = await api.get_pet({petId: pets[0].id});\n\
         const renamed = await api.update_pet({petId: pet.id, name: pet.name + ' II'});\n\
         return {listed: pets.length, before: pet.name, after: renamed.name};",
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    assert_eq!(
        result.structured_content.clone().unwrap()["result"],
        json!({"listed": 2, "before": "Rex", "after": "Rex II"})
    );
    assert_eq!(result.structured_content.unwrap()["calls"], 3);
    let scripted = backend.take();
    code.cancel().await.unwrap();

    let full = connect(petstore(), options(ToolsMode::Full, backend.url())).await;
    for (name, args) in [
        ("list_pets", json!({"limit": 2, "status": "available"})),
        ("get_pet", json!({"petId": 1})),
        ("update_pet", json!({"petId": 1, "name": "Rex II"})),
    ] {
        let direct = call(&full, name, args).await;
        assert_eq!(direct.is_error, Some(false), "{}", text_of(&direct));
    }
    let direct = backend.take();
    full.cancel().await.unwrap();
    assert_eq!(scripted.len(), 3);
    assert_eq!(
        scripted.iter().map(wire).collect::<Vec<_>>(),
        direct.iter().map(wire).collect::<Vec<_>>()
    );
    // The API's credential went to the API (and only there).
    assert_eq!(
        scripted[0].header("authorization"),
        Some(format!("Bearer {SECRET}").as_str())
    );
}

#[tokio::test]
async fn scripts_run_against_the_petstore_mock() {
    let mocked = pipeline::load_mock(
        local("specs/petstore.yaml").to_str().unwrap(),
        &LoadOptions::default(),
        MockOptions::default(),
    )
    .unwrap();
    let bound = mock::bind(Arc::new(mocked.server), ([127, 0, 0, 1], 0).into())
        .await
        .unwrap();
    let base = bound.base_url();
    tokio::spawn(bound.run(std::future::pending()));
    let client = connect(petstore(), options(ToolsMode::Code, base)).await;
    let result = call(
        &client,
        "execute_read_only",
        json!({"script": "const pets = await api.list_pets({});\nconst one = await api.get_pet({petId: pets[0].id});\nconst photo = await api.list_pets({limit: 1});\nreturn {names: pets.map(p => p.name), first: one.name, limited: photo.length};"}),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    let value = &result.structured_content.unwrap()["result"];
    assert!(
        value["names"].as_array().is_some_and(|n| !n.is_empty()),
        "{value}"
    );
    assert!(value["first"].is_string(), "{value}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn search_api_returns_typescript_declarations_with_examples() {
    let client = connect(
        petstore(),
        options(ToolsMode::Code, "http://127.0.0.1:9".into()),
    )
    .await;
    let found = call(
        &client,
        "search_api",
        json!({"query": "show one pet by id"}),
    )
    .await;
    assert_eq!(found.is_error, Some(false), "{}", text_of(&found));
    let text = text_of(&found);
    assert!(text.starts_with("declare namespace api {\n"), "{text}");
    assert!(text.contains("function get_pet(args: {\n"), "{text}");
    assert!(text.contains("petId: number;"), "{text}");
    assert!(text.contains("GET /pets/{petId} (read-only)"), "{text}");
    // A list's result is declared as the array a script gets, its items'
    // `$ref` followed.
    let list = call(
        &client,
        "search_api",
        json!({"query": "list pets", "limit": 1}),
    )
    .await;
    let list = text_of(&list);
    assert!(list.contains("}): Promise<Array<({\n"), "{list}");
    assert!(list.contains("    name?: string | null;"), "{list}");
    assert!(list.contains("} | null) & ({\n"), "{list}");
    // The document's body example (createPet's) is shown (issue 25 item 3).
    let create = call(
        &client,
        "search_api",
        json!({"query": "add a pet", "limit": 1}),
    )
    .await;
    let text = text_of(&create);
    assert!(text.contains("function create_pet(args: {"), "{text}");
    assert!(text.contains("@example [\"dog\"]"), "{text}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn failures_and_budgets_are_clear_errors_and_the_server_keeps_serving() {
    let backend = Backend::start(pet_reply).await;
    let mut opts = options(ToolsMode::Code, backend.url());
    opts.code = CodeBudgets {
        wall: std::time::Duration::from_millis(500),
        memory_bytes: 16 * 1024 * 1024,
        calls: 3,
        output_bytes: 2_000,
    };
    let client = connect(petstore(), opts).await;
    let cases: &[(&str, &[&str])] = &[
        ("while (true) {}", &["wall-time budget of 500 ms"]),
        (
            "const a = []; while (true) a.push('x'.repeat(4096) + a.length);",
            &["memory budget of 16 MiB"],
        ),
        (
            "for (let i = 0; i < 10; i++) { try { await api.get_pet({petId: i}); } catch (e) {} }",
            &["budget of 3 API calls"],
        ),
        ("return 'x'.repeat(5000);", &["output budget of 2000 bytes"]),
        (
            "const pets = await api.list_pets({});\nthrow new Error('no pet called ' + pets.length);",
            &["line 2", "Error: no pet called 2"],
        ),
        (
            "\nawait api.get_pet({petId: 'not a number'});",
            &["line 2", "api.get_pet failed", "petId"],
        ),
        (
            "return await fetch('http://127.0.0.1:1/');",
            &["ReferenceError", "fetch"],
        ),
        (
            "return require('child_process');",
            &["ReferenceError", "require"],
        ),
        (
            "return process.env.OPENAPI2MCP_BEARER_TOKEN;",
            &["ReferenceError", "process"],
        ),
        ("return Date.now();", &["ReferenceError", "Date"]),
        (
            "return eval('fetch')('http://127.0.0.1:1/');",
            &["ReferenceError", "fetch"],
        ),
        (
            "return await api.no_such_operation({});",
            &["not an operation"],
        ),
    ];
    for (script, expected) in cases {
        let result = execute(&client, script).await;
        let text = text_of(&result);
        assert_eq!(result.is_error, Some(true), "{script}: {text}");
        for e in *expected {
            assert!(text.contains(e), "{script}: expected `{e}` in {text}");
        }
        assert!(!text.contains(SECRET), "{script}: {text}");
        // The server goes on serving.
        let after = execute(&client, "return 1 + 1;").await;
        assert_eq!(
            after.is_error,
            Some(false),
            "after {script}: {}",
            text_of(&after)
        );
        assert_eq!(after.structured_content.unwrap()["result"], 2);
    }
    client.cancel().await.unwrap();
    // Whatever the script can reach, the credential is not there.
    let client = connect(petstore(), options(ToolsMode::Code, backend.url())).await;
    let reach = execute(
        &client,
        "const seen = [];\n\
         for (const k of Object.getOwnPropertyNames(globalThis)) seen.push(k + '=' + String(globalThis[k]));\n\
         for (const k of Object.getOwnPropertyNames(api)) seen.push(String(api[k]));\n\
         const pet = await api.get_pet({petId: 1});\n\
         return {seen, pet};",
    )
    .await;
    assert_eq!(reach.is_error, Some(false), "{}", text_of(&reach));
    assert!(!text_of(&reach).contains(SECRET));
    assert!(
        !text_of(&reach).to_lowercase().contains("bearer"),
        "{}",
        text_of(&reach)
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn read_only_scripts_refuse_writes_and_confirmation_is_not_skipped() {
    let backend = Backend::start(pet_reply).await;
    let client = connect(petstore(), options(ToolsMode::Code, backend.url())).await;
    let refused = call(
        &client,
        "execute_read_only",
        json!({"script": "await api.get_pet({petId: 1});\nreturn await api.delete_pet({petId: 1});"}),
    )
    .await;
    assert_eq!(refused.is_error, Some(true));
    let text = text_of(&refused);
    assert!(
        text.contains("line 2") && text.contains("api.delete_pet") && text.contains("execute"),
        "{text}"
    );
    let seen = backend.take();
    assert_eq!(seen.len(), 1, "only the read was sent");
    assert_eq!(seen[0].method, "GET");
    // execute runs it (confirmation off here).
    let deleted = execute(&client, "return await api.delete_pet({petId: 1});").await;
    assert_eq!(deleted.is_error, Some(false), "{}", text_of(&deleted));
    assert_eq!(backend.take()[0].method, "DELETE");
    client.cancel().await.unwrap();

    // With --confirm destructive, --unconfirmed refuse and a client that
    // cannot be asked, the delete is refused inside the script and nothing
    // is sent.
    let mut opts = options(ToolsMode::Code, backend.url());
    opts.confirm = ConfirmPolicy::Destructive;
    opts.unconfirmed = openapi2mcp::server::confirm::Unconfirmable::Refuse;
    let client = connect(petstore(), opts).await;
    let refused = execute(&client, "return await api.delete_pet({petId: 1});").await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text_of(&refused).contains("api.delete_pet"),
        "{}",
        text_of(&refused)
    );
    assert!(
        text_of(&refused).contains("confirm"),
        "{}",
        text_of(&refused)
    );
    assert!(backend.take().is_empty());
    client.cancel().await.unwrap();
}

fn github_reply(r: &Recorded) -> Reply {
    let path = r.target.split('?').next().unwrap().to_string();
    let body = if path.ends_with("/pulls") {
        json!([
            {"number": 7, "title": "Fix", "state": "open", "head": {"sha": "abc123", "ref": "fix"}},
            {"number": 8, "title": "Add", "state": "open", "head": {"sha": "def456", "ref": "add"}}
        ])
    } else if path.contains("/pulls/") && path.ends_with("/reviews") {
        json!([{"id": 1, "state": "APPROVED", "user": {"login": "octocat"}}])
    } else if path.contains("/pulls/") {
        json!({"number": 8, "title": "Add", "state": "open", "head": {"sha": "def456", "ref": "add"}, "mergeable": true})
    } else if path.ends_with("/check-runs") {
        json!({"total_count": 1, "check_runs": [{"id": 5, "name": "ci", "status": "completed", "conclusion": "failure"}]})
    } else {
        json!({})
    };
    (200, "application/json", body.to_string().into_bytes())
}

#[tokio::test]
async fn a_github_chain_matches_the_direct_calls_request_for_request() {
    let Some(gh) = github() else { return };
    let backend = Backend::start(github_reply).await;
    let mut opts = options(ToolsMode::Code, backend.url());
    // GitHub's document validates results strictly; these are partial.
    opts.credentials = Credentials::default();
    let client = connect(gh.clone(), opts.clone()).await;
    let script = "const pulls = await api.list_pull_requests({owner: 'octo', repo: 'hello', state: 'open'});\n\
                  const pick = pulls[pulls.length - 1];\n\
                  const checks = await api.list_checks_for_ref({owner: 'octo', repo: 'hello', ref: pick.head.sha});\n\
                  const reviews = await api.list_reviews({owner: 'octo', repo: 'hello', pull_number: pick.number});\n\
                  return {number: pick.number, failing: checks.check_runs.filter(c => c.conclusion === 'failure').map(c => c.name), approved: reviews.some(r => r.state === 'APPROVED')};";
    let result = call(&client, "execute_read_only", json!({"script": script})).await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    assert_eq!(
        result.structured_content.unwrap()["result"],
        json!({"number": 8, "failing": ["ci"], "approved": true})
    );
    let scripted = backend.take();
    client.cancel().await.unwrap();
    opts.listing.mode = ToolsMode::Full;
    let full = connect(gh.clone(), opts).await;
    for (name, args) in [
        (
            "list_pull_requests",
            json!({"owner": "octo", "repo": "hello", "state": "open"}),
        ),
        (
            "list_checks_for_ref",
            json!({"owner": "octo", "repo": "hello", "ref": "def456"}),
        ),
        (
            "list_reviews",
            json!({"owner": "octo", "repo": "hello", "pull_number": 8}),
        ),
    ] {
        let direct = call(&full, name, args).await;
        assert_eq!(direct.is_error, Some(false), "{name}: {}", text_of(&direct));
    }
    let direct = backend.take();
    full.cancel().await.unwrap();
    assert_eq!(scripted.len(), 3);
    assert_eq!(
        scripted.iter().map(wire).collect::<Vec<_>>(),
        direct.iter().map(wire).collect::<Vec<_>>()
    );
    assert_eq!(
        scripted[1].target,
        "/repos/octo/hello/commits/def456/check-runs"
    );
}

#[tokio::test]
async fn describe_tools_shows_the_documents_body_examples() {
    let client = connect(
        petstore(),
        options(ToolsMode::Discovery, "http://127.0.0.1:9".into()),
    )
    .await;
    let described = call(&client, "describe_tools", json!({"names": ["create_pet"]})).await;
    let tool = &described.structured_content.unwrap()["tools"][0];
    // createPet's request body example: {name: Rex, status: available, tags: [dog]}.
    assert_eq!(
        tool["inputSchema"]["properties"]["tags"]["examples"],
        json!([["dog"]])
    );
    assert_eq!(
        tool["inputSchema"]["properties"]["status"]["examples"],
        json!(["available"])
    );
    client.cancel().await.unwrap();
}

/// One mode's cost of the benchmark task.
#[derive(Debug, Default)]
struct Cost {
    listing: usize,
    round_trips: usize,
    requests: usize,
    results: usize,
    /// Each call's name and the tokens of its result.
    each: Vec<(String, usize)>,
}

impl Cost {
    /// Records one `tools/call`: the arguments the model wrote and the
    /// text it reads back (the content blocks, as clients show a model).
    async fn call(
        &mut self,
        client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
        name: &str,
        args: serde_json::Value,
    ) -> CallToolResult {
        self.round_trips += 1;
        self.requests += tokens(&json!({"name": name, "arguments": args}).to_string());
        let result = call(client, name, args).await;
        assert_eq!(result.is_error, Some(false), "{name}: {}", text_of(&result));
        let read = tokens(&text_of(&result));
        self.results += read;
        self.each.push((name.to_string(), read));
        result
    }
}

/// The benchmark of bench/README.md ("Code mode"): on GitHub's document
/// with the mock answering from its examples, a model lists the open pull
/// requests of a repository, picks one, and reads its check runs and its
/// reviews, in full, discovery and code modes. Counts round trips and the
/// o200k_base tokens of the tool list, of what the model sends and of
/// what it reads back. `bench/code-mode.sh` runs it.
#[tokio::test]
#[ignore = "a benchmark: bench/code-mode.sh runs it and prints the table"]
async fn bench_github_multi_step_task() {
    let Some(path) = external(GITHUB) else { return };
    let gh = github().unwrap();
    let mocked = pipeline::load_mock(
        path.to_str().unwrap(),
        &LoadOptions::default(),
        MockOptions::default(),
    )
    .unwrap();
    let bound = mock::bind(Arc::new(mocked.server), ([127, 0, 0, 1], 0).into())
        .await
        .unwrap();
    let base = bound.base_url();
    tokio::spawn(bound.run(std::future::pending()));
    let repo = json!({"owner": "octocat", "repo": "hello-world"});
    let with = |extra: serde_json::Value| {
        let mut args = repo.clone();
        args.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        args
    };
    let listing = |tools: &[rmcp::model::Tool]| tokens(&json!({"tools": tools}).to_string());
    let mut table = Vec::new();

    // Full: every tool listed; three direct calls.
    let client = connect(gh.clone(), options(ToolsMode::Full, base.clone())).await;
    let mut full = Cost {
        listing: listing(&client.list_all_tools().await.unwrap()),
        ..Cost::default()
    };
    let pulls = full
        .call(
            &client,
            "list_pull_requests",
            with(json!({"state": "open"})),
        )
        .await;
    let structured = pulls.structured_content.unwrap();
    // The array body, wrapped in the structured content's one property.
    let pull = structured
        .as_object()
        .and_then(|o| o.values().next())
        .map(|items| items[0].clone())
        .unwrap_or_else(|| panic!("{structured}"));
    assert!(pull["number"].is_number(), "{structured}");
    let (number, sha) = (pull["number"].clone(), pull["head"]["sha"].clone());
    full.call(&client, "list_checks_for_ref", with(json!({"ref": sha})))
        .await;
    full.call(
        &client,
        "list_reviews",
        with(json!({"pull_number": number})),
    )
    .await;
    client.cancel().await.unwrap();
    table.push(("full", full));

    // Discovery: a search per operation, one describe, three calls.
    let client = connect(gh.clone(), options(ToolsMode::Discovery, base.clone())).await;
    let mut discovery = Cost {
        listing: listing(&client.list_all_tools().await.unwrap()),
        ..Cost::default()
    };
    for (query, name) in [
        ("list pull requests of a repository", "list_pull_requests"),
        ("list check runs for a commit ref", "list_checks_for_ref"),
        ("list reviews on a pull request", "list_reviews"),
    ] {
        let found = discovery
            .call(&client, "search_tools", json!({"query": query, "limit": 5}))
            .await;
        assert!(
            text_of(&found).contains(name),
            "{query}: {}",
            text_of(&found)
        );
    }
    discovery
        .call(
            &client,
            "describe_tools",
            json!({"names": ["list_pull_requests", "list_checks_for_ref", "list_reviews"]}),
        )
        .await;
    for (name, args) in [
        ("list_pull_requests", with(json!({"state": "open"}))),
        ("list_checks_for_ref", with(json!({"ref": sha}))),
        ("list_reviews", with(json!({"pull_number": number}))),
    ] {
        discovery
            .call(
                &client,
                "call_read_only_tool",
                json!({"name": name, "arguments": args}),
            )
            .await;
    }
    client.cancel().await.unwrap();
    table.push(("discovery", discovery));

    // Code: a search per operation, then one script.
    let client = connect(gh.clone(), options(ToolsMode::Code, base.clone())).await;
    let mut code = Cost {
        listing: listing(&client.list_all_tools().await.unwrap()),
        ..Cost::default()
    };
    for (query, name) in [
        ("list pull requests of a repository", "list_pull_requests"),
        ("list check runs for a commit ref", "list_checks_for_ref"),
        ("list reviews on a pull request", "list_reviews"),
    ] {
        let found = code
            .call(&client, "search_api", json!({"query": query, "limit": 3}))
            .await;
        assert!(
            text_of(&found).contains(&format!("function {name}(")),
            "{query}"
        );
    }
    let script = "const repo = {owner: 'octocat', repo: 'hello-world'};\n\
                  const pulls = await api.list_pull_requests({...repo, state: 'open'});\n\
                  const pr = pulls[0];\n\
                  const checks = await api.list_checks_for_ref({...repo, ref: pr.head.sha});\n\
                  const reviews = await api.list_reviews({...repo, pull_number: pr.number});\n\
                  return {pr: pr.number, title: pr.title,\n\
                    checks: checks.check_runs.map(c => ({name: c.name, status: c.status, conclusion: c.conclusion})),\n\
                    reviews: reviews.map(r => ({user: r.user && r.user.login, state: r.state}))};";
    let done = code
        .call(&client, "execute_read_only", json!({"script": script}))
        .await;
    assert_eq!(done.structured_content.unwrap()["result"]["pr"], number);
    client.cancel().await.unwrap();
    table.push(("code", code));

    println!(
        "| mode | tools/list tokens | round trips | tokens sent (arguments, scripts) | tokens read (results) | results + sent |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for (mode, c) in &table {
        println!(
            "| {mode} | {} | {} | {} | {} | {} |",
            c.listing,
            c.round_trips,
            c.requests,
            c.results,
            c.requests + c.results
        );
    }
    for (mode, c) in &table {
        let each: Vec<String> = c.each.iter().map(|(n, t)| format!("{n} {t}")).collect();
        println!("| {mode}, tokens read per call | {} |", each.join(", "));
    }
    let (full, discovery, code) = (&table[0].1, &table[1].1, &table[2].1);
    println!(
        "ratios: results read: full/code {:.1}x, discovery/code {:.1}x; round trips: full {} / discovery {} / code {}",
        full.results as f64 / code.results as f64,
        discovery.results as f64 / code.results as f64,
        full.round_trips,
        discovery.round_trips,
        code.round_trips
    );
}

#[tokio::test]
async fn cancelling_execute_stops_the_script() {
    let backend = Backend::start(pet_reply).await;
    let mut opts = options(ToolsMode::Code, backend.url());
    opts.code = CodeBudgets {
        wall: std::time::Duration::from_secs(60),
        calls: 10_000,
        ..CodeBudgets::default()
    };
    let client = connect(petstore(), opts).await;
    let params = rmcp::model::CallToolRequestParams::new("execute").with_arguments(
        json!({"script": "for (;;) { await api.get_pet({petId: 1}); }"})
            .as_object()
            .cloned()
            .unwrap(),
    );
    let request =
        rmcp::model::ClientRequest::CallToolRequest(rmcp::model::CallToolRequest::new(params));
    let handle = client
        .send_cancellable_request(request, rmcp::service::PeerRequestOptions::no_options())
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(!backend.take().is_empty(), "the script was calling the API");
    handle.cancel(Some("stop".into())).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    backend.take();
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    assert!(
        backend.take().is_empty(),
        "the script stopped calling the API"
    );
    let after = execute(&client, "return 'still serving';").await;
    assert_eq!(after.is_error, Some(false), "{}", text_of(&after));
    client.cancel().await.unwrap();
}

/// Issue #43 item 9: code-mode scripts are bounded per caller as well as
/// in total. Caller X starts as many runaway scripts as the server runs at
/// once; caller Y's short script still runs at once, before any of X's
/// ends (X's beyond its share wait for X's own).
#[tokio::test]
async fn one_caller_s_runaway_scripts_leave_room_for_another_s() {
    use std::time::Duration;
    let backend = Backend::start(pet_reply).await;
    let mut opts = options(ToolsMode::Code, backend.url());
    opts.code = CodeBudgets {
        wall: Duration::from_secs(3),
        ..CodeBudgets::default()
    };
    let bridge = openapi2mcp::server::Bridge::new(petstore(), opts).unwrap();
    let (url, shutdown) = crate::protocol::http_server(bridge).await;
    let run = |authorization: &'static str, script: &'static str| {
        let url = url.clone();
        async move {
            let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "execute", "arguments": {"script": script}}});
            let res = reqwest::Client::new()
                .post(&url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", "2025-06-18")
                .header("authorization", authorization)
                .body(body.to_string())
                .timeout(Duration::from_secs(30))
                .send()
                .await
                .unwrap();
            crate::protocol::reply_of(&res.text().await.unwrap())["result"].clone()
        }
    };
    let order = std::sync::Mutex::new(Vec::new());
    // Eight: as many as the server has ever run at once.
    let xs: Vec<_> = (0..8)
        .map(|i| {
            let (run, order) = (&run, &order);
            async move {
                let got = run("Bearer caller-x", "while (true) {}").await;
                order.lock().unwrap().push(format!("x{i}"));
                got
            }
        })
        .collect();
    let y = async {
        tokio::time::sleep(Duration::from_millis(400)).await;
        let got = run("Bearer caller-y", "return 6 * 7;").await;
        order.lock().unwrap().push("y".to_string());
        got
    };
    let (x_results, y_result) = tokio::join!(crate::selectors::futures_join_all(xs.into_iter()), y);
    assert_eq!(y_result["isError"], false, "{y_result}");
    assert_eq!(y_result["structuredContent"]["result"], 42, "{y_result}");
    let order = order.into_inner().unwrap();
    assert_eq!(
        order.first().map(String::as_str),
        Some("y"),
        "Y's script ran while X's held their share: {order:?}"
    );
    // X's scripts ended at their budget, or were not run beyond X's share
    // (which says so, and says to wait rather than to try again).
    for got in &x_results {
        assert_eq!(got["isError"], true, "{got}");
        let said = got["content"][0]["text"].as_str().unwrap_or_default();
        assert!(
            said.contains("wall-time budget") || said.contains("its share"),
            "{said}"
        );
    }
    shutdown.cancel();
}
