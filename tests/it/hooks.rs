//! Custom code in a generated crate survives regeneration (issue #28): the
//! user's `src/hooks.rs` is written once and never again, and its hooks
//! run: a tool answered without calling the API, arguments changed before
//! they are sent, every result post-processed.

use std::path::Path;
use std::process::Stdio;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

use crate::backend::{Backend, Recorded, Reply};
use crate::parity::build_crate;
use crate::support::root;

/// The user's hooks: `get_pet` answered here, `list_pets` always asks for
/// at most 2 pets, and every result gets a line saying hooks saw it.
const CUSTOM_HOOKS: &str = r#"//! Ours: kept across regeneration.

use crate::operations::Hooks;
use crate::operations::pets::{GetPetArgs, ListPetsArgs};
use crate::runtime::call::{BoxFuture, Call, CallReport};
use crate::runtime::response::{Content, ToolOutcome};

/// Custom behaviour.
#[derive(Debug, Default)]
pub struct Custom;

/// Built once by `main`.
pub fn hooks() -> Custom {
    Custom
}

impl Hooks for Custom {
    fn after_call(&self, call: Call<'_>, report: &mut CallReport) {
        report
            .outcome
            .content
            .push(Content::Text(format!("hooks saw {}", call.tool_name())));
    }

    fn list_pets<'a>(&'a self, call: Call<'a>, mut args: ListPetsArgs) -> BoxFuture<'a, CallReport> {
        args.limit = Some(2.into());
        Box::pin(async move { call.send(&args).await })
    }

    fn get_pet<'a>(&'a self, _call: Call<'a>, args: GetPetArgs) -> BoxFuture<'a, CallReport> {
        Box::pin(async move {
            CallReport::from(ToolOutcome {
                content: vec![Content::Text(format!("pet {} from the hooks", args.pet_id))],
                structured: None,
                is_error: false,
            })
        })
    }
}
"#;

fn generate(out: &Path, overlay: Option<&Path>) -> std::process::Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.args([
        "generate",
        "specs/petstore.yaml",
        "-q",
        "--name",
        "hooked-mcp",
    ])
    .arg("--runtime-path")
    .arg(root().join("crates"))
    .arg("--out")
    .arg(out)
    .current_dir(root());
    if let Some(overlay) = overlay {
        cmd.arg("--overlay").arg(overlay);
    }
    cmd.output().unwrap()
}

fn reply(r: &Recorded) -> Reply {
    let body = format!(r#"[{{"id":1,"name":"asked {}"}}]"#, r.target);
    (200, "application/json", body.into_bytes())
}

fn texts(result: &Value) -> Vec<String> {
    result["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["text"].as_str().map(str::to_string))
        .collect()
}

#[tokio::test]
async fn user_hooks_survive_regeneration_and_run() {
    // A stable place, so the crate's rebuild is incremental.
    let out = root().join("target/hooks-generated/hooked");
    let _ = std::fs::remove_dir_all(&out);
    let first = generate(&out, None);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let hooks = out.join("src/hooks.rs");
    let written = std::fs::read_to_string(&hooks).unwrap();
    assert!(written.contains("impl Hooks for Custom {}"), "{written}");

    // Customize, then regenerate from a changed description.
    std::fs::write(&hooks, CUSTOM_HOOKS).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let overlay = dir.path().join("overlay.yaml");
    std::fs::write(
        &overlay,
        "overlay: 1.0.0\ninfo: {title: t, version: '1'}\nactions:\n  - target: $.paths['/pets'].get\n    update: {description: Changed by an overlay.}\n",
    )
    .unwrap();
    let again = generate(&out, Some(&overlay));
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(std::fs::read_to_string(&hooks).unwrap(), CUSTOM_HOOKS);
    let pets = std::fs::read_to_string(out.join("src/operations/pets.rs")).unwrap();
    assert!(
        pets.contains("Changed by an overlay."),
        "the regeneration took effect"
    );
    // --check does not call the user's file stale.
    let mut check = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    let checked = check
        .args([
            "generate",
            "specs/petstore.yaml",
            "-q",
            "--check",
            "--name",
            "hooked-mcp",
        ])
        .arg("--runtime-path")
        .arg(root().join("crates"))
        .arg("--overlay")
        .arg(&overlay)
        .arg("--out")
        .arg(&out)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );

    let binary = build_crate(&out, "hooked-mcp").unwrap_or_else(|e| panic!("{e}"));
    let backend = Backend::start(reply).await;
    let mut cmd = tokio::process::Command::new(&binary);
    cmd.args(["--base-url", &format!("{}/v1", backend.url())])
        .env("OPENAPI2MCP_APIKEY_KEY", "test-api-key-2f9c")
        .env_remove("RUST_LOG");
    let (transport, _) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let client = ().serve(transport).await.unwrap();
    let call = |name: &'static str, args: Value| {
        let client = &client;
        async move {
            let result = client
                .call_tool(
                    CallToolRequestParams::new(name)
                        .with_arguments(args.as_object().unwrap().clone()),
                )
                .await
                .unwrap();
            serde_json::to_value(result).unwrap()
        }
    };

    let got = call("get_pet", json!({"petId": 7})).await;
    assert_eq!(
        texts(&got),
        ["pet 7 from the hooks", "hooks saw get_pet"],
        "{got}"
    );
    assert!(
        backend.take().is_empty(),
        "get_pet was answered by the hooks"
    );

    let got = call("list_pets", json!({"limit": 50})).await;
    let sent = backend.take();
    assert_eq!(sent.len(), 1);
    assert_eq!(
        sent[0].target, "/v1/pets?limit=2",
        "the hook changed the argument"
    );
    assert_eq!(texts(&got).last().unwrap(), "hooks saw list_pets", "{got}");
    client.cancel().await.unwrap();
}
