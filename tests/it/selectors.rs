//! Issue #22 item 1, end to end: no selector (a jq expression from the
//! model, via discovery's `select` or `--response-filter`) can abort the
//! server, keep a core busy after its call returned, or reach outside its
//! value. The REAL binary serves over stdio; after each hostile selector
//! the call is an `isError` result naming the problem, the next call is
//! answered, the server's own CPU time stays flat while it is idle, and no
//! evaluation worker is left behind.

use std::path::Path;
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::CallToolResult;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

use crate::backend::Backend;
use crate::serve::pet_reply;
use crate::support::local;
use crate::support::{call, text_of};

/// This test binary is a selector worker too: the in-process servers of
/// other modules (e.g. discovery's) run their selectors by re-invoking the
/// current executable, as `openapi2mcp` and generated servers do from
/// `main`. An ELF constructor, so it runs before the test harness reads
/// its arguments.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static SELECTOR_WORKER: extern "C" fn() = {
    extern "C" fn serve_as_worker() {
        if let Some(code) = openapi2mcp::runtime::select::serve_as_worker() {
            std::process::exit(code.into());
        }
    }
    serve_as_worker
};

/// The real `openapi2mcp serve` over stdio, in discovery mode with
/// `--response-filter`, against a petstore backend on 127.0.0.1.
struct Server {
    client: RunningService<RoleClient, ()>,
    pid: u32,
    _backend: Backend,
}

impl Server {
    async fn start() -> Self {
        let backend = Backend::start(pet_reply).await;
        let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_openapi2mcp"));
        cmd.arg("serve")
            .arg(local("specs/petstore.yaml"))
            .arg("--base-url")
            .arg(format!("{}/v1", backend.url()))
            .arg("--tools")
            .arg("discovery")
            .arg("--response-filter")
            // The output cap of a selector: small, so an endless generator
            // meets it long before the deadline even on a loaded host.
            .arg("--max-response-bytes")
            .arg("20000");
        let transport = TokioChildProcess::new(cmd).unwrap();
        let pid = transport.id().expect("the server has a pid");
        let client = ().serve(transport).await.expect("the server speaks MCP");
        Self {
            client,
            pid,
            _backend: backend,
        }
    }

    /// `get_pet` (petId 1: `{"id":1,"name":"Rex","tags":["dog"]}`)
    /// through `call_read_only_tool` with `select`.
    async fn select(&self, expression: &str) -> CallToolResult {
        call(
            &self.client,
            "call_read_only_tool",
            json!({"name": "get_pet", "arguments": {"petId": 1}, "select": expression}),
        )
        .await
    }

    /// Asserts `expression` is refused or stopped with a message holding
    /// every one of `expected` (`a|b`: either), and that the server then
    /// answers, idles, and has no worker left.
    async fn survives(&self, expression: &str, expected: &[&str]) {
        let started = Instant::now();
        let got = self.select(expression).await;
        let text = text_of(&got);
        assert_eq!(got.is_error, Some(true), "`{expression}` gave {text}");
        for fragment in expected {
            assert!(
                fragment.split('|').any(|f| text.contains(f)),
                "`{expression}`: expected `{fragment}` in: {text}"
            );
        }
        // The deadline holds (2 s, plus the API call and a loaded host).
        assert!(
            started.elapsed() < Duration::from_secs(8),
            "`{expression}` took {:?}",
            started.elapsed()
        );
        self.answers_and_idles(expression).await;
    }

    /// The next call works, the server's CPU time stays flat for 1.5 s,
    /// and it has no child process (no worker left running or unreaped).
    async fn answers_and_idles(&self, after: &str) {
        let next = self.select("{name, tag: .tags[0]}").await;
        assert_eq!(next.is_error, Some(false), "after `{after}`: {next:?}");
        assert_eq!(
            next.structured_content,
            Some(json!({"selected": {"name": "Rex", "tag": "dog"}})),
            "after `{after}`"
        );
        let before = cpu_time(self.pid);
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let used = cpu_time(self.pid) - before;
        assert!(
            used < Duration::from_millis(150),
            "after `{after}` the idle server used {used:?} of CPU in 1.5 s"
        );
        let children = children_of(self.pid);
        assert!(
            children.is_empty(),
            "after `{after}` the server still has child processes {children:?}"
        );
    }
}

/// utime + stime of process `pid` (its own threads, not reaped children).
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .unwrap_or_else(|e| panic!("the server (pid {pid}) is gone: {e}"));
    // Fields after the `(comm)`, which may hold spaces: state is field 3,
    // utime 14 and stime 15.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // USER_HZ is 100 on every Linux ABI in use.
    Duration::from_millis(ticks * 10)
}

/// Pids whose parent is `pid` (live or zombie).
fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some(close) = stat.rfind(')') else {
            continue;
        };
        let ppid = stat[close + 2..]
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(pid) {
            out.push(child);
        }
    }
    out
}

fn assert_alive(pid: u32) {
    assert!(
        Path::new(&format!("/proc/{pid}")).exists(),
        "the server died"
    );
}

#[tokio::test]
async fn deeply_nested_text_is_an_error_not_a_crash() {
    let server = Server::start().await;
    // The in-process evaluator overflowed its stack here: SIGABRT of the
    // whole server.
    server
        .survives(
            r#"("[" * 200000) | fromjson"#,
            &["fromjson", "nests deeper"],
        )
        .await;
    // Values built deep by the selector itself end in the worker.
    server
        .survives(
            "reduce range(50000) as $i (0; [.]) | tojson | length",
            &["too deeply"],
        )
        .await;
    server.client.cancel().await.unwrap();
}

#[tokio::test]
async fn runaway_allocation_is_stopped_and_no_core_stays_busy() {
    let server = Server::start().await;
    // The in-process evaluator answered "ran longer than 2 s" here, and a
    // core burned on.
    server
        .survives(r#""x" * 1000000000000"#, &["memory budget"])
        .await;
    server
        .survives(
            "[range(1e9)] | length",
            &["memory budget|ran longer than 2 s"],
        )
        .await;
    server.client.cancel().await.unwrap();
}

#[tokio::test]
async fn endless_loops_and_recursion_are_stopped_at_the_deadline() {
    let server = Server::start().await;
    // A loop that allocates nothing: only the deadline stops it.
    server
        .survives("last(repeat(1))", &["ran longer than 2 s"])
        .await;
    server
        .survives("def f: f; f", &["ran longer than 2 s"])
        .await;
    server.survives("def f: [f]; f", &["too deeply"]).await;
    // An endless generator meets the output cap.
    server
        .survives("repeat(.name)", &["produced more than 20000 bytes"])
        .await;
    server.client.cancel().await.unwrap();
}

#[tokio::test]
async fn string_interpolation_smuggles_nothing_past_the_screen() {
    let server = Server::start().await;
    // Refused constructs are found in the parsed selector, wherever they
    // are: the byte offset points into the interpolation.
    server
        .survives(r#""\(env)""#, &["`env` at byte 3", "environment"])
        .await;
    server
        .survives(r#""home: \($ENV.HOME)""#, &["`$ENV` at byte 9"])
        .await;
    server
        .survives(r#""a\("b\(halt_error)")""#, &["`halt_error` at byte 8"])
        .await;
    server
        .survives(r#"{x: "\(input)"}"#, &["`input` at byte 7"])
        .await;
    server
        .survives(r#"@text "\(debug)""#, &["`debug` at byte 9"])
        .await;
    // What the old screen refused but a worker bounds now runs, bounded.
    server
        .survives(r#""\(last(repeat(1)))""#, &["ran longer than 2 s"])
        .await;
    let ok = server
        .select(r#""\(.name) has \(.tags | length) tag""#)
        .await;
    assert_eq!(
        ok.structured_content,
        Some(json!({"selected": "Rex has 1 tag"})),
        "{}",
        text_of(&ok)
    );
    server.client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_response_filter_argument_is_guarded_the_same_way() {
    let server = Server::start().await;
    let got = call(
        &server.client,
        "get_pet",
        json!({"petId": 1, "response_filter": "(\"[\" * 200000) | fromjson"}),
    )
    .await;
    assert_eq!(got.is_error, Some(true), "{}", text_of(&got));
    assert!(text_of(&got).contains("nests deeper"), "{}", text_of(&got));
    assert_alive(server.pid);
    server.answers_and_idles("response_filter").await;
    server.client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_flood_of_selectors_runs_a_bounded_number_of_workers() {
    let server = Server::start().await;
    let limit = openapi2mcp::runtime::select::max_workers();
    let flood = 4 * limit + 2;
    let mut most = 0;
    let results = {
        let calls = (0..flood).map(|_| server.select("last(repeat(1))"));
        let all = futures_join_all(calls);
        tokio::pin!(all);
        loop {
            tokio::select! {
                results = &mut all => break results,
                () = tokio::time::sleep(Duration::from_millis(20)) => {
                    most = most.max(children_of(server.pid).len());
                }
            }
        }
    };
    assert!(
        most <= limit,
        "{most} workers ran at once; the limit is {limit}"
    );
    assert!(most >= 1, "no worker was ever seen");
    for got in &results {
        let text = text_of(got);
        assert_eq!(got.is_error, Some(true), "{text}");
        assert!(
            text.contains("ran longer than 2 s") || text.contains("selectors at once"),
            "{text}"
        );
    }
    server.answers_and_idles("the flood").await;
    server.client.cancel().await.unwrap();
}

/// Awaits every future (all run concurrently on this task).
pub(crate) async fn futures_join_all<F: std::future::Future>(
    futures: impl Iterator<Item = F>,
) -> Vec<F::Output> {
    let mut set: Vec<std::pin::Pin<Box<F>>> = futures.map(Box::pin).collect();
    let mut out: Vec<Option<F::Output>> = set.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (i, fut) in set.iter_mut().enumerate() {
            if out[i].is_none() {
                match fut.as_mut().poll(cx) {
                    std::task::Poll::Ready(v) => out[i] = Some(v),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    out.into_iter()
        .map(|v| v.expect("every future finished"))
        .collect()
}

/// Guards the helpers above: a selector that works is not an error, and
/// `Value` round-trips as `selected`.
#[tokio::test]
async fn ordinary_selectors_still_work_through_the_worker() {
    let server = Server::start().await;
    let got = server
        .select("[.tags[] | ascii_upcase] + [limit(2; range(10))]")
        .await;
    assert_eq!(got.is_error, Some(false), "{}", text_of(&got));
    let selected: &Value = &got.structured_content.unwrap()["selected"];
    assert_eq!(selected, &json!(["DOG", 0, 1]));
    server.client.cancel().await.unwrap();
}

// --- fair shares and writes (issue #43, item 9) ---------------------------

/// A stateless HTTP server in this process (its selector workers are this
/// test binary, see [`SELECTOR_WORKER`]) over the petstore, in full mode
/// with `--response-filter`; its URL, the token that stops it, and the
/// backend.
async fn http_with_selectors() -> (String, tokio_util::sync::CancellationToken, Backend) {
    use openapi2mcp::server::modes::{ListingOptions, ToolsMode};
    use openapi2mcp::server::{Bridge, ServeOptions};
    let backend = Backend::start(pet_reply).await;
    let options = ServeOptions {
        base_url: Some(format!("{}/v1", backend.url())),
        response_filter: true,
        listing: ListingOptions {
            mode: ToolsMode::Full,
            ..ListingOptions::default()
        },
        ..ServeOptions::default()
    };
    let bridge = Bridge::new(crate::serve::petstore(), options).unwrap();
    let (url, shutdown) = crate::protocol::http_server(bridge).await;
    (url, shutdown, backend)
}

/// `tools/call` of `name` with `arguments` over HTTP as the caller whose
/// `Authorization` header is `authorization`: the result.
async fn call_as(url: &str, authorization: &str, name: &str, arguments: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}});
    let res = reqwest::Client::new()
        .post(url)
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

fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn one_caller_s_runaway_selectors_leave_room_for_another_s() {
    let (url, shutdown, _backend) = http_with_selectors().await;
    let workers = openapi2mcp::runtime::select::max_workers();
    // Caller X fills every worker there is with selectors that run until
    // they are stopped (2 s); caller Y then asks for a quick one.
    let runaway = json!({"petId": 1, "response_filter": "last(repeat(1))"});
    let order = std::sync::Mutex::new(Vec::new());
    let xs = (0..workers).map(|i| {
        let (url, runaway, order) = (&url, runaway.clone(), &order);
        async move {
            let got = call_as(url, "Bearer caller-x", "get_pet", runaway).await;
            order.lock().unwrap().push(format!("x{i}"));
            got
        }
    });
    let y = async {
        // Let X's selectors take their workers first.
        tokio::time::sleep(Duration::from_millis(400)).await;
        let got = call_as(
            &url,
            "Bearer caller-y",
            "get_pet",
            json!({"petId": 1, "response_filter": ".name"}),
        )
        .await;
        order.lock().unwrap().push("y".into());
        got
    };
    let (x_results, y_result) = tokio::join!(futures_join_all(xs), y);
    assert_eq!(y_result["isError"], false, "{y_result}");
    assert_eq!(y_result["structuredContent"], json!({"selected": "Rex"}));
    let order = order.into_inner().unwrap();
    assert_eq!(
        order.first().map(String::as_str),
        Some("y"),
        "Y's selector ran while X's held their share: {order:?}"
    );
    for got in &x_results {
        assert_eq!(got["isError"], true, "{got}");
        let said = text(got);
        assert!(
            said.contains("ran longer than 2 s") || said.contains("selectors at once"),
            "{said}"
        );
        // A GET was sent: calling again is harmless, and the result says
        // what was sent and answered.
        assert!(said.contains("GET request was sent"), "{said}");
    }
    shutdown.cancel();
}

#[tokio::test]
async fn a_selector_failing_after_a_post_says_the_post_was_sent() {
    let (url, shutdown, backend) = http_with_selectors().await;
    let got = call_as(
        &url,
        "Bearer caller-x",
        "create_pet",
        json!({"name": "Rex", "response_filter": "error(\"boom\")"}),
    )
    .await;
    assert_eq!(got["isError"], true, "{got}");
    let said = text(&got);
    assert!(said.contains("The POST request was sent"), "{said}");
    assert!(said.contains("HTTP 201"), "{said}");
    assert!(
        said.contains("boom"),
        "the selector's error is named: {said}"
    );
    assert!(
        said.contains("Do not send this POST again"),
        "no retry is invited: {said}"
    );
    assert!(!said.to_lowercase().contains("try again"), "{said}");
    let sent = backend.take();
    assert_eq!(sent.len(), 1, "one POST");
    assert_eq!(sent[0].method, "POST");
    shutdown.cancel();
}
