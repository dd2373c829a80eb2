//! `generate`: a loaded catalog rendered into a standalone crate, written
//! to a directory or (with `--check`) compared with the crate there.

use std::path::PathBuf;
use std::sync::Arc;

use super::CommandError;
use crate::codegen::{self, Difference, GenerateOptions};
use crate::runtime::schemas::Schemas;
use crate::tools::Catalog;
use crate::tools::live::LiveSchemas;

/// Where and how to generate.
#[derive(Debug, Clone)]
pub struct GenerateCommand {
    /// Directory of the crate (created if needed).
    pub out: PathBuf,
    /// Cargo package name (default: the API title as a slug plus `-mcp`).
    pub package: Option<String>,
    /// Directory of template overrides.
    pub templates: Option<PathBuf>,
    /// Compare with the crate in `out` instead of writing.
    pub check: bool,
    /// Where the crate gets the runtime and server crates from.
    pub runtime: codegen::RuntimeSource,
}

/// What generating did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Generated {
    /// `--check`: the crate on disk is what would be generated.
    UpToDate,
    /// `--check`: the crate on disk differs.
    Stale {
        /// How, file by file.
        differences: Vec<Difference>,
        /// How many files the crate has.
        files: usize,
    },
    /// The crate was written.
    Written {
        /// How many tools it serves.
        tools: usize,
        /// How many files it has.
        files: usize,
        /// How many of them changed on disk.
        changed: usize,
    },
}

/// Renders `catalog` (with the full schemas of `schemas`) and writes or
/// checks the crate; `progress(done, total)` follows the rendering of the
/// modules.
pub fn run(
    catalog: &Catalog,
    schemas: Arc<LiveSchemas>,
    command: &GenerateCommand,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Generated, CommandError> {
    let options = GenerateOptions {
        package: command.package.clone(),
        templates: command.templates.clone(),
        schemas: Schemas(schemas),
        runtime: command.runtime.clone(),
    };
    let generated = codegen::generate(catalog, &options, progress)?;
    // The user's overrides of tools that left the document, named before
    // they build (the crate will not compile with them).
    for stale in generated.stale_overrides(&command.out) {
        tracing::warn!("{}: {stale}", command.out.display());
    }
    if command.check {
        let differences = generated.compare_with(&command.out)?;
        return Ok(if differences.is_empty() {
            Generated::UpToDate
        } else {
            Generated::Stale {
                differences,
                files: generated.files.len(),
            }
        });
    }
    let changed = generated.write_to(&command.out)?;
    Ok(Generated::Written {
        tools: catalog.tools.len(),
        files: generated.files.len(),
        changed: changed.len(),
    })
}
