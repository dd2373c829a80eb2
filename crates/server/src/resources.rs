//! The API description served as MCP resources: the document, each
//! component schema in full, and each tool's full input and output schema
//! (what budgeted tool schemas point to).

use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResourceContents,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::json;

use super::Bridge;
use openapi2mcp_runtime::call::Missing;
use openapi2mcp_runtime::schemas::{
    DOCUMENT_URI, SchemaResource, component_schema, schema_uri, tool_schema_uri,
};

impl Bridge {
    pub(super) async fn resources_page(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let this = self.fresh();
        const PAGE: usize = 500;
        let names = this.inner.api.components();
        // Entry 0 is the document (when there is one), then the components.
        let document = this.inner.api.document_json().is_some();
        let total = names.len() + usize::from(document);
        let start = match request.and_then(|r| r.cursor) {
            None => 0,
            Some(c) => c
                .parse::<usize>()
                .ok()
                .filter(|i| *i < total.max(1))
                .ok_or_else(|| McpError::invalid_params(format!("invalid cursor `{c}`"), None))?,
        };
        let end = (start + PAGE).min(total);
        let mut items = Vec::with_capacity(end - start);
        for i in start..end {
            let v = if document && i == 0 {
                json!({
                    "uri": DOCUMENT_URI,
                    "name": "openapi-document",
                    "title": format!("{} API description", this.inner.title),
                    "description": "The OpenAPI description these tools were made from, as loaded (Swagger 2.0 upgraded to OpenAPI 3.0; webhooks left out).",
                    "mimeType": "application/json",
                })
            } else {
                let key = &names[i - usize::from(document)];
                json!({
                    "uri": schema_uri(key),
                    "name": key,
                    "description": format!("JSON Schema (2020-12) of the `{key}` component, with every schema it references."),
                    "mimeType": "application/schema+json",
                })
            };
            if let Ok(r) = serde_json::from_value(v) {
                items.push(r);
            }
        }
        let mut result = ListResourcesResult::with_all_items(items);
        result.next_cursor = (end < total).then(|| end.to_string());
        let hints = this.resource_hints();
        result.ttl_ms = Some(hints.ttl_ms);
        result.cache_scope = Some(hints.scope);
        this.stamp(&mut result.meta, &context);
        Ok(result)
    }

    pub(super) async fn resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        let templates = [
            json!({
                "uriTemplate": "openapi2mcp://schemas/{name}",
                "name": "component-schema",
                "description": "The full JSON Schema (2020-12) of one component schema of the API description, with every schema it references.",
                "mimeType": "application/schema+json",
            }),
            json!({
                "uriTemplate": "openapi2mcp://tools/{tool}/input-schema",
                "name": "tool-input-schema",
                "description": "The full input schema of a tool, where its listed inputSchema summarizes nested objects.",
                "mimeType": "application/schema+json",
            }),
            json!({
                "uriTemplate": "openapi2mcp://tools/{tool}/output-schema",
                "name": "tool-output-schema",
                "description": "The full output schema of a tool, where its listed outputSchema summarizes nested objects.",
                "mimeType": "application/schema+json",
            }),
        ];
        let items = templates
            .into_iter()
            .filter_map(|t| serde_json::from_value(t).ok())
            .collect();
        let mut result = ListResourceTemplatesResult::with_all_items(items);
        let hints = self.resource_hints();
        result.ttl_ms = Some(hints.ttl_ms);
        result.cache_scope = Some(hints.scope);
        self.stamp(&mut result.meta, &context);
        Ok(result)
    }

    pub(super) async fn read_one(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let this = self.fresh();
        let uri = request.uri;
        let api = &this.inner.api;
        let not_found = |why: String| McpError::resource_not_found(why, Some(json!({"uri": uri})));
        let (text, mime) = match SchemaResource::parse(&uri) {
            None if uri == super::app_review::REVIEW_URI => (
                super::app_review::REVIEW_HTML.to_string(),
                super::app_review::APP_MIME,
            ),
            Some(SchemaResource::Document) => match api.document_json() {
                Some(text) => (text.to_string(), "application/json"),
                None => {
                    return Err(not_found(
                        "this server does not carry its API description".into(),
                    ));
                }
            },
            Some(SchemaResource::Component(key)) => {
                let found = api
                    .component_source(&key)
                    .and_then(|(source, own)| component_schema(own, source));
                let schema = found.ok_or_else(|| {
                    not_found(format!(
                        "no component schema `{key}`; resources/list names them all"
                    ))
                })?;
                (schema.to_string(), "application/schema+json")
            }
            Some(SchemaResource::ToolInput(name) | SchemaResource::ToolOutput(name)) => {
                let output = uri.ends_with("/output-schema");
                let tool = api.find(&name).map_err(|missing| match missing {
                    Missing::Unknown => not_found(format!("no tool `{name}`")),
                    Missing::Broken(why) => {
                        not_found(format!("tool `{name}` cannot be served: {why}"))
                    }
                })?;
                let schema = api
                    .full_schema(tool, output)
                    .ok_or_else(|| not_found(format!("tool `{name}` has no output schema")))?;
                (schema.to_string(), "application/schema+json")
            }
            None => {
                return Err(not_found(format!(
                    "unknown resource `{uri}`: this server serves {DOCUMENT_URI}, openapi2mcp://schemas/{{name}} and {}",
                    tool_schema_uri("{tool}", false)
                )));
            }
        };
        let hints = this.resource_hints();
        let mut result =
            ReadResourceResult::new(vec![ResourceContents::text(text, uri).with_mime_type(mime)])
                .with_ttl_ms(hints.ttl_ms)
                .with_cache_scope(hints.scope);
        this.stamp(&mut result.meta, &context);
        Ok(result.into())
    }
}
