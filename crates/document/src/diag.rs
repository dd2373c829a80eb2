//! Diagnostics: problems found in a document, each naming the file, the JSON
//! pointer inside it and (when the source text is at hand) the line.
//!
//! Loading never panics on bad input; every problem becomes a [`Diagnostic`].
//! Fatal problems (unreadable file, not an OpenAPI document) are returned as
//! an error wrapping one; problems confined to one operation are collected as
//! warnings and that operation is skipped, so the rest of the API still works.

use std::fmt;

/// How bad a [`Diagnostic`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something was adjusted or skipped; the rest of the document is usable.
    Warning,
    /// The document (or a file it references) cannot be used.
    Error,
}

/// One problem in a document, located as precisely as we can.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    /// Warning or error.
    pub severity: Severity,
    /// The file path or URL of the document the problem is in.
    pub file: String,
    /// JSON pointer (RFC 6901) to the offending node; empty for the whole document.
    pub pointer: String,
    /// 1-based line in `file`, filled in when the source text was available.
    pub line: Option<usize>,
    /// What is wrong, phrased so a user can fix it.
    pub message: String,
}

impl Diagnostic {
    /// A warning at `file`/`pointer`.
    pub fn warning(
        file: impl Into<String>,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            severity: Severity::Warning,
            file: file.into(),
            pointer: pointer.into(),
            line: None,
            message: message.into(),
        }
    }

    /// An error at `file`/`pointer`.
    pub fn error(
        file: impl Into<String>,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            severity: Severity::Error,
            ..Self::warning(file, pointer, message)
        }
    }

    /// The same diagnostic with a known line number.
    pub fn at_line(mut self, line: Option<usize>) -> Self {
        self.line = line;
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{sev}: {}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if !self.pointer.is_empty() {
            write!(f, " at #{}", self.pointer)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for Diagnostic {}

pub use super::pointer::{escape_token, push_token};
