//! Overlays (OpenAPI Overlay 1.0) on a document we do not own: GitHub's.
//! One overlay renames, re-describes, removes and excludes operations, and
//! `list`, `serve` (a real rmcp client and a real backend) and `generate`
//! all show it; broken and stale overlays are reported with the overlay's
//! file and line.

use assert_cmd::Command;
use openapi2mcp::document::LoadOptions;
use openapi2mcp::pipeline::{self, PipelineOptions};
use openapi2mcp::server::ServeOptions;
use openapi2mcp::server::modes::{ListingOptions, ToolsMode};
use serde_json::{Value, json};

use crate::backend::Backend;
use crate::support::{external, local};

const GITHUB: &str = "@octokit/openapi/generated/api.github.com.json";

fn overlay() -> String {
    local("tests/fixtures/overlays/github.yaml")
        .to_string_lossy()
        .into_owned()
}

fn bin() -> Command {
    Command::cargo_bin("openapi2mcp").unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let out = bin().args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// The NAME column of `list`'s table.
fn names(table: &str) -> Vec<&str> {
    table
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut cols = l.split_whitespace();
            let name = cols.next()?;
            let method = cols.next()?;
            method
                .chars()
                .all(|c| c.is_ascii_uppercase())
                .then_some(name)
        })
        .collect()
}

#[test]
fn an_overlay_changes_what_list_shows() {
    let Some(github) = external(GITHUB) else {
        return;
    };
    let github = github.to_string_lossy().into_owned();
    let before = stdout_of(&["list", &github]);
    let after = stdout_of(&["list", &github, "--overlay", &overlay()]);
    let (before, after) = (names(&before), names(&after));
    for name in ["create_pull_request", "delete_repo", "list_classrooms"] {
        assert!(before.contains(&name), "{name} missing without the overlay");
        assert!(
            !after.contains(&name),
            "{name} still listed with the overlay"
        );
    }
    assert!(after.contains(&"open_pull_request"));
    let classroom_table = stdout_of(&["list", &github, "--tag", "classroom"]);
    let classroom = names(&classroom_table);
    assert!(classroom.len() >= 3, "{classroom_table}");
    // One renamed in place, one removed, the Classroom operations
    // excluded; every other name unchanged.
    let expected: Vec<&str> = before
        .iter()
        .filter(|n| **n != "delete_repo" && !classroom.contains(n))
        .map(|n| {
            if *n == "create_pull_request" {
                "open_pull_request"
            } else {
                n
            }
        })
        .collect();
    assert_eq!(after, expected);

    let json: Value = serde_json::from_str(&stdout_of(&[
        "list",
        &github,
        "--json",
        "--overlay",
        &overlay(),
        "--operation",
        "get_repo",
    ]))
    .unwrap();
    let tools = json.as_array().unwrap();
    assert_eq!(tools.len(), 1, "{json}");
    assert_eq!(tools[0]["title"], "Look up a repository");
    assert!(
        tools[0]["description"]
            .as_str()
            .unwrap()
            .contains("found by owner and name"),
        "{}",
        tools[0]["description"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_overlay_changes_what_serve_serves() {
    let Some(github) = external(GITHUB) else {
        return;
    };
    let options = PipelineOptions {
        load: LoadOptions {
            overlays: vec![overlay()],
            ..LoadOptions::default()
        },
        ..PipelineOptions::default()
    };
    let loaded = pipeline::load_catalog(github.to_str().unwrap(), &options).unwrap();
    let backend = Backend::start(|_| (201, "application/json", b"{}".to_vec())).await;
    let client = crate::serve::connect(
        loaded.catalog,
        ServeOptions {
            base_url: Some(backend.url()),
            // Every tool listed (auto would list discovery meta-tools for
            // GitHub's 1,200).
            listing: ListingOptions {
                mode: ToolsMode::Full,
                ..ListingOptions::default()
            },
            ..ServeOptions::default()
        },
    )
    .await;
    let tools = client.list_all_tools().await.unwrap();
    let find = |name: &str| tools.iter().find(|t| t.name == name);
    assert!(find("open_pull_request").is_some());
    assert!(find("create_pull_request").is_none());
    assert!(find("delete_repo").is_none());
    assert!(find("list_classrooms").is_none());
    let get_repo = find("get_repo").expect("get_repo");
    assert_eq!(get_repo.title.as_deref(), Some("Look up a repository"));

    let result = crate::support::call(
        &client,
        "open_pull_request",
        json!({"owner": "o", "repo": "r", "title": "t", "head": "feature", "base": "main"}),
    )
    .await;
    let sent = backend.take();
    assert_eq!(sent.len(), 1, "{result:?}");
    assert_eq!(sent[0].method, "POST");
    assert_eq!(sent[0].target, "/repos/o/r/pulls");
    let body: Value = serde_json::from_slice(&sent[0].body).unwrap();
    assert_eq!(body["head"], "feature");
    client.cancel().await.unwrap();
}

#[test]
fn an_overlay_changes_what_generate_writes() {
    let Some(github) = external(GITHUB) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("gh");
    bin()
        .args([
            "generate",
            github.to_str().unwrap(),
            "--overlay",
            &overlay(),
            "--operation",
            "open_pull_request,get_repo,delete_repo,list_classrooms",
            "--out",
            out.to_str().unwrap(),
            "--name",
            "gh-mcp",
        ])
        .assert()
        .success();
    let tools: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("tools.json")).unwrap()).unwrap();
    let tools = tools
        .as_array()
        .or_else(|| tools["tools"].as_array())
        .unwrap();
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["get_repo", "open_pull_request"]);
    let code = std::fs::read_dir(out.join("src/operations"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect::<String>();
    assert!(
        code.contains("fn open_pull_request"),
        "no open_pull_request fn"
    );
    assert!(
        code.contains("found by owner and name"),
        "new description not in the code"
    );
}

#[test]
fn broken_and_stale_overlays_point_into_the_overlay_file() {
    let petstore = local("specs/petstore.yaml");
    let broken = local("tests/fixtures/overlays/broken.yaml");
    let out = bin()
        .args([
            "list",
            petstore.to_str().unwrap(),
            "--overlay",
            broken.to_str().unwrap(),
        ])
        .assert()
        .failure();
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("broken.yaml:9 at #/actions/1/target") && err.contains("invalid JSONPath"),
        "{err}"
    );

    let stale = local("tests/fixtures/overlays/unmatched.yaml");
    let out = bin()
        .args([
            "list",
            petstore.to_str().unwrap(),
            "--overlay",
            stale.to_str().unwrap(),
        ])
        .assert()
        .success();
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("unmatched.yaml:10 at #/actions/1/target") && err.contains("matches nothing"),
        "{err}"
    );
    let table = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(names(&table).contains(&"browse_pets"), "{table}");

    // Every subcommand that reads a document takes --overlay.
    for sub in ["serve", "generate", "mock", "config"] {
        let out = bin()
            .args([
                sub,
                petstore.to_str().unwrap(),
                "--overlay",
                broken.to_str().unwrap(),
            ])
            .args(if sub == "generate" {
                vec!["--out", "/nonexistent/never-written"]
            } else {
                vec![]
            })
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .failure();
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(err.contains("broken.yaml:9"), "{sub}: {err}");
    }
}
