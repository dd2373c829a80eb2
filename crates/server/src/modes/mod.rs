//! The listing modes, each with one home: [`full`] (every tool, pages
//! serialized once), [`discovery`] (meta-tools that search, describe and
//! call the rest), [`toolsets`] (groups of tools a client switches on and
//! off; [`selection`]: the groups a request names), and [`code`]
//! (declarations to read and scripts to run); [`meta`] defines the
//! meta-tools they list. `auto` picks `full` while the whole list fits a
//! token budget, else `discovery`.
//!
//! This module holds what they share: the mode enum, `auto`'s choice,
//! [`Listing`] (one catalog's mode and the state of that mode alone), and
//! the `tools/list` pages and meta-tool dispatch every mode goes through.
//!
//! Token counts here are estimates from serialized bytes (see
//! [`estimate_tokens`]): the server decides at start-up and cannot afford a
//! real tokenizer pass over megabytes of schemas; `openapi2mcp list`
//! reports the real counts.

pub mod code;
mod discovery;
pub mod full;
pub mod meta;
pub mod selection;
pub mod toolsets;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use clap::ValueEnum;
use rmcp::model::{CallToolResponse, ListToolsResult, PaginatedRequestParams, RequestId, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{Map, Value};

use super::confirm::Retry;
use super::prepared::{self, Prepared};
use super::{Bridge, ServeError};
use meta::MetaTool;
use openapi2mcp_runtime::catalog::ToolHead;

pub use full::{FullPages, Outbox, Page, splice_tools, tools_of};
pub use toolsets::{Toolsets, UNTAGGED};

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
    /// `search_api` (TypeScript declarations of matching operations),
    /// `execute_read_only` and `execute` (a script calling operations as
    /// async functions, run in a sandbox).
    Code,
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
            ToolsMode::Code => "code",
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
pub fn head_bytes(head: &openapi2mcp_runtime::catalog::ToolHead) -> usize {
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

/// `mode` with `auto` resolved for a full list of `full_tokens`: over
/// budget, `discovery` (`toolsets` in a build without the `search`
/// feature, which has no search index).
pub fn resolve(mode: ToolsMode, full_tokens: usize, budget: usize) -> ToolsMode {
    match mode {
        ToolsMode::Auto if full_tokens <= budget => ToolsMode::Full,
        ToolsMode::Auto => OVER_BUDGET,
        other => other,
    }
}

/// What `auto` chooses for a list over budget.
const OVER_BUDGET: ToolsMode = if cfg!(feature = "search") {
    ToolsMode::Discovery
} else {
    ToolsMode::Toolsets
};

/// Why this build cannot serve `mode`, if it cannot: each mode past
/// `full` and `toolsets` needs a cargo feature.
pub fn unavailable(mode: ToolsMode) -> Option<String> {
    let (feature, crate_) = match mode {
        ToolsMode::Discovery if !cfg!(feature = "search") => ("search", "openapi2mcp-server"),
        ToolsMode::Code if !crate::code::sandbox::AVAILABLE => ("code", "openapi2mcp-server"),
        _ => return None,
    };
    Some(format!(
        "--tools {}: this server was built without the `{feature}` feature of {crate_}; choose --tools full or toolsets, or build with the feature",
        mode.as_str()
    ))
}

/// One catalog's listing: the mode in force (`auto` resolved), the
/// meta-tools it lists first, and the state of that mode alone.
pub(crate) struct Listing {
    /// The mode, `auto` resolved.
    pub(crate) mode: ToolsMode,
    /// The meta-tools listed in this mode, first on every list, with
    /// their serialized size.
    pub(crate) meta: Vec<(MetaTool, Tool, usize)>,
    /// What only this mode needs.
    pub(crate) state: ModeState,
}

/// The state of one listing mode.
pub(crate) enum ModeState {
    /// `full`: the pages, serialized.
    Full(FullPages),
    /// `discovery`: the search index (built on its own thread).
    #[cfg(feature = "search")]
    Discovery(discovery::Index),
    /// `toolsets`: the groups, and those a session starts with.
    Toolsets(toolsets::ToolsetsState),
    /// `code`: the search index behind `search_api`.
    #[cfg(feature = "code")]
    Code(discovery::Index),
}

impl Listing {
    /// The listing `options` asks for over `heads`: `auto` resolved (see
    /// [`Listing::resolve_mode`]), the mode's meta-tools, and its state
    /// (the full pages serialized, the search index started, the
    /// toolsets grouped). An unknown `--toolset`, or a mode this build
    /// cannot serve, is an error.
    pub(crate) fn build(
        heads: &Arc<Vec<ToolHead>>,
        prepared: &Prepared,
        tag_parents: &BTreeMap<String, String>,
        title: &str,
        options: &ListingOptions,
        page_bytes: usize,
        handles: bool,
    ) -> Result<Self, ServeError> {
        let (mode, full_tokens, serialized) = Self::resolve_mode(heads, prepared, options);
        tracing::info!(
            tools = heads.len(),
            full_list_tokens = full_tokens,
            auto_budget = options.auto_budget,
            "listing tools: --tools {} -> {}",
            options.mode.as_str(),
            mode.as_str()
        );
        if let Some(why) = unavailable(mode) {
            return Err(ServeError::Options(why));
        }
        let meta_set: &[MetaTool] = match mode {
            ToolsMode::Discovery => meta::DISCOVERY,
            ToolsMode::Toolsets => meta::TOOLSETS,
            ToolsMode::Code => meta::CODE,
            ToolsMode::Full | ToolsMode::Auto => &[],
        };
        // Scripts wait for their calls: code mode hands out no handles.
        let handles = handles && mode != ToolsMode::Code && !shadowed(heads, MetaTool::CallResult);
        let extra: &[MetaTool] = if handles { meta::HANDLES } else { &[] };
        let meta: Vec<(MetaTool, Tool, usize)> = meta_set
            .iter()
            .chain(extra)
            .filter_map(|m| {
                let tool = m.tool(title)?;
                let size = serde_json::to_vec(&tool).map_or(0, |v| v.len()) + 1;
                Some((*m, tool, size))
            })
            .collect();
        let state = match mode {
            ToolsMode::Toolsets => ModeState::Toolsets(toolsets::ToolsetsState::new(
                heads,
                tag_parents,
                &options.toolsets,
            )?),
            #[cfg(feature = "search")]
            ToolsMode::Discovery => ModeState::Discovery(discovery::index(Arc::clone(heads))),
            #[cfg(feature = "code")]
            ToolsMode::Code => ModeState::Code(discovery::index(Arc::clone(heads))),
            _ => ModeState::Full(FullPages::build(
                heads,
                prepared,
                serialized,
                page_bytes,
                &meta.iter().map(|(_, tool, _)| tool).collect::<Vec<_>>(),
            )),
        };
        Ok(Self { mode, meta, state })
    }

    /// The listing mode `listing` asks for, `auto` resolved, and the full
    /// list's estimated tokens (0 when not needed). `auto` first bounds the
    /// full list from below by the heads' text alone: when that is over
    /// budget already (any large API), the over-budget mode is chosen
    /// without building a single tool; otherwise every tool is built and
    /// measured. When every tool had to be built to decide, their
    /// serialized forms come back too (for the full list).
    fn resolve_mode(
        heads: &[ToolHead],
        prepared: &Prepared,
        listing: &ListingOptions,
    ) -> (ToolsMode, usize, Option<prepared::Serialized>) {
        if listing.mode != ToolsMode::Auto {
            return (listing.mode, 0, None);
        }
        let floor: usize = heads.iter().map(head_bytes).sum();
        let floor_tokens = estimate_tokens(floor);
        if floor_tokens > listing.auto_budget {
            return (OVER_BUDGET, floor_tokens, None);
        }
        let serialized = prepared.serialize_each(&(0..heads.len()).collect::<Vec<_>>());
        let bytes: usize = serialized
            .iter()
            .filter_map(|b| b.as_ref().ok().map(|b| b.len() + 1))
            .sum();
        let tokens = estimate_tokens(bytes);
        (
            resolve(listing.mode, tokens, listing.auto_budget),
            tokens,
            Some(serialized),
        )
    }

    /// The number of toolsets (0 outside `toolsets` mode).
    pub(crate) fn toolset_count(&self) -> usize {
        self.toolsets().map_or(0, |t| t.sets.names.len())
    }

    /// The toolsets (`toolsets` mode only).
    pub(crate) fn toolsets(&self) -> Option<&toolsets::ToolsetsState> {
        match &self.state {
            ModeState::Toolsets(t) => Some(t),
            _ => None,
        }
    }

    /// The toolsets a session starts with (empty outside `toolsets` mode).
    pub(crate) fn initial_toolsets(&self) -> BTreeSet<String> {
        self.toolsets()
            .map(|t| t.initial.clone())
            .unwrap_or_default()
    }
}

/// Whether an API's tool is called `m`'s name: the meta-tool is then not
/// offered (logged), so that the API's tool stays callable.
fn shadowed(heads: &[ToolHead], m: MetaTool) -> bool {
    let shadowed = heads.iter().any(|h| h.name == m.name());
    if shadowed {
        tracing::warn!(
            tool = m.name(),
            "an API operation's tool has this name: calls still running after --handle-after are waited for instead of answered with a handle"
        );
    }
    shadowed
}

/// One entry of a session's tool list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Listed {
    /// A meta-tool, by position in the mode's meta-tools.
    Meta(usize),
    /// A catalog tool, by position.
    Tool(usize),
}

impl Bridge {
    /// The meta-tool of this mode called `name`.
    pub(crate) fn meta_tool(&self, name: &str) -> Option<MetaTool> {
        self.inner
            .listing
            .meta
            .iter()
            .find(|(m, ..)| m.name() == name)
            .map(|(m, ..)| *m)
    }

    /// Runs meta-tool `m`. Mistakes in its arguments are `isError` results
    /// the model can act on; only transport-level failures are errors.
    pub(crate) async fn call_meta(
        &self,
        m: MetaTool,
        args: Map<String, Value>,
        retry: Retry<'_>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        Ok(match m {
            MetaTool::Search => self.search(&args).await.into(),
            MetaTool::Describe => self.describe(&args).await.into(),
            MetaTool::CallReadOnly | MetaTool::Call => {
                return self.call_through(m, args, retry, context).await;
            }
            MetaTool::ListToolsets => self.list_toolsets().into(),
            MetaTool::CodeSearch => self.search_api(&args).await.into(),
            MetaTool::CallResult => self.call_result(&args, context).await.into(),
            MetaTool::ExecuteReadOnly | MetaTool::Execute => {
                return self.execute(m, &args, context).await;
            }
            MetaTool::EnableToolset | MetaTool::DisableToolset => {
                return Ok(self.switch_toolsets(m, &args, context).await?.into());
            }
        })
    }

    /// What this session lists, in order (not used in `full` mode, whose
    /// pages are fixed at start-up, unless the list depends on the
    /// caller's scopes).
    pub(crate) fn listed_tools(&self) -> Vec<Listed> {
        let inner = &self.inner;
        let meta = &inner.listing.meta;
        if let ModeState::Full(_) = &inner.listing.state {
            // The API's tools, then the meta-tools (get_call_result), as
            // the pages shared by every caller list them.
            return (0..inner.heads.len())
                .filter(|i| self.allowed(*i))
                .map(Listed::Tool)
                .chain((0..meta.len()).map(Listed::Meta))
                .collect();
        }
        // Toolsets chosen by the request: switching them per session means
        // nothing, so only list_toolsets is offered.
        let mut listed: Vec<Listed> = (0..meta.len())
            .filter(|i| {
                self.request_toolsets.is_none()
                    || !matches!(
                        meta[*i].0,
                        MetaTool::EnableToolset | MetaTool::DisableToolset
                    )
            })
            .map(Listed::Meta)
            .collect();
        if let ModeState::Toolsets(state) = &inner.listing.state {
            let mut tools: Vec<usize> = self
                .enabled_toolsets()
                .iter()
                .flat_map(|set| state.sets.members[*set].iter().copied())
                .filter(|i| self.allowed(*i))
                .collect();
            tools.sort_unstable();
            tools.dedup();
            listed.extend(tools.into_iter().map(Listed::Tool));
        }
        listed
    }

    /// An entry's definition and serialized size, building the tool on
    /// first use; `None` for a tool that cannot be built (left out of the
    /// list, with a warning in the log).
    pub(crate) fn listed(&self, entry: Listed) -> Option<(&Tool, usize)> {
        match entry {
            Listed::Meta(i) => {
                let (_, tool, size) = &self.inner.listing.meta[i];
                Some((tool, *size))
            }
            Listed::Tool(i) => match self.inner.prepared.get(i) {
                Ok(shown) => Some((&shown.tool, shown.size)),
                Err(why) => {
                    tracing::warn!(tool = %self.inner.heads[i].name, "not listed: {why}");
                    None
                }
            },
        }
    }

    /// One page of `tools/list` for this catalog and session. In `full`
    /// mode the pages are shared by every caller (unless the list depends
    /// on the caller's scopes; see [`full`]); in the others, the
    /// meta-tools come first, then (toolsets mode) the enabled toolsets'
    /// tools, paged by offset into that list.
    pub(crate) fn list_page(
        &self,
        request: Option<PaginatedRequestParams>,
        outbox: Option<(&Outbox, &RequestId)>,
    ) -> Result<ListToolsResult, McpError> {
        let cursor = request.and_then(|r| r.cursor);
        if let ModeState::Full(pages) = &self.inner.listing.state
            && self.caller_scopes.is_none()
        {
            return pages.answer(cursor, outbox);
        }
        let listed = self.listed_tools();
        let start = match cursor {
            None => 0,
            Some(c) => c
                .parse::<usize>()
                .ok()
                .filter(|i| *i < listed.len().max(1))
                .ok_or_else(|| McpError::invalid_params(format!("invalid cursor `{c}`"), None))?,
        };
        let mut page = Vec::new();
        let mut size = 0;
        let mut end = start;
        for entry in listed.iter().skip(start) {
            let Some((tool, len)) = self.listed(*entry) else {
                end += 1;
                continue;
            };
            if !page.is_empty() && size + len > self.inner.page_bytes {
                break;
            }
            size += len;
            page.push(tool.clone());
            end += 1;
        }
        let mut result = ListToolsResult::with_all_items(page);
        result.next_cursor = (end < listed.len()).then(|| end.to_string());
        Ok(result)
    }
}

#[cfg(test)]
#[path = "mod_tests.rs"]
mod tests;
