//! `lint`: a loaded catalog checked against the tool-design rules, the
//! findings rendered as text, JSON or SARIF, and the gates that fail the
//! command (`--deny`, `--max-tokens`).

use super::CommandError;
use crate::lint::{self, Level, LintOptions, report};
use crate::pipeline::Loaded;

/// How the findings are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LintFormat {
    /// For people: findings with fixes, then the footprint.
    #[default]
    Text,
    /// The report as JSON.
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
}

/// What to check and when to fail.
#[derive(Debug, Clone)]
pub struct LintCommand {
    /// How the findings are printed.
    pub format: LintFormat,
    /// Fail when the full tool list takes more tokens than this.
    pub max_tokens: Option<usize>,
    /// Fail on findings at or above this level.
    pub deny: Level,
    /// The `inputSchema` budget the tools were built with.
    pub schema_budget: usize,
}

/// What linting found: the rendered report and why the command fails.
#[derive(Debug, Clone)]
pub struct Linted {
    /// The report, to print on stdout as it is.
    pub output: String,
    /// One line per gate that failed (empty: the command succeeds).
    pub failures: Vec<String>,
}

/// Lints `loaded` (the document named `location` as the user did).
pub fn run(loaded: &Loaded, location: &str, command: &LintCommand) -> Result<Linted, CommandError> {
    let options = LintOptions {
        schema_budget: command.schema_budget,
        ..LintOptions::default()
    };
    // Findings name the document as diagnostics do: a URL without the
    // credentials it may carry.
    let location = &crate::document::shown_location(location);
    let found = lint::lint(&loaded.catalog, loaded.document(), location, &options)?;
    let output = match command.format {
        LintFormat::Text => report::text(&found, 10),
        LintFormat::Json => serde_json::to_string_pretty(&report::json(&found))? + "\n",
        LintFormat::Sarif => serde_json::to_string_pretty(&report::sarif(&found))? + "\n",
    };
    let mut failures = Vec::new();
    if let Some(worst) = found.worst().filter(|w| *w >= command.deny) {
        failures.push(format!(
            "lint: failed: findings at level {} (--deny {})",
            worst.as_str(),
            command.deny.as_str()
        ));
    }
    if let Some(max) = command.max_tokens.filter(|m| found.footprint.full > *m) {
        failures.push(format!(
            "lint: failed: the tool list takes {} tokens, over --max-tokens {max}",
            found.footprint.full
        ));
    }
    Ok(Linted { output, failures })
}

#[cfg(test)]
#[path = "lint_tests.rs"]
mod tests;
