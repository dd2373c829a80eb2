//! What a command prints of what loading found, and whether it goes on:
//! warnings unless `--quiet`, at most [`SHOWN`] of them; a fatal error, or
//! the reason a document gave no tools (with the errors that say why for
//! each operation), always. One policy for `list`, `serve`, `generate`,
//! `lint`, `config`, `mock` and a build script's module.

use openapi2mcp_document::{Diagnostic, Severity};

use crate::pipeline::{Loaded, PipelineError};

/// How many diagnostics are printed before a count of the rest: a large
/// document can have thousands, and the first ones say what kind they are.
pub const SHOWN: usize = 20;

/// What loading handed back: a catalog (and, in the `openapi2mcp`
/// crate, a planned catalog or a mock).
pub trait HasDiagnostics {
    /// Every diagnostic found, located.
    fn diagnostics(&self) -> &[Diagnostic];
}

impl HasDiagnostics for Loaded {
    fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
}

/// A pipeline result, sorted into what to print and what to go on with.
#[derive(Debug)]
pub struct Report<T> {
    /// The lines to print on stderr, in order.
    pub lines: Vec<String>,
    /// What loaded; `None` when the command must stop (exit 1).
    pub loaded: Option<T>,
}

/// Sorts `result` into the lines to print (warnings only when not
/// `quiet`) and the loaded value, if the command can go on.
pub fn report<T: HasDiagnostics>(result: Result<T, PipelineError>, quiet: bool) -> Report<T> {
    match result {
        Ok(loaded) => Report {
            lines: if quiet {
                Vec::new()
            } else {
                diagnostic_lines(loaded.diagnostics())
            },
            loaded: Some(loaded),
        },
        Err(PipelineError::Load(fatal)) => Report {
            lines: vec![fatal.to_string()],
            loaded: None,
        },
        Err(PipelineError::NoTools {
            summary,
            diagnostics,
            ..
        }) => {
            let errors: Vec<Diagnostic> = diagnostics
                .into_iter()
                .filter(|d| !quiet || d.severity == Severity::Error)
                .collect();
            let mut lines = diagnostic_lines(&errors);
            lines.push(summary.to_string());
            Report {
                lines,
                loaded: None,
            }
        }
    }
}

/// The first [`SHOWN`] diagnostics, then how many more there are and how
/// many of those are errors.
pub fn diagnostic_lines(diags: &[Diagnostic]) -> Vec<String> {
    let mut lines: Vec<String> = diags.iter().take(SHOWN).map(ToString::to_string).collect();
    if diags.len() > SHOWN {
        let errors = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        lines.push(format!(
            "... and {} more ({} errors); use --quiet to hide warnings",
            diags.len() - SHOWN,
            errors
        ));
    }
    lines
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
