//! The live server's [`ToolSource`]: each planned tool built from the
//! loaded document the first time a client needs it (listed, described
//! or called), continuing the one schema-key table the resources use, so
//! a tool built late names its `$defs` exactly as one built at start-up.
//!
//! A whole list (`--tools full`) is built on every core: each thread
//! builds tools with a frozen copy of the key table (see
//! [`super::bundle::BundleState::frozen`]); the few tools that reference a
//! schema without a key yet (a name is only known once the keys assigned
//! before it are) are built again afterwards, in tool order, with the
//! shared table. Keys are assigned in the same order as a build of every
//! tool one by one, so the tools are the same, byte for byte.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::live::LiveSchemas;
use super::{BuildOptions, Planned, Site, complete, complete_in};
use openapi2mcp_document::model::PathItems;
use openapi2mcp_model::catalog::{ToolDef, ToolHead, ToolSource};

/// Tools below which a list is built on one thread: a thread costs more
/// than a few dozen tools.
const PARALLEL_TOOLS: usize = 64;

/// Tools a thread takes at a time from the shared queue: small enough to
/// even out tools of very different sizes, large enough that the queue is
/// not contended.
const BATCH: usize = 16;

/// Planned tools of one document, built on demand.
pub struct LazyTools {
    schemas: Arc<LiveSchemas>,
    /// The tools' heads, shared with the catalog (see [`LazyTools::heads`]).
    heads: Arc<Vec<ToolHead>>,
    /// Each tool's path and method.
    places: Vec<(String, String)>,
    options: BuildOptions,
}

impl LazyTools {
    /// Builds `planned` (from [`super::plan`] over `schemas`' document)
    /// with `options` when asked.
    pub fn new(schemas: Arc<LiveSchemas>, planned: Vec<Planned>, options: BuildOptions) -> Self {
        let (heads, places) = planned
            .into_iter()
            .map(|p| (p.head, (p.path, p.method)))
            .unzip();
        Self {
            schemas,
            heads: Arc::new(heads),
            places,
            options,
        }
    }

    /// The heads of the tools, in order: the catalog's, shared rather than
    /// copied (11,000 heads of Microsoft Graph took 11 ms to copy).
    pub fn heads(&self) -> Arc<Vec<ToolHead>> {
        Arc::clone(&self.heads)
    }

    /// Tool `index` as [`super::complete`] reads it.
    fn site(&self, index: usize) -> Option<Site<'_>> {
        let (path, method) = self.places.get(index)?;
        Some(Site {
            head: self.heads.get(index)?,
            path,
            method,
        })
    }
}

impl ToolSource for LazyTools {
    fn build(&self, index: usize) -> Result<ToolDef, String> {
        let planned = self
            .site(index)
            .ok_or_else(|| format!("no tool number {index}"))?;
        self.schemas.with_bundler(|doc, bundler| {
            let mut warnings = Vec::new();
            let built = complete(doc, &planned, &self.options, bundler, &mut warnings);
            warnings.extend(bundler.take_diagnostics());
            for w in &warnings {
                tracing::debug!(target: "openapi2mcp::tools::lazy", tool = %planned.head.name, "{w}");
            }
            built.map_err(|d| d.to_string())
        })
    }

    fn build_each(
        &self,
        indices: &[usize],
        sink: &(dyn Fn(usize, Result<ToolDef, String>) + Sync),
    ) {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
        if threads == 1 || indices.len() < PARALLEL_TOOLS {
            for &index in indices {
                sink(index, self.build(index));
            }
            return;
        }
        let frozen = self.schemas.frozen_state();
        let next = AtomicUsize::new(0);
        // Positions in `indices` of the tools a frozen table could not
        // build.
        let missed = Mutex::new(Vec::new());
        let work = || {
            let doc = self.schemas.document();
            let mut bundler = super::bundle::SchemaBundler::resume(doc, frozen.clone());
            let mut warnings = Vec::new();
            // The path item of the tools just built: the tools of one path
            // are next to each other.
            let mut item: Option<(&str, PathItems)> = None;
            loop {
                let start = next.fetch_add(BATCH, Ordering::Relaxed);
                if start >= indices.len() {
                    break;
                }
                for (at, &index) in indices.iter().enumerate().skip(start).take(BATCH) {
                    let Some(planned) = self.site(index) else {
                        sink(index, Err(format!("no tool number {index}")));
                        continue;
                    };
                    let mark = bundler.begin_tool();
                    warnings.clear();
                    if item.as_ref().is_none_or(|(path, _)| *path != planned.path) {
                        item = Some((planned.path, doc.path_item(planned.path)));
                    }
                    let Some((_, parsed)) = &item else { continue };
                    let built = complete_in(
                        doc,
                        parsed,
                        &planned,
                        &self.options,
                        &mut bundler,
                        &mut warnings,
                    );
                    if !bundler.end_tool(mark) {
                        missed.lock().unwrap_or_else(|e| e.into_inner()).push(at);
                        continue;
                    }
                    for w in warnings.iter().chain(&bundler.take_diagnostics()) {
                        tracing::debug!(target: "openapi2mcp::tools::lazy", tool = %planned.head.name, "{w}");
                    }
                    sink(index, built.map_err(|d| d.to_string()));
                }
            }
            bundler.into_state()
        };
        let states = std::thread::scope(|scope| {
            let others: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
            let mut states = vec![work()];
            for handle in others {
                match handle.join() {
                    Ok(state) => states.push(state),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            states
        });
        // Let go of before the threads' states are absorbed: the last of
        // them then holds the fitted results alone and hands them to a
        // thread of their own (see `BundleState::absorb`); held to the end
        // here, they were freed on this thread (7 ms for Graph) before
        // the list could be answered.
        drop(frozen);
        for state in states {
            self.schemas.absorb(state);
        }
        let mut missed = missed.into_inner().unwrap_or_else(|e| e.into_inner());
        missed.sort_unstable();
        // Logged under the `openapi2mcp` target, as when this was the
        // program's own module, so `--log openapi2mcp=debug` shows it.
        tracing::debug!(
            target: "openapi2mcp::tools::lazy",
            tools = indices.len(),
            threads,
            rebuilt_in_order = missed.len(),
            "tools built on every core"
        );
        for at in missed {
            sink(indices[at], self.build(indices[at]));
        }
    }

    fn rebuilds(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
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
        let doc =
            json!({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths});
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
}
