//! What a command prints of what loading found, and whether it goes on:
//! the tool builder's `report` (one policy for every command and a build
//! script), and what it reads of the served and mock pipelines' results.

use crate::document::Diagnostic;
use crate::pipeline::{Mocked, Served};

pub use crate::tools::report::{HasDiagnostics, Report, SHOWN, diagnostic_lines, report};

impl HasDiagnostics for Served {
    fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
}

impl HasDiagnostics for Mocked {
    fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
}
