// The engine's tests: only with the `code` feature.
#![cfg(feature = "code")]

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::{Value, json};

use super::*;

/// How a fake host answers a call.
type Answer = Box<dyn Fn(&str, &Value) -> HostAnswer>;

/// A host that records calls and answers from a function.
struct Fake {
    calls: RefCell<Vec<(String, Value)>>,
    answer: Answer,
}

fn fake(answer: impl Fn(&str, &Value) -> HostAnswer + 'static) -> Rc<Fake> {
    Rc::new(Fake {
        calls: RefCell::new(Vec::new()),
        answer: Box::new(answer),
    })
}

impl Host for Fake {
    fn call(&self, name: &str, args: Value, _remaining: Duration) -> HostAnswer {
        let answer = (self.answer)(name, &args);
        self.calls.borrow_mut().push((name.to_string(), args));
        answer
    }
}

fn names() -> Vec<String> {
    vec!["list_pets".into(), "get_pet".into()]
}

fn go(script: &str, host: Rc<Fake>, budgets: Budgets) -> Result<Finished, ScriptError> {
    run(
        script,
        &names(),
        host,
        budgets,
        Arc::new(AtomicBool::new(false)),
    )
}

fn pets() -> Rc<Fake> {
    fake(|name, args| match name {
        "list_pets" => HostAnswer::Ok(
            json!([{"id": 1, "name": "Rex"}, {"id": 2, "name": "Tom"}]),
            None,
        ),
        "get_pet" if args["petId"] == json!(404) => HostAnswer::Failed("HTTP 404 Not Found".into()),
        "get_pet" => HostAnswer::Ok(json!({"id": args["petId"], "tag": "dog"}), None),
        _ => HostAnswer::Failed("unknown".into()),
    })
}

#[test]
fn chains_operations_and_returns_json() {
    let host = pets();
    let done = go(
        "const pets = await api.list_pets({limit: 2});\n\
         const first = await api.get_pet({petId: pets[0].id});\n\
         console.log('got', first);\n\
         return {count: pets.length, tag: first.tag};",
        Rc::clone(&host),
        Budgets::default(),
    )
    .unwrap();
    assert_eq!(done.value, json!({"count": 2, "tag": "dog"}));
    assert_eq!(done.calls, 2);
    assert_eq!(done.log, "got {\"id\":1,\"tag\":\"dog\"}\n");
    let calls = host.calls.borrow();
    assert_eq!(calls[0], ("list_pets".to_string(), json!({"limit": 2})));
    assert_eq!(calls[1], ("get_pet".to_string(), json!({"petId": 1})));
}

#[test]
fn a_failed_operation_names_the_line_and_the_operation() {
    let err = go(
        "const a = 1;\nawait api.get_pet({petId: 404});\nreturn a;",
        pets(),
        Budgets::default(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        ScriptError::Thrown {
            message: "HTTP 404 Not Found".into(),
            line: Some(2),
            operation: Some("get_pet".into())
        }
    );
    assert!(err.to_string().contains("line 2"), "{err}");
    assert!(err.to_string().contains("api.get_pet failed"), "{err}");
}

#[test]
fn a_caught_failure_lets_the_script_go_on() {
    let done = go(
        "try { await api.get_pet({petId: 404}); } catch (e) { return {failed: e.operation, why: e.message}; }",
        pets(),
        Budgets::default(),
    )
    .unwrap();
    assert_eq!(
        done.value,
        json!({"failed": "get_pet", "why": "HTTP 404 Not Found"})
    );
}

#[test]
fn a_thrown_error_names_its_line() {
    let err = go("\n\nthrow new Error('boom');", pets(), Budgets::default()).unwrap_err();
    assert_eq!(err.to_string(), "the script threw at line 3: Error: boom");
}

#[test]
fn syntax_errors_name_their_line() {
    let err = go("const x = 1;\nconst = 2;", pets(), Budgets::default()).unwrap_err();
    let ScriptError::Thrown { message, line, .. } = &err else {
        panic!("{err:?}")
    };
    assert!(message.starts_with("SyntaxError"), "{message}");
    assert_eq!(*line, Some(2));
}

#[test]
fn no_clock_network_modules_or_environment() {
    for (script, missing) in [
        ("return Date.now();", "Date"),
        ("return await fetch('http://127.0.0.1/');", "fetch"),
        ("return require('fs');", "require"),
        ("return process.env;", "process"),
        ("return performance.now();", "performance"),
        ("return setTimeout(() => 1, 10);", "setTimeout"),
        ("return std.getenv('HOME');", "std"),
        ("return os.exec(['ls']);", "os"),
    ] {
        let err = go(script, pets(), Budgets::default()).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("ReferenceError") && text.contains(missing),
            "{script}: {text}"
        );
    }
    // Modules cannot be imported either.
    let err = go("return await import('fs');", pets(), Budgets::default()).unwrap_err();
    assert!(matches!(err, ScriptError::Thrown { .. }), "{err:?}");
}

#[test]
fn unknown_operations_say_so() {
    let err = go(
        "return await api.drop_database({});",
        pets(),
        Budgets::default(),
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("api.drop_database is not an operation"),
        "{err}"
    );
}

#[test]
fn arguments_must_be_an_object() {
    let err = go("return await api.get_pet(5);", pets(), Budgets::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("takes one object of arguments, not number"),
        "{err}"
    );
}

#[test]
fn an_endless_loop_ends_at_the_wall_time_budget() {
    let budgets = Budgets {
        wall: Duration::from_millis(200),
        ..Budgets::default()
    };
    let started = std::time::Instant::now();
    let err = go("while (true) {}", pets(), budgets).unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(matches!(err, ScriptError::WallTime(..)), "{err:?}");
    assert!(
        err.to_string().contains("wall-time budget of 200 ms"),
        "{err}"
    );
    // Catching the interruption does not help.
    let err = go(
        "for (;;) { try { while (true) {} } catch (e) {} }",
        pets(),
        budgets,
    )
    .unwrap_err();
    assert!(matches!(err, ScriptError::WallTime(..)), "{err:?}");
}

#[test]
fn a_runaway_allocation_ends_at_the_memory_budget() {
    let budgets = Budgets {
        memory_bytes: 8 * 1024 * 1024,
        ..Budgets::default()
    };
    let err = go(
        "const a = []; while (true) a.push('x'.repeat(1000) + a.length);",
        pets(),
        budgets,
    )
    .unwrap_err();
    assert!(matches!(err, ScriptError::Memory(..)), "{err:?}");
    assert!(err.to_string().contains("memory budget of 8 MiB"), "{err}");
}

#[test]
fn calls_past_the_budget_end_the_script_even_when_caught() {
    let budgets = Budgets {
        calls: 3,
        ..Budgets::default()
    };
    let host = pets();
    let err = go(
        "for (let i = 0; i < 100; i++) { try { await api.get_pet({petId: i}); } catch (e) {} }\nreturn 1;",
        Rc::clone(&host),
        budgets,
    )
    .unwrap_err();
    assert!(matches!(err, ScriptError::Calls(3, _)), "{err:?}");
    assert!(err.to_string().contains("budget of 3 API calls"), "{err}");
    assert_eq!(host.calls.borrow().len(), 3);
}

#[test]
fn results_over_the_output_budget_are_an_error_with_a_cut_preview() {
    let budgets = Budgets {
        output_bytes: 100,
        ..Budgets::default()
    };
    let err = go(
        "return Array.from({length: 50}, (_, i) => ({id: i}));",
        pets(),
        budgets,
    )
    .unwrap_err();
    let ScriptError::Output {
        size,
        limit,
        preview,
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(*limit, 100);
    assert!(*size > 100);
    let preview: Value = serde_json::from_str(preview.as_deref().unwrap()).unwrap();
    assert!(
        preview
            .as_array()
            .is_some_and(|a| !a.is_empty() && a.len() < 50)
    );
    assert!(
        err.to_string().contains("output budget of 100 bytes"),
        "{err}"
    );
}

#[test]
fn a_promise_nothing_resolves_is_reported() {
    let err = go(
        "await new Promise(() => {}); return 1;",
        pets(),
        Budgets::default(),
    )
    .unwrap_err();
    assert_eq!(err, ScriptError::Unsettled);
}

#[test]
fn cancellation_stops_the_script() {
    let cancel = Arc::new(AtomicBool::new(true));
    let err = run(
        "while (true) {}",
        &names(),
        pets(),
        Budgets::default(),
        cancel,
    )
    .unwrap_err();
    assert_eq!(err, ScriptError::Cancelled);
}

#[test]
fn undefined_is_null_and_deep_recursion_is_an_error() {
    assert_eq!(
        go("", pets(), Budgets::default()).unwrap().value,
        Value::Null
    );
    let err = go(
        "function f(n) { return f(n + 1) + 1; }\nreturn f(0);",
        pets(),
        Budgets::default(),
    )
    .unwrap_err();
    assert!(err.to_string().to_lowercase().contains("stack"), "{err}");
}

#[test]
fn response_gives_what_the_response_said_beside_a_result_and_stays_out_of_its_json() {
    let host = fake(|_, args| {
        let page = args["page"].as_u64().unwrap_or(1);
        let next =
            (page < 2).then(|| json!({"tool": "list_pets", "arguments": {"page": page + 1}}));
        let mut response = json!({"headers": {"ETag": format!("W/\"{page}\"")}});
        if let Some(next) = next {
            response["next"] = next;
        }
        HostAnswer::Ok(json!([{"id": page}]), Some(response))
    });
    let done = go(
        "let r = await api.list_pets({});\n\
         const seen = [JSON.stringify(r)];\n\
         let n = response(r).next;\n\
         while (n) { r = await api[n.tool](n.arguments); seen.push(JSON.stringify(r)); n = response(r).next; }\n\
         return {seen, etag: response(r).headers.ETag, none: response({}) === undefined, plain: response(3) === undefined};",
        host,
        Budgets::default(),
    )
    .unwrap();
    assert_eq!(
        done.value,
        json!({"seen": ["[{\"id\":1}]", "[{\"id\":2}]"], "etag": "W/\"2\"", "none": true, "plain": true})
    );
}
