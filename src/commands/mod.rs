//! What each command of the `openapi2mcp` binary does, as library
//! functions: `main.rs` parses the arguments, loads through
//! [`crate::pipeline`], calls the command here, prints what it hands back
//! and maps it to an exit code. Keeping the work here, not in the binary,
//! lets the tests call what the CLI calls and keeps the binary a thin
//! shell.
//!
//! One file per job: [`report`] decides what a command prints of a
//! document's diagnostics, and one file per command ([`list`], [`serve`],
//! [`generate`], [`mock`], [`config`], [`lint`]).

pub mod config;
pub mod generate;
pub mod lint;
pub mod list;
pub mod mock;
pub mod report;
pub mod serve;

use crate::codegen::CodegenError;
use crate::footprint::FootprintError;
use crate::mock::MockError;
use crate::server::ServeError;

/// Why a command stopped after its document loaded. The binary prints it
/// (with its sources) and exits 1; the messages name the flag or the step
/// that failed.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// A flag's value cannot be used (`--timeout`, `--watch-interval`, a
    /// `--watch` target that cannot be watched, ...).
    #[error("{0}")]
    Invalid(String),
    /// The async runtime could not be started.
    #[error("starting the async runtime")]
    Runtime(#[source] std::io::Error),
    /// The MCP server failed to start or to serve.
    #[error(transparent)]
    Serve(#[from] ServeError),
    /// The mock backend failed to bind or to serve.
    #[error(transparent)]
    Mock(#[from] MockError),
    /// Rendering, comparing or writing a generated crate failed.
    #[error(transparent)]
    Codegen(#[from] CodegenError),
    /// The tokenizer behind `--footprint` could not be loaded.
    #[error(transparent)]
    Footprint(#[from] FootprintError),
    /// A path given on the command line could not be made absolute.
    #[error("resolving {location}")]
    Resolve {
        /// The path as given.
        location: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The JSON output could not be written.
    #[error("writing JSON to stdout")]
    Json(#[source] serde_json::Error),
    /// A report could not be serialized.
    #[error(transparent)]
    Serialize(#[from] serde_json::Error),
    /// Writing the output failed (a closed pipe, a full disk).
    #[error(transparent)]
    Io(#[from] std::io::Error),
}
