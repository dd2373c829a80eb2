use super::*;
use crate::document::{Document, LoadOptions, load};

/// A document whose paths exercise what loading does to path items: a
/// numeric `operationId` (made a string), a repeated path (the last one
/// wins, in the first one's place), a `$ref` into `paths`, a path item
/// that is a `$ref`, path-level parameters.
const DOC: &str = r##"{
  "openapi": "3.0.3",
  "info": {"title": "t", "version": "1"},
  "paths": {
    "/pets": {"get": {"operationId": 7, "responses": {"200": {"description": "ok",
        "content": {"application/json": {"schema": {"type": "array", "items": {"type": "string"}}}}}}}},
    "/pets/{id}": {
      "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
      "get": {"operationId": "getPet", "summary": true, "responses": {"200": {"description": "ok"}}},
      "delete": {"operationId": "dropPet", "parameters": [{"$ref": "#/paths/~1pets~1{id}/parameters/0"}],
        "responses": {"204": {"description": "gone"}}}
    },
    "/pets": {"post": {"operationId": "addPet", "responses": {"201": {"description": "made"}}}},
    "/alias": {"$ref": "#/paths/~1pets~1{id}"},
    "x-note": {"a": "\u00e9\ud83d\ude00"}
  }
}"##;

fn loaded(text: &str) -> (tempfile::TempDir, Document) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.json");
    std::fs::write(&path, text).unwrap();
    let (doc, _) = load(path.to_str().unwrap(), &LoadOptions::default()).unwrap();
    (dir, doc)
}

fn summary(doc: &Document) -> Vec<String> {
    let mut diags = Vec::new();
    doc.operations(&mut diags)
        .iter()
        .map(|op| {
            let params: Vec<&str> = op.params.iter().map(|p| p.name).collect();
            format!(
                "{} {} {:?} {:?} {:?} {}",
                op.method,
                op.path,
                op.operation_id(),
                op.summary(),
                params,
                op.pointer()
            )
        })
        .collect()
}

#[test]
fn a_json_document_keeps_paths_as_text_and_reads_as_the_tree_does() {
    let (_dir, lazy) = loaded(DOC);
    assert!(lazy.lazy_paths().is_some(), "paths kept as text");
    let tree = Document::from_value("t", serde_json::from_str(DOC).unwrap()).unwrap();
    assert!(tree.lazy_paths().is_none());
    assert_eq!(summary(&lazy), summary(&tree));
    assert_eq!(lazy.to_json(), tree.to_json());
    assert_eq!(lazy.declared_operations(), tree.declared_operations());
    assert_eq!(lazy.path_count(), 4);
    let layout = |d: &Document| {
        d.paths_layout()
            .into_iter()
            .map(|l| (l.path, l.keys))
            .collect::<Vec<_>>()
    };
    assert_eq!(layout(&lazy), layout(&tree));
    // The numeric id became a string, the repeated path took the last text.
    let first = lazy.operation("/pets", "post").unwrap();
    assert_eq!(first.operation_id(), Some("addPet"));
    assert!(lazy.operation("/pets", "get").is_none());
    assert_eq!(
        lazy.operation("/pets/{id}", "get").unwrap().summary(),
        Some("true")
    );
}

#[test]
fn a_walk_reads_items_for_itself_and_keeps_nothing() {
    let (_dir, doc) = loaded(DOC);
    let paths = doc.lazy_paths().unwrap();
    let items = doc.path_item("/pets/{id}");
    let op = doc
        .operation_in(Some(&items), "/pets/{id}", "delete")
        .unwrap();
    assert_eq!(op.params.len(), 1, "the path's own parameter, by $ref");
    let at = paths.find("/pets/{id}").unwrap();
    // The `$ref` into `paths` kept that item; the walk's copy is its own.
    assert!(paths.kept_already(at).is_some());
    drop(op);
    drop(items);
    let mut diags = Vec::new();
    let all = doc.path_items(0..paths.len());
    let ops = doc.operations_in(Some(&all), 0..paths.len(), &mut diags);
    assert_eq!(ops.len(), 5, "{diags:?}");
    let pets = paths.find("/pets").unwrap();
    assert!(paths.kept_already(pets).is_none(), "read for the walk only");
}

#[test]
fn the_check_fails_where_a_parse_fails() {
    for text in [
        r#"{"a": "\ud800"}"#,
        r#"{"a": 1e400}"#,
        r#"{"a": "\q"}"#,
        r#"{"a": [1, 2,]}"#,
        r#"{"a": 1} x"#,
        &format!("{}1{}", "[".repeat(200), "]".repeat(200)),
    ] {
        let parsed = serde_json::from_str::<Value>(text).unwrap_err();
        let checked = check(text).unwrap_err();
        assert_eq!(parsed.to_string(), checked.to_string(), "{text}");
    }
    for text in [
        r#"{"a": "\ud83d\ude00", "b": [1, -2.5e10, true, null, {}], "c": "\u00e9"}"#,
        "[]",
    ] {
        serde_json::from_str::<Value>(text).unwrap();
        check(text).unwrap();
    }
}

#[test]
fn a_bad_path_item_is_an_error_with_its_line_when_loading() {
    let text = DOC.replace(r#""x-note": {"a""#, r#""x-note": {"a": 1e999, "b""#);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.json");
    std::fs::write(&path, &text).unwrap();
    let err = load(path.to_str().unwrap(), &LoadOptions::default()).unwrap_err();
    assert!(
        err.message.contains("number out of range"),
        "{}",
        err.message
    );
    assert_eq!(err.line, Some(15));
    // As when `paths` was parsed whole.
    let whole = crate::document::parse::parse_document(&text, "x", Default::default()).unwrap_err();
    assert_eq!((whole.message, whole.line), (err.message.clone(), err.line));
}

#[test]
fn repeated_keys_keep_the_first_place_and_the_last_text() {
    let paths = LazyPaths::new(
        "abcdef",
        vec![("x".into(), 0..1), ("y".into(), 1..2), ("x".into(), 2..3)],
    );
    assert_eq!(paths.len(), 2);
    assert_eq!(paths.key(0), "x");
    assert_eq!(paths.text(0), "c");
    assert_eq!(paths.find("y"), Some(1));
}
