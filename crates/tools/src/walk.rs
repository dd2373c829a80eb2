//! The planning walk over every operation of a document, on every core:
//! the path items are shared out in runs of about [`RUN_BYTES`] of text,
//! each run's items parsed (their outlines: what planning reads, see
//! [`Document::path_outlines`]), its operations drafted, and the items let go
//! of before the next run (see [`openapi2mcp_document::lazy`]): a large
//! document's `paths` is never held as a tree at once. Results come back
//! in document order, whatever thread drafted them.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use openapi2mcp_document::model::Operation;
use openapi2mcp_document::{Diagnostic, Document};

/// Text of path items one run parses at a time: small enough that the
/// items of every thread's run together stay a few megabytes of tree,
/// large enough that a run is worth a trip to the queue.
const RUN_BYTES: usize = 256 << 10;

/// Path items below which the walk stays on one thread.
const PARALLEL_ITEMS: usize = 64;

/// What the walk found.
pub(super) struct Walked<T> {
    /// Diagnostics of the walk (path items and parameters that cannot be
    /// read), in document order.
    pub diagnostics: Vec<Diagnostic>,
    /// Operations found (and drafted).
    pub operations: usize,
    /// Operations declared (see [`Document::declared_operations`]).
    pub declared: usize,
    /// `draft` of every operation found, in document order.
    pub drafts: Vec<T>,
}

/// One run's share of a [`Walked`].
type Run<T> = (Vec<Diagnostic>, usize, usize, Vec<T>);

/// Walks every operation of `doc` and drafts each with `draft`.
pub(super) fn draft_all<T: Send + Sync>(
    doc: &Document,
    draft: impl Fn(&Operation<'_>) -> T + Sync,
) -> Walked<T> {
    let count = doc.path_count();
    let mut runs = Vec::new();
    let (mut start, mut size) = (0, 0);
    for at in 0..count {
        size += doc.path_weight(at);
        if size >= RUN_BYTES {
            runs.push(start..at + 1);
            (start, size) = (at + 1, 0);
        }
    }
    if start < count {
        runs.push(start..count);
    }
    let walk_run = |range: std::ops::Range<usize>| -> Run<T> {
        let items = doc.path_outlines(range.clone());
        let mut diags = Vec::new();
        let ops = doc.operations_in(Some(&items), range.clone(), &mut diags);
        let declared = doc.declared_in(Some(&items), range);
        let drafts = ops.iter().map(&draft).collect();
        (diags, ops.len(), declared, drafts)
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    let done: Vec<Run<T>> = if threads == 1 || count < PARALLEL_ITEMS || runs.len() < 2 {
        runs.into_iter().map(walk_run).collect()
    } else {
        let slots: Vec<OnceLock<Run<T>>> = runs.iter().map(|_| OnceLock::new()).collect();
        let next = AtomicUsize::new(0);
        let work = || {
            loop {
                let at = next.fetch_add(1, Ordering::Relaxed);
                let Some(range) = runs.get(at) else { break };
                let _ = slots[at].set(walk_run(range.clone()));
            }
        };
        std::thread::scope(|scope| {
            let others: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
            work();
            for handle in others {
                if let Err(panic) = handle.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        });
        slots.into_iter().filter_map(OnceLock::into_inner).collect()
    };
    let mut walked = Walked {
        diagnostics: Vec::new(),
        operations: 0,
        declared: 0,
        // Sized once: grown by doubling, the drafts of Graph's 11,000
        // operations were copied about twice over on one core.
        drafts: Vec::with_capacity(done.iter().map(|run| run.3.len()).sum()),
    };
    for (diags, operations, declared, drafts) in done {
        walked.diagnostics.extend(diags);
        walked.operations += operations;
        walked.declared += declared;
        walked.drafts.extend(drafts);
    }
    walked
}

#[cfg(test)]
mod tests {
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
}
