//! Unit tests of `conform.rs` (kept out of generated crates).

use super::*;
use serde_json::json;

fn ok(structured: Value) -> ToolOutcome {
    ToolOutcome {
        content: vec![Content::Text(structured.to_string())],
        structured: Some(structured),
        is_error: false,
    }
}

fn run(schema: Value, structured: Value) -> ToolOutcome {
    let validator = jsonschema::draft202012::new(&schema).expect("schema compiles");
    let out = conform("t", schema.as_object(), Some(&validator), ok(structured));
    if let Some(s) = &out.structured {
        assert!(validator.is_valid(s), "{s} must conform to {schema}");
    }
    out
}

fn text(out: &ToolOutcome) -> String {
    out.content
        .iter()
        .map(|c| match c {
            Content::Text(t) => t.clone(),
            _ => String::new(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A tolerant output schema, as the tool model converts Jupyter's
/// `Contents` (nulls admitted where a type is given).
fn tolerant() -> Value {
    json!({"type": "object", "properties": {
        "name": {"type": ["string", "null"]},
        "content": {"type": ["string", "null"]},
        "size": {"type": ["integer", "null"]},
        "tags": {"type": ["array", "null"], "items": {"type": ["string", "null"]}}}})
}

/// The same with the document's types as written.
fn strict() -> Value {
    json!({"type": "object", "properties": {
        "name": {"type": "string"},
        "content": {"type": "string"},
        "size": {"type": "integer"},
        "tags": {"type": "array", "items": {"type": "string"}}}})
}

#[test]
fn a_fitting_result_is_passed_through_untouched() {
    let body = json!({"name": "a.txt", "content": null, "size": null, "created": "x"});
    let out = run(tolerant(), body.clone());
    assert!(!out.is_error);
    assert_eq!(out.structured, Some(body.clone()));
    assert_eq!(
        out.content,
        vec![Content::Text(body.to_string())],
        "no note"
    );
}

#[test]
fn a_value_of_another_type_is_shown_as_null_with_a_note() {
    // Jupyter's directory listing: `content` is an array where the
    // document says string.
    let body = json!({"name": "d", "content": [{"name": "a.txt"}], "size": 3});
    let out = run(tolerant(), body.clone());
    assert!(!out.is_error, "{}", text(&out));
    assert_eq!(
        out.structured,
        Some(json!({"name": "d", "content": null, "size": 3}))
    );
    let note = text(&out);
    assert!(note.contains("the call succeeded"), "{note}");
    assert!(
        note.contains("`.content` is an array, the schema says string (shown as null)"),
        "{note}"
    );
    assert!(
        note.contains(&body.to_string()),
        "the response as received follows: {note}"
    );
}

#[test]
fn where_null_is_refused_too_the_property_is_left_out() {
    let out = run(
        strict(),
        json!({"name": null, "content": [1], "size": 1.0, "tags": ["a", 2]}),
    );
    assert!(!out.is_error, "{}", text(&out));
    // 1.0 is an integer to JSON Schema; an item cannot be removed, so the
    // property holding it goes.
    assert_eq!(out.structured, Some(json!({"size": 1.0})));
    let note = text(&out);
    assert!(note.contains("`.name` is null"), "{note}");
    assert!(
        note.contains("`.content` is an array"),
        "named by what the API sent: {note}"
    );
    assert!(
        note.contains("`.tags[1]` is a number, the schema says string (left out with `.tags`)"),
        "{note}"
    );
    assert_eq!(note.matches("left out").count(), 3, "{note}");
}

#[test]
fn array_items_keep_their_places() {
    let schema = json!({"type": "object", "properties": {"result": {"type": ["array", "null"], "items": {
        "type": ["object", "null"], "properties": {"id": {"type": ["integer", "null"]}}}}}});
    let out = run(schema, json!({"result": [{"id": 1}, "oops", {"id": "2"}]}));
    assert!(!out.is_error, "{}", text(&out));
    assert_eq!(
        out.structured,
        Some(json!({"result": [{"id": 1}, null, {"id": null}]}))
    );
    let note = text(&out);
    assert!(note.contains("`.result[1]` is a string"), "{note}");
    assert!(note.contains("`.result[2].id` is a string"), "{note}");
}

#[test]
fn a_result_that_cannot_fit_is_an_error_saying_the_call_succeeded() {
    // Nothing would be left of a wrapped array whose items are refused.
    let schema = json!({"type": "object", "properties": {"result": {"type": "array", "items": {"type": "integer"}}}});
    let out = run(schema, json!({"result": [1, "x"]}));
    assert!(out.is_error);
    assert!(out.structured.is_none());
    let t = text(&out);
    assert!(t.contains("The call itself succeeded"), "{t}");
    assert!(t.contains("do not repeat it"), "{t}");
    assert!(t.contains("`.result[1]` is a string"), "{t}");
    assert!(t.contains(r#"[1,"x"]"#), "the response follows: {t}");

    // The top level itself refused (a handler's schema that requires).
    let out = run(
        json!({"type": "object", "required": ["id"]}),
        json!({"name": "x"}),
    );
    assert!(out.is_error);
    assert!(text(&out).contains("`.` is an object"), "{}", text(&out));
}

#[test]
fn odd_property_names_are_named_and_removed_exactly() {
    let schema = json!({"type": "object", "properties": {"a/b~c": {"type": "string"}, "x y": {"type": "string"}}});
    let out = run(schema, json!({"a/b~c": 1, "x y": 2, "keep": true}));
    assert_eq!(out.structured, Some(json!({"keep": true})));
    let note = text(&out);
    assert!(note.contains(r#"`["a/b~c"]` is a number"#), "{note}");
    assert!(note.contains(r#"`["x y"]` is a number"#), "{note}");
}

#[test]
fn formats_are_annotations_and_integral_numbers_are_integers() {
    let schema = json!({"type": "object", "properties": {
        "when": {"type": "string", "format": "date-time"},
        "odd": {"type": "string", "format": "dateTime"},
        "mail": {"type": "string", "format": "email"},
        "n": {"type": "integer"}}});
    let body = json!({"when": "yesterday", "odd": "today", "mail": "nobody", "n": 2.0});
    let out = run(schema, body.clone());
    assert!(!out.is_error);
    assert_eq!(out.structured, Some(body));
}

#[test]
fn errors_carry_no_structured_content_and_empty_successes_get_an_object() {
    let schema = tolerant();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let mut failed = ok(json!({"name": "x"}));
    failed.is_error = true;
    let out = conform("t", schema.as_object(), Some(&validator), failed);
    assert!(out.structured.is_none());
    let empty = ToolOutcome {
        content: vec![],
        structured: None,
        is_error: false,
    };
    let out = conform("t", schema.as_object(), Some(&validator), empty);
    assert_eq!(out.structured, Some(json!({})));
    // No output schema: never structured.
    let out = conform("t", None, None, ok(json!({"a": 1})));
    assert!(out.structured.is_none());
}

#[test]
fn long_lists_of_repairs_are_counted_not_listed() {
    let props: Map<String, Value> = (0..20)
        .map(|i| (format!("f{i}"), json!({"type": ["string", "null"]})))
        .collect();
    let schema = json!({"type": "object", "properties": props});
    let body: Map<String, Value> = (0..20).map(|i| (format!("f{i}"), json!(i))).collect();
    let out = run(schema, Value::Object(body));
    assert!(!out.is_error);
    let note = text(&out);
    assert!(note.contains("and 12 more"), "{note}");
    assert_eq!(out.structured.unwrap().as_object().unwrap().len(), 20);
}

#[test]
fn paths_read_like_jq() {
    assert_eq!(display_path(""), ".");
    assert_eq!(display_path("/items/3/name"), ".items[3].name");
    assert_eq!(display_path("/a~1b/0"), r#"["a/b"][0]"#);
    assert_eq!(display_path("/1st"), r#"["1st"]"#);
}
