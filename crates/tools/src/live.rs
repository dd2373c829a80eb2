//! The live server's [`SchemaSource`]: component schemas converted from the
//! loaded document when first asked for, with the same `$defs` keys the
//! tool schemas were built with. Holds the document for as long as the
//! server runs, so a resource or a full schema costs nothing until it is
//! used.

use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

use super::bundle::{BundleState, SchemaBundler};
use openapi2mcp_document::Document;
use openapi2mcp_document::dialect::Direction;
use openapi2mcp_model::schemas::{SchemaSide, SchemaSource};

/// Component schemas of a loaded document, converted on demand.
pub struct LiveSchemas {
    document: Document,
    state: Mutex<BundleState>,
    components: Vec<String>,
    json: OnceLock<Option<Arc<str>>>,
}

impl LiveSchemas {
    /// Serves `document`'s schemas, continuing the key table of the build
    /// that produced `state`.
    pub fn new(document: Document, state: BundleState) -> Self {
        let components = state.components().to_vec();
        Self {
            document,
            state: Mutex::new(state),
            components,
            json: OnceLock::new(),
        }
    }

    /// The document.
    pub fn document(&self) -> &Document {
        &self.document
    }

    /// A frozen copy of the key table and conversions so far, for
    /// building tools on other threads (see [`BundleState::frozen`]).
    pub fn frozen_state(&self) -> BundleState {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.clone().frozen()
    }

    /// Keeps the conversions a frozen copy made (see
    /// [`BundleState::absorb`]).
    pub fn absorb(&self, other: BundleState) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.absorb(other);
    }

    /// Runs `f` with a bundler over the document that continues the key
    /// table (one at a time: the table is shared), for building a tool
    /// late.
    pub fn with_bundler<T>(&self, f: impl FnOnce(&Document, &mut SchemaBundler<'_>) -> T) -> T {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let mut bundler = SchemaBundler::resume(&self.document, std::mem::take(&mut *state));
        let out = f(&self.document, &mut bundler);
        *state = bundler.into_state();
        out
    }
}

impl std::fmt::Debug for LiveSchemas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveSchemas")
            .field("component_schemas", &self.components.len())
            .finish_non_exhaustive()
    }
}

impl SchemaSource for LiveSchemas {
    fn def(&self, key: &str, side: SchemaSide) -> Option<Arc<Value>> {
        self.with_bundler(|_, bundler| {
            let direction = match side {
                SchemaSide::Input => Direction::Input,
                SchemaSide::Output => bundler.output_direction(),
                SchemaSide::Document => Direction::Document,
            };
            bundler
                .knows(key)
                .then(|| Arc::clone(&bundler.entry(key, direction).schema))
        })
    }

    fn components(&self) -> Vec<String> {
        self.components.clone()
    }

    fn document_json(&self) -> Option<Arc<str>> {
        self.json
            .get_or_init(|| self.document.to_json().map(Arc::from))
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BuildOptions, OutputSchemaMode, build_all};
    use openapi2mcp_model::schemas::component_schema;
    use serde_json::json;

    #[test]
    fn components_are_served_in_full_with_their_references() {
        let doc = Document::from_value(
            "t",
            json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {
                "Pet": {"type": "object", "required": ["id"], "properties": {
                    "id": {"type": "integer", "readOnly": true},
                    "secret": {"type": "string", "writeOnly": true},
                    "owner": {"$ref": "#/components/schemas/User"}}},
                "User": {"type": "object", "nullable": true, "properties": {"name": {"type": "string"}}}
            }}}),
        )
        .unwrap();
        let built = build_all(&doc, &BuildOptions::default());
        let live = LiveSchemas::new(doc, built.schemas);
        assert_eq!(live.components(), ["Pet", "User"]);
        let pet = component_schema("Pet", &live).unwrap();
        assert!(
            pet["properties"]["id"].is_object(),
            "readOnly kept as documented"
        );
        assert!(
            pet["properties"]["secret"].is_object(),
            "writeOnly kept as documented"
        );
        assert_eq!(pet["$defs"]["User"]["type"], json!(["object", "null"]));
        let input = live.def("Pet", SchemaSide::Input).unwrap();
        assert!(
            input["properties"].get("id").is_none(),
            "readOnly is not an input"
        );
        assert!(live.def("Nope", SchemaSide::Input).is_none());
        assert!(live.document_json().unwrap().contains("\"Pet\""));
    }

    #[test]
    fn output_defs_follow_the_output_schema_mode_of_the_build() {
        let doc = || {
            Document::from_value(
                "t",
                json!({"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {},
                    "definitions": {"User": {"type": "object", "properties": {"name": {"type": "string"}}}}}),
            )
            .unwrap()
        };
        let served = |mode: OutputSchemaMode| {
            let options = BuildOptions {
                output_schemas: mode,
                ..BuildOptions::default()
            };
            let built = build_all(&doc(), &options);
            let live = LiveSchemas::new(doc(), built.schemas);
            live.def("User", SchemaSide::Output).unwrap()
        };
        let tolerant = served(OutputSchemaMode::Full);
        assert_eq!(
            tolerant["properties"]["name"]["type"],
            json!(["string", "null"])
        );
        let strict = served(OutputSchemaMode::Strict);
        assert_eq!(strict["properties"]["name"]["type"], "string");
    }
}
