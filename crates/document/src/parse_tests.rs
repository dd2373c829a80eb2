use super::*;
use serde_json::json;

#[test]
fn webhooks_and_examples_are_skipped_when_pruning() {
    let text = r#"{"openapi": "3.1.0", "webhooks": {"a": {}}, "x-webhooks": {}, "paths": {},
            "components": {"examples": {"big": {"value": 1}}, "schemas": {"A": {"type": "string"}}}}"#;
    let v = parse_document(text, "t.json", Prune { examples: true }).unwrap();
    assert_eq!(
        v,
        json!({"openapi": "3.1.0", "paths": {}, "components": {"schemas": {"A": {"type": "string"}}}})
    );
    let v = parse_document(text, "t.json", Prune { examples: false }).unwrap();
    assert!(v["components"].get("examples").is_some());
    assert!(v.get("webhooks").is_none());
    let yaml = "openapi: 3.1.0\nwebhooks: {a: {}}\ncomponents:\n  examples: {big: {value: 1}}\n";
    let v = parse_document(yaml, "t.yaml", Prune { examples: true }).unwrap();
    assert_eq!(v, json!({"openapi": "3.1.0", "components": {}}));
}

/// A document whose `paths` is over [`PARALLEL_PATHS_BYTES`], so its
/// path items are parsed on several threads.
fn large_document(items: usize) -> String {
    let item = |i: usize| {
        format!(
            r#""/things/{i}/{{id}}": {{"get": {{"operationId": "get{i}", "description": "{}",
                "parameters": [{{"name": "id", "in": "path", "required": true, "schema": {{"type": "integer", "minimum": {i}.5e0}}}}]}}}}"#,
            "x".repeat(400)
        )
    };
    let paths: Vec<String> = (0..items).rev().map(item).collect();
    format!(
        "{{\"openapi\": \"3.1.0\",\n\"paths\": {{{}}},\n\"webhooks\": {{}}, \"info\": {{\"title\": \"t\"}}}}",
        paths.join(",\n")
    )
}

#[test]
fn large_paths_parse_in_parallel_to_the_same_value_in_the_same_order() {
    let text = large_document(4000);
    assert!(text.len() > 2 * PARALLEL_PATHS_BYTES);
    let ours = parse_document(&text, "t.json", Prune::default()).unwrap();
    let mut plain: Value = serde_json::from_str(&text).unwrap();
    plain.as_object_mut().unwrap().shift_remove("webhooks");
    assert_eq!(ours, plain);
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&ours), ["openapi", "paths", "info"]);
    assert_eq!(keys(&ours["paths"]), keys(&plain["paths"]));
    assert_eq!(keys(&ours["paths"])[0], "/things/3999/{id}");
}

#[test]
fn an_error_inside_large_paths_names_its_line() {
    let text = large_document(4000);
    // A syntax error is found while `paths` is read as text; a lone
    // surrogate only when its path item is parsed, on another thread.
    for (good, bad, pointer) in [
        (
            r#""operationId": "get1000","#,
            r#""operationId": "get1000" "#,
            "",
        ),
        (
            r#""operationId": "get1000","#,
            r#""operationId": "get1000\ud800","#,
            "/paths",
        ),
    ] {
        let broken = text.replacen(good, bad, 1);
        let line = broken[..broken.find("get1000").unwrap()]
            .matches('\n')
            .count()
            + 1;
        let err = parse_document(&broken, "t.json", Prune::default()).unwrap_err();
        assert_eq!(err.line, Some(line), "{bad}: {err}");
        assert!(err.message.starts_with("invalid JSON"), "{err}");
        assert_eq!(err.pointer, pointer, "{bad}: {err}");
    }
}

#[test]
fn pruning_parser_reports_json_errors_with_lines() {
    let err = parse_document("{\n\"a\": [1,\n}", "t.json", Prune::default()).unwrap_err();
    assert_eq!(err.line, Some(3));
    let err = parse_document("{} trailing", "t.json", Prune::default()).unwrap_err();
    assert!(err.message.contains("trailing"), "{err}");
}
