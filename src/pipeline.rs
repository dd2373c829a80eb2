//! The sequence every user of the tool model runs, in one place: load the
//! document, build the catalog, refuse a catalog with no tools (saying what
//! became of each operation), point every diagnostic at its file line, and
//! let go of the source text.
//!
//! Three entries, one per kind of caller, so none re-assembles the steps
//! (and forgets one of them): [`load_catalog`] builds every tool up front
//! (`list`, `generate`, `lint`, `config` and the tests; the tool builder's
//! own, with URLs read by reqwest), [`load_served`] plans them and builds
//! each on first use (`serve` and its reloads), and [`load_mock`] builds
//! the mock backend's route table (`mock` and the tests of the mock).

use std::borrow::Cow;
use std::sync::Arc;

use crate::document::fetch;
use crate::document::{self, Diagnostic, LoadOptions};
use crate::mock::{MockOptions, MockServer};
use crate::runtime::catalog::LazyCatalog;
use crate::tools::lazy::LazyTools;
use crate::tools::live::LiveSchemas;
use crate::tools::{self, BuildStats};

pub use crate::tools::pipeline::{Loaded, PipelineError, PipelineOptions, no_tools_reason};

/// Loads `location` (path or URL) and builds its tool catalog (see
/// [`tools::pipeline::load_catalog`]), reading URLs with reqwest.
pub fn load_catalog(location: &str, options: &PipelineOptions) -> Result<Loaded, PipelineError> {
    match fetch::with_http(&options.load) {
        Cow::Borrowed(_) => tools::pipeline::load_catalog(location, options),
        Cow::Owned(load) => tools::pipeline::load_catalog(
            location,
            &PipelineOptions {
                load,
                ..options.clone()
            },
        ),
    }
}

/// A catalog to serve: every tool planned (named, described, selected),
/// each built when a client first needs it.
#[derive(Debug)]
pub struct Served {
    /// The tools' heads, and where their definitions come from.
    pub catalog: LazyCatalog,
    /// The document and the schemas behind budgeted tools.
    pub schemas: Arc<LiveSchemas>,
    /// Every diagnostic of loading and planning, located. Building a tool
    /// later logs its own warnings (without lines: the source text is
    /// gone by then).
    pub diagnostics: Vec<Diagnostic>,
    /// What became of the operations while planning.
    pub stats: BuildStats,
}

/// Loads `location` and plans its tools for a server, building none of
/// them: start-up cost follows the number of operations, not the size of
/// their schemas. An operation whose request body cannot be followed is
/// found out when its tool is first built (listed in `full` mode,
/// described or called), and says so then.
pub fn load_served(location: &str, options: &PipelineOptions) -> Result<Served, PipelineError> {
    if !options.arazzo.is_empty() {
        // Workflows are made from built tools (their steps' bindings).
        let loaded = load_catalog(location, options)?;
        return Ok(Served {
            catalog: loaded.catalog.into_lazy(),
            schemas: loaded.schemas,
            diagnostics: loaded.diagnostics,
            stats: loaded.stats,
        });
    }
    let started = std::time::Instant::now();
    let (mut document, mut diagnostics) =
        document::load(location, &fetch::with_http(&options.load))
            .map_err(|d| PipelineError::Load(Box::new(d)))?;
    let loaded = started.elapsed();
    let plan = tools::plan(&document, &options.build);
    tracing::debug!(
        load_ms = loaded.as_millis() as u64,
        plan_ms = (started.elapsed() - loaded).as_millis() as u64,
        tools = plan.tools.len(),
        "document loaded and tools planned"
    );
    let stats = plan.stats;
    let start = diagnostics.len();
    diagnostics.extend(plan.diagnostics);
    document.locate(&mut diagnostics[start..]);
    document.drop_sources();
    if plan.tools.is_empty() {
        let summary = Box::new(Diagnostic::error(
            document::shown_location(location),
            "",
            no_tools_reason(&stats),
        ));
        return Err(PipelineError::NoTools {
            summary,
            diagnostics,
            stats,
        });
    }
    let state = options.build.bundler(&document).into_state();
    let schemas = Arc::new(LiveSchemas::new(document, state));
    let info = plan.info;
    let source = LazyTools::new(Arc::clone(&schemas), plan.tools, options.build.clone());
    let heads = source.heads();
    Ok(Served {
        catalog: LazyCatalog {
            title: info.title,
            version: info.version,
            description: info.description,
            security_schemes: info.security_schemes,
            tag_parents: info.tag_parents,
            heads,
            source: Arc::new(source),
        },
        schemas,
        diagnostics,
        stats,
    })
}

/// A mock backend ready to serve, and what was found building it.
pub struct Mocked {
    /// The route table, answering requests without the document.
    pub server: MockServer,
    /// Every diagnostic of loading and of building the routes, located.
    pub diagnostics: Vec<Diagnostic>,
}

/// Loads `location` with its examples (whatever `load.keep_examples`
/// says: the mock answers from them) and builds the mock backend's route
/// table; the document is let go of once the table holds what it needs.
/// Only an unreadable document is an error: a document without
/// operations gives a mock that answers every request with 404.
pub fn load_mock(
    location: &str,
    load: &LoadOptions,
    options: MockOptions,
) -> Result<Mocked, PipelineError> {
    let load = LoadOptions {
        keep_examples: true,
        ..load.clone()
    };
    let (document, mut diagnostics) = document::load(location, &fetch::with_http(&load))
        .map_err(|d| PipelineError::Load(Box::new(d)))?;
    let (server, more) = MockServer::new(&document, options);
    let start = diagnostics.len();
    diagnostics.extend(more);
    document.locate(&mut diagnostics[start..]);
    Ok(Mocked {
        server,
        diagnostics,
    })
}

#[cfg(test)]
#[path = "pipeline_tests.rs"]
mod tests;
