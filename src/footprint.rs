//! What a tool list costs a model, in tokens of the `o200k_base` encoding
//! (GPT-4o's; via `tiktoken-rs`), for each listing mode: reported by
//! `openapi2mcp list --footprint`, and the ground truth the server's
//! byte-based estimate (`server::listing::estimate_tokens`) is checked
//! against.

use serde_json::{Value, json};

use crate::runtime::catalog::Catalog;
use crate::server::listing::{self, AUTO_TOKEN_BUDGET, ToolsMode};
use crate::server::meta::{self, MetaTool};

/// Tokens of each listing mode's `tools/list` for one catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Footprint {
    /// Every tool with its schemas.
    pub full: usize,
    /// The four discovery meta-tools.
    pub discovery: usize,
    /// The three toolset meta-tools (enabled toolsets add their tools).
    pub toolsets: usize,
    /// The three tools of code mode (`search_api`, `execute_read_only`,
    /// `execute`).
    pub code: usize,
    /// The largest single tool and its tokens.
    pub largest: Option<(String, usize)>,
}

/// Why tokens could not be counted.
#[derive(Debug, thiserror::Error)]
#[error("cannot count tokens: {0}")]
pub struct FootprintError(String);

/// Counts the tokens of `catalog`'s list in each mode.
pub fn measure(catalog: &Catalog) -> Result<Footprint, FootprintError> {
    let bpe = tiktoken_rs::o200k_base().map_err(|e| FootprintError(e.to_string()))?;
    let count = |v: &Value| bpe.encode_ordinary(&v.to_string()).len();
    let mut full = 0;
    let mut largest: Option<(String, usize)> = None;
    for tool in &catalog.tools {
        let n = count(&tool.to_mcp_json());
        full += n;
        if largest.as_ref().is_none_or(|(_, m)| n > *m) {
            largest = Some((tool.name.clone(), n));
        }
    }
    let metas = |set: &[MetaTool]| {
        count(&json!(
            set.iter()
                .map(|m| m.definition(&catalog.title))
                .collect::<Vec<_>>()
        ))
    };
    Ok(Footprint {
        full,
        discovery: metas(meta::DISCOVERY),
        toolsets: metas(meta::TOOLSETS),
        code: metas(meta::CODE),
        largest,
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
mod tests {
    use super::*;
    use crate::pipeline::{PipelineOptions, load_catalog};

    fn petstore() -> Catalog {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/specs/petstore.yaml");
        load_catalog(path, &PipelineOptions::default())
            .unwrap()
            .catalog
    }

    #[test]
    fn token_estimate_is_close() {
        let catalog = petstore();
        let real = measure(&catalog).unwrap();
        let estimate = estimate_full(&catalog);
        // The estimate errs towards more tokens, by at most a third.
        assert!(
            estimate >= real.full && estimate <= real.full * 4 / 3,
            "estimate {estimate}, real {}",
            real.full
        );
        assert_eq!(auto_mode(&catalog), ToolsMode::Full);
        assert!(real.discovery > 0 && real.discovery <= 1000, "{real:?}");
        assert!(
            real.toolsets > 0 && real.toolsets < real.discovery,
            "{real:?}"
        );
        assert!(real.largest.is_some());
    }
}
