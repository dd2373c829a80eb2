//! Arazzo workflows as tools, end to end: `openapi2mcp mock` serves the
//! API (a process of its own, whose request log says what reached it),
//! `openapi2mcp serve --arazzo` serves the workflows over stdio, and an
//! rmcp client calls them: the bundled petstore's workflows (a happy path,
//! a step that fails and is retried, a failure that goes to another step)
//! and the Arazzo specification's own pet-coupons example.

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use openapi2mcp::runtime::catalog::Catalog;
use rmcp::ServiceExt;
use rmcp::model::CallToolResult;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt;

use crate::serve::catalog_at;
use crate::support::{call, text_of};
use crate::support::{local, root};

/// An `openapi2mcp mock` process and the requests it logged.
pub(crate) struct Mock {
    child: tokio::process::Child,
    pub(crate) url: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Drop for Mock {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

/// Removes ANSI colour sequences from a log line.
fn plain(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl Mock {
    pub(crate) async fn start(spec: &str) -> Self {
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
            .args(["mock", spec, "--listen", "127.0.0.1:0"])
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
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        let sink = Arc::clone(&log);
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                let line = plain(&line);
                if line.contains("mock request") {
                    sink.lock().unwrap().push(line);
                }
            }
        });
        Self { child, url, log }
    }

    /// `METHOD path` of each request logged so far (waiting a moment for
    /// the last lines), taken.
    pub(crate) async fn requests(&self) -> Vec<String> {
        tokio::time::sleep(Duration::from_millis(200)).await;
        std::mem::take(&mut *self.log.lock().unwrap())
            .iter()
            .map(|l| {
                let field = |name: &str| {
                    l.split_whitespace()
                        .find_map(|w| w.strip_prefix(name))
                        .unwrap_or_default()
                        .to_string()
                };
                format!("{} {}", field("method="), field("path="))
            })
            .collect()
    }
}

/// `serve SPEC --arazzo ARAZZO` against the mock, over stdio.
async fn serve(spec: &str, arazzo: &str, mock: &Mock) -> RunningService<RoleClient, ()> {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.args(["serve", spec, "--arazzo", arazzo, "--base-url", &mock.url])
        .current_dir(root());
    ().serve(TokioChildProcess::new(cmd).unwrap())
        .await
        .expect("the server speaks MCP")
}

fn structured(result: &CallToolResult) -> Value {
    assert_eq!(result.is_error, Some(false), "{}", text_of(result));
    result.structured_content.clone().unwrap_or_default()
}

#[tokio::test]
async fn petstore_workflows_run_end_to_end_through_the_mock() {
    let mock = Mock::start("specs/petstore.yaml").await;
    let client = serve("specs/petstore.yaml", "specs/petstore.arazzo.yaml", &mock).await;
    let tools = client.list_all_tools().await.unwrap();
    let adopt = tools.iter().find(|t| t.name == "adopt_pet").unwrap();
    // Its inputs are the workflow's (a `$ref` to components.inputs).
    assert_eq!(
        adopt.input_schema["properties"]["limit"]["maximum"],
        json!(100)
    );
    // The most dangerous step's hints: PATCH is not read-only.
    let hints = adopt.annotations.clone().unwrap();
    assert_eq!(hints.read_only_hint, Some(false));
    let watch = tools.iter().find(|t| t.name == "await_sale").unwrap();
    assert_eq!(
        watch.annotations.clone().unwrap().read_only_hint,
        Some(true)
    );

    let adopted = call(&client, "adopt_pet", json!({"limit": 5})).await;
    assert_eq!(
        structured(&adopted),
        json!({"pet_id": 1, "name": "Rex", "status": "sold"})
    );
    assert_eq!(
        mock.requests().await,
        ["GET /v1/pets", "PATCH /v1/pets/1"],
        "each step is one request, the second using the first's outputs"
    );

    // The other workflow goes to `list-sold` when its first step fails.
    let other = call(&client, "sold_pet_or_another", json!({"pet_id": 1})).await;
    assert_eq!(structured(&other), json!({"name": "Tom"}));
    assert_eq!(mock.requests().await, ["GET /v1/pets/1", "GET /v1/pets"]);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_failing_step_is_retried_and_the_error_names_it() {
    let mock = Mock::start("specs/petstore.yaml").await;
    let client = serve("specs/petstore.yaml", "specs/petstore.arazzo.yaml", &mock).await;
    let started = Instant::now();
    // The mock's pet is `available`, never `sold`: the step fails its
    // criteria, is retried twice 0.25 s apart, then fails the workflow.
    let result = call(&client, "await_sale", json!({"pet_id": 1})).await;
    let elapsed = started.elapsed();
    assert_eq!(result.is_error, Some(true), "{result:?}");
    let text = text_of(&result);
    assert!(
        text.starts_with("Workflow `awaitSale` failed at step `check-status`"),
        "{text}"
    );
    assert!(text.contains("after 2 retries"), "{text}");
    assert!(text.contains("retry 2 of 2"), "{text}");
    assert_eq!(
        mock.requests().await,
        ["GET /v1/pets/1", "GET /v1/pets/1", "GET /v1/pets/1"]
    );
    assert!(elapsed >= Duration::from_millis(500), "{elapsed:?}");
    // A bad input is refused before any step runs.
    let refused = call(&client, "await_sale", json!({})).await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text_of(&refused).contains("pet_id"),
        "{}",
        text_of(&refused)
    );
    assert!(mock.requests().await.is_empty());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_arazzo_specifications_own_example_runs_through_the_mock() {
    let spec = "specs/arazzo/pet-coupons.openapi.yaml";
    let mock = Mock::start(spec).await;
    let client = serve(spec, "specs/arazzo/pet-coupons.arazzo.yaml", &mock).await;
    // `apply-coupon` finds a pet, its coupon, then calls the `place-order`
    // workflow, whose output it returns.
    let applied = call(&client, "apply_coupon", json!({"my_pet_tags": ["dog"]})).await;
    let order = structured(&applied);
    assert!(order["apply_coupon_pet_order_id"].is_i64(), "{order:#}");
    assert_eq!(
        mock.requests().await,
        [
            "GET /pet/findByTags",
            "GET /pet/10/coupons",
            "POST /store/order"
        ]
    );
    let bought = call(&client, "buy_available_pet", json!({})).await;
    assert!(structured(&bought)["buy_pet_order_id"].is_i64());
    assert_eq!(
        mock.requests().await,
        ["GET /pet/findByStatus", "POST /store/order"]
    );
    client.cancel().await.unwrap();
}

fn petstore() -> Catalog {
    catalog_at(&local("specs/petstore.yaml"))
}

fn workflows(doc: Value) -> (Vec<openapi2mcp::runtime::catalog::ToolDef>, Vec<String>) {
    let (tools, diags) =
        openapi2mcp::arazzo::from_value("w.arazzo.yaml", &doc, &petstore().tools).unwrap();
    (
        tools,
        diags
            .into_iter()
            .map(|d| format!("{}: {}", d.pointer, d.message))
            .collect(),
    )
}

#[test]
fn a_workflow_that_cannot_run_is_left_out_naming_its_step() {
    let (tools, warnings) = workflows(json!({
        "arazzo": "1.0.1",
        "workflows": [
            {"workflowId": "ghost", "steps": [
                {"stepId": "one", "operationId": "getPet"},
                {"stepId": "two", "operationId": "noSuchOperation"}]},
            {"workflowId": "xml", "steps": [
                {"stepId": "only", "operationId": "getPet",
                 "successCriteria": [{"context": "$response.body", "condition": "/pet/name", "type": "xpath"}]}]},
            {"workflowId": "cleanup", "steps": [
                {"stepId": "look", "operationId": "getPet"},
                {"stepId": "remove", "operationId": "deletePet"}]}
        ]
    }));
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].name, "cleanup");
    // A workflow with a destructive step is destructive.
    assert!(tools[0].annotations.destructive_hint);
    assert!(!tools[0].annotations.read_only_hint);
    assert_eq!(warnings.len(), 2, "{warnings:#?}");
    assert!(
        warnings[0].starts_with("/workflows/0/steps/1: workflow `ghost` left out: step `two`")
            && warnings[0].contains("noSuchOperation"),
        "{}",
        warnings[0]
    );
    assert!(
        warnings[1].contains("step `only`") && warnings[1].contains("xpath"),
        "{}",
        warnings[1]
    );
    let not_arazzo = openapi2mcp::arazzo::from_value("x.yaml", &json!({"openapi": "3.1.0"}), &[]);
    assert!(
        not_arazzo
            .unwrap_err()
            .message
            .contains("not an Arazzo document")
    );
}

/// `generate SPEC --arazzo ARAZZO` into target/arazzo-generated/NAME
/// (a stable place, so a rebuild is incremental), built against the
/// shared target/generated; its binary. The crate depends on this
/// repository's runtime and server by path, as the other generated crates
/// the tests build do, so they share one build of them (vendoring is
/// `parity::vendored_petstore_matches_serve`'s subject).
fn generated_with_workflows(name: &str, spec: &str, arazzo: &str) -> std::path::PathBuf {
    let out = root().join("target/arazzo-generated").join(name);
    let generated = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .args(["generate", spec, "--arazzo", arazzo, "-q", "--name"])
        .arg(format!("{name}-mcp"))
        .arg("--runtime-path")
        .arg(root().join("crates"))
        .arg("--out")
        .arg(&out)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        generated.status.success(),
        "{}",
        String::from_utf8_lossy(&generated.stderr)
    );
    std::fs::copy(root().join("Cargo.lock"), out.join("Cargo.lock")).unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = std::process::Command::new(cargo)
        .args(["build", "--manifest-path"])
        .arg(out.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", root().join("target/generated"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "the generated crate does not build:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    root()
        .join("target/generated/debug")
        .join(format!("{name}-mcp"))
}

#[tokio::test]
async fn a_generated_crate_runs_the_workflows_as_serve_does() {
    let binary = generated_with_workflows(
        "petstore-workflows",
        "specs/petstore.yaml",
        "specs/petstore.arazzo.yaml",
    );
    let mock = Mock::start("specs/petstore.yaml").await;
    let served = serve("specs/petstore.yaml", "specs/petstore.arazzo.yaml", &mock).await;
    let mut cmd = tokio::process::Command::new(&binary);
    cmd.args(["--base-url", &mock.url]);
    let generated = ().serve(TokioChildProcess::new(cmd).unwrap()).await.unwrap();
    let listed = |tools: Vec<rmcp::model::Tool>| {
        tools
            .into_iter()
            .map(|t| serde_json::to_value(t).unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        listed(served.list_all_tools().await.unwrap()),
        listed(generated.list_all_tools().await.unwrap())
    );
    for (tool, args) in [
        ("adopt_pet", json!({"limit": 5})),
        ("await_sale", json!({"pet_id": 1})),
        ("sold_pet_or_another", json!({"pet_id": 1})),
    ] {
        let a = call(&served, tool, args.clone()).await;
        let sent_a = mock.requests().await;
        let b = call(&generated, tool, args).await;
        let sent_b = mock.requests().await;
        assert_eq!(
            serde_json::to_value(&a).unwrap(),
            serde_json::to_value(&b).unwrap(),
            "{tool}"
        );
        assert_eq!(sent_a, sent_b, "{tool}");
        assert!(!sent_a.is_empty(), "{tool}");
    }
    served.cancel().await.unwrap();
    generated.cancel().await.unwrap();
}

#[test]
fn list_and_lint_show_workflows_as_tools_not_as_operations() {
    let run = |command: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
            .args([
                command,
                "specs/petstore.yaml",
                "--arazzo",
                "specs/petstore.arazzo.yaml",
            ])
            .current_dir(root())
            .output()
            .unwrap();
        assert!(out.status.success(), "{command}");
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr)
    };
    let listed = run("list");
    assert!(
        listed.contains("adopt_pet") && listed.contains("10 tools"),
        "{listed}"
    );
    let linted = run("lint");
    assert!(!linted.contains("arazzo:"), "{linted}");
    assert!(linted.contains("0 errors, 0 warnings"), "{linted}");
}

#[tokio::test]
async fn a_long_workflow_becomes_a_task_for_a_client_that_declared_tasks() {
    use crate::protocol::{http_server, rpc_tasks, settle};
    use openapi2mcp::pipeline::{self, PipelineOptions};
    use openapi2mcp::server::{Bridge, ServeOptions};
    let mock = Mock::start("specs/petstore.yaml").await;
    let loaded = pipeline::load_catalog(
        local("specs/petstore.yaml").to_str().unwrap(),
        &PipelineOptions {
            arazzo: vec![local("specs/petstore.arazzo.yaml").display().to_string()],
            ..PipelineOptions::default()
        },
    )
    .unwrap();
    let options = ServeOptions {
        base_url: Some(mock.url.clone()),
        task_after: Duration::from_millis(200),
        ..ServeOptions::default()
    };
    let (url, shutdown) = http_server(Bridge::new(loaded.catalog, options).unwrap()).await;
    // Two retries 0.25 s apart: past --task-after.
    let started = rpc_tasks(
        &url,
        "tools/call",
        json!({"name": "await_sale", "arguments": {"pet_id": 1}}),
    )
    .await;
    assert_eq!(started["result"]["resultType"], "task", "{started}");
    let task_id = started["result"]["taskId"].as_str().unwrap().to_string();
    let done = settle(&url, &task_id).await;
    let result = &done["result"]["result"];
    assert_eq!(result["isError"], true, "{done}");
    assert!(
        result["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .contains("at step `check-status`"),
        "{done}"
    );
    assert_eq!(mock.requests().await.len(), 3);
    shutdown.cancel();
}

#[tokio::test]
async fn a_workflow_with_a_destructive_step_is_confirmed_before_any_step_runs() {
    use crate::backend::{Backend, Recorded, Reply};
    use openapi2mcp::server::ServeOptions;
    use openapi2mcp::server::confirm::ConfirmPolicy;
    fn reply(r: &Recorded) -> Reply {
        match r.method.as_str() {
            "DELETE" => (204, "application/json", Vec::new()),
            _ => (
                200,
                "application/json",
                br#"{"id": 1, "name": "Rex"}"#.to_vec(),
            ),
        }
    }
    let mut catalog = petstore();
    let (workflows, _) = openapi2mcp::arazzo::from_value(
        "w.arazzo.yaml",
        &json!({"arazzo": "1.0.1", "workflows": [{
        "workflowId": "cleanup",
        "inputs": {"type": "object", "properties": {"id": {"type": "integer"}}},
        "steps": [
            {"stepId": "look", "operationId": "getPet",
             "parameters": [{"name": "petId", "in": "path", "value": "$inputs.id"}],
             "outputs": {"id": "$response.body#/id"}},
            {"stepId": "remove", "operationId": "deletePet",
             "parameters": [{"name": "petId", "in": "path", "value": "$steps.look.outputs.id"}],
             "successCriteria": [{"condition": "$statusCode == 204"}]}
        ]}]}),
        &catalog.tools,
    )
    .unwrap();
    catalog.tools.extend(workflows);
    let backend = Backend::start(reply).await;
    let base = ServeOptions {
        base_url: Some(format!("{}/v1", backend.url())),
        ..ServeOptions::default()
    };
    // The default policy confirms destructive calls; this client cannot be
    // asked, so with --unconfirmed refuse the workflow is refused before
    // its first (harmless) step.
    let strict = ServeOptions {
        unconfirmed: openapi2mcp::server::confirm::Unconfirmable::Refuse,
        ..base.clone()
    };
    let client = crate::serve::connect(catalog.clone(), strict).await;
    let refused = call(&client, "cleanup", json!({"id": 1})).await;
    assert_eq!(refused.is_error, Some(true), "{refused:?}");
    assert!(backend.take().is_empty(), "nothing may be sent unconfirmed");
    client.cancel().await.unwrap();
    // Confirmation off: both steps run, the second on the first's output.
    let client = crate::serve::connect(
        catalog,
        ServeOptions {
            confirm: ConfirmPolicy::None,
            ..base
        },
    )
    .await;
    let done = call(&client, "cleanup", json!({"id": 1})).await;
    assert_eq!(done.is_error, Some(false), "{}", text_of(&done));
    let sent: Vec<String> = backend
        .take()
        .into_iter()
        .map(|r| format!("{} {}", r.method, r.target))
        .collect();
    assert_eq!(sent, ["GET /v1/pets/1", "DELETE /v1/pets/1"]);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn regex_and_jsonpath_criteria_decide_a_steps_success() {
    let mock = Mock::start("specs/petstore.yaml").await;
    let scratch = tempfile::Builder::new()
        .prefix("openapi2mcp-arazzo-criteria-")
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    let step = |id: &str, query: &str| {
        json!({"stepId": id, "operationId": "getPet",
            "parameters": [{"name": "petId", "in": "path", "value": "$inputs.pet_id"}],
            "successCriteria": [
                {"context": "$statusCode", "condition": "^2\\d\\d$", "type": "regex"},
                {"context": "$response.body#/name", "condition": "^R", "type": "regex"},
                {"context": "$response.body", "condition": query,
                 "type": {"type": "jsonpath", "version": "draft-goessner-dispatch-jsonpath-00"}}],
            "outputs": {"name": "$response.body#/name"}})
    };
    let doc = json!({
        "arazzo": "1.0.1",
        "info": {"title": "criteria", "version": "1"},
        "sourceDescriptions": [{"name": "petstore", "url": root().join("specs/petstore.yaml").to_str().unwrap(), "type": "openapi"}],
        "workflows": [
            {"workflowId": "named_pet",
             "inputs": {"type": "object", "properties": {"pet_id": {"type": "integer"}}, "required": ["pet_id"]},
             "steps": [step("look", "$.name")],
             "outputs": {"name": "$steps.look.outputs.name"}},
            {"workflowId": "nicknamed_pet",
             "inputs": {"type": "object", "properties": {"pet_id": {"type": "integer"}}, "required": ["pet_id"]},
             "steps": [step("look-nickname", "$.nickname")]}
        ]
    });
    let file = dir.join("criteria.arazzo.json");
    std::fs::write(&file, doc.to_string()).unwrap();
    let client = serve("specs/petstore.yaml", file.to_str().unwrap(), &mock).await;
    let found = call(&client, "named_pet", json!({"pet_id": 1})).await;
    assert_eq!(structured(&found), json!({"name": "Rex"}));
    let missing = call(&client, "nicknamed_pet", json!({"pet_id": 1})).await;
    assert_eq!(missing.is_error, Some(true));
    let text = text_of(&missing);
    assert!(
        text.contains("look-nickname"),
        "the failing step is named: {text}"
    );
    assert_eq!(mock.requests().await, ["GET /v1/pets/1", "GET /v1/pets/1"]);
    client.cancel().await.unwrap();
}
