//! The `build.rs` way in: a crate's build script turns an OpenAPI document
//! into a module of MCP tools in `OUT_DIR`, regenerated whenever the
//! document changes, so the crate never holds generated code at all; its
//! own sources `include!` the module and implement its `Hooks` trait.
//!
//! ```ignore
//! // build.rs
//! fn main() {
//!     openapi2mcp_codegen::build::Builder::new("petstore.yaml")
//!         .module_dir("petstore")
//!         .generate()
//!         .unwrap_or_else(|e| panic!("{e}"));
//! }
//! // src/main.rs
//! mod petstore {
//!     include!(concat!(env!("OUT_DIR"), "/petstore/mod.rs"));
//! }
//! struct Mine;
//! impl petstore::operations::Hooks for Mine {}
//! fn main() -> std::process::ExitCode {
//!     petstore::main_with(Mine)
//! }
//! ```
//!
//! The crate depends on `openapi2mcp-runtime`, `openapi2mcp-server`,
//! `serde` (`derive`) and `serde_json`,
//! and has `openapi2mcp-codegen` as a build dependency (not `openapi2mcp`,
//! which would compile the whole program for the build script).
//! `examples/build-rs/` in this repository is such a crate.

use std::path::PathBuf;

use crate::module::{MODULE_FILE, generate_module};
use crate::{CodegenError, GenerateOptions, GeneratedCrate};
use openapi2mcp_model::schemas::Schemas;
use openapi2mcp_tools::pipeline::{self, PipelineOptions};
use openapi2mcp_tools::report::report;

/// Why a build script could not generate the module.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The document (or an overlay, or an Arazzo file) could not be read
    /// into tools: the located diagnostics, one per line.
    #[error("openapi2mcp: {location} gave no tools:\n{report}")]
    Document {
        /// The document's path or URL.
        location: String,
        /// What loading found, as `openapi2mcp generate` prints it.
        report: String,
    },
    /// `OUT_DIR` is not set (not running as a build script) and no
    /// directory was given.
    #[error("openapi2mcp: OUT_DIR is not set: call generate() from build.rs, or give out_dir()")]
    NoOutDir,
    /// Rendering or writing the module failed.
    #[error("openapi2mcp: {0}")]
    Codegen(#[from] CodegenError),
}

/// What to generate, and where; [`Builder::generate`] does it.
#[derive(Debug, Clone)]
pub struct Builder {
    spec: String,
    dir: String,
    out_dir: Option<PathBuf>,
    pipeline: PipelineOptions,
}

impl Builder {
    /// The document at `spec` (a path relative to the crate, as build
    /// scripts run there, or a URL with this crate's `fetch` feature), into
    /// `OUT_DIR/api/`.
    pub fn new(spec: impl Into<String>) -> Self {
        Self {
            spec: spec.into(),
            dir: "api".into(),
            out_dir: None,
            pipeline: PipelineOptions::default(),
        }
    }

    /// The directory under `OUT_DIR` (letters, digits, `_`, `-`): one per
    /// API when a crate serves several.
    pub fn module_dir(mut self, dir: impl Into<String>) -> Self {
        self.dir = dir.into();
        self
    }

    /// An OpenAPI Overlay applied to the document first (repeatable, in
    /// order), as `generate --overlay`.
    pub fn overlay(mut self, path: impl Into<String>) -> Self {
        self.pipeline.load.overlays.push(path.into());
        self
    }

    /// Everything else `generate` takes on its command line (selection,
    /// schema budgets, output schemas, Arazzo workflows).
    pub fn pipeline(mut self, options: PipelineOptions) -> Self {
        let overlays = std::mem::take(&mut self.pipeline.load.overlays);
        self.pipeline = options;
        self.pipeline.load.overlays.splice(0..0, overlays);
        self
    }

    /// Writes somewhere other than `OUT_DIR` (tests, tools).
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Loads the document, builds its tools and writes the module (files
    /// rewritten only when they changed, so nothing recompiles needlessly).
    /// As a build script should, prints `cargo:rerun-if-changed` for the
    /// local files read and `cargo:warning` for what loading warned about.
    /// Returns the module file to `include!`.
    pub fn generate(self) -> Result<PathBuf, BuildError> {
        let out_dir = match self.out_dir {
            Some(dir) => dir,
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(BuildError::NoOutDir)?,
        };
        for file in std::iter::once(&self.spec)
            .chain(&self.pipeline.load.overlays)
            .chain(&self.pipeline.arazzo)
        {
            if !file.contains("://") {
                println!("cargo:rerun-if-changed={file}");
            }
        }
        // The document's `components.examples` are left out, as `serve`
        // and `generate` leave them (only the mock reads them): kept, they
        // reached 24 of GitHub's input schemas as `examples`, and the
        // module's tools differed from the crate's (issue #47).
        let mut pipeline = self.pipeline.clone();
        pipeline.load.keep_examples = false;
        // With the `fetch` feature a URL is read with reqwest; without it
        // the reader says it reads no URLs.
        #[cfg(feature = "fetch")]
        let pipeline = &PipelineOptions {
            load: openapi2mcp_document::fetch::with_http(&pipeline.load).into_owned(),
            ..pipeline
        };
        #[cfg(not(feature = "fetch"))]
        let pipeline = &pipeline;
        let report = report(pipeline::load_catalog(&self.spec, pipeline), false);
        let Some(loaded) = report.loaded else {
            return Err(BuildError::Document {
                location: self.spec,
                report: report.lines.join("\n"),
            });
        };
        for line in &report.lines {
            println!("cargo:warning={line}");
        }
        let options = GenerateOptions {
            package: None,
            templates: None,
            schemas: Schemas(loaded.schemas),
            // Not written: the module names the crates, the crate's own
            // Cargo.toml says where they come from.
            runtime: crate::RuntimeSource::Registry,
        };
        let files = generate_module(&loaded.catalog, &options, &self.dir)?;
        let dir = out_dir.join(&self.dir);
        let module = GeneratedCrate {
            package: self.dir,
            files,
        };
        module.write_to(&dir)?;
        Ok(dir.join(MODULE_FILE))
    }
}

/// [`Builder::new`]`(spec).module_dir(dir).generate()`: the usual build
/// script in one call.
pub fn generate(spec: &str, dir: &str) -> Result<PathBuf, BuildError> {
    Builder::new(spec).module_dir(dir).generate()
}
