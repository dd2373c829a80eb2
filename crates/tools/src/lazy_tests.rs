use super::*;
use crate::bundle::SchemaBundler;
use crate::{build_all, plan};
use openapi2mcp_document::Document;
use serde_json::json;

fn doc() -> Document {
    Document::from_value(
        "t",
        json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
          "paths": {
            "/pets/{id}": {"get": {"operationId": "getPet", "parameters": [
                {"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
              "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}},
            "/broken": {"post": {"operationId": "broken", "requestBody": {"$ref": "#/components/requestBodies/Nope"},
              "responses": {"204": {"description": "ok"}}}},
            "/pets": {"post": {"operationId": "createPet", "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
              "responses": {"201": {"description": "ok"}}}}
          },
          "components": {"schemas": {"Pet": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}}}),
    )
    .unwrap()
}

#[test]
fn a_tool_built_late_equals_the_eagerly_built_one() {
    let options = BuildOptions::default();
    let eager = build_all(&doc(), &options).catalog;
    let document = doc();
    let plan = plan(&document, &options);
    let state = SchemaBundler::new(&document).into_state();
    let schemas = Arc::new(LiveSchemas::new(document, state));
    let lazy = LazyTools::new(schemas, plan.tools, options);
    // Built in reverse order: the keys must not depend on it.
    let create = lazy.build(2).unwrap();
    assert_eq!(eager.tools[1], create);
    let get = lazy.build(0).unwrap();
    assert_eq!(eager.tools[0], get);
    assert_eq!(get.name, "get_pet");
    assert_eq!(get.input_schema["properties"]["id"]["type"], "integer");
}

#[test]
fn a_broken_tool_says_why_and_the_others_still_build() {
    let document = doc();
    let options = BuildOptions::default();
    let plan = plan(&document, &options);
    assert_eq!(plan.tools.len(), 3, "planning does not follow body $refs");
    let state = SchemaBundler::new(&document).into_state();
    let lazy = LazyTools::new(
        Arc::new(LiveSchemas::new(document, state)),
        plan.tools,
        options,
    );
    let why = lazy.build(1).unwrap_err();
    assert!(why.contains("Nope"), "{why}");
    assert!(lazy.build(0).is_ok());
    assert!(lazy.build(7).unwrap_err().contains("no tool number 7"));
}

/// The tools `document` plans under `options`, built when asked.
fn lazy_tools(document: Document, options: BuildOptions) -> LazyTools {
    let plan = plan(&document, &options);
    let state = SchemaBundler::new(&document).into_state();
    LazyTools::new(
        Arc::new(LiveSchemas::new(document, state)),
        plan.tools,
        options,
    )
}

/// Tools `0..n` of `lazy`, built by one bulk build on every core.
fn built_in_bulk(lazy: &LazyTools, n: usize) -> Vec<ToolDef> {
    let indices: Vec<usize> = (0..n).collect();
    let built = Mutex::new(vec![None; n]);
    lazy.build_each(&indices, &|i, def| {
        built.lock().unwrap()[i] = Some(def.unwrap());
    });
    built
        .into_inner()
        .unwrap()
        .into_iter()
        .map(Option::unwrap)
        .collect()
}

/// A document of `n` operations (over the parallel threshold) whose
/// schemas reference targets without a key yet, named alike
/// (`#/components/x/*/Thing` → `Thing`, `Thing_2`, …): only a build in
/// tool order names them as a one-by-one build does.
fn many(n: usize) -> serde_json::Value {
    let mut paths = serde_json::Map::new();
    let mut things = serde_json::Map::new();
    for i in 0..n {
        let schema = if i % 7 == 3 {
            // Each of these references a target of its own, last token
            // `Thing`: keys assigned in the order the tools are built.
            things.insert(
                format!("g{i}"),
                json!({"Thing": {"type": "object",
                "properties": {"n": {"type": "integer", "description": format!("thing {i}")},
                               "pet": {"$ref": "#/components/schemas/Pet"}}}}),
            );
            json!({"$ref": format!("#/components/x/g{i}/Thing")})
        } else {
            json!({"$ref": "#/components/schemas/Pet"})
        };
        paths.insert(
            format!("/p{i}"),
            json!({"post": {"operationId": format!("op{i}"),
              "requestBody": {"content": {"application/json": {"schema": schema.clone()}}},
              "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}}}),
        );
    }
    json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths,
      "components": {"x": things, "schemas": {"Pet": {"type": "object", "properties": {
        "id": {"type": "integer"}, "name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}}}}}})
}

#[test]
fn a_bulk_build_on_every_core_equals_building_one_by_one() {
    let options = BuildOptions::default();
    // Loaded from a file: `paths` is kept as text.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("many.json");
    std::fs::write(&file, many(150).to_string()).unwrap();
    let load = || {
        openapi2mcp_document::load(file.to_str().unwrap(), &Default::default())
            .unwrap()
            .0
    };
    let eager = build_all(&load(), &options).catalog;
    let document = load();
    let lazy = lazy_tools(document, options);
    let built = built_in_bulk(&lazy, 150);
    assert_eq!(built, eager.tools);
    // The targets without a key were named in tool order.
    let text = |t: &ToolDef| serde_json::to_string(&t.output_schema).unwrap();
    assert!(text(&built[3]).contains("\"Thing\""), "{}", text(&built[3]));
    assert!(
        text(&built[10]).contains("\"Thing_2\""),
        "{}",
        text(&built[10])
    );
    // A tool built later still names its schemas as the list did.
    assert_eq!(lazy.build(10).unwrap(), eager.tools[10]);
    assert!(lazy.rebuilds());
}

#[test]
fn tools_sharing_a_summarized_result_each_point_at_their_own_full_schema() {
    // One deep inline result for many operations: fitted once in a
    // bulk build, held by every tool, copied only where a summary
    // names the tool.
    let mut deep = json!({"type": "string"});
    for level in 0..12 {
        deep = json!({"type": "object", "description": format!("level {level}"),
            "properties": {"inner": deep, "note": {"type": "string", "description": "x".repeat(40)}}});
    }
    let mut paths = serde_json::Map::new();
    for i in 0..100 {
        paths.insert(
            format!("/r{i}"),
            json!({"get": {"operationId": format!("getR{i}"), "responses": {"200": {
                "description": "ok", "content": {"application/json": {"schema": deep.clone()}}}}}}),
        );
    }
    let doc = json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths});
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deep.json");
    std::fs::write(&file, doc.to_string()).unwrap();
    let document = openapi2mcp_document::load(file.to_str().unwrap(), &Default::default())
        .unwrap()
        .0;
    let options = BuildOptions {
        output_schema_budget: 600,
        ..BuildOptions::default()
    };
    let lazy = lazy_tools(document, options);
    let built = built_in_bulk(&lazy, 100);
    let self_uri = |name: &str| openapi2mcp_model::schemas::tool_schema_uri(name, true);
    for tool in &built {
        assert!(tool.output_full.is_some(), "{} is summarized", tool.name);
        let text = serde_json::to_string(&tool.output_schema).unwrap();
        assert!(
            text.contains(&self_uri(&tool.name)),
            "{}: {text}",
            tool.name
        );
        assert!(!text.contains(crate::SELF_TOOL), "{text}");
        // The same schema as every other tool's, but for the name.
        let other = &built[(built.iter().position(|t| t.name == tool.name).unwrap() + 1) % 100];
        let theirs = serde_json::to_string(&other.output_schema).unwrap();
        assert_eq!(
            text.replace(&tool.name, "NAME"),
            theirs.replace(&other.name, "NAME")
        );
    }
}
