use super::*;
use serde_json::json;

/// This test binary is a selector worker too (as `openapi2mcp` and
/// generated servers are from `main`), so [`apply`] can start it: an ELF
/// constructor, run before the test harness reads its arguments.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static SELECTOR_WORKER: extern "C" fn() = {
    extern "C" fn serve() {
        if let Some(code) = serve_as_worker() {
            std::process::exit(code.into());
        }
    }
    serve
};

/// Evaluates in this process (no time or memory bound: only selectors
/// that end).
fn run(expression: &str, input: &Value, max_bytes: usize) -> Result<Value, SelectError> {
    eval::evaluate(expression, input.to_string().as_bytes(), max_bytes)
}

fn sel(e: &str, v: Value) -> Result<Value, SelectError> {
    run(e, &v, 1 << 20)
}

fn invalid(e: &str) -> String {
    match sel(e, json!({})) {
        Err(SelectError::Invalid { reason, .. }) => reason,
        other => panic!("{e}: {other:?}"),
    }
}

fn limit(result: Result<Value, SelectError>) -> String {
    match result {
        Err(SelectError::Limit { reason, .. }) => reason,
        other => panic!("expected a limit, got {other:?}"),
    }
}

#[test]
fn selects_fields_and_maps_arrays() {
    let repo = json!({"id": 1, "name": "hello", "owner": {"login": "octo"}, "topics": ["a", "b"]});
    assert_eq!(
        sel("{name, owner: .owner.login}", repo.clone()).unwrap(),
        json!({"name": "hello", "owner": "octo"})
    );
    assert_eq!(sel(".topics[]", repo.clone()).unwrap(), json!(["a", "b"]));
    assert_eq!(
        sel("map(.id) | add", json!([{"id": 1}, {"id": 2}])).unwrap(),
        json!(3)
    );
    assert_eq!(
        sel(
            "[.[] | select(.x > 1)] | length",
            json!([{"x": 1}, {"x": 2}])
        )
        .unwrap(),
        json!(1)
    );
    // Field names that are also refused words are fine.
    assert_eq!(sel(".env", json!({"env": 5})).unwrap(), json!(5));
    assert_eq!(
        sel("{input: .a, env}", json!({"a": 1, "env": 2})).unwrap(),
        json!({"input": 1, "env": 2})
    );
    assert_eq!(sel(".. | numbers", json!({"a": [1]})).unwrap(), json!(1));
    // "env" inside a string is text.
    assert_eq!(sel("\"env\"", json!(null)).unwrap(), json!("env"));
}

#[test]
fn generators_and_definitions_run_now_that_a_worker_bounds_them() {
    assert_eq!(
        sel("[limit(3; range(10))]", json!(null)).unwrap(),
        json!([0, 1, 2])
    );
    assert_eq!(
        sel("def twice(f): f | f; .a | twice(. * 2)", json!({"a": 3})).unwrap(),
        json!(12)
    );
    assert_eq!(
        sel(
            "[recurse(.children[]?) | .id]",
            json!({"id": 1, "children": [{"id": 2}]})
        )
        .unwrap(),
        json!([1, 2])
    );
    assert_eq!(
        sel("[.[] | tostring] | join(\",\") # a comment", json!([1, 2])).unwrap(),
        json!("1,2")
    );
    // An endless generator meets the output cap, even in an interpolation.
    assert!(limit(run("\"\\(repeat(1))\"", &json!(null), 1000)).contains("1000 bytes"));
}

#[test]
fn the_screen_reads_the_parsed_selector_interpolations_included() {
    let refused = |e: &str| screen::screen(e).unwrap_err();
    assert_eq!(
        refused("\"\\(env)\""),
        "`env` at byte 3: selectors cannot read the environment"
    );
    assert!(refused("\"a\\(\"b\\($ENV)\")\"").starts_with("`$ENV` at byte 8:"));
    assert!(refused("\"\\(def f: input; f)\"").starts_with("`input` at byte 10:"));
    assert!(
        refused("@base64 \"x\\(halt)\"")
            .contains("`halt` at byte 12: selectors cannot stop the server")
    );
    assert!(refused("{(\"\\(debug)\"): 1}").contains("`debug` at byte 5"));
    assert!(refused(". as {(stderr): $x} | $x").contains("`stderr` at byte 7"));
    assert!(refused(".[env]").contains("`env` at byte 2"));
    assert!(refused("reduce inputs as $x (0; . + 1)").contains("`inputs` at byte 7"));
    assert!(refused("try error catch halt_error").contains("`halt_error` at byte 16"));
    // Every refusal is named, in order.
    assert_eq!(
        refused("[env, $ENV]"),
        "`env` at byte 1: selectors cannot read the environment; `$ENV` at byte 6: selectors cannot read the environment"
    );
    // What a worker bounds passes the screen, interpolated or not.
    for ok in [
        "\"\\(repeat(1))\"",
        "\"\\(def f: f; f)\"",
        "\"a\\(\"b\\([range(1e9)])\")\"",
        "def f: [f]; f",
        ".env | .input",
        "{env: 1, halt: 2} | keys",
    ] {
        assert_eq!(screen::screen(ok), Ok(()), "{ok}");
    }
}

#[test]
fn bad_and_dangerous_selectors_are_named() {
    assert!(invalid(".a |").contains("expected"), "{}", invalid(".a |"));
    assert!(invalid("nosuchfunction").contains("nosuchfunction"));
    assert!(invalid("$ENV").contains("environment"));
    assert!(invalid("env").contains("`env` at byte 0"));
    assert!(invalid("halt").contains("stop"));
    assert!(invalid("1 | debug").contains("`debug` at byte 4"));
    assert!(invalid("\"\\(input)\"").contains("`input` at byte 3"));
    assert!(invalid("include \"x\"; .").contains("cannot load"));
    assert!(invalid("import \"x\" as $x; .").contains("modules"));
    // Withheld from the compiler too: a renamed call would still fail.
    assert!(invalid("debug_empty").contains("debug_empty"));
    assert!(invalid(&".".repeat(MAX_EXPRESSION + 1)).contains("limit"));
    match sel(".a.b", json!([1])) {
        Err(SelectError::Failed { reason, .. }) => assert!(!reason.is_empty()),
        other => panic!("{other:?}"),
    }
    assert!(limit(run(".[]", &json!(["x".repeat(100), "y".repeat(100)]), 150)).contains("150"));
}

#[test]
fn nesting_is_bounded_where_jq_parses_and_where_it_outputs() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let err = sel("fromjson", json!(deep(MAX_DEPTH + 1)))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("fromjson: the text nests deeper than 512 levels"),
        "{err}"
    );
    assert_eq!(
        sel("fromjson | length", json!(deep(MAX_DEPTH))).unwrap(),
        json!(1)
    );
    // Brackets in strings are text.
    assert_eq!(
        sel("fromjson", json!(format!("\"{}\"", "[".repeat(5000)))).unwrap(),
        json!("[".repeat(5000))
    );
    assert!(limit(sel("reduce range(101) as $i (0; [.])", json!(null))).contains("100 levels"));
    let input = deep(MAX_DEPTH + 1);
    let err = eval::evaluate(".", input.as_bytes(), 1 << 20).unwrap_err();
    assert!(
        err.to_string().contains("the result nests deeper than 512"),
        "{err}"
    );
    // Long jq messages are cut.
    let err = sel(".a", json!(vec!["x".repeat(100); 100]))
        .unwrap_err()
        .to_string();
    assert!(err.len() < 1200, "{}", err.len());
}

#[tokio::test]
async fn apply_evaluates_in_a_worker_process() {
    let v = apply(".a", json!({"a": [1, 2]}), 1000).await.unwrap();
    assert_eq!(v, json!([1, 2]));
    // Errors come back with their kind and the expression.
    match apply("env", json!(null), 1000).await {
        Err(SelectError::Invalid { expression, reason }) => {
            assert_eq!(expression, "env");
            assert!(reason.contains("`env` at byte 0"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    match apply(".[]", json!(["x".repeat(100), "y".repeat(100)]), 150).await {
        Err(SelectError::Limit { reason, .. }) => assert!(reason.contains("150"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_worker_is_stopped_at_the_deadline_and_when_it_crashes() {
    let started = std::time::Instant::now();
    let err = apply("last(repeat(1))", json!(null), 1000)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("ran longer than 2 s"), "{err}");
    assert!(started.elapsed() < TIME_LIMIT + Duration::from_secs(2));
    let err = apply("def f: [f]; f", json!(null), 1000).await.unwrap_err();
    assert!(err.to_string().contains("too deeply"), "{err}");
    let err = apply("\"x\" * 1000000000000", json!(null), 1000)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("memory budget"), "{err}");
    let err = apply("(\"[\" * 200000) | fromjson", json!(null), 1000)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("nests deeper"), "{err}");
}

#[tokio::test]
async fn a_program_that_is_not_a_worker_is_named() {
    let err = worker::apply_with(std::path::Path::new("/bin/true"), ".", json!(1), 1000)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("/bin/true"), "{err}");
    let err = worker::apply_with(
        std::path::Path::new("/nonexistent/worker"),
        ".",
        json!(1),
        1000,
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("could not be started"), "{err}");
}
