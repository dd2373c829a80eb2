//! What a tool list costs a model, in tokens of the `o200k_base` encoding
//! (GPT-4o's; via `tiktoken-rs`), for each listing mode: reported by
//! `openapi2mcp list --footprint` and `lint` (each tool's own count too),
//! and the ground truth the server's
//! byte-based estimate (`server::modes::estimate_tokens`) is checked
//! against.

use std::sync::OnceLock;

use serde::Serialize;
use serde_json::Value;
use tiktoken_rs::CoreBPE;

use crate::runtime::catalog::Catalog;
use crate::server::modes::meta::{self, MetaTool};
use crate::server::modes::{self as listing, AUTO_TOKEN_BUDGET, ToolsMode};

/// Tokens of one tool's definition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolTokens {
    /// The tool.
    pub name: String,
    /// Tokens of its definition (compact JSON, as `tools/list` carries it).
    pub tokens: usize,
}

/// What a catalog's `tools/list` costs a model's context in each mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Footprint {
    /// The tokenizer used.
    pub tokenizer: &'static str,
    /// Every tool, largest first (ties by name).
    pub tools: Vec<ToolTokens>,
    /// `--tools full`: every definition.
    pub full: usize,
    /// `--tools discovery`: the meta-tools that search, describe and call.
    pub discovery: usize,
    /// `--tools toolsets`: the meta-tools that switch groups on (enabled
    /// toolsets add their tools).
    pub toolsets: usize,
    /// `--tools code`: `search_api`, `execute_read_only`, `execute`.
    pub code: usize,
}

impl Footprint {
    /// The largest single tool.
    pub fn largest(&self) -> Option<&ToolTokens> {
        self.tools.first()
    }
}

/// Why tokens could not be counted.
#[derive(Debug, Clone, thiserror::Error)]
#[error("cannot count tokens: {0}")]
pub struct FootprintError(String);

/// The o200k_base encoder, built once (its tables ship inside
/// `tiktoken-rs`; building them takes a while).
fn bpe() -> Result<&'static CoreBPE, FootprintError> {
    static BPE: OnceLock<Result<CoreBPE, String>> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| FootprintError(e.clone()))
}

/// Tokens of `text` under o200k_base.
pub fn tokens(text: &str) -> Result<usize, FootprintError> {
    Ok(bpe()?.encode_ordinary(text).len())
}

/// Counts the tokens of `catalog`'s list in each mode: `list --footprint`
/// prints the totals, `lint` each tool's count too.
pub fn measure(catalog: &Catalog) -> Result<Footprint, FootprintError> {
    let bpe = bpe()?;
    let count = |text: &str| bpe.encode_ordinary(text).len();
    let mut tools: Vec<ToolTokens> = catalog
        .tools
        .iter()
        .map(|t| ToolTokens {
            name: t.name.clone(),
            tokens: count(&t.to_mcp_json().to_string()),
        })
        .collect();
    let full = tools.iter().map(|t| t.tokens).sum();
    tools.sort_by(|a, b| b.tokens.cmp(&a.tokens).then_with(|| a.name.cmp(&b.name)));
    // The meta-tools' definitions as one list.
    let metas = |set: &[MetaTool]| {
        let defs: Vec<Value> = set.iter().map(|m| m.definition(&catalog.title)).collect();
        count(&Value::Array(defs).to_string())
    };
    Ok(Footprint {
        tokenizer: "o200k_base",
        tools,
        full,
        discovery: metas(meta::DISCOVERY),
        toolsets: metas(meta::TOOLSETS),
        code: metas(meta::CODE),
    })
}

/// The server's estimate of the full list (serialized bytes over
/// [`listing::BYTES_PER_TOKEN`]), as `--tools auto` decides with it.
pub fn estimate_full(catalog: &Catalog) -> usize {
    let bytes: usize = catalog
        .tools
        .iter()
        .map(|t| t.to_mcp_json().to_string().len() + 1)
        .sum();
    listing::estimate_tokens(bytes)
}

/// The mode `--tools auto` serves for `catalog` with the default budget.
pub fn auto_mode(catalog: &Catalog) -> ToolsMode {
    listing::resolve(ToolsMode::Auto, estimate_full(catalog), AUTO_TOKEN_BUDGET)
}

#[cfg(test)]
#[path = "footprint_tests.rs"]
mod tests;
