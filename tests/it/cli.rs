//! The `openapi2mcp` binary as a user runs it.

use assert_cmd::Command;
use serde_json::Value;

use crate::support::local;

fn bin() -> Command {
    Command::cargo_bin("openapi2mcp").unwrap()
}

#[test]
fn list_prints_a_table() {
    let out = bin()
        .args(["list", local("specs/petstore.yaml").to_str().unwrap()])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("NAME"), "{text}");
    let row = lines
        .iter()
        .find(|l| l.starts_with("delete_pet "))
        .expect("delete_pet row");
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cols, ["delete_pet", "DELETE", "/pets/{petId}", "-DI", "1"]);
    assert!(text.contains("\n7 tools from Petstore 1.0.0\n"), "{text}");
    assert!(
        text.trim_end().ends_with(
            "serve --tools auto lists full: the full list is about 2035 tokens (budget 20000)"
        ),
        "{text}"
    );
    // --footprint adds the real counts of each mode.
    let out = bin()
        .args([
            "list",
            "--footprint",
            local("specs/petstore.yaml").to_str().unwrap(),
        ])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("tokens of tools/list (o200k_base): full "),
        "{text}"
    );
    assert!(text.contains("discovery "), "{text}");
}

#[test]
fn list_json_is_the_tools_list_payload() {
    let out = bin()
        .args([
            "list",
            "--json",
            local("specs/petstore.yaml").to_str().unwrap(),
        ])
        .assert()
        .success();
    let tools: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let tools = tools.as_array().unwrap();
    assert_eq!(tools.len(), 7);
    let get = tools.iter().find(|t| t["name"] == "get_pet").unwrap();
    assert_eq!(get["inputSchema"]["required"], serde_json::json!(["petId"]));
    assert_eq!(get["annotations"]["readOnlyHint"], true);
    assert!(get.get("outputSchema").is_some());
    assert!(
        get.get("http").is_none(),
        "the binding is internal, not part of tools/list"
    );
}

#[test]
fn list_with_filters() {
    let out = bin()
        .args([
            "list",
            "--json",
            "--read-only",
            "--tag",
            "pets",
            local("specs/petstore.yaml").to_str().unwrap(),
        ])
        .assert()
        .success();
    let tools: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["list_pets", "get_pet"]);
}

#[test]
fn broken_documents_give_a_located_diagnostic_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        "openapi: 3.0.3\ninfo:\n  title: t\n  version: '1'\npaths:\n  /a: [unclosed\n",
    )
    .unwrap();
    let out = bin().args(["list", bad.to_str().unwrap()]).assert().code(1);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("bad.yaml:") && err.contains("invalid YAML"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    let not_openapi = dir.path().join("x.json");
    std::fs::write(&not_openapi, "{\"hello\": 1}").unwrap();
    let out = bin()
        .args(["list", not_openapi.to_str().unwrap()])
        .assert()
        .code(1);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.contains("not an OpenAPI document"), "{err}");

    let out = bin()
        .args(["list", dir.path().join("missing.yaml").to_str().unwrap()])
        .assert()
        .code(1);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("missing.yaml") && err.contains("cannot read file"),
        "{err}"
    );
}

#[test]
fn warnings_name_file_pointer_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("w.yaml");
    std::fs::write(
        &doc,
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: '#/components/parameters/Nope'\n      responses: {'200': {description: ok}}\n  /b:\n    get:\n      responses: {'200': {description: ok}}\n",
    )
    .unwrap();
    let out = bin()
        .args(["list", doc.to_str().unwrap()])
        .assert()
        .success();
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("w.yaml:7 at #/paths/~1a/get/parameters/0/$ref"),
        "{err}"
    );
    assert!(err.contains("points at nothing"), "{err}");
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("get_b") && !text.contains("get_a"), "{text}");
}

#[tokio::test]
async fn config_prints_an_entry_that_starts_a_working_server() {
    use rmcp::ServiceExt;
    let out = bin()
        .args([
            "config",
            "--mock",
            local("specs/petstore.yaml").to_str().unwrap(),
        ])
        .assert()
        .success();
    let snippet: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let entry = &snippet["mcpServers"]["petstore"];
    let args: Vec<String> = entry["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    assert_eq!(args[0], "serve");
    assert!(
        std::path::Path::new(&args[1]).is_absolute() && args[1].ends_with("specs/petstore.yaml"),
        "{args:?}"
    );
    assert_eq!(args[2], "--mock");
    let env = entry["env"].as_object().unwrap();
    assert_eq!(
        env.keys().collect::<Vec<_>>(),
        ["OPENAPI2MCP_APIKEY_KEY", "OPENAPI2MCP_BEARER_TOKEN"]
    );

    // Start exactly what a client would start, and talk MCP to it.
    let mut cmd = tokio::process::Command::new(entry["command"].as_str().unwrap());
    cmd.args(&args);
    let client =
        ().serve(rmcp::transport::TokioChildProcess::new(cmd).unwrap())
            .await
            .expect("the configured command speaks MCP");
    // Petstore's seven operations and get_call_result.
    assert_eq!(client.list_all_tools().await.unwrap().len(), 8);
    client.cancel().await.unwrap();
}

/// Serves `files` (path → body) over HTTP on 127.0.0.1 from a thread of its own.
fn serve_files(files: &'static [(&'static str, &'static str)]) -> std::net::SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let app = axum::Router::new().fallback(move |uri: axum::http::Uri| async move {
                match files.iter().find(|(p, _)| *p == uri.path()) {
                    Some((_, body)) => (axum::http::StatusCode::OK, *body),
                    None => (axum::http::StatusCode::NOT_FOUND, "no such file"),
                }
            });
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, app).await.unwrap();
        });
    });
    addr
}

#[test]
fn documents_load_from_urls_with_relative_refs_and_servers() {
    static FILES: &[(&str, &str)] = &[
        (
            "/specs/api.yaml",
            "openapi: 3.0.3\ninfo: {title: Remote, version: '1'}\nservers: [{url: /v2}]\npaths:\n  /things/{id}:\n    $ref: 'paths/thing.yaml'\n",
        ),
        (
            "/specs/paths/thing.yaml",
            "get:\n  operationId: getThing\n  parameters:\n    - {name: id, in: path, required: true, schema: {$ref: '../schemas.json#/Id'}}\n  responses:\n    '200': {description: ok}\n",
        ),
        (
            "/specs/schemas.json",
            r#"{"Id": {"type": "integer", "minimum": 1}}"#,
        ),
    ];
    let addr = serve_files(FILES);
    let url = format!("http://{addr}/specs/api.yaml");
    let loaded = openapi2mcp::pipeline::load_catalog(
        &url,
        &openapi2mcp::pipeline::PipelineOptions::default(),
    )
    .unwrap();
    let (catalog, diags) = (loaded.catalog, loaded.diagnostics);
    assert!(diags.is_empty(), "{diags:?}");
    let tool = &catalog.tools[0];
    assert_eq!(tool.name, "get_thing");
    assert_eq!(
        tool.input_schema["properties"]["id"],
        serde_json::json!({"$ref": "#/$defs/Id"})
    );
    assert_eq!(
        tool.input_schema["$defs"]["Id"],
        serde_json::json!({"type": "integer", "minimum": 1})
    );
    // A relative server URL is relative to where the document came from.
    assert_eq!(tool.http.servers[0].url, format!("http://{addr}/v2"));

    // The CLI takes URLs too, and names a missing one clearly.
    let out = bin().args(["list", &url]).assert().success();
    assert!(String::from_utf8_lossy(&out.get_output().stdout).contains("get_thing"));
    let missing = format!("http://{addr}/specs/nope.yaml");
    let out = bin().args(["list", &missing]).assert().code(1);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("nope.yaml") && err.contains("404"), "{err}");
}

/// A document whose only operation cannot become a tool (a broken `$ref`
/// parameter): every subcommand refuses it with exit 1, naming why.
#[test]
fn a_document_without_tools_is_an_error_for_list_generate_and_serve() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("broken.yaml");
    std::fs::write(
        &spec,
        "openapi: 3.0.3\ninfo: {title: broken, version: '1'}\npaths:\n  /pets:\n    get:\n      operationId: listPets\n      parameters:\n        - $ref: '#/components/parameters/Missing'\n      responses: {'200': {description: ok}}\n",
    )
    .unwrap();
    let spec = spec.to_str().unwrap();
    let out_dir = dir.path().join("crate");
    let runs: [Vec<&str>; 4] = [
        vec!["list", spec],
        vec!["list", "--quiet", spec],
        vec!["generate", spec, "--out", out_dir.to_str().unwrap()],
        vec!["serve", spec],
    ];
    for args in runs {
        let out = bin()
            .args(&args)
            .timeout(std::time::Duration::from_secs(30))
            .assert()
            .code(1);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(
            stderr.contains(
                "the document yields no tools: of its 1 operation, 1 could not be made into a tool"
            ),
            "{args:?}: {stderr}"
        );
        // The operation's own error, with its place, is shown even with --quiet.
        assert!(
            stderr.contains("#/components/parameters/Missing"),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains("broken.yaml"), "{args:?}: {stderr}");
    }
    assert!(!out_dir.exists(), "generate wrote a crate with no tools");

    // Filters that leave nothing say so.
    let out = bin()
        .args([
            "list",
            "--tag",
            "nope",
            local("specs/petstore.yaml").to_str().unwrap(),
        ])
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("7 did not match the selection"), "{stderr}");
}

/// The binary runs on mimalloc, tuned before anything allocates to return
/// freed memory after 1 ms and commit arenas as they fill (the peak-RSS
/// figures of bench/README.md depend on it). mimalloc's own verbose report
/// names the options, so wrong option numbers fail here.
#[test]
fn the_allocator_is_tuned() {
    let out = bin()
        .arg("--version")
        .env("MIMALLOC_VERBOSE", "1")
        .assert()
        .success();
    let out = out.get_output();
    let report = String::from_utf8_lossy(&out.stderr);
    for line in ["option 'purge_delay': 1", "option 'arena_eager_commit': 0"] {
        assert!(report.contains(line), "missing `{line}` in:\n{report}");
    }
}

/// `openapi2mcp list … | head -1`: a reader that leaves early ends the
/// command quietly (exit 0, nothing on stderr), for every command that
/// prints a result, instead of a panic or an error about the pipe.
#[test]
fn output_to_a_closed_pipe_ends_quietly() {
    use std::process::{Command as Std, Stdio};
    let petstore = local("specs/petstore.yaml");
    let petstore = petstore.to_str().unwrap();
    // The read end is closed before the command has loaded its document,
    // so its first write fails (EPIPE: Rust ignores SIGPIPE).
    for args in [
        vec!["list", "--json", petstore],
        vec!["list", petstore],
        vec!["lint", "--format", "json", petstore],
        vec!["config", petstore],
    ] {
        let mut child = Std::new(assert_cmd::cargo::cargo_bin("openapi2mcp"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("error"), "{args:?}: {stderr}");
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
    }
}

/// A bad `--watch-interval` is refused before anything starts serving
/// (when the command line is parsed: exit status 2).
#[test]
fn a_bad_watch_interval_is_refused_at_once() {
    for bad in ["0", "-1", "nan"] {
        let out = bin()
            .args(["serve", local("specs/petstore.yaml").to_str().unwrap()])
            .args(["--mock", "--watch", &format!("--watch-interval={bad}")])
            .env("OPENAPI2MCP_LOG", "info")
            .timeout(std::time::Duration::from_secs(30))
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(
            stderr.contains("--watch-interval") && stderr.contains("seconds from 0.1 to 86400"),
            "{bad}: {stderr}"
        );
        assert!(!stderr.contains("mock API serving"), "{bad}: {stderr}");
    }
}
