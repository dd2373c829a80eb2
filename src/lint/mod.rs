//! `openapi2mcp lint`: how well a document serves a model, before it ships.
//!
//! Errors are defects of the document that break tools (an operation that
//! cannot be made into one, a duplicate operationId, path parameters that
//! disagree with the path template); warnings and notes are quality rules.
//! Each finding names a rule, a severity, the operation (file, line, JSON
//! pointer) and a fix. The rules follow the tool-design principles a model
//! depends on: clear names that needed no disambiguation, a description for
//! every tool and argument, enums where values are fixed, typed arguments,
//! schemas for bodies and responses, no near-duplicate tools, schemas
//! within budget. The [`crate::footprint`] says what the tool list costs a model's
//! context, in real tokens, in each listing mode.

mod defects;
pub mod report;
mod rules;

use serde::Serialize;

use crate::document::{Diagnostic, Document};
pub use crate::footprint::Footprint;
use crate::footprint::FootprintError;
use crate::runtime::catalog::Catalog;
pub use rules::RULES;

/// How bad a finding is (SARIF's levels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Worth knowing; the tool works as is.
    Note,
    /// A model will likely misuse or overlook the tool.
    Warning,
    /// The tool cannot be used as described.
    Error,
}

impl Level {
    /// `note`, `warning`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Note => "note",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }
}

/// One rule: its id, severity, what it checks and how to fix it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rule {
    /// Stable id (`missing-description`).
    pub id: &'static str,
    /// Severity of its findings.
    pub level: Level,
    /// What it checks, in one line.
    pub summary: &'static str,
    /// How to fix a finding.
    pub hint: &'static str,
}

/// One problem found.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// The rule's id.
    pub rule: &'static str,
    /// The rule's severity.
    pub level: Level,
    /// The tool it concerns (none for findings about the whole list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub hint: &'static str,
    /// The document file.
    pub file: String,
    /// JSON pointer to the operation (or the node) in `file`.
    pub pointer: String,
    /// 1-based line of `pointer` in `file`, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

/// What to check against.
#[derive(Debug, Clone)]
pub struct LintOptions {
    /// The `inputSchema` budget (bytes) the tools were built with.
    pub schema_budget: usize,
    /// Token budget of the whole list for `--tools auto` to list every tool.
    pub auto_budget: usize,
}

impl Default for LintOptions {
    fn default() -> Self {
        Self {
            schema_budget: crate::tools::DEFAULT_SCHEMA_BUDGET,
            auto_budget: crate::server::modes::AUTO_TOKEN_BUDGET,
        }
    }
}

/// Everything `lint` found about a document.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The document, as named by the user.
    pub document: String,
    /// Findings, operation by operation in document order (an operation's
    /// errors first), then those about the whole list.
    pub findings: Vec<Finding>,
    /// What the tool list costs in tokens.
    pub footprint: Footprint,
}

impl Report {
    /// The most severe level found, if any.
    pub fn worst(&self) -> Option<Level> {
        self.findings.iter().map(|f| f.level).max()
    }
}

/// Lints the tools built from `doc`; `document` names it as the user did.
pub fn lint(
    catalog: &Catalog,
    doc: &Document,
    document: &str,
    options: &LintOptions,
) -> Result<Report, FootprintError> {
    let footprint = crate::footprint::measure(catalog)?;
    // Defects first, then the quality rules, each operation's findings
    // together in document order (a stable sort keeps an operation's
    // errors before its other findings).
    let order = defects::Order::of(doc);
    let mut keyed = defects::check(catalog, doc, document);
    keyed.extend(
        rules::check(catalog, doc, document, options, &footprint)
            .into_iter()
            .map(|f| (order.of_pointer(&f.pointer), f)),
    );
    keyed.sort_by_key(|(anchor, _)| *anchor);
    let mut findings: Vec<Finding> = keyed.into_iter().map(|(_, f)| f).collect();
    // Lines, through the same locator as every other diagnostic.
    let mut located: Vec<Diagnostic> = findings
        .iter()
        .map(|f| Diagnostic::warning(&f.file, &f.pointer, ""))
        .collect();
    doc.locate(&mut located);
    for (f, d) in findings.iter_mut().zip(located) {
        f.line = f.line.or(d.line);
    }
    Ok(Report {
        document: document.to_string(),
        findings,
        footprint,
    })
}
