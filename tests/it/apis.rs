//! `serve --config`: several APIs through one MCP endpoint. Real `serve`
//! processes (rmcp's client over stdio) with the bundled petstore on its
//! in-process mock, GitHub's real description against a recording backend
//! on 127.0.0.1, and a second petstore against another backend: tools
//! namespaced by prefix, each call reaching its own API with its own
//! credentials (never another API's, never the process environment's),
//! collisions and broken entries refused naming the file and line, and one
//! API's document reloaded while the others keep serving.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

use crate::backend::{Backend, Recorded, Reply};
use crate::support::{external, root};

fn scratch(name: &str) -> crate::support::Scratch {
    crate::support::scratch(&format!("apis-{name}"))
}

fn ok_json(_: &Recorded) -> Reply {
    let body = json!({"id": 1, "name": "Rex", "full_name": "octocat/hello", "private": false});
    (200, "application/json", body.to_string().into_bytes())
}

fn command(config: &Path, extra: &[&str]) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.arg("serve")
        .arg("--config")
        .arg(config)
        .args(extra)
        .env("O2M_TEST_PETS_TOKEN", "pets-t0ken")
        .env("O2M_TEST_GH_TOKEN", "gh-t0ken")
        // Must never be used: with --config, credentials are per API.
        .env("OPENAPI2MCP_BEARER_TOKEN", "env-le4k")
        .stderr(Stdio::null());
    cmd
}

async fn start(config: &Path, extra: &[&str]) -> RunningService<rmcp::RoleClient, ()> {
    ().serve(TokioChildProcess::new(command(config, extra)).unwrap())
        .await
        .unwrap()
}

async fn call(client: &RunningService<rmcp::RoleClient, ()>, tool: &str, args: Value) -> Value {
    serde_json::to_value(crate::support::call(client, tool, args).await).unwrap()
}

async fn names(client: &RunningService<rmcp::RoleClient, ()>) -> Vec<String> {
    let tools = client.list_all_tools().await.unwrap();
    tools.iter().map(|t| t.name.to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_apis_serve_through_one_endpoint_each_with_its_own_credentials() {
    let Some(github) = external("@octokit/openapi/generated/api.github.com.json") else {
        return;
    };
    let gh_backend = Backend::start(ok_json).await;
    let pets_backend = Backend::start(ok_json).await;
    let dir = scratch("three");
    let config = dir.join("apis.yaml");
    std::fs::write(
        &config,
        format!(
            "apis:
  - name: demo
    spec: {petstore}
    mock: true
  - name: github
    spec: {github}
    prefix: gh
    base_url: {gh}
    tags: [repos, activity]
    headers: ['Authorization: token ${{O2M_TEST_GH_TOKEN}}']
  - name: pets
    spec: {petstore}
    base_url: {pets}/v1
    credentials:
      OPENAPI2MCP_BEARER_TOKEN: ${{O2M_TEST_PETS_TOKEN}}
",
            petstore = root().join("specs/petstore.yaml").display(),
            github = github.display(),
            gh = gh_backend.url(),
            pets = pets_backend.url(),
        ),
    )
    .unwrap();
    let client = start(&config, &["--tools", "full"]).await;
    let listed = names(&client).await;
    for name in [
        "demo_get_pet",
        "pets_get_pet",
        "gh_get_repo",
        "gh_star_repo_for_authenticated_user",
    ] {
        assert!(
            listed.contains(&name.to_string()),
            "{name} missing from {listed:?}"
        );
    }
    assert!(listed.iter().all(|n| n.len() <= 64));
    assert!(
        !listed.iter().any(|n| n == "get_pet"),
        "every tool is namespaced"
    );
    // GitHub's filter (tags repos and activity) applies to GitHub only.
    assert!(
        !listed.contains(&"gh_create_issue".to_string()),
        "{listed:?}"
    );
    let gh = listed.iter().filter(|n| n.starts_with("gh_")).count();
    assert!((100..800).contains(&gh), "{gh} GitHub tools");

    // The mock API answers from its document, nothing reaches a backend.
    let mocked = call(&client, "demo_get_pet", json!({"petId": 1})).await;
    assert_ne!(mocked["isError"], true, "{mocked}");
    assert!(gh_backend.take().is_empty() && pets_backend.take().is_empty());

    // GitHub: its backend, its header.
    let repo = call(
        &client,
        "gh_get_repo",
        json!({"owner": "octocat", "repo": "hello"}),
    )
    .await;
    assert_ne!(repo["isError"], true, "{repo}");
    let seen = gh_backend.take();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].target, "/repos/octocat/hello");
    assert_eq!(seen[0].header("authorization"), Some("token gh-t0ken"));
    assert!(pets_backend.take().is_empty());

    // The second petstore: its backend, its own credential.
    let pet = call(&client, "pets_get_pet", json!({"petId": 7})).await;
    assert_ne!(pet["isError"], true, "{pet}");
    let seen = pets_backend.take();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].target, "/v1/pets/7");
    assert_eq!(seen[0].header("authorization"), Some("Bearer pets-t0ken"));
    assert!(gh_backend.take().is_empty());
    for s in [&repo, &pet] {
        assert!(!s.to_string().contains("env-le4k"));
    }
    client.cancel().await.unwrap();

    // Discovery mode searches every API at once.
    let client = start(&config, &["--tools", "discovery"]).await;
    let found = call(
        &client,
        "search_tools",
        json!({"query": "star a repository"}),
    )
    .await;
    assert!(
        found
            .to_string()
            .contains("gh_star_repo_for_authenticated_user"),
        "{found}"
    );
    let found = call(&client, "search_tools", json!({"query": "delete a pet"})).await;
    let text = found.to_string();
    assert!(
        text.contains("demo_delete_pet") && text.contains("pets_delete_pet"),
        "{text}"
    );
    client.cancel().await.unwrap();

    // Code mode: one script chains operations of two APIs.
    let client = start(&config, &["--tools", "code"]).await;
    let found = call(&client, "search_api", json!({"query": "get a repository"})).await;
    assert!(found.to_string().contains("gh_get_repo"), "{found}");
    let ran = call(
        &client,
        "execute_read_only",
        json!({"script": "const repo = await api.gh_get_repo({owner: 'octocat', repo: 'hello'});\nconst pet = await api.pets_get_pet({petId: 9});\nconst demo = await api.demo_get_pet({petId: 1});\nreturn [repo.full_name, pet.name, typeof demo.name];"}),
    )
    .await;
    assert_ne!(ran["isError"], true, "{ran}");
    assert!(ran.to_string().contains("octocat/hello"), "{ran}");
    assert_eq!(
        gh_backend.take()[0].header("authorization"),
        Some("token gh-t0ken")
    );
    assert_eq!(pets_backend.take()[0].target, "/v1/pets/9");
    client.cancel().await.unwrap();

    // Toolsets: one per API, its tags nested under it.
    let client = start(&config, &["--tools", "toolsets"]).await;
    let sets = call(&client, "list_toolsets", json!({})).await.to_string();
    assert!(
        sets.contains("github.repos") && sets.contains("demo.pets"),
        "{sets}"
    );
    let enabled = call(&client, "enable_toolset", json!({"names": ["github"]})).await;
    assert_ne!(enabled["isError"], true, "{enabled}");
    let listed = names(&client).await;
    assert!(listed.contains(&"gh_get_repo".to_string()), "{listed:?}");
    assert!(!listed.iter().any(|n| n.starts_with("demo_")), "{listed:?}");
    // Component schemas of each API, named apart.
    let resources = client.list_all_resources().await.unwrap();
    let uris: Vec<String> = resources.iter().map(|r| r.uri.to_string()).collect();
    assert!(
        uris.iter().any(|u| u == "openapi2mcp://schemas/demo:Pet"),
        "{uris:?}"
    );
    assert!(
        uris.iter().any(|u| u == "openapi2mcp://schemas/pets:Pet"),
        "{uris:?}"
    );
    let pet = client
        .read_resource(rmcp::model::ReadResourceRequestParams::new(
            "openapi2mcp://schemas/pets:Pet",
        ))
        .await
        .unwrap();
    assert!(
        serde_json::to_string(&pet).unwrap().contains("name"),
        "{pet:?}"
    );
    client.cancel().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// `serve --config` run to its end: exit status and stderr.
fn refused(config: &Path) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .arg("serve")
        .arg("--config")
        .arg(config)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn collisions_and_broken_entries_are_refused_naming_file_and_line() {
    let dir = scratch("broken");
    let petstore = root().join("specs/petstore.yaml");
    let petstore = petstore.display();
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    // Two APIs without prefixes whose tools share names.
    let both = write(
        "both.yaml",
        format!(
            "apis:\n  - name: a\n    spec: {petstore}\n    prefix: ''\n    mock: true\n  - name: b\n    spec: {petstore}\n    prefix: ''\n    mock: true\n"
        ),
    );
    let err = refused(&both);
    assert!(
        err.contains("tool `list_pets` is in both `a` and `b`"),
        "{err}"
    );
    // A misspelt key: file and line.
    let typo = write(
        "typo.yaml",
        format!("apis:\n  - name: a\n    spec: {petstore}\n    base_ulr: http://127.0.0.1:1\n"),
    );
    let err = refused(&typo);
    assert!(
        err.contains("typo.yaml:4") && err.contains("base_ulr"),
        "{err}"
    );
    // A document that does not exist: the entry's `spec` line.
    let missing = write(
        "missing.toml",
        "[[apis]]\nname = \"a\"\nspec = \"nowhere.yaml\"\n".to_string(),
    );
    let err = refused(&missing);
    assert!(
        err.contains("missing.toml:3") && err.contains("apis[0] (`a`) spec"),
        "{err}"
    );
    // An unset variable in a header: named, with its line.
    let unset = write(
        "unset.yaml",
        format!(
            "apis:\n  - name: a\n    spec: {petstore}\n    mock: true\n    headers: ['X-Key: ${{O2M_TEST_NOT_SET}}']\n"
        ),
    );
    let err = refused(&unset);
    assert!(
        err.contains("unset.yaml:5") && err.contains("O2M_TEST_NOT_SET"),
        "{err}"
    );
    // Two APIs offering people's logins under one scheme name, with a
    // token store: their logins would be kept under one name.
    let features = root().join("specs/features.yaml");
    let twice = write(
        "logins.yaml",
        format!(
            "apis:\n  - name: a\n    spec: {f}\n    mock: true\n  - name: b\n    spec: {f}\n    mock: true\n",
            f = features.display()
        ),
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args(["serve", "--config"])
        .arg(&twice)
        .arg("--token-store")
        .arg(dir.join("tokens.enc"))
        .env(
            "OPENAPI2MCP_TOKEN_KEY",
            "0123456789abcdef0123456789abcdef-test",
        )
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("logins.yaml:6") && err.contains("`userLogin` offers people's logins"),
        "{err}"
    );
    // A flag that names one API.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args(["serve", "--config"])
        .arg(&both)
        .args(["--base-url", "http://127.0.0.1:1"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("--base-url names one API"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_api_reloads_while_the_others_keep_serving() {
    let backend = Backend::start(ok_json).await;
    let dir = scratch("reload");
    let petstore = std::fs::read_to_string(root().join("specs/petstore.yaml")).unwrap();
    let edited = dir.join("pets.yaml");
    std::fs::write(&edited, &petstore).unwrap();
    let config = dir.join("apis.yaml");
    std::fs::write(
        &config,
        format!(
            "apis:
  - name: live
    spec: pets.yaml
    base_url: {url}/v1
  - name: demo
    spec: {petstore}
    mock: true
",
            url = backend.url(),
            petstore = root().join("specs/petstore.yaml").display()
        ),
    )
    .unwrap();
    let client = start(&config, &["--watch", "--watch-interval", "0.2"]).await;
    let before = names(&client).await;
    assert!(
        before.contains(&"live_get_pet_photo".to_string()),
        "{before:?}"
    );
    // The live API's document loses its photo operations.
    let trimmed = petstore.replace("  /pets/{petId}/photo:", "  /pets/{petId}/photo-gone-x:");
    assert_ne!(trimmed, petstore);
    let without_photos = {
        let doc: Value = serde_norway::from_str(&petstore).unwrap();
        let mut doc = doc;
        doc["paths"]
            .as_object_mut()
            .unwrap()
            .remove("/pets/{petId}/photo");
        serde_json::to_string(&doc).unwrap()
    };
    std::fs::write(&edited, without_photos).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let after = loop {
        let now = names(&client).await;
        if !now.contains(&"live_get_pet_photo".to_string()) || Instant::now() > deadline {
            break now;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(
        !after.contains(&"live_get_pet_photo".to_string()),
        "not reloaded: {after:?}"
    );
    assert!(after.contains(&"live_get_pet".to_string()));
    // The other API is untouched and both still answer.
    assert!(
        after.contains(&"demo_get_pet_photo".to_string()),
        "{after:?}"
    );
    let live = call(&client, "live_get_pet", json!({"petId": 3})).await;
    assert_ne!(live["isError"], true, "{live}");
    assert_eq!(backend.take()[0].target, "/v1/pets/3");
    let demo = call(&client, "demo_get_pet", json!({"petId": 1})).await;
    assert_ne!(demo["isError"], true, "{demo}");
    // A broken document keeps the previous tools.
    std::fs::write(&edited, "openapi: [not a document").unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(names(&client).await, after);
    client.cancel().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn config_prints_the_client_entry_for_a_configuration() {
    let dir = scratch("entry");
    let file = dir.join("apis.yaml");
    std::fs::write(
        &file,
        format!(
            "apis:\n  - name: demo\n    spec: {}\n    mock: true\n  - name: github\n    spec: https://example.invalid/gh.json\n    headers: ['Authorization: token ${{GITHUB_TOKEN}}']\n    credentials: {{OPENAPI2MCP_X_TOKEN: '${{X_TOKEN}}-$${{literal}}'}}\n",
            root().join("specs/petstore.yaml").display()
        ),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .arg("config")
        .arg("--config")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let entry: Value = serde_json::from_slice(&out.stdout).unwrap();
    let server = &entry["mcpServers"]["demo-github"];
    assert_eq!(
        server["args"],
        json!(["serve", "--config", file.display().to_string()])
    );
    let mut env: Vec<&String> = server["env"].as_object().unwrap().keys().collect();
    env.sort();
    assert_eq!(env, ["GITHUB_TOKEN", "X_TOKEN"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mocked_api_remembers_across_restarts_when_given_a_state_file() {
    let dir = scratch("state");
    let config = dir.join("apis.toml");
    std::fs::write(
        &config,
        format!(
            "[[apis]]\nname = \"demo\"\nspec = \"{}\"\nmock = true\nmock_state = \"demo-state.json\"\n",
            root().join("specs/petstore.yaml").display()
        ),
    )
    .unwrap();
    let client = start(&config, &[]).await;
    let created = call(&client, "demo_create_pet", json!({"name": "Bob"})).await;
    assert_ne!(created["isError"], true, "{created}");
    client.cancel().await.unwrap();
    assert!(
        dir.join("demo-state.json").exists(),
        "the state file is beside the configuration"
    );
    let client = start(&config, &[]).await;
    let listed = call(&client, "demo_list_pets", json!({})).await;
    assert!(listed.to_string().contains("Bob"), "{listed}");
    client.cancel().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
