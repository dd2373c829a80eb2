//! Per-user identity in a generated crate served over HTTP: the crate
//! generated from the pets document of [`crate::identity`] (its OAuth2
//! scheme's endpoints then pointed at a real node-oidc-provider through
//! the environment), built against this checkout, serves `--transport
//! http --oauth-issuer` with its own login pages: each person is asked
//! through a URL elicitation, signs in and consents through the crate's
//! `/oauth/connect` and `/oauth/callback`, and their calls reach the API
//! with their own token, as `openapi2mcp serve` does
//! ([`crate::identity_http`]).

use std::process::Stdio;

use crate::backend::Backend;
use crate::identity::{bearer, document, introspect, pet, scratch};
use crate::identity_http::{
    accepted, call, follow_link, free_port, login_question, mcp_token, providers, start_server,
};
use crate::parity::build_crate;
use crate::support::root;

/// The generated crate's package name.
const PACKAGE: &str = "pets-login-mcp";

/// Generates the crate for the pets document (placeholder endpoints)
/// under target/ (a stable place, so rebuilds are incremental) and builds
/// it; its binary.
fn generated_pets() -> std::path::PathBuf {
    let dir = root().join("target/identity-generated");
    std::fs::create_dir_all(&dir).unwrap();
    let spec = document(
        &dir,
        "https://login.example.invalid",
        "https://api.example.invalid",
    );
    let out = dir.join("pets");
    let generated = std::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"))
        .arg("generate")
        .arg(&spec)
        .args(["-q", "--name", PACKAGE, "--runtime-path"])
        .arg(root().join("crates"))
        .arg("--out")
        .arg(&out)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        generated.status.success(),
        "{}",
        String::from_utf8_lossy(&generated.stderr)
    );
    build_crate(&out, PACKAGE).unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generated_crate_logs_each_person_in_through_its_own_pages() {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let Some((mcp, api)) = providers(&base).await else {
        return;
    };
    let binary = tokio::task::spawn_blocking(generated_pets).await.unwrap();
    let backend = Backend::start(pet).await;
    let dir = scratch("generated-http");
    let store = dir.join("tokens.enc");
    let mut command = tokio::process::Command::new(&binary);
    command
        .args(["--base-url", &backend.url()])
        .env(
            "OPENAPI2MCP_OAUTH_AUTHORIZATION_URL",
            format!("{}/auth", api.issuer),
        )
        .env(
            "OPENAPI2MCP_OAUTH_TOKEN_URL",
            format!("{}/token", api.issuer),
        )
        .env(
            "OPENAPI2MCP_OAUTH_METADATA_URL",
            format!("{}/.well-known/openid-configuration", api.issuer),
        );
    let server = start_server(
        command,
        store.as_os_str(),
        port,
        &base,
        &mcp.issuer,
        &["--stateless"],
        "openid offline_access pets:read",
    )
    .await;
    let resource = format!("{base}/mcp");

    let mut sent = Vec::new();
    for (person, api_user) in [("alice", "alice@api"), ("bob", "bob@api")] {
        let token = mcp_token(&mcp.issuer, &resource, person).await;
        let asked = call(&server.url, &token, None).await;
        let (link, state) = login_question(&asked);
        assert!(
            link.starts_with(&format!("{base}/oauth/connect?")),
            "the crate's own login page: {link}"
        );
        assert!(backend.take().is_empty(), "nothing reaches the API yet");
        let (status, page) = follow_link(&link, person, api_user).await;
        assert_eq!(status, 200, "{page}");
        assert!(page.contains("logged in"), "{page}");
        let result = call(&server.url, &token, Some((accepted(), state))).await;
        assert_ne!(result["isError"], true, "{result}");
        assert_eq!(result["structuredContent"]["name"], "Rex", "{result}");
        let api_token = bearer(&backend.take());
        assert_eq!(
            introspect(&api.issuer, &api_token).await["sub"],
            api_user,
            "{person}'s call carries {api_user}'s own token"
        );
        assert!(!result.to_string().contains(&api_token));
        sent.push((token, api_token));
    }
    assert_ne!(sent[0].1, sent[1].1, "two people, two tokens");
    // Alice's next call is still hers.
    let again = call(&server.url, &sent[0].0, None).await;
    assert_ne!(again["isError"], true, "{again}");
    assert_eq!(bearer(&backend.take()), sent[0].1);

    let log = server.log.lock().unwrap().clone();
    for (mcp_token, api_token) in &sent {
        assert!(!log.contains(mcp_token.as_str()), "an MCP token in the log");
        assert!(!log.contains(api_token.as_str()), "an API token in the log");
    }
    let raw = std::fs::read_to_string(&store).unwrap();
    assert!(!raw.contains(&sent[0].1), "the store is encrypted");
}
