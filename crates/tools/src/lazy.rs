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
#[path = "lazy_tests.rs"]
mod tests;
