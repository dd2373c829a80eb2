use super::*;
use crate::{Document, LoadOptions, load};

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

/// The error loading `text` (as a JSON file) gives.
fn load_fails(text: &str) -> crate::Diagnostic {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.json");
    std::fs::write(&path, text).unwrap();
    load(path.to_str().unwrap(), &LoadOptions::default()).unwrap_err()
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
    let err = load_fails(&text);
    assert!(
        err.message.contains("number out of range"),
        "{}",
        err.message
    );
    assert_eq!(err.line, Some(15));
    // As when `paths` was parsed whole.
    let whole = crate::parse::parse_document(&text, "x", Default::default()).unwrap_err();
    assert_eq!((whole.message, whole.line), (err.message.clone(), err.line));
}

#[test]
fn repeated_keys_keep_the_first_place_and_the_last_text() {
    let paths = LazyMap::paths(
        &std::sync::Arc::new("abcdef".to_string()),
        vec![("x".into(), 0..1), ("y".into(), 1..2), ("x".into(), 2..3)],
    );
    assert_eq!(paths.len(), 2);
    assert_eq!(paths.key(0), "x");
    assert_eq!(paths.text(0), "c");
    assert_eq!(paths.find("y"), Some(1));
}

/// A document whose components exercise what a reference reads: a schema
/// reached through a `$ref` into another schema's member, a repeated
/// schema name (the last one wins, in the first one's place), a kind that
/// is not an object (kept as parsed), a schema no operation reaches.
const COMPONENTS_DOC: &str = r##"{
  "openapi": "3.1.0",
  "info": {"title": "t", "version": "1"},
  "paths": {
    "/pets": {"post": {"operationId": "addPet",
      "parameters": [{"$ref": "#/components/parameters/Trace"}],
      "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
      "responses": {"201": {"$ref": "#/components/responses/Made"}}}}
  },
  "components": {
    "schemas": {
      "Pet": {"type": "object", "properties": {"name": {"type": "string"}, "tag": {"$ref": "#/components/schemas/Tag/properties/label"}}},
      "Unused": {"type": "object", "properties": {"x": {"type": "integer"}}},
      "Tag": {"type": "object"},
      "Tag": {"type": "object", "properties": {"label": {"type": "string", "maxLength": 9}}}
    },
    "parameters": {"Trace": {"name": "X-Trace", "in": "header", "schema": {"type": "string"}}},
    "responses": {"Made": {"description": "made", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}},
    "links": [],
    "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "K"}}
  }
}"##;

#[test]
fn components_are_kept_as_text_and_read_as_the_tree_does() {
    let (_dir, lazy) = loaded(COMPONENTS_DOC);
    let schemas = lazy
        .lazy_components("schemas")
        .expect("schemas kept as text");
    assert!(lazy.lazy_components("parameters").is_some());
    assert!(
        lazy.lazy_components("links").is_none(),
        "not an object: a tree"
    );
    assert!(lazy.lazy_components("securitySchemes").is_none());
    let tree = Document::from_value("t", serde_json::from_str(COMPONENTS_DOC).unwrap()).unwrap();
    assert_eq!(lazy.to_json(), tree.to_json());
    assert_eq!(
        lazy.component_schema_pointers(),
        tree.component_schema_pointers()
    );
    assert_eq!(
        lazy.component_schema_pointers(),
        [
            "/components/schemas/Pet",
            "/components/schemas/Unused",
            "/components/schemas/Tag"
        ]
    );
    assert_eq!(summary(&lazy), summary(&tree));
    // A reference into a member reads the member's last text.
    let root = lazy.root_key().to_string();
    let label = lazy
        .resolve_ref(&root, "#/components/schemas/Tag/properties/label")
        .unwrap();
    assert_eq!(label.value["maxLength"], 9);
    for missing in [
        "#/components/schemas/Nope",
        "#/components/schemas/Tag/properties/nope",
        "#/components/schemas/Tag/required/0",
    ] {
        assert!(lazy.resolve_ref(&root, missing).is_err(), "{missing}");
    }
    assert!(lazy.resolve_ref(&root, "#/components/links").is_ok());
    // Only what a reference reached was parsed.
    let unused = schemas.find("Unused").unwrap();
    assert!(schemas.kept_already(unused).is_none());
    assert!(schemas.kept_already(schemas.find("Tag").unwrap()).is_some());
    // The security schemes are read as before.
    let mut diags = Vec::new();
    assert_eq!(lazy.security_schemes(&mut diags).len(), 1, "{diags:?}");
}

#[test]
fn a_bad_component_is_an_error_with_its_place_and_line_when_loading() {
    fails_at_the_unused_schema(&with_a_bad_unused_schema(COMPONENTS_DOC));
}

/// `doc` (made from [`COMPONENTS_DOC`]) with a number no parse reads in
/// its schema `Unused`.
fn with_a_bad_unused_schema(doc: &str) -> String {
    doc.replace(
        r#""Unused": {"type""#,
        r#""Unused": {"minimum": 1e999, "type""#,
    )
}

/// Loading `text` fails at the schema `Unused` (see
/// [`with_a_bad_unused_schema`]), on the line a whole parse gives.
fn fails_at_the_unused_schema(text: &str) {
    let err = load_fails(text);
    assert!(
        err.message.contains("number out of range"),
        "{}",
        err.message
    );
    assert_eq!(err.pointer, "/components/schemas");
    assert_eq!(err.line, Some(13));
    let whole = crate::parse::parse_document(text, "x", Default::default()).unwrap_err();
    assert_eq!(whole.line, err.line);
}

#[test]
fn a_document_that_needs_its_whole_tree_gets_its_components_back() {
    // A reference to another file: the tree is built whole, components too.
    let text = COMPONENTS_DOC.replace(
        r#""Tag": {"type": "object"},"#,
        r#""Tag": {"type": "object"}, "Far": {"$ref": "other.json#/X"},"#,
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("other.json"),
        r#"{"X": {"type": "string"}}"#,
    )
    .unwrap();
    let path = dir.path().join("doc.json");
    std::fs::write(&path, &text).unwrap();
    let (doc, _) = load(path.to_str().unwrap(), &LoadOptions::default()).unwrap();
    assert!(doc.lazy_components("schemas").is_none());
    assert!(doc.lazy_paths().is_none());
    let root = doc.root_key().to_string();
    let pet = doc.resolve_ref(&root, "#/components/schemas/Pet").unwrap();
    assert_eq!(pet.value["type"], "object");
    assert_eq!(
        doc.component_schema_pointers().len(),
        4,
        "Pet, Unused, Tag, Far"
    );
    let tree = Document::from_value("t", serde_json::from_str(&text).unwrap()).unwrap();
    assert_eq!(doc.to_json(), tree.to_json());
}

#[test]
fn a_repeated_components_counts_once_as_a_parse_counts_it() {
    let text = r##"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
      "components": {"schemas": {"Old": {"type": "string"}}, "responses": {"Gone": {"description": "x"}}},
      "components": {"schemas": {"New": {"type": "integer"}}, "schemas": {"Newer": {"type": "boolean"}}}}"##;
    let (_dir, lazy) = loaded(text);
    let tree = Document::from_value("t", serde_json::from_str(text).unwrap()).unwrap();
    assert_eq!(lazy.to_json(), tree.to_json());
    assert_eq!(
        lazy.component_schema_pointers(),
        ["/components/schemas/Newer"]
    );
    assert_eq!(
        lazy.component_schema_pointers(),
        tree.component_schema_pointers()
    );
    // Nothing of the first one is left to find.
    let root = lazy.root_key().to_string();
    assert!(
        lazy.resolve_ref(&root, "#/components/responses/Gone")
            .is_err()
    );
    assert!(
        lazy.resolve_ref(&root, "#/components/schemas/Newer")
            .is_ok()
    );
}

#[test]
fn paths_that_are_not_an_object_are_reported_as_from_the_tree() {
    for paths in ["[]", "7", "\"x\"", "null"] {
        let text = format!(
            r#"{{"openapi": "3.0.3", "info": {{"title": "t", "version": "1"}}, "paths": {paths}}}"#
        );
        let err = load_fails(&text);
        assert_eq!(err.pointer, "/paths", "{paths}");
        assert!(
            err.message.contains("must be a mapping"),
            "{paths}: {}",
            err.message
        );
    }
}

/// [`COMPONENTS_DOC`] made large (its description padded past a megabyte),
/// so that its members are checked on a thread of their own while the
/// root is split.
fn large(doc: &str) -> String {
    let padded = doc.replacen(
        r#""info": {"title": "t", "version": "1"}"#,
        &format!(
            r#""info": {{"title": "t", "version": "1", "description": "{}"}}"#,
            "padding ".repeat(160_000)
        ),
        1,
    );
    assert!(padded.len() > 1 << 20);
    padded
}

#[test]
fn a_large_document_checked_alongside_its_split_fails_at_its_first_bad_member() {
    // Two bad members: the first in document order is the one reported,
    // with its place and line, as a whole parse reports it.
    let text = with_a_bad_unused_schema(&large(COMPONENTS_DOC)).replace(
        r#""Made": {"description": "made""#,
        r#""Made": {"description": "made", "x": -1e999"#,
    );
    fails_at_the_unused_schema(&text);
    // A bad path item, before the components.
    let text = large(COMPONENTS_DOC).replace(
        r#""operationId": "addPet","#,
        r#""operationId": "addPet", "x": [1e999],"#,
    );
    let err = load_fails(&text);
    assert_eq!(err.pointer, "/paths");
    assert_eq!(err.line, Some(5));
}

#[test]
fn a_large_document_checked_alongside_its_split_reads_as_a_small_one() {
    let (_dir, lazy) = loaded(&large(COMPONENTS_DOC));
    let schemas = lazy
        .lazy_components("schemas")
        .expect("schemas kept as text");
    assert_eq!(schemas.len(), 3);
    let tree =
        Document::from_value("t", serde_json::from_str(&large(COMPONENTS_DOC)).unwrap()).unwrap();
    assert_eq!(lazy.to_json(), tree.to_json());
    // A kind repeated: the last one counts, so a bad member of the first
    // one is no error, as in a small document.
    let repeated = large(COMPONENTS_DOC).replacen(
        r#""components": {"#,
        r#""components": {"schemas": {"Old": {"minimum": 1e999}},"#,
        1,
    );
    let (_dir, lazy) = loaded(&repeated);
    assert_eq!(lazy.lazy_components("schemas").unwrap().len(), 3);
    let (_dir, small) = loaded(&repeated.replace(&"padding ".repeat(160_000), ""));
    assert_eq!(small.lazy_components("schemas").unwrap().len(), 3);
}
