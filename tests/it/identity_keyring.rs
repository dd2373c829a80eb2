//! Per-user identity on stdio with the OS keyring: a REAL Secret Service
//! (GNOME Keyring's daemon, `gnome-keyring-daemon --unlock
//! --components=secrets`) on a private D-Bus session bus (`dbus-daemon
//! --session`) started here, with an unlocked login keyring in a scratch
//! home. The real `openapi2mcp login`, `serve` and `logout` processes run
//! with no `--token-store` and no OPENAPI2MCP_TOKEN_KEY: they must choose
//! the keyring by themselves, say so, and keep the tokens there (checked
//! with libsecret's `secret-tool`), never in a file or any output.
//!
//! The tools come from Debian's `dbus`, `gnome-keyring` and
//! `libsecret-tools` (installed by .ci/run). Without them the test is
//! skipped with a message, except when CI=true, where it fails.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

use crate::backend::Backend;
use crate::identity::{
    CLIENT_ID, CLIENT_SECRET, approve, bearer, browser, document, introspect, pet, provider,
    scratch,
};

/// The programs the test needs, by Debian package.
const TOOLS: &[(&str, &str)] = &[
    ("dbus-daemon", "dbus"),
    ("dbus-send", "dbus"),
    ("gnome-keyring-daemon", "gnome-keyring"),
    ("secret-tool", "libsecret-tools"),
];

/// Whether every tool is installed; when one is not, `false` with a
/// message outside CI, a panic in CI (where .ci/run installs them).
fn tools_present() -> bool {
    let missing: Vec<String> = TOOLS
        .iter()
        .filter(|(tool, _)| {
            !std::env::var_os("PATH").is_some_and(|path| {
                std::env::split_paths(&path).any(|dir| dir.join(tool).is_file())
            })
        })
        .map(|(tool, package)| format!("{tool} (apt package {package})"))
        .collect();
    if missing.is_empty() {
        return true;
    }
    let message = format!(
        "the OS keyring test needs a real Secret Service: missing {}",
        missing.join(", ")
    );
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{message}; .ci/run installs them in CI"
    );
    eprintln!("SKIP: {message}");
    false
}

/// A private D-Bus session bus with an unlocked GNOME Keyring on it;
/// both killed when dropped.
struct Session {
    _bus: tokio::process::Child,
    _keyring: tokio::process::Child,
    address: String,
    home: PathBuf,
}

impl Session {
    /// The environment every process of the session gets.
    fn env(&self, cmd: &mut tokio::process::Command) {
        cmd.env("DBUS_SESSION_BUS_ADDRESS", &self.address)
            .env("HOME", &self.home)
            .env("XDG_DATA_HOME", self.home.join("data"))
            .env("XDG_CONFIG_HOME", self.home.join("config"))
            .env("XDG_CACHE_HOME", self.home.join("cache"))
            .env("XDG_RUNTIME_DIR", self.home.join("run"))
            .env_remove("OPENAPI2MCP_TOKEN_KEY")
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY");
    }

    async fn start(dir: &Path) -> Session {
        let home = dir.join("home");
        for sub in ["data", "config", "cache", "run"] {
            std::fs::create_dir_all(home.join(sub)).unwrap();
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(home.join("run"), std::fs::Permissions::from_mode(0o700))
                .unwrap();
        }
        let socket = home.join("run/bus");
        let mut bus = tokio::process::Command::new("dbus-daemon")
            .arg("--session")
            .arg("--nofork")
            .arg("--nosyslog")
            .arg(format!("--address=unix:path={}", socket.display()))
            .arg("--print-address=1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("dbus-daemon starts");
        let mut lines = tokio::io::BufReader::new(bus.stdout.take().unwrap()).lines();
        let address = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .expect("dbus-daemon prints its address within 10 s")
            .unwrap()
            .expect("an address");
        let mut session = Session {
            _bus: bus,
            _keyring: tokio::process::Command::new("true").spawn().unwrap(),
            address: address.trim().to_string(),
            home,
        };
        // The login keyring, created and unlocked with this password (read
        // from standard input, as a desktop login hands it over).
        let mut keyring = tokio::process::Command::new("gnome-keyring-daemon");
        keyring
            .args(["--foreground", "--unlock", "--components=secrets"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        session.env(&mut keyring);
        let mut keyring = keyring.spawn().expect("gnome-keyring-daemon starts");
        let mut stdin = keyring.stdin.take().unwrap();
        stdin.write_all(b"login-password").await.unwrap();
        drop(stdin);
        session._keyring = keyring;
        // Bounded: the Secret Service's name is on the bus within 10 s.
        let mut owned = false;
        for _ in 0..100 {
            let mut ask = tokio::process::Command::new("dbus-send");
            ask.args([
                "--session",
                "--print-reply",
                "--dest=org.freedesktop.DBus",
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus.NameHasOwner",
                "string:org.freedesktop.secrets",
            ]);
            session.env(&mut ask);
            let out = ask.output().await.unwrap();
            if String::from_utf8_lossy(&out.stdout).contains("boolean true") {
                owned = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(owned, "gnome-keyring-daemon took the Secret Service name");
        session
    }

    /// `secret-tool ARGS` in this session: exit success and stdout.
    async fn secret_tool(&self, args: &[&str]) -> (bool, String) {
        let mut cmd = tokio::process::Command::new("secret-tool");
        cmd.args(args).stdin(Stdio::null()).kill_on_drop(true);
        self.env(&mut cmd);
        let out = tokio::time::timeout(Duration::from_secs(20), cmd.output())
            .await
            .expect("secret-tool answers within 20 s")
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    }
}

/// `openapi2mcp ARGS` in `session` (none: a session with no bus at all),
/// as the person would run it: the client from the environment, no
/// store named, no token key.
fn command(args: &[&str], session: &Session) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
    cmd.args(args)
        .env("OPENAPI2MCP_OAUTH_CLIENT_ID", CLIENT_ID)
        .env("OPENAPI2MCP_OAUTH_CLIENT_SECRET", CLIENT_SECRET)
        .env(
            "OPENAPI2MCP_OAUTH_SCOPES",
            "openid offline_access pets:read",
        )
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .kill_on_drop(true);
    session.env(&mut cmd);
    cmd
}

/// Runs `login` in `session` and completes it in a browser as `user`;
/// its success and everything it said.
async fn login(spec: &Path, session: &Session, user: &str) -> (bool, String) {
    let mut child = command(
        &[
            "login",
            spec.to_str().unwrap(),
            "--no-browser",
            "--timeout",
            "60",
        ],
        session,
    )
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let mut stderr = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let mut said = String::new();
    let url = tokio::time::timeout(Duration::from_secs(30), async {
        while let Ok(Some(line)) = stderr.next_line().await {
            said.push_str(&line);
            said.push('\n');
            if let Some(rest) = line.trim().strip_prefix("http") {
                return Some(format!("http{rest}"));
            }
        }
        None
    })
    .await
    .expect("login prints its URL within 30 s");
    let Some(url) = url else {
        let _ = child.wait().await;
        return (false, said);
    };
    let page = approve(&browser(), &url, user).await;
    assert!(page.contains("close this window"), "{page}");
    while let Ok(Some(line)) = stderr.next_line().await {
        said.push_str(&line);
        said.push('\n');
    }
    let status = tokio::time::timeout(Duration::from_secs(60), child.wait())
        .await
        .expect("login ends")
        .unwrap();
    (status.success(), said)
}

/// One `get_pet` call through a real `serve` in `session`: the result
/// and the server's log.
async fn call(spec: &Path, session: &Session) -> (Value, String) {
    crate::identity::get_pet_through(command(&["serve", spec.to_str().unwrap()], session)).await
}

/// Every file under `dir`.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        for entry in std::fs::read_dir(&at).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_is_kept_in_the_os_keyring_without_a_token_key() {
    if !tools_present() {
        return;
    }
    let Some(provider) = provider(3600).await else {
        return;
    };
    let backend = Backend::start(pet).await;
    let dir = scratch("keyring");
    let spec = document(&dir, &provider.issuer, &backend.url());
    let session = Session::start(&dir).await;

    let (ok, said) = login(&spec, &session, "erin").await;
    assert!(ok, "{said}");
    assert!(
        said.contains("logged in to `oauth`") && said.contains("OS keyring (Secret Service)"),
        "login says the tokens are in the keyring: {said}"
    );

    // The entry is in the Secret Service, under service openapi2mcp,
    // holding the tokens; no token file was written.
    let account = format!("local {}/token {CLIENT_ID}", provider.issuer);
    let (found, secret) = session
        .secret_tool(&["lookup", "service", "openapi2mcp", "username", &account])
        .await;
    assert!(found, "secret-tool finds the entry for {account}");
    let stored: Value = serde_json::from_str(&secret).expect("the entry holds the tokens' JSON");
    let access = stored["access_token"].as_str().unwrap().to_string();
    assert!(stored["refresh_token"].is_string(), "{stored:#}"); // offline_access
    let files = files_under(&session.home);
    assert!(
        !files
            .iter()
            .any(|f| f.file_name().is_some_and(|n| n == "tokens.enc"))
            && !session.home.join("data/openapi2mcp").exists(),
        "no token file: {files:?}"
    );

    // `serve` finds the keyring by itself and calls as erin.
    let (result, served) = call(&spec, &session).await;
    assert_ne!(result["isError"], true, "{result}");
    let token = bearer(&backend.take());
    assert_eq!(token, access, "the call carries the token in the keyring");
    assert_eq!(introspect(&provider.issuer, &token).await["sub"], "erin");
    assert!(
        served.contains("token store: the OS keyring (Secret Service)"),
        "serve logs which store it uses: {served}"
    );
    for (what, text) in [("login output", &said), ("serve log", &served)] {
        assert!(!text.contains(&token), "the access token is in the {what}");
    }
    assert!(!result.to_string().contains(&token));

    // Logout (naming the keyring): the entry is gone and the grant revoked.
    let out = command(
        &[
            "logout",
            spec.to_str().unwrap(),
            "--token-store",
            "keyring:",
        ],
        &session,
    )
    .output()
    .await
    .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && said.contains("removed and revoked"),
        "{said}"
    );
    assert!(!said.contains(&token));
    let (found, rest) = session
        .secret_tool(&["lookup", "service", "openapi2mcp", "username", &account])
        .await;
    assert!(!found && rest.is_empty(), "the entry is gone: {rest}");
    assert_eq!(introspect(&provider.issuer, &token).await["active"], false);
    let (refused, _) = call(&spec, &session).await;
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(backend.take().is_empty());
}

/// No bus at all in this "session": nothing answers as a keyring.
fn no_keyring(dir: &Path) -> Session {
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    Session {
        _bus: tokio::process::Command::new("true").spawn().unwrap(),
        _keyring: tokio::process::Command::new("true").spawn().unwrap(),
        address: format!("unix:path={}", dir.join("no-bus").display()),
        home,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_keyring_login_asks_for_the_token_key_and_then_uses_the_file() {
    let dir = scratch("no-keyring");
    let session = no_keyring(&dir);
    let spec = document(&dir, "http://127.0.0.1:9", "http://127.0.0.1:9");
    let out = command(&["login", spec.to_str().unwrap(), "--no-browser"], &session)
        .output()
        .await
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("no OS keyring") && said.contains("OPENAPI2MCP_TOKEN_KEY"),
        "{said}"
    );
    let out = command(
        &["login", spec.to_str().unwrap(), "--token-store", "keyring:"],
        &session,
    )
    .output()
    .await
    .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("OS keyring") && said.contains("cannot be used"),
        "{said}"
    );

    // With the key, serve falls back to the encrypted file and says why.
    let (_, served) = {
        let mut cmd = command(&["serve", spec.to_str().unwrap()], &session);
        cmd.env("OPENAPI2MCP_TOKEN_KEY", crate::identity::TOKEN_KEY);
        let (transport, stderr) = TokioChildProcess::builder(cmd)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let client = ().serve(transport).await.unwrap();
        client.cancel().await.unwrap();
        let mut log = String::new();
        if let Some(stderr) = stderr {
            let mut lines = tokio::io::BufReader::new(stderr).lines();
            while let Ok(Ok(Some(line))) =
                tokio::time::timeout(Duration::from_secs(10), lines.next_line()).await
            {
                log.push_str(&line);
                log.push('\n');
            }
        }
        ((), log)
    };
    assert!(
        served.contains("token store: the encrypted file")
            && served.contains("the OS keyring cannot be used"),
        "{served}"
    );
}
