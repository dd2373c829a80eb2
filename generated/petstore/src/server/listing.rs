//! Which tools `tools/list` shows: every tool (`full`), a handful of
//! meta-tools that search, describe and call the rest (`discovery`), or
//! groups of tools the client switches on and off (`toolsets`); `auto`
//! picks `full` while the whole list fits a token budget, else
//! `discovery`.
//!
//! Token counts here are estimates from serialized bytes (see
//! [`estimate_tokens`]): the server decides at start-up and cannot afford a
//! real tokenizer pass over megabytes of schemas; `openapi2mcp list`
//! reports the real counts.

use std::collections::BTreeSet;

use clap::ValueEnum;

/// How the server lists its tools (`--tools`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum ToolsMode {
    /// Every tool, with its schemas.
    Full,
    /// Meta-tools only: `search_tools`, `describe_tools`,
    /// `call_read_only_tool` and `call_tool`.
    Discovery,
    /// One toolset per tag, switched on by `enable_toolset`.
    Toolsets,
    /// `full` while the whole list fits the token budget, else `discovery`.
    #[default]
    Auto,
}

impl ToolsMode {
    /// The mode's name as the flag spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolsMode::Full => "full",
            ToolsMode::Discovery => "discovery",
            ToolsMode::Toolsets => "toolsets",
            ToolsMode::Auto => "auto",
        }
    }
}

/// The largest tool list, in (estimated) tokens, that `auto` serves in
/// full: a tenth of a 200k-token context window, leaving the model room to
/// work. Petstore-sized APIs fit; GitHub's 1,200 tools (about 800k tokens)
/// do not.
pub const AUTO_TOKEN_BUDGET: usize = 20_000;

/// Serialized bytes per token of a JSON tool list, for the estimate. The
/// `o200k_base` tokenizer measures 4.4 bytes per token on GitHub's list
/// and 3.8 on Petstore's; 3.3 makes the estimate err towards more tokens
/// (by a third on GitHub), so `auto` never lists in full a list that is
/// over budget. The test `footprint::tests::token_estimate_is_close`
/// keeps it honest.
pub const BYTES_PER_TOKEN: f64 = 3.3;

/// Estimated tokens of `bytes` of serialized tool definitions.
pub fn estimate_tokens(bytes: usize) -> usize {
    (bytes as f64 / BYTES_PER_TOKEN).ceil() as usize
}

/// Bytes a tool's listing takes at least, from its head alone: its name,
/// title (listed twice, as the tool's and the annotations'), description,
/// method and path (in `_meta`). What the schemas add only makes the
/// listing bigger, so a list whose heads are over budget is over budget.
pub fn head_bytes(head: &crate::runtime::catalog::ToolHead) -> usize {
    head.name.len()
        + 2 * head.title.len()
        + head.description.len()
        + head.origin.method.len()
        + head.origin.path.len()
}

/// How tools are listed, as asked for on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingOptions {
    /// The mode (`auto` resolved at start-up).
    pub mode: ToolsMode,
    /// The `auto` budget in tokens.
    pub auto_budget: usize,
    /// Toolsets enabled when a session starts (`toolsets` mode).
    pub toolsets: Vec<String>,
}

impl Default for ListingOptions {
    fn default() -> Self {
        Self {
            mode: ToolsMode::Auto,
            auto_budget: AUTO_TOKEN_BUDGET,
            toolsets: Vec::new(),
        }
    }
}

/// `mode` with `auto` resolved for a full list of `full_tokens`.
pub fn resolve(mode: ToolsMode, full_tokens: usize, budget: usize) -> ToolsMode {
    match mode {
        ToolsMode::Auto if full_tokens <= budget => ToolsMode::Full,
        ToolsMode::Auto => ToolsMode::Discovery,
        other => other,
    }
}

/// The toolsets of a catalog: one per tag (a tool joins the toolset of
/// its first tag; untagged tools share `untagged`), in first-seen order.
#[derive(Debug, Clone, Default)]
pub struct Toolsets {
    /// Toolset names.
    pub names: Vec<String>,
    /// Tool positions of each toolset, in catalog order.
    pub members: Vec<Vec<usize>>,
    /// The toolset of each tool.
    pub of_tool: Vec<usize>,
}

/// The toolset of tools that carry no tag.
pub const UNTAGGED: &str = "untagged";

impl Toolsets {
    /// Groups tools by their first tag.
    pub fn group<'a>(first_tags: impl IntoIterator<Item = Option<&'a str>>) -> Self {
        let mut sets = Toolsets::default();
        for (tool, tag) in first_tags.into_iter().enumerate() {
            let name = tag
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .unwrap_or(UNTAGGED);
            let set = match sets.names.iter().position(|n| n == name) {
                Some(i) => i,
                None => {
                    sets.names.push(name.to_string());
                    sets.members.push(Vec::new());
                    sets.names.len() - 1
                }
            };
            sets.members[set].push(tool);
            sets.of_tool.push(set);
        }
        sets
    }

    /// The toolset called `name` (exact, else case-insensitive).
    pub fn find(&self, name: &str) -> Option<usize> {
        self.names
            .iter()
            .position(|n| n == name)
            .or_else(|| self.names.iter().position(|n| n.eq_ignore_ascii_case(name)))
    }

    /// Toolset positions for `names`, or an error naming the unknown ones
    /// and what exists.
    pub fn resolve_names(&self, names: &[String]) -> Result<BTreeSet<usize>, String> {
        let mut found = BTreeSet::new();
        let mut unknown = Vec::new();
        for n in names {
            match self.find(n) {
                Some(i) => {
                    found.insert(i);
                }
                None => unknown.push(format!("`{n}`")),
            }
        }
        if unknown.is_empty() {
            return Ok(found);
        }
        let mut known: Vec<&str> = self.names.iter().map(String::as_str).collect();
        let more = known.len().saturating_sub(40);
        known.truncate(40);
        Err(format!(
            "no toolset {}; the toolsets are: {}{}",
            unknown.join(", "),
            known.join(", "),
            if more > 0 {
                format!(" and {more} more (list_toolsets names them all)")
            } else {
                String::new()
            }
        ))
    }
}
