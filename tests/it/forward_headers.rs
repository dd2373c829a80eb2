//! `--forward-header NAME` (issue #45, item 5): a caller's own header goes
//! on that caller's API requests and no one else's, is masked when the API
//! echoes it, and a header this server reads itself is refused at start-up,
//! as is the flag on stdio. A real HTTP server on 127.0.0.1 (streamable
//! HTTP, 2026-07-28 requests), a recording backend, and the binary's own
//! command line for the refusals.

use std::process::Command;
use std::time::Duration;

use openapi2mcp::server::transport::{HttpTransportOptions, bind_http};
use openapi2mcp::server::{Bridge, ServeOptions};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::backend::{Backend, Recorded, Reply};
use crate::mcp_headers::rpc;
use crate::serve::catalog_at;
use crate::support::{local, root};

const KEY_A: &str = "caller-a-k3y-0001";
const KEY_B: &str = "caller-b-k3y-0002";

/// Echoes the key it got, as a careless backend might.
fn echo(seen: &Recorded) -> Reply {
    let body = json!([{"id": 1, "name": seen.header("x-api-key").unwrap_or("none")}]);
    (200, "application/json", body.to_string().into_bytes())
}

async fn list_pets(url: &str, headers: &[(&str, &str)]) -> Value {
    let mut all = vec![("mcp-name", "list_pets")];
    all.extend_from_slice(headers);
    let (status, message) = rpc(
        url,
        "tools/call",
        json!({"name": "list_pets", "arguments": {"limit": 1}}),
        &all,
    )
    .await;
    assert_eq!(status, 200, "{message}");
    message["result"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_caller_s_header_reaches_the_api_on_its_own_calls_only() {
    let backend = Backend::start(echo).await;
    let catalog = catalog_at(&local("specs/petstore.yaml"));
    let options = ServeOptions {
        base_url: Some(backend.url()),
        forward_headers: vec!["X-Api-Key".to_string()],
        ..ServeOptions::default()
    };
    let shutdown = CancellationToken::new();
    let bound = bind_http(
        Bridge::new(catalog, options).unwrap(),
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
    let server = tokio::spawn(bound.run());

    for (key, other) in [(KEY_A, KEY_B), (KEY_B, KEY_A)] {
        let result = list_pets(&url, &[("x-api-key", key), ("x-other", "not-forwarded")]).await;
        assert_ne!(result["isError"], true, "{result}");
        let seen = backend.take();
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].header("x-api-key"), Some(key));
        assert_eq!(
            seen[0].header("x-other"),
            None,
            "an unnamed header was forwarded"
        );
        let text = result.to_string();
        assert!(
            !text.contains(key),
            "the echoed key reached the model: {text}"
        );
        assert!(!text.contains(other), "{text}");
        assert!(text.contains("***"), "{text}");
    }
    // A caller without the header sends none: nobody else's is used.
    let result = list_pets(&url, &[]).await;
    assert_ne!(result["isError"], true, "{result}");
    let seen = backend.take();
    assert_eq!(seen[0].header("x-api-key"), None);

    shutdown.cancel();
    tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}

#[test]
fn headers_the_server_reads_and_the_flag_on_stdio_are_refused_at_start_up() {
    let petstore = root().join("specs/petstore.yaml");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
            .arg("serve")
            .arg(&petstore)
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?} started");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let stdio = run(&["--forward-header", "X-Api-Key"]);
    assert!(
        stdio.contains("--forward-header needs --transport http"),
        "{stdio}"
    );
    for (name, because) in [
        ("Mcp-Session-Id", "take the session over"),
        ("Authorization", "--forward-authorization"),
        ("Cookie", "own cookies"),
        ("X Api", "not an HTTP header name"),
    ] {
        let err = run(&[
            "--transport",
            "http",
            "--listen",
            "127.0.0.1:0",
            "--forward-header",
            name,
        ]);
        assert!(err.contains(because), "{name}: {err}");
    }
}
