//! The schema budget (issue 11): listed schemas fit their budget without
//! losing an argument, calls are still checked against the full schema,
//! and the full schemas are served as MCP resources, by the live server
//! to a real rmcp client.

use std::collections::BTreeSet;
use std::sync::Arc;

use openapi2mcp::pipeline::{self, PipelineOptions};
use openapi2mcp::runtime::schemas::Schemas;
use openapi2mcp::server::ServeOptions;
use openapi2mcp::tools::bundle::json_size;
use openapi2mcp::tools::{BuildOptions, Catalog, DEFAULT_SCHEMA_BUDGET, default_output_budget};
use rmcp::model::{PaginatedRequestParams, ReadResourceRequestParams, ResourceContents};
use serde_json::{Value, json};

use crate::backend::{Backend, Recorded, Reply};
use crate::serve::connect;
use crate::support::{assert_valid_tools, external};
use crate::support::{call, text_of};

fn load(path: &str, build: BuildOptions) -> pipeline::Loaded {
    let options = PipelineOptions {
        build,
        ..PipelineOptions::default()
    };
    pipeline::load_catalog(path, &options).expect("document loads")
}

fn budget(input: usize, output: usize) -> BuildOptions {
    BuildOptions {
        schema_budget: input,
        output_schema_budget: output,
        ..BuildOptions::default()
    }
}

/// Top-level argument names and the required ones.
fn arguments(schema: &Value) -> (BTreeSet<String>, BTreeSet<String>) {
    let names = schema["properties"]
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    let required = schema["required"]
        .as_array()
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    (names, required)
}

#[test]
fn github_fits_the_default_budget_with_every_argument() {
    let Some(path) = external("@octokit/openapi/generated/api.github.com.json") else {
        return;
    };
    let path = path.to_str().unwrap();
    let budgeted = load(path, BuildOptions::default());
    let full = load(path, budget(0, 0));
    assert_eq!(budgeted.catalog.tools.len(), 1223);
    assert_eq!(budgeted.stats.over_budget, 0);
    assert!(budgeted.stats.budgeted > 0);
    let mut total = 0;
    for (b, f) in budgeted.catalog.tools.iter().zip(&full.catalog.tools) {
        assert_eq!(b.name, f.name);
        let size = json_size(&b.input_schema);
        assert!(
            size <= DEFAULT_SCHEMA_BUDGET,
            "{}: inputSchema {size} bytes",
            b.name
        );
        if let Some(out) = &b.output_schema {
            let size = json_size(out);
            assert!(
                size <= default_output_budget(DEFAULT_SCHEMA_BUDGET),
                "{}: outputSchema {size} bytes",
                b.name
            );
        }
        // Every argument and every required one survives the budget.
        assert_eq!(
            arguments(&b.input_schema),
            arguments(&f.input_schema),
            "{}",
            b.name
        );
        // The full top level is kept exactly when something was summarized.
        assert_eq!(
            b.input_full.is_some(),
            b.input_schema != f.input_schema,
            "{}",
            b.name
        );
        total += json_size(&b.to_mcp_json());
    }
    assert!(total <= 3 << 20, "the tool list is {total} bytes");
    assert_valid_tools(&budgeted.catalog, "github, default budget");
}

#[test]
fn a_tiny_budget_still_lists_valid_object_schemas() {
    let Some(path) = external("@octokit/openapi/generated/api.github.com.json") else {
        return;
    };
    let loaded = load(path.to_str().unwrap(), budget(300, 150));
    assert_eq!(loaded.catalog.tools.len(), 1223);
    assert_valid_tools(&loaded.catalog, "github, 300-byte budget");
    let mut over = 0;
    for t in &loaded.catalog.tools {
        assert_eq!(t.input_schema["type"], "object", "{}", t.name);
        over += usize::from(t.input_full.is_some() && json_size(&t.input_schema) > 300);
        if let Some(out) = &t.output_schema {
            assert_eq!(out["type"], "object", "{}", t.name);
            over += usize::from(t.output_full.is_some() && json_size(out) > 150);
        }
    }
    // What cannot fit is counted (and warned about), never silently kept.
    assert_eq!(over, loaded.stats.over_budget);
    assert!(loaded.stats.budgeted > over);
}

/// A document whose body nests two levels of components.
fn nested_doc() -> Value {
    let mut repo_props = serde_json::Map::new();
    for i in 0..30 {
        repo_props.insert(
            format!("setting_{i}"),
            json!({"type": "string", "description": format!("Setting number {i}, described at enough length to cost bytes in every tool list.")}),
        );
    }
    repo_props.insert(
        "owner".into(),
        json!({"$ref": "#/components/schemas/Owner"}),
    );
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Nested", "version": "1"},
        "servers": [{"url": "http://127.0.0.1:9/v1"}],
        "paths": {"/repos/{id}": {"put": {
            "operationId": "putRepo",
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Repo"}}}},
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Repo"}}}}}
        }}},
        "components": {"schemas": {
            "Repo": {"type": "object", "required": ["setting_0"], "properties": repo_props},
            "Owner": {"type": "object", "required": ["login"], "properties": {
                "login": {"type": "string"},
                "plan": {"$ref": "#/components/schemas/Plan"}}},
            "Plan": {"type": "object", "additionalProperties": false, "required": ["seats"], "properties": {
                "seats": {"type": "integer", "minimum": 1},
                "name": {"type": "string", "enum": ["free", "pro"]}}}
        }}
    })
}

fn nested(input: usize) -> (Catalog, ServeOptions) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("nested.json");
    std::fs::write(&file, nested_doc().to_string()).unwrap();
    let loaded = load(file.to_str().unwrap(), budget(input, input));
    let options = ServeOptions {
        schemas: Schemas(Arc::clone(&loaded.schemas) as _),
        ..ServeOptions::default()
    };
    (loaded.catalog, options)
}

fn echo(r: &Recorded) -> Reply {
    (200, "application/json", r.body.clone())
}

#[tokio::test]
async fn summarized_fields_are_still_checked_and_served_in_full() {
    let (catalog, mut options) = nested(1200);
    let tool = &catalog.tools[0];
    assert!(tool.input_full.is_some(), "the budget summarizes this tool");
    let listed = tool.input_schema.to_string();
    assert!(
        !listed.contains("seats"),
        "Plan is summarized away: {listed}"
    );
    assert!(listed.contains("openapi2mcp://schemas/"), "{listed}");
    let backend = Backend::start(echo).await;
    options.base_url = Some(format!("{}/v1", backend.url()));
    let client = connect(catalog, options).await;

    // The listed tool is the budgeted one.
    let tools = client.list_tools(None).await.unwrap().tools;
    assert!(json_size(&Value::Object((*tools[0].input_schema).clone())) <= 1200);

    // A wrong field two levels below a summary is named exactly.
    let bad = call(
        &client,
        "put_repo",
        json!({"id": 1, "setting_0": "a", "owner": {"login": "me", "plan": {"seats": 0}}}),
    )
    .await;
    assert_eq!(bad.is_error, Some(true));
    let text = text_of(&bad);
    assert!(text.contains("owner.plan.seats"), "{text}");
    assert!(
        text.contains("openapi2mcp://tools/put_repo/input-schema"),
        "the error points at the full schema: {text}"
    );
    assert!(backend.take().is_empty(), "nothing was sent");
    let bad = call(
        &client,
        "put_repo",
        json!({"id": 1, "setting_0": "a", "owner": {"login": "me", "plan": {"seats": 2, "extra": true}}}),
    )
    .await;
    assert_eq!(bad.is_error, Some(true), "{}", text_of(&bad));
    assert!(text_of(&bad).contains("owner.plan"), "{}", text_of(&bad));
    // A right one goes through.
    let good = call(
        &client,
        "put_repo",
        json!({"id": 1, "setting_0": "a", "owner": {"login": "me", "plan": {"seats": 2}}}),
    )
    .await;
    assert_ne!(good.is_error, Some(true), "{}", text_of(&good));
    assert_eq!(backend.take().len(), 1);

    // Resources: the document, every component, the templates.
    let resources = client
        .list_resources(Some(PaginatedRequestParams::default()))
        .await
        .unwrap()
        .resources;
    let uris: Vec<String> = resources.iter().map(|r| r.uri.clone()).collect();
    assert_eq!(
        uris,
        [
            "openapi2mcp://document",
            "openapi2mcp://schemas/Repo",
            "openapi2mcp://schemas/Owner",
            "openapi2mcp://schemas/Plan"
        ]
    );
    let templates = client.list_resource_templates(None).await.unwrap();
    assert!(
        templates
            .resource_templates
            .iter()
            .any(|t| t.uri_template == "openapi2mcp://schemas/{name}")
    );
    let read = |uri: &str| {
        let client = &client;
        let uri = uri.to_string();
        async move {
            let result = client
                .read_resource(ReadResourceRequestParams::new(uri))
                .await?;
            let text = match &result.contents[0] {
                ResourceContents::TextResourceContents { text, .. } => text.clone(),
                other => panic!("not text: {other:?}"),
            };
            Ok::<Value, rmcp::ServiceError>(serde_json::from_str(&text).unwrap())
        }
    };
    // The summarized component, in full.
    let owner = read("openapi2mcp://schemas/Owner").await.unwrap();
    assert_eq!(owner["$defs"]["Plan"]["properties"]["seats"]["minimum"], 1);
    assert!(jsonschema::draft202012::new(&owner).is_ok());
    // The tool's full input schema validates what the server validates.
    let full = read("openapi2mcp://tools/put_repo/input-schema")
        .await
        .unwrap();
    let validator = jsonschema::draft202012::new(&full).unwrap();
    assert!(!validator.is_valid(
        &json!({"id": 1, "setting_0": "a", "owner": {"login": "me", "plan": {"seats": 0}}})
    ));
    assert!(validator.is_valid(
        &json!({"id": 1, "setting_0": "a", "owner": {"login": "me", "plan": {"seats": 2}}})
    ));
    let doc = read("openapi2mcp://document").await.unwrap();
    assert_eq!(doc["info"]["title"], "Nested");
    // Unknown resources are a clear error, and the server keeps serving.
    let err = read("openapi2mcp://schemas/Nope").await.unwrap_err();
    assert!(err.to_string().contains("Nope"), "{err}");
    assert!(read("file:///etc/passwd").await.is_err());
    assert!(read("openapi2mcp://schemas/Plan").await.is_ok());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn without_a_budget_nothing_is_summarized() {
    let (catalog, _) = nested(0);
    let tool = &catalog.tools[0];
    assert!(tool.input_full.is_none() && tool.output_full.is_none());
    assert!(tool.input_schema["$defs"]["Plan"].is_object());
    assert!(!tool.input_schema.to_string().contains("openapi2mcp://"));
}
