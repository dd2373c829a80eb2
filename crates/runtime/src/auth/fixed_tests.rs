use serde_json::json;

use super::*;

fn env(var: &str) -> Option<String> {
    match var {
        "JUPYTER_TOKEN" => Some("s3cret".into()),
        "EMPTY" => Some(String::new()),
        _ => None,
    }
}

fn lines(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn values_come_from_the_line_or_the_environment() {
    let fixed = FixedHeaders::parse(
        &lines(&[
            "Authorization: token ${JUPYTER_TOKEN}",
            "X-Tenant:acme",
            "X-Price: $$5 and $ alone",
        ]),
        env,
    )
    .unwrap();
    let mut draft = RequestDraft {
        method: "GET".into(),
        location: "http://127.0.0.1/api".into(),
        query: vec![],
        headers: vec![
            ("x-tenant".into(), "from-the-model".into()),
            ("Accept".into(), "application/json".into()),
        ],
        body: None,
        credentials: vec![],
        parsed: None,
    };
    fixed.apply(&mut draft);
    assert_eq!(
        draft.headers,
        vec![
            ("Accept".to_string(), "application/json".to_string()),
            ("Authorization".to_string(), "token s3cret".to_string()),
            ("X-Tenant".to_string(), "acme".to_string()),
            ("X-Price".to_string(), "$5 and $ alone".to_string()),
        ]
    );
    assert!(draft.credentials.contains(&"token s3cret".to_string()));
    assert!(fixed.supplies("authorization") && !fixed.supplies("X-Other"));
    // Debug names the headers, never a value.
    let shown = format!("{fixed:?}");
    assert!(
        shown.contains("Authorization") && !shown.contains("s3cret"),
        "{shown}"
    );
}

#[test]
fn bad_lines_are_named_without_their_values() {
    let err = |line: &str| {
        FixedHeaders::parse(&lines(&[line]), env)
            .unwrap_err()
            .to_string()
    };
    let shape = err("s3cret-pasted-alone");
    assert!(
        shape.contains("not `Name: value`") && !shape.contains("s3cret"),
        "{shape}"
    );
    assert!(err("Bad Name: x").contains("not a valid HTTP header name"));
    assert!(err("Content-Length: 4").contains("HTTP client"));
    assert_eq!(
        err("X-Key: ${MISSING_VAR}"),
        "header `X-Key`: environment variable `MISSING_VAR` is not set"
    );
    assert!(err("X-Key: ${EMPTY}").contains("`EMPTY` is not set"));
    assert!(err("X-Key: ${OPEN").contains("no matching"));
    assert!(err("X-Key: ${}").contains("names no variable"));
    let value = err("X-Key: a\u{7}b");
    assert!(
        value.contains("cannot carry") && !value.contains("a\u{7}b"),
        "{value}"
    );
    let twice = FixedHeaders::parse(&lines(&["X-A: 1", "x-a: 2"]), env).unwrap_err();
    assert_eq!(twice.to_string(), "header `x-a` is given twice");
}

#[test]
fn a_supplied_header_is_no_longer_an_argument() {
    let schema = json!({
        "type": "object",
        "properties": {"X-Api-Key": {"type": "string"}, "id": {"type": "string"},
                       "header_id": {"type": "string"}},
        "required": ["X-Api-Key", "id"]
    });
    let param = |arg: &str, name: &str, location: &str| {
        json!({"arg": arg, "name": name, "in": location, "style": "simple",
               "explode": false, "required": true})
    };
    let mut def: ToolDef = serde_json::from_value(json!({
        "name": "get_thing",
        "title": "Get a thing",
        "description": "",
        "input_schema": schema,
        "input_full": schema,
        "annotations": {"title": "Get a thing", "readOnlyHint": true,
                        "destructiveHint": false, "idempotentHint": true,
                        "openWorldHint": true},
        "origin": {"method": "GET", "path": "/things/{id}"},
        "http": {
            "method": "GET",
            "path": "/things/{id}",
            "params": [
                param("X-Api-Key", "X-Api-Key", "header"),
                param("id", "id", "path"),
                // A query parameter of the same wire name stays an argument.
                param("header_id", "x-api-key", "query"),
            ],
            "body": null,
            "servers": [],
            "security": [],
            "output": null,
            "response_media_types": []
        }
    }))
    .unwrap();
    let fixed = FixedHeaders::parse(&lines(&["x-api-key: ${JUPYTER_TOKEN}"]), env).unwrap();
    assert_eq!(fixed.strip_from(&mut def), vec!["X-Api-Key".to_string()]);
    let expected = json!({
        "type": "object",
        "properties": {"id": {"type": "string"}, "header_id": {"type": "string"}},
        "required": ["id"]
    });
    assert_eq!(def.input_schema, expected);
    assert_eq!(def.input_full, Some(expected));
    let args: Vec<_> = def.http.params.iter().map(|p| p.arg.as_str()).collect();
    assert_eq!(args, ["id", "header_id"]);
}
