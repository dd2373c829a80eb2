//! Unit tests of `lro.rs`: which operations may be long-running, the
//! cancel link, and the output schema of their tools.

use serde_json::{Value, json};

use crate::{BuildOptions, ToolDef, build};
use openapi2mcp_document::{Diagnostic, Document};
use openapi2mcp_model::binding::{FinalStateVia, LinkArgument, Location};

fn doc(paths: Value) -> Document {
    Document::from_value(
        "lro.yaml",
        json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "servers": [{"url": "https://api.example.com/v1"}],
            "security": [{"token": []}],
            "components": {"securitySchemes": {"token": {"type": "http", "scheme": "bearer"}}},
            "paths": paths}),
    )
    .unwrap()
}

fn tools(doc: &Document) -> (Vec<ToolDef>, Vec<Diagnostic>) {
    let (catalog, diags) = build(doc, &BuildOptions::default());
    (catalog.tools, diags)
}

fn tool<'a>(tools: &'a [ToolDef], id: &str) -> &'a ToolDef {
    tools
        .iter()
        .find(|t| t.origin.operation_id.as_deref() == Some(id))
        .unwrap_or_else(|| panic!("no tool for {id}"))
}

fn status_schema() -> Value {
    json!({"type": "object", "properties": {"id": {"type": "string"}, "status": {"type": "string"}}})
}

/// An export API: 202 + Location, links to its status and its cancel.
fn exports(links: Value) -> Document {
    doc(json!({
        "/projects/{projectId}/exports": {"post": {"operationId": "startExport",
            "parameters": [{"name": "projectId", "in": "path", "required": true, "schema": {"type": "string"}}],
            "responses": {"202": {"description": "accepted",
                "headers": {"Location": {"schema": {"type": "string"}}},
                "content": {"application/json": {"schema": status_schema()}},
                "links": links}}}},
        "/projects/{projectId}/exports/{exportId}": {
            "get": {"operationId": "getExportStatus",
                "parameters": [
                    {"name": "projectId", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "exportId", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "ok"}}},
            "delete": {"operationId": "removeExport",
                "parameters": [
                    {"name": "projectId", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "exportId", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {"204": {"description": "gone"}}}},
        "/projects/{projectId}/exports/{exportId}:cancel": {"post": {"operationId": "haltExport",
            "summary": "Stop a running export",
            "parameters": [
                {"name": "projectId", "in": "path", "required": true, "schema": {"type": "string"}},
                {"name": "exportId", "in": "path", "required": true, "schema": {"type": "string"}},
                {"name": "reason", "in": "query", "schema": {"type": "string"}}],
            "security": [],
            "responses": {"202": {"description": "stopping"}}}}
    }))
}

#[test]
fn a_202_response_makes_an_operation_long_running_and_a_plain_one_not() {
    let (tools, _) = tools(&exports(json!({})));
    let start = tool(&tools, "startExport");
    assert_eq!(
        start.http.lro.as_ref().map(|l| l.cancel.is_none()),
        Some(true)
    );
    assert_eq!(tool(&tools, "getExportStatus").http.lro, None);
    assert_eq!(tool(&tools, "removeExport").http.lro, None);
}

#[test]
fn the_cancel_link_prefers_a_target_that_says_cancel_and_resolves_its_parameters() {
    let links = json!({
        "status": {"operationId": "getExportStatus", "parameters": {"exportId": "$response.body#/id"}},
        "remove": {"operationId": "removeExport", "parameters": {"exportId": "$response.body#/id"}},
        "halt": {"operationRef": "#/paths/~1projects~1{projectId}~1exports~1{exportId}:cancel/post",
            "parameters": {"path.exportId": "$response.body#/id", "query.reason": "asked by the user",
                "nonsense": 1}}
    });
    let (tools, diags) = tools(&exports(links));
    let cancel = tool(&tools, "startExport")
        .http
        .lro
        .as_ref()
        .and_then(|l| l.cancel.as_deref())
        .expect("a cancel link");
    // `halt` says stop; `remove` only deletes; `status` is a GET.
    assert_eq!(cancel.link, "halt");
    assert_eq!(cancel.operation, "haltExport");
    assert_eq!(cancel.http.method, "POST");
    assert_eq!(
        cancel.http.path,
        "/projects/{projectId}/exports/{exportId}:cancel"
    );
    assert!(cancel.http.security.is_empty(), "the target's own security");
    assert_eq!(cancel.http.servers[0].url, "https://api.example.com/v1");
    let reason = cancel
        .http
        .params
        .iter()
        .find(|p| p.name == "reason")
        .unwrap();
    assert_eq!(reason.location, Location::Query);
    assert_eq!(
        cancel.arguments,
        vec![
            LinkArgument {
                arg: "exportId".into(),
                value: json!("$response.body#/id")
            },
            LinkArgument {
                arg: "reason".into(),
                value: json!("asked by the user")
            },
            // Left out by the link: the started operation's own projectId.
            LinkArgument {
                arg: "projectId".into(),
                value: json!("$request.path.projectId")
            },
        ]
    );
    assert!(
        diags
            .iter()
            .any(|d| d.message.contains("`nonsense` names no parameter")),
        "{diags:?}"
    );
}

#[test]
fn a_delete_link_cancels_when_nothing_says_cancel() {
    let links = json!({
        "status": {"operationId": "getExportStatus", "parameters": {"exportId": "$response.body#/id"}},
        "remove": {"operationId": "removeExport", "parameters": {"exportId": "$response.body#/id"}}
    });
    let (tools, _) = tools(&exports(links));
    let lro = tool(&tools, "startExport").http.lro.clone().unwrap();
    let cancel = lro.cancel.unwrap();
    assert_eq!(
        (cancel.link.as_str(), cancel.http.method.as_str()),
        ("remove", "DELETE")
    );
}

#[test]
fn a_link_that_cannot_be_resolved_is_not_a_cancel_link_and_says_why() {
    let links = json!({
        "cancel": {"operationId": "noSuchOperation"},
        "cancelElsewhere": {"operationRef": "https://other.example.com/openapi.json#/paths/~1x/delete"},
        // removeExport needs exportId, which nothing gives.
        "remove": {"operationId": "removeExport"}
    });
    let (tools, diags) = tools(&exports(links));
    assert_eq!(
        tool(&tools, "startExport")
            .http
            .lro
            .as_ref()
            .map(|l| l.cancel.is_none()),
        Some(true)
    );
    let text: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert!(
        text.iter()
            .any(|t| t.contains("no operation has the operationId `noSuchOperation`")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains("points into another document")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains("no value for the required path parameter `exportId`")),
        "{text:?}"
    );
}

#[test]
fn azure_extension_and_async_headers_are_long_running_with_their_final_state() {
    let vm = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    let d = doc(json!({
        "/vms/{name}": {
            "put": {"operationId": "VirtualMachines_CreateOrUpdate",
                "x-ms-long-running-operation": true,
                "x-ms-long-running-operation-options": {"final-state-via": "original-uri"},
                "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {
                    "200": {"description": "ok", "content": {"application/json": {"schema": vm}}},
                    "201": {"description": "created", "content": {"application/json": {"schema": vm}}}}},
            "patch": {"operationId": "VirtualMachines_Update",
                "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {"201": {"description": "updating",
                    "headers": {"Azure-AsyncOperation": {"schema": {"type": "string"}}},
                    "content": {"application/json": {"schema": vm}}}}},
            "delete": {"operationId": "VirtualMachines_Delete",
                "x-ms-long-running-operation": true,
                "x-ms-long-running-operation-options": {"final-state-via": "somewhere"},
                "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "ok"}, "204": {"description": "gone"}}}}
    }));
    let (tools, diags) = tools(&d);
    let put = tool(&tools, "VirtualMachines_CreateOrUpdate");
    assert_eq!(
        put.http.lro.as_ref().unwrap().final_state_via,
        Some(FinalStateVia::OriginalUri)
    );
    // The final resource's schema, as documented on the 200.
    assert_eq!(
        put.output_schema.as_ref().unwrap()["properties"]["name"]["type"],
        json!(["string", "null"])
    );
    let patch = tool(&tools, "VirtualMachines_Update");
    assert_eq!(patch.http.lro.as_ref().unwrap().final_state_via, None);
    let delete = tool(&tools, "VirtualMachines_Delete");
    assert_eq!(delete.http.lro.as_ref().unwrap().final_state_via, None);
    assert!(
        diags
            .iter()
            .any(|d| d.message.contains("final-state-via `somewhere`")),
        "{diags:?}"
    );
}

#[test]
fn a_long_running_tool_advertises_its_final_result_not_the_202() {
    let report = json!({"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}});
    let d = doc(json!({
        // 202 with a status URL and a documented final result (200).
        "/reports": {"post": {"operationId": "createReport",
            "responses": {
                "200": {"description": "done at once", "content": {"application/json": {"schema": report}}},
                "202": {"description": "started", "headers": {"Location": {"schema": {"type": "string"}}},
                    "content": {"application/json": {"schema": status_schema()}}}}}},
        // Only the 202, which announces a status resource: the result is undescribed.
        "/exports": {"post": {"operationId": "startExport",
            "responses": {"202": {"description": "started",
                "headers": {"Operation-Location": {"schema": {"type": "string"}}},
                "content": {"application/json": {"schema": status_schema()}}}}}},
        // A bare 202 whose body is the resource being made (GitHub's forks).
        "/forks": {"post": {"operationId": "createFork",
            "responses": {"202": {"description": "the fork is being created",
                "content": {"application/json": {"schema": report}}}}}},
        // A bare 202 beside a 205 (GitHub's notifications): as before, the
        // lowest 2xx.
        "/notifications": {"put": {"operationId": "markNotificationsAsRead",
            "responses": {
                "202": {"description": "marking in the background",
                    "content": {"application/json": {"schema":
                        {"type": "object", "properties": {"message": {"type": "string"}}}}}},
                "205": {"description": "reset content"}}}}
    }));
    let (tools, _) = tools(&d);
    let create = tool(&tools, "createReport")
        .output_schema
        .clone()
        .map(|o| serde_json::Value::Object((*o).clone()))
        .unwrap();
    // Output schemas never require a property; the 200's `title` is there,
    // the 202's `status` is not.
    assert!(create["properties"].get("title").is_some(), "{create}");
    assert!(create["properties"].get("status").is_none(), "{create}");
    let start = tool(&tools, "startExport")
        .output_schema
        .clone()
        .map(|o| serde_json::Value::Object((*o).clone()))
        .unwrap();
    assert_eq!(start, json!({"type": "object"}));
    let fork = tool(&tools, "createFork")
        .output_schema
        .clone()
        .map(|o| serde_json::Value::Object((*o).clone()))
        .unwrap();
    assert!(fork["properties"].get("title").is_some(), "{fork}");
    assert!(tool(&tools, "createFork").http.lro.is_some());
    let mark = tool(&tools, "markNotificationsAsRead");
    assert!(mark.http.lro.is_some());
    let schema = mark
        .output_schema
        .clone()
        .map(|o| serde_json::Value::Object((*o).clone()))
        .unwrap();
    assert!(schema["properties"].get("message").is_some(), "{schema}");
}
