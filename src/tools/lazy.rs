//! The live server's [`ToolSource`]: each planned tool built from the
//! loaded document the first time a client needs it (listed, described
//! or called), continuing the one schema-key table the resources use, so
//! a tool built late names its `$defs` exactly as one built at start-up.

use std::sync::Arc;

use super::live::LiveSchemas;
use super::{BuildOptions, Planned, complete};
use crate::runtime::catalog::{ToolDef, ToolSource};

/// Planned tools of one document, built on demand.
pub struct LazyTools {
    schemas: Arc<LiveSchemas>,
    planned: Vec<Planned>,
    options: BuildOptions,
}

impl LazyTools {
    /// Builds `planned` (from [`super::plan`] over `schemas`' document)
    /// with `options` when asked.
    pub fn new(schemas: Arc<LiveSchemas>, planned: Vec<Planned>, options: BuildOptions) -> Self {
        Self {
            schemas,
            planned,
            options,
        }
    }
}

impl ToolSource for LazyTools {
    fn build(&self, index: usize) -> Result<ToolDef, String> {
        let planned = self
            .planned
            .get(index)
            .ok_or_else(|| format!("no tool number {index}"))?;
        self.schemas.with_bundler(|doc, bundler| {
            let mut warnings = Vec::new();
            let built = complete(doc, planned, &self.options, bundler, &mut warnings);
            warnings.extend(bundler.take_diagnostics());
            for w in &warnings {
                tracing::debug!(tool = %planned.head.name, "{w}");
            }
            built.map_err(|d| d.to_string())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;
    use crate::tools::bundle::SchemaBundler;
    use crate::tools::{build_all, plan};
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
}
