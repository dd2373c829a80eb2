//! The context footprint of a tool list: the tokens of each tool's
//! definition as `tools/list` carries it, and of the whole list in each
//! listing mode, counted with the o200k_base tokenizer (GPT-4o and later;
//! other models' tokenizers land within a few percent on JSON). The totals
//! are those of `list --footprint` ([`crate::footprint`]); lint adds each
//! tool's own count.

use std::sync::OnceLock;

use serde::Serialize;
use tiktoken_rs::CoreBPE;

use crate::runtime::catalog::Catalog;
use crate::server::meta::{DISCOVERY, TOOLSETS};

/// Tokens of one tool's definition.
#[derive(Debug, Clone, Serialize)]
pub struct ToolTokens {
    /// The tool.
    pub name: String,
    /// Tokens of its definition (compact JSON).
    pub tokens: usize,
}

/// What the tool list costs a model's context.
#[derive(Debug, Clone, Serialize)]
pub struct Footprint {
    /// The tokenizer used.
    pub tokenizer: &'static str,
    /// Every tool, largest first.
    pub tools: Vec<ToolTokens>,
    /// `--tools full`: every definition.
    pub full: usize,
    /// `--tools discovery`: the meta-tools that search, describe and call.
    pub discovery: usize,
    /// `--tools toolsets`: the meta-tools that switch groups on (before any is).
    pub toolsets: usize,
    /// `--tools code`: search_api, execute_read_only, execute.
    pub code: usize,
}

fn bpe() -> &'static CoreBPE {
    static BPE: OnceLock<CoreBPE> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().expect("o200k_base ships inside tiktoken-rs"))
}

/// Tokens of `text` under o200k_base.
pub fn tokens(text: &str) -> usize {
    bpe().encode_ordinary(text).len()
}

/// Measures `catalog`'s list in every mode.
pub fn measure(catalog: &Catalog) -> Footprint {
    let mut tools: Vec<ToolTokens> = catalog
        .tools
        .iter()
        .map(|t| ToolTokens {
            name: t.name.clone(),
            tokens: tokens(&t.to_mcp_json().to_string()),
        })
        .collect();
    let full = tools.iter().map(|t| t.tokens).sum();
    tools.sort_by(|a, b| b.tokens.cmp(&a.tokens).then_with(|| a.name.cmp(&b.name)));
    // As `list --footprint` counts them (crate::footprint): the meta-tools'
    // definitions as one list.
    let meta = |set: &[crate::server::meta::MetaTool]| {
        let defs: Vec<serde_json::Value> =
            set.iter().map(|m| m.definition(&catalog.title)).collect();
        tokens(&serde_json::Value::Array(defs).to_string())
    };
    Footprint {
        tokenizer: "o200k_base",
        tools,
        full,
        discovery: meta(DISCOVERY),
        toolsets: meta(TOOLSETS),
        code: meta(crate::server::meta::CODE),
    }
}
