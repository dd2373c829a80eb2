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
#[path = "live_tests.rs"]
mod tests;
