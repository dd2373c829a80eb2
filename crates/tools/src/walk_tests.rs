use crate::{BuildOptions, plan};
use openapi2mcp_document::{Document, LoadOptions, load};

/// A document with what the outline leaves out, where planning could
/// trip over its absence: extensions at every level (`x-mcp` kept),
/// parameter schemas and examples, responses, callbacks, external
/// docs, an OpenAPI 3.2 `additionalOperations`, a parameter that is
/// a `$ref` into `paths`, a body whose properties are arguments.
const OUTLINED: &str = r##"{
      "openapi": "3.2.0",
      "info": {"title": "t", "version": "1"},
      "paths": {
        "/things/{id}": {
          "x-group": ["/other"],
          "parameters": [{"name": "id", "in": "path", "required": true,
            "schema": {"type": "integer"}, "example": 3, "x-note": 1}],
          "get": {"operationId": "getThing", "summary": "Get a thing",
            "externalDocs": {"url": "https://example.com"},
            "x-mcp": {"name": "fetch_thing", "annotations": {"openWorldHint": false}},
            "x-ms-pageable": {"nextLinkName": "next"},
            "parameters": [{"name": "fields", "in": "query", "schema": {"type": "array", "items": {"enum": ["a", "b"]}},
              "examples": {"one": {"value": ["a"]}}, "style": "form", "explode": false}],
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}},
            "callbacks": {"done": {"{$request.body#/url}": {"post": {"responses": {"200": {"description": "ok"}}}}}}},
          "put": {"description": "Replaces a thing.\n\nAll of it.", "tags": ["things"], "deprecated": true,
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object",
              "properties": {"name": {"type": "string"}, "id": {"type": "integer", "readOnly": true}}}}}},
            "responses": {"204": {"description": "done"}}},
          "additionalOperations": {"COPY": {"summary": "Copy a thing", "x-extra": true,
            "parameters": [{"$ref": "#/paths/~1things~1{id}/parameters/0"}],
            "responses": {"201": {"description": "copied"}}}}
        },
        "/things": {"post": {"operationId": "things.create", "security": [{"key": []}],
          "parameters": [{"name": "X-Trace", "in": "header", "schema": {"type": "string"}}],
          "responses": {"201": {"description": "made"}}},
          "get": {"x-mcp": false, "responses": {"200": {"description": "ok"}}}}
      },
      "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "K"}}}
    }"##;

/// The heads, diagnostics and counts planning gives `text` read lazily
/// (its path items parsed as outlines) and as a tree (parsed whole);
/// `None` when loading reads it as a tree (a reference to another
/// file, say).
fn both_ways(text: &str) -> Option<(String, String)> {
    shown_both_ways(text, &planned)
}

/// What planning `doc` gives, as text.
fn planned(doc: &Document) -> String {
    let plan = plan(doc, &BuildOptions::default());
    format!(
        "{:#?}\n{:#?}\n{:?}",
        plan.tools
            .iter()
            .map(|t| (&t.head, &t.path, &t.method))
            .collect::<Vec<_>>(),
        shown(&plan.diagnostics),
        plan.stats
    )
}

/// Diagnostics as text, without their file (a temporary file's path
/// for a document read lazily).
fn shown(diagnostics: &[openapi2mcp_document::Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| format!("{:?} {} {}", d.severity, d.pointer, d.message))
        .collect()
}

/// `show` of `text` read lazily and as a tree (see [`both_ways`]).
fn shown_both_ways(text: &str, show: &dyn Fn(&Document) -> String) -> Option<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.json");
    std::fs::write(&path, text).unwrap();
    let (lazy, _) = load(path.to_str().unwrap(), &LoadOptions::default()).unwrap();
    // Read lazily? (A tree weighs every item 4 kB.)
    if lazy.path_count() == 0 || lazy.path_weight(0) == 4096 {
        return None;
    }
    let tree = Document::from_value("doc.json", serde_json::from_str(text).unwrap()).unwrap();
    Some((show(&lazy), show(&tree)))
}

/// The project's own OpenAPI documents (specs/, tests/fixtures/) as
/// JSON text.
/// Asserts that `show` reads the project's own documents (those read
/// lazily, at least 8) alike whether read lazily or as a tree.
fn own_documents_read_alike(show: &dyn Fn(&Document) -> String) {
    let mut read = 0;
    for (path, text) in own_documents() {
        if let Some((lazy, tree)) = shown_both_ways(&text, show) {
            assert_eq!(lazy, tree, "{}", path.display());
            read += 1;
        }
    }
    assert!(read >= 8, "{read} documents");
}

fn own_documents() -> Vec<(std::path::PathBuf, String)> {
    // The workspace root: this crate is `crates/tools` in it.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut out = Vec::new();
    for dir in ["specs", "tests/fixtures"] {
        for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "yaml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let Ok(value) = serde_norway::from_str::<serde_json::Value>(&text) else {
                continue;
            };
            if value.get("openapi").is_none() {
                continue;
            }
            out.push((path, serde_json::to_string(&value).unwrap()));
        }
    }
    out
}

#[test]
fn lazily_read_items_build_the_tools_a_tree_builds() {
    let built = |doc: &Document| {
        let built = crate::build_all(doc, &BuildOptions::default());
        format!(
            "{:#?}\n{:#?}",
            built.catalog.tools,
            shown(&built.diagnostics)
        )
    };
    let (lazy, tree) = shown_both_ways(OUTLINED, &built).expect("read lazily");
    assert_eq!(lazy, tree);
    // What the build reads that the planning outline leaves out:
    // responses (an output schema), a parameter's schema, a body's
    // property.
    for read in ["output_schema: Some(", "\"integer\"", "String(\"string\")"] {
        assert!(lazy.contains(read), "{read} in {lazy}");
    }
    own_documents_read_alike(&built);
}

#[test]
fn outlines_plan_the_tools_a_whole_item_plans() {
    let (lazy, tree) = both_ways(OUTLINED).expect("read lazily");
    assert_eq!(lazy, tree);
    for name in [
        "fetch_thing",
        "replace_thing",
        "copy_thing",
        "create_thing",
        "fields",
    ] {
        assert!(lazy.contains(name), "{name} in {lazy}");
    }
    // The project's own documents, read as JSON.
    own_documents_read_alike(&planned);
}
