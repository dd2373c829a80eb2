//! The sequence every user of the built tools runs, in one place: load the
//! document, build the catalog (and an Arazzo document's workflows), refuse
//! a catalog with no tools (saying what became of each operation), point
//! every diagnostic at its file line, and let go of the source text.
//! [`load_catalog`] builds every tool up front (`list`, `generate`, `lint`,
//! `config`, a build script's module); the `openapi2mcp` crate's
//! `pipeline` adds the served (planned) and mock entries.
//!
//! URLs are read with the HTTP client of [`LoadOptions::http`]: none, and
//! only files are read.

use std::sync::Arc;

use openapi2mcp_document::{self as document, Diagnostic, Document, LoadOptions};
use openapi2mcp_model::catalog::Catalog;

use crate::live::LiveSchemas;
use crate::{BuildOptions, BuildStats};

/// How to load and build.
#[derive(Debug, Clone, Default)]
pub struct PipelineOptions {
    /// Reading the document.
    pub load: LoadOptions,
    /// Turning it into tools.
    pub build: BuildOptions,
    /// Arazzo documents whose workflows become tools after the
    /// document's (see [`crate::arazzo`]).
    pub arazzo: Vec<String>,
}

/// A built catalog, the document it came from and what was found on the
/// way (warnings, and errors confined to single operations).
#[derive(Debug)]
pub struct Loaded {
    /// The tools.
    pub catalog: Catalog,
    /// The document (its source text dropped) and the full schemas behind
    /// budgeted tools: what the server's resources serve.
    pub schemas: Arc<LiveSchemas>,
    /// Every diagnostic, located (file, pointer, line).
    pub diagnostics: Vec<Diagnostic>,
    /// What became of the operations.
    pub stats: BuildStats,
}

impl Loaded {
    /// The loaded document.
    pub fn document(&self) -> &Document {
        self.schemas.document()
    }
}

/// Why there is no catalog to serve.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// The document cannot be read or is not an OpenAPI document.
    #[error("{0}")]
    Load(Box<Diagnostic>),
    /// The document loaded, but not one operation became a tool. The
    /// diagnostics say why for each operation that failed.
    #[error("{summary}")]
    NoTools {
        /// The error naming the document and the reason.
        summary: Box<Diagnostic>,
        /// Every diagnostic found, located.
        diagnostics: Vec<Diagnostic>,
        /// What became of the operations.
        stats: BuildStats,
    },
}

/// Loads `location` (path or URL) and builds its tool catalog.
pub fn load_catalog(location: &str, options: &PipelineOptions) -> Result<Loaded, PipelineError> {
    let (mut document, mut diagnostics) =
        document::load(location, &options.load).map_err(|d| PipelineError::Load(Box::new(d)))?;
    let built = crate::build_all(&document, &options.build);
    let (mut catalog, stats) = (built.catalog, built.stats);
    let start = diagnostics.len();
    diagnostics.extend(built.diagnostics);
    for file in &options.arazzo {
        let (workflows, found) = crate::arazzo::workflows(file, &catalog.tools)
            .map_err(|d| PipelineError::Load(Box::new(d)))?;
        catalog.tools.extend(workflows);
        diagnostics.extend(found);
    }
    document.locate(&mut diagnostics[start..]);
    document.drop_sources();
    let schemas = Arc::new(LiveSchemas::new(document, built.schemas));
    if catalog.tools.is_empty() {
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
    Ok(Loaded {
        catalog,
        schemas,
        diagnostics,
        stats,
    })
}

/// One sentence accounting for every operation of a document that gave no
/// tools.
pub fn no_tools_reason(stats: &BuildStats) -> String {
    if stats.operations == 0 {
        return "the document yields no tools: it defines no operations under `paths` (or none whose path item could be read; see the errors above)".into();
    }
    let mut parts = Vec::new();
    if stats.failed > 0 {
        parts.push(format!(
            "{} could not be made into a tool (each error above names the operation and the problem)",
            stats.failed
        ));
    }
    if stats.excluded > 0 {
        parts.push(format!(
            "{} {} excluded by `x-mcp: {{exclude: true}}`",
            stats.excluded,
            if stats.excluded == 1 { "is" } else { "are" }
        ));
    }
    if stats.unselected > 0 {
        parts.push(format!(
            "{} did not match the selection (--tag, --operation, --method, --path, --read-only and their --exclude-* forms)",
            stats.unselected
        ));
    }
    format!(
        "the document yields no tools: of its {} operation{}, {}",
        stats.operations,
        if stats.operations == 1 { "" } else { "s" },
        parts.join("; ")
    )
}

#[cfg(test)]
#[path = "pipeline_tests.rs"]
mod tests;
