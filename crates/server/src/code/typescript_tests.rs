use serde_json::{Value, json};

use super::*;

fn op<'a>(input: &'a Value, output: Option<&'a Value>) -> Operation<'a> {
    Operation {
        name: "list_pulls",
        title: "List pull requests",
        description: "Lists pull requests in a [repository](https://x.test/r).\n\nMore text.",
        method: "get",
        path: "/repos/{owner}/{repo}/pulls",
        read_only: true,
        input,
        output,
        output_key: None,
    }
}

#[test]
fn arguments_results_docs_and_examples() {
    let input = json!({
        "type": "object",
        "properties": {
            "state": {"type": "string", "enum": ["open", "closed", "all"], "default": "open"},
            "owner": {"type": "string", "description": "The account owner. Not case sensitive.", "examples": ["octocat"]},
            "per_page": {"type": "integer"},
            "labels": {"type": ["array", "null"], "items": {"type": "string"}},
            "x-trace": {"type": "boolean"}
        },
        "required": ["owner"]
    });
    let output = json!({
        "type": "array",
        "items": {"$ref": "#/$defs/pull"},
        "$defs": {"pull": {"type": "object", "properties": {"number": {"type": "integer"}, "title": {"type": "string"}, "head": {"$ref": "#/$defs/pull"}}, "required": ["number"]}}
    });
    let text = declare(&op(&input, Some(&output)));
    let expected = r#"/**
 * List pull requests
 * Lists pull requests in a repository.
 * GET /repos/{owner}/{repo}/pulls (read-only)
 */
function list_pulls(args: {
  /** The account owner. @example "octocat" */
  owner: string;
  /** @default "open" */
  state?: "open" | "closed" | "all";
  per_page?: number;
  labels?: string[] | null;
  "x-trace"?: boolean;
}): Promise<{
  number: number;
  title?: string;
  head?: object /* pull, recursive */;
}[]>;
"#;
    assert_eq!(text, expected);
}

#[test]
fn no_required_arguments_make_args_optional_and_unions_render() {
    let input = json!({
        "type": "object",
        "properties": {"body": {"oneOf": [{"type": "string"}, {"type": "object", "properties": {"a": {"const": 1}}}]}}
    });
    let text = declare(&op(&input, None));
    assert!(text.contains("function list_pulls(args?: {"), "{text}");
    assert!(
        text.contains("body?: string | {\n    a?: 1;\n  };"),
        "{text}"
    );
    assert!(text.ends_with("}): Promise<unknown>;\n"), "{text}");
}

#[test]
fn a_wrapped_result_is_declared_unwrapped_with_its_refs_resolved() {
    let input = json!({"type": "object", "properties": {}});
    let output = json!({
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/pet"}}},
        "$defs": {"pet": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}}
    });
    let mut operation = op(&input, Some(&output));
    operation.output_key = Some("items");
    let text = declare(&operation);
    assert!(
        text.ends_with("Promise<{\n  id: number;\n}[]>;\n"),
        "{text}"
    );
}

#[test]
fn declarations_stay_within_their_bound() {
    // 400 arguments each with a long description and a nested object.
    let mut props = serde_json::Map::new();
    for i in 0..400 {
        props.insert(
            format!("arg_{i}"),
            json!({"description": "word ".repeat(60), "type": "object",
                   "properties": {"inner": {"type": "object", "properties": {"deep": {"type": "string"}}}}}),
        );
    }
    let input = json!({"type": "object", "properties": props});
    let text = declare(&op(&input, None));
    assert!(text.len() <= MAX_DECLARATION_CHARS + 60, "{}", text.len());
    assert!(text.contains("more optional properties"), "{text}");
}

#[test]
fn namespace_indents_declarations() {
    let input = json!({"type": "object", "properties": {}});
    let text = namespace([op(&input, None)]);
    assert!(
        text.starts_with("declare namespace api {\n  /**\n"),
        "{text}"
    );
    assert!(
        text.ends_with("  function list_pulls(args?: object): Promise<unknown>;\n}"),
        "{text}"
    );
}
