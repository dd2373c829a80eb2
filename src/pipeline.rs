//! The sequence every user of the tool model runs, in one place: load the
//! document, build the catalog, refuse a catalog with no tools (saying what
//! became of each operation), point every diagnostic at its file line, and
//! let go of the source text.
//!
//! Three entries, one per kind of caller, so none re-assembles the steps
//! (and forgets one of them): [`load_catalog`] builds every tool up front
//! (`list`, `generate`, `lint`, `config` and the tests), [`load_served`]
//! plans them and builds each on first use (`serve` and its reloads), and
//! [`load_mock`] builds the mock backend's route table (`mock` and the
//! tests of the mock).

use std::sync::Arc;

use crate::document::{self, Diagnostic, Document, LoadOptions};
use crate::fetch;
use crate::mock::{MockOptions, MockServer};
use crate::runtime::catalog::{Catalog, LazyCatalog};
use crate::tools::lazy::LazyTools;
use crate::tools::live::LiveSchemas;
use crate::tools::{self, BuildOptions, BuildStats};

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
        document::load(location, &fetch::with_http(&options.load))
            .map_err(|d| PipelineError::Load(Box::new(d)))?;
    let built = tools::build_all(&document, &options.build);
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
mod tests {
    use super::*;

    /// The mock answers from `components.examples` even when the caller's
    /// load options would prune them, and its diagnostics carry lines.
    #[test]
    fn the_mock_loads_its_examples_and_locates_its_diagnostics() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("api.yaml");
        std::fs::write(
            &path,
            r#"openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object}
              examples:
                rex: {$ref: '#/components/examples/Rex'}
  /broken:
    get:
      parameters: [{$ref: '#/components/parameters/Missing'}]
      responses: {'200': {description: ok}}
components:
  examples:
    Rex: {value: {name: Rex}}
"#,
        )
        .unwrap();
        let load = LoadOptions {
            keep_examples: false,
            ..LoadOptions::default()
        };
        let mocked = match load_mock(path.to_str().unwrap(), &load, MockOptions::default()) {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        };
        let answer = mocked
            .server
            .respond(&crate::mock::MockRequest::new("GET", "/pets"));
        assert_eq!(answer.json(), Some(serde_json::json!({"name": "Rex"})));
        assert!(
            mocked
                .diagnostics
                .iter()
                .any(|d| d.message.contains("Missing") && d.line == Some(16)),
            "{:?}",
            mocked.diagnostics
        );
        let missing = dir.path().join("missing.yaml");
        assert!(matches!(
            load_mock(missing.to_str().unwrap(), &load, MockOptions::default()),
            Err(PipelineError::Load(_))
        ));
    }

    #[test]
    fn reasons_account_for_every_operation() {
        let none = BuildStats::default();
        assert!(no_tools_reason(&none).contains("defines no operations"));
        let mixed = BuildStats {
            operations: 4,
            failed: 2,
            excluded: 1,
            unselected: 1,
            ..BuildStats::default()
        };
        let text = no_tools_reason(&mixed);
        assert!(text.contains("of its 4 operations"), "{text}");
        assert!(text.contains("2 could not be made into a tool"), "{text}");
        assert!(text.contains("1 is excluded by `x-mcp"), "{text}");
        assert!(text.contains("1 did not match the selection"), "{text}");
    }
}
