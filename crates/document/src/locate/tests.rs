use super::line_of;

/// A small OpenAPI document exercising the YAML constructs the scanner
/// must understand. Line numbers are in the trailing comments.
const YAML: &str = "\
%YAML 1.2
---
# comment before the root
openapi: 3.0.3
info:
  title: Pets
  version: '1.0'
  description: |
    A demo API.
    responses: this is text, not a key
paths:
  /pets:
    get:
      summary: List pets
      description: >-
        Folded text.
        responses:
          '200': fake
      parameters:
      - name: limit
        in: query
        schema:
          type: integer

      - name: offset
        in: query
      responses:
        '200':
          description: ok # trailing comment
        default:
          description: \"error\"
  '/pets/{petId}':
    get:
      parameters:
        - in: path
          name: petId
        - &trace
          name: X-Trace
          in: header
          description: 'multi-line quoted
      name: not a key'
      responses:
        \"404\": {description: missing}
x-tags: [a,
  b]
x-last: 1
";

const JSON: &str = r#"{
  "openapi": "3.0.3",
  "info": {
    "title": "Pets",
    "version": "1.0",
    "description": "A demo API.\nresponses: not a key"
  },
  "paths": {
    "/pets": {
      "get": {
        "summary": "List pets",
        "responses": {
          "200": { "description": "ok" },
          "default": { "description": "error" }
        }
      }
    },
    "\/pets\/{petId}": {
      "get": {
        "parameters": [
          { "in": "path", "name": "petId" },
          {
            "name": "X-Trace", "in": "header"
          }
        ],
        "responses": {"404": {"description": "missing"}}
      }
    }
  },
  "x-caf\u00e9": {"a\"b": [1, 2.5e3, true, null, {"k": "v"}]},
  "x-emoji\ud83d\ude00": 7
}
"#;

#[test]
fn test_documents_are_valid() {
    let yaml: serde_json::Value = serde_norway::from_str(YAML).expect("yaml");
    let json: serde_json::Value = serde_json::from_str(JSON).expect("json");
    assert!(
        yaml.pointer("/paths/~1pets~1{petId}/get/parameters/1/name")
            .is_some()
    );
    assert!(yaml.pointer("/paths/~1pets/get/parameters/1/in").is_some());
    assert!(json.pointer("/x-café/a\"b/4/k").is_some());
}

#[test]
fn root_is_line_one() {
    assert_eq!(line_of(YAML, ""), Some(1));
    assert_eq!(line_of(JSON, ""), Some(1));
    assert_eq!(line_of("\n\n  {\"a\": 1}", ""), Some(1));
}

#[test]
fn yaml_simple_keys() {
    assert_eq!(line_of(YAML, "/openapi"), Some(4));
    assert_eq!(line_of(YAML, "/info"), Some(5));
    assert_eq!(line_of(YAML, "/info/title"), Some(6));
    assert_eq!(line_of(YAML, "/paths"), Some(11));
    assert_eq!(line_of(YAML, "/x-last"), Some(46));
}

#[test]
fn yaml_sequences() {
    // Sequence at the parent key's indentation.
    assert_eq!(line_of(YAML, "/paths/~1pets/get/parameters"), Some(19));
    assert_eq!(line_of(YAML, "/paths/~1pets/get/parameters/0"), Some(20));
    assert_eq!(
        line_of(YAML, "/paths/~1pets/get/parameters/0/schema/type"),
        Some(23)
    );
    assert_eq!(
        line_of(YAML, "/paths/~1pets/get/parameters/1/name"),
        Some(25)
    );
    assert_eq!(line_of(YAML, "/paths/~1pets/get/parameters/1/in"), Some(26));
    // Indented sequence; first key on the dash line, anchor on its own.
    assert_eq!(
        line_of(YAML, "/paths/~1pets~1{petId}/get/parameters/0/in"),
        Some(35)
    );
    assert_eq!(
        line_of(YAML, "/paths/~1pets~1{petId}/get/parameters/1"),
        Some(37)
    );
    assert_eq!(
        line_of(YAML, "/paths/~1pets~1{petId}/get/parameters/1/name"),
        Some(38)
    );
    assert_eq!(
        line_of(YAML, "/paths/~1pets~1{petId}/get/parameters/1/in"),
        Some(39)
    );
}

#[test]
fn yaml_block_scalars_hide_fake_keys() {
    assert_eq!(line_of(YAML, "/paths/~1pets/get/responses"), Some(27));
    assert_eq!(line_of(YAML, "/paths/~1pets/get/responses/200"), Some(28));
    assert_eq!(
        line_of(YAML, "/paths/~1pets/get/responses/200/description"),
        Some(29)
    );
    assert_eq!(
        line_of(YAML, "/paths/~1pets/get/responses/default/description"),
        Some(31)
    );
    // The fake key in a scalar never matches: the ancestor is reported.
    assert_eq!(line_of(YAML, "/info/responses"), Some(5));
    assert_eq!(
        line_of(YAML, "/paths/~1pets/get/description/responses"),
        Some(15)
    );
}

#[test]
fn yaml_quoted_keys_and_multiline_scalars() {
    assert_eq!(line_of(YAML, "/paths/~1pets~1{petId}"), Some(32));
    assert_eq!(
        line_of(YAML, "/paths/~1pets~1{petId}/get/responses"),
        Some(42)
    );
    // The continuation line of a quoted scalar is not a key of `get`.
    assert_eq!(line_of(YAML, "/paths/~1pets~1{petId}/get/name"), Some(33));
    // Inside a flow mapping: the flow line itself.
    assert_eq!(
        line_of(YAML, "/paths/~1pets~1{petId}/get/responses/404/description"),
        Some(43)
    );
    // A multi-line flow collection is skipped as a whole.
    assert_eq!(line_of(YAML, "/x-tags/1"), Some(44));
}

#[test]
fn yaml_fallbacks() {
    // Missing key: the deepest ancestor.
    assert_eq!(line_of(YAML, "/paths/~1pets/post/summary"), Some(12));
    assert_eq!(line_of(YAML, "/nope"), Some(1));
    // Through a scalar: that scalar's line.
    assert_eq!(line_of(YAML, "/info/title/deeper/still"), Some(6));
    // Out of range or non-numeric index, index into a mapping.
    assert_eq!(line_of(YAML, "/paths/~1pets/get/parameters/2"), Some(19));
    assert_eq!(
        line_of(YAML, "/paths/~1pets/get/parameters/99999999999999999999999"),
        Some(19)
    );
    assert_eq!(line_of(YAML, "/paths/~1pets/get/parameters/01"), Some(19));
    assert_eq!(line_of(YAML, "/paths/~1pets/get/parameters/name"), Some(19));
    assert_eq!(line_of(YAML, "/info/0"), Some(5));
    // An invalid pointer is treated as the whole document.
    assert_eq!(line_of(YAML, "info"), Some(1));
}

#[test]
fn yaml_odd_layouts() {
    let nested = "a:\n- - x\n  - y\n- 'k': &v\n    deep: 1\nb: 2\n";
    assert_eq!(line_of(nested, "/a/0/1"), Some(3));
    assert_eq!(line_of(nested, "/a/1/k/deep"), Some(5));
    assert_eq!(line_of(nested, "/b"), Some(6));
    let crlf = "a:\r\n  \"x\\\"y\": 1\r\n  z: 2\r\n";
    assert_eq!(line_of(crlf, "/a/x\"y"), Some(2));
    assert_eq!(line_of(crlf, "/a/z"), Some(3));
    let docs = "a: 1\n---\nb: 2\n";
    assert_eq!(line_of(docs, "/b"), Some(1));
    let tilde = "paths:\n  /a~b/c:\n    x: 1\n";
    assert_eq!(line_of(tilde, "/paths/~1a~0b~1c/x"), Some(3));
}

#[test]
fn json_paths() {
    assert_eq!(line_of(JSON, "/info/title"), Some(4));
    assert_eq!(line_of(JSON, "/paths/~1pets/get/responses/200"), Some(13));
    assert_eq!(
        line_of(JSON, "/paths/~1pets/get/responses/default/description"),
        Some(14)
    );
    assert_eq!(
        line_of(JSON, "/paths/~1pets~1{petId}/get/parameters/1/name"),
        Some(23)
    );
    assert_eq!(
        line_of(JSON, "/paths/~1pets~1{petId}/get/parameters/1"),
        Some(22)
    );
    assert_eq!(
        line_of(JSON, "/paths/~1pets~1{petId}/get/responses/404/description"),
        Some(26)
    );
}

#[test]
fn json_escaped_keys() {
    assert_eq!(line_of(JSON, "/paths/~1pets~1{petId}"), Some(18));
    assert_eq!(line_of(JSON, "/x-café/a\"b/4/k"), Some(30));
    assert_eq!(line_of(JSON, "/x-emoji😀"), Some(31));
}

#[test]
fn json_fallbacks() {
    assert_eq!(line_of(JSON, "/paths/~1pets/post"), Some(9));
    assert_eq!(line_of(JSON, "/info/title/x"), Some(4));
    assert_eq!(
        line_of(JSON, "/paths/~1pets~1{petId}/get/parameters/9"),
        Some(20)
    );
    assert_eq!(
        line_of(
            JSON,
            "/paths/~1pets~1{petId}/get/parameters/99999999999999999999999"
        ),
        Some(20)
    );
    assert_eq!(line_of(JSON, "/nope"), Some(1));
}

#[test]
fn json_deep_nesting_is_skipped_without_recursion() {
    let depth = 200_000;
    let text = format!(
        "{{\"a\": {}{}, \n\"b\": 1}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    assert_eq!(line_of(&text, "/b"), Some(2));
}

#[test]
fn every_node_of_the_yaml_document_is_found_at_its_key() {
    let value: serde_json::Value = serde_norway::from_str(YAML).expect("yaml");
    let pretty = serde_json::to_string_pretty(&value).expect("json");
    for (pointer, key) in members(&value, String::new()) {
        for text in [YAML, pretty.as_str()] {
            let line = line_of(text, &pointer).expect("root");
            let shown = text.lines().nth(line - 1).unwrap_or_default();
            assert!(shown.contains(&key), "{pointer} -> {line}: {shown}");
        }
    }
}

/// Every object member below `value`: (pointer, key).
fn members(value: &serde_json::Value, prefix: String) -> Vec<(String, String)> {
    let escape = |k: &str| k.replace('~', "~0").replace('/', "~1");
    let mut out = Vec::new();
    match value {
        serde_json::Value::Object(map) => {
            for (key, child) in map {
                let pointer = format!("{prefix}/{}", escape(key));
                out.push((pointer.clone(), key.clone()));
                out.extend(members(child, pointer));
            }
        }
        serde_json::Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                out.extend(members(child, format!("{prefix}/{i}")));
            }
        }
        _ => {}
    }
    out
}

#[test]
fn empty_documents_have_no_root() {
    assert_eq!(line_of("", ""), None);
    assert_eq!(line_of("  \n# only a comment\n", "/a"), None);
    assert_eq!(line_of("\u{feff}", ""), None);
}

#[test]
fn malformed_input_never_panics() {
    let samples = [
        "{",
        "[1,2",
        "\"unterminated",
        "{\"a\": [1, {\"b\": }",
        "{\"a\"",
        "{\"a\\",
        "a: 'unterminated\n b: 1",
        "- - - -",
        ":",
        "-",
        "? x\n: y",
        "a: [\n",
        "a: |\n",
        "é: ü\n  ö:\n- ß",
        "a:\n\t- b",
        "\u{feff}{\"\\ud800\": 1}",
        "{\"\\u12\": 1}",
        "a: \"\\x\\u\\U1\"\n",
        "--- |\n  text\n",
        "a: &x\nb: *x\n",
    ];
    let pointers = ["", "/a", "/a/0", "/a/b/c", "/0/0/0", "/é/ö/0", "/\u{feff}"];
    for sample in samples.iter().copied().chain([YAML, JSON]) {
        let cuts = sample.char_indices().map(|(i, _)| i).chain([sample.len()]);
        for cut in cuts {
            for pointer in pointers {
                let _ = line_of(&sample[..cut], pointer);
            }
        }
    }
    assert_eq!(line_of("{\"a\": [1, {\"b\": }", "/a/1/b/c"), Some(1));
}
