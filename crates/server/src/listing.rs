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

use std::collections::{BTreeSet, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

use clap::ValueEnum;
use rmcp::model::{RequestId, Tool};

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
/// A tag nested under another (OpenAPI 3.2 `parent`) makes its toolset a
/// child of the parent's: choosing a toolset (enabling, disabling,
/// selecting it per request) chooses its descendants with it, and a
/// parent with no tools of its own is a toolset all the same.
#[derive(Debug, Clone, Default)]
pub struct Toolsets {
    /// Toolset names.
    pub names: Vec<String>,
    /// Tool positions of each toolset, in catalog order (its own tools,
    /// not its children's).
    pub members: Vec<Vec<usize>>,
    /// The toolset of each tool.
    pub of_tool: Vec<usize>,
    /// The parent of each toolset, if nested.
    pub parent: Vec<Option<usize>>,
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
            let set = sets.position_or_add(name);
            sets.members[set].push(tool);
            sets.of_tool.push(set);
        }
        sets
    }

    fn position_or_add(&mut self, name: &str) -> usize {
        match self.names.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                self.names.push(name.to_string());
                self.members.push(Vec::new());
                self.parent.push(None);
                self.names.len() - 1
            }
        }
    }

    /// Nests toolsets as the tags are (child to parent, cycles already
    /// refused by the document layer): each toolset with tools gets its
    /// chain of ancestors, added as toolsets of their own when they have
    /// no tools.
    pub fn nest(&mut self, parents: &std::collections::BTreeMap<String, String>) {
        self.parent.resize(self.names.len(), None);
        let mut at = 0;
        while at < self.names.len() {
            if let Some(parent) = parents.get(&self.names[at]).cloned() {
                let p = self.position_or_add(&parent);
                if p != at {
                    self.parent[at] = Some(p);
                }
            }
            at += 1;
        }
    }

    /// `set` and every toolset nested under it, at any depth.
    pub fn with_descendants(&self, set: usize) -> BTreeSet<usize> {
        let mut out = BTreeSet::from([set]);
        loop {
            let before = out.len();
            for (child, parent) in self.parent.iter().enumerate() {
                if parent.is_some_and(|p| out.contains(&p)) {
                    out.insert(child);
                }
            }
            if out.len() == before {
                return out;
            }
        }
    }

    /// The toolset called `name` (exact, else case-insensitive).
    pub fn find(&self, name: &str) -> Option<usize> {
        self.names
            .iter()
            .position(|n| n == name)
            .or_else(|| self.names.iter().position(|n| n.eq_ignore_ascii_case(name)))
    }

    /// Toolset positions for `names` (each with its descendants), or an
    /// error naming the unknown ones and what exists.
    pub fn resolve_names(&self, names: &[String]) -> Result<BTreeSet<usize>, String> {
        let mut found = BTreeSet::new();
        let mut unknown = Vec::new();
        for n in names {
            match self.find(n) {
                Some(i) => found.extend(self.with_descendants(i)),
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

/// `full` mode's `tools/list` pages, each held as the bytes of its tools
/// (compact JSON, comma-separated): serialized once at start-up, written
/// as they are by the stdio transport (see [`Outbox`]).
#[derive(Debug, Default)]
pub struct FullPages {
    pages: Vec<Page>,
    tools: usize,
}

/// One page of a full list.
#[derive(Debug)]
pub struct Page {
    /// The tools, serialized, separated by commas (no brackets).
    pub bytes: Arc<[u8]>,
    /// How many tools.
    pub count: usize,
    /// The tools as values, made from `bytes` the first time a transport
    /// that cannot write bytes asks (streamable HTTP: rmcp serializes).
    values: OnceLock<Result<Vec<Tool>, String>>,
}

impl FullPages {
    /// Pages of `tools` (each tool serialized, let go of once copied into
    /// its page), each under `max_bytes`
    /// (tool bytes plus a separator each; at least one tool per page, and
    /// one page even when there are no tools).
    pub fn assemble(tools: impl IntoIterator<Item = Vec<u8>>, max_bytes: usize) -> Self {
        let close = |page: &mut Vec<u8>, count: &mut usize| Page {
            bytes: Arc::from(std::mem::take(page)),
            count: std::mem::take(count),
            values: OnceLock::new(),
        };
        let mut pages = Vec::new();
        let mut page: Vec<u8> = Vec::new();
        let mut count = 0;
        let mut size = 0;
        let mut all = 0;
        for tool in tools {
            all += 1;
            let len = tool.len() + 1;
            if count > 0 && size + len > max_bytes {
                pages.push(close(&mut page, &mut count));
                size = 0;
            }
            if count > 0 {
                page.push(b',');
            }
            page.extend_from_slice(&tool);
            count += 1;
            size += len;
        }
        if count > 0 || pages.is_empty() {
            pages.push(close(&mut page, &mut count));
        }
        Self { pages, tools: all }
    }

    /// How many pages.
    pub fn len(&self) -> usize {
        self.pages.len()
    }

    /// Whether there are no pages (never, once assembled).
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// How many tools in all.
    pub fn tools(&self) -> usize {
        self.tools
    }

    /// Page `index`.
    pub fn page(&self, index: usize) -> Option<&Page> {
        self.pages.get(index)
    }
}

impl Page {
    /// The page's tools as values (decoded from the bytes once, then
    /// cloned per request).
    pub fn values(&self) -> Result<Vec<Tool>, String> {
        self.values.get_or_init(|| tools_of(&self.bytes)).clone()
    }
}

/// Pages a transport writes from bytes instead of serializing `tools`:
/// the stdio transport hands one to each `tools/list` request (in its
/// extensions); the handler leaves the page's bytes here under the
/// request's id and answers with an empty `tools`, and the transport
/// writes the bytes into that answer (see [`splice_tools`]).
#[derive(Debug, Clone, Default)]
pub struct Outbox(Arc<Mutex<VecDeque<Left>>>);

/// A page left in an [`Outbox`] for the answer to a request.
type Left = (RequestId, Arc<[u8]>);

/// Pages left in an [`Outbox`] whose answer was never written (a
/// cancelled request) are forgotten past this many.
const OUTBOX_CAP: usize = 64;

impl Outbox {
    /// Leaves `bytes` for the answer to request `id`.
    pub fn put(&self, id: RequestId, bytes: Arc<[u8]>) {
        let mut queue = self.0.lock().unwrap_or_else(|e| e.into_inner());
        queue.retain(|(i, _)| *i != id);
        if queue.len() >= OUTBOX_CAP {
            queue.pop_front();
        }
        queue.push_back((id, bytes));
    }

    /// Takes the bytes left for the answer to request `id`.
    pub fn take(&self, id: &RequestId) -> Option<Arc<[u8]>> {
        let mut queue = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let at = queue.iter().position(|(i, _)| i == id)?;
        queue.remove(at).map(|(_, bytes)| bytes)
    }
}

/// `message` (a serialized `tools/list` answer whose `tools` is empty and
/// its last member, as rmcp writes it: `…,"tools":[]}}`) with `tools`
/// written into it; `None` when the message does not end so (the caller
/// then writes the tools as values, see [`tools_of`]).
pub fn splice_tools(message: &[u8], tools: &[u8]) -> Option<Vec<u8>> {
    const END: &[u8] = b"\"tools\":[]}}";
    let head = message.strip_suffix(END)?;
    let mut out = Vec::with_capacity(message.len() + tools.len());
    out.extend_from_slice(head);
    out.extend_from_slice(b"\"tools\":[");
    out.extend_from_slice(tools);
    out.extend_from_slice(b"]}}");
    Some(out)
}

/// The tools of a page's bytes, as values.
pub fn tools_of(bytes: &[u8]) -> Result<Vec<Tool>, String> {
    let mut text = Vec::with_capacity(bytes.len() + 2);
    text.push(b'[');
    text.extend_from_slice(bytes);
    text.push(b']');
    serde_json::from_slice(&text).map_err(|e| e.to_string())
}

#[cfg(test)]
#[path = "listing_tests.rs"]
mod tests;
