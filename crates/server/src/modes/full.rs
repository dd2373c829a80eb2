//! `full` mode's home: every tool listed, in pages serialized once at
//! start-up and handed out by cursor; a transport that writes bytes gets
//! a page's bytes as they are (see [`Outbox`]).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};

use std::time::Instant;

use bytes::Bytes;
use rmcp::ErrorData as McpError;
use rmcp::model::{ListToolsResult, RequestId, Tool};

use super::super::prepared::{Prepared, Serialized};
use openapi2mcp_runtime::catalog::ToolHead;

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
    pub bytes: Bytes,
    /// How many tools.
    pub count: usize,
    /// The tools as values, made from `bytes` the first time a transport
    /// that cannot write bytes asks (streamable HTTP: rmcp serializes).
    values: OnceLock<Result<Vec<Tool>, String>>,
}

impl FullPages {
    /// The pages of every tool of `heads` that builds (a tool that does
    /// not is left out, with a warning), then of `after` (the meta-tools
    /// listed in full mode), each under `page_bytes`; `serialized` when
    /// `auto` had to serialize them all to decide.
    pub(crate) fn build(
        heads: &[ToolHead],
        prepared: &Prepared,
        serialized: Option<Serialized>,
        page_bytes: usize,
        after: &[&Tool],
    ) -> Self {
        let started = Instant::now();
        let serialized = serialized
            .unwrap_or_else(|| prepared.serialize_each(&(0..heads.len()).collect::<Vec<_>>()));
        let listed = heads
            .iter()
            .zip(serialized)
            .filter_map(|(head, bytes)| match bytes {
                Ok(bytes) => Some(bytes),
                Err(why) => {
                    tracing::warn!(
                        tool = %head.name,
                        "{} {} is not listed: {why}",
                        head.origin.method,
                        head.origin.path
                    );
                    None
                }
            })
            .chain(
                after
                    .iter()
                    .filter_map(|tool| serde_json::to_vec(tool).ok().map(Bytes::from)),
            );
        let full = Self::assemble(listed, page_bytes);
        tracing::debug!(
            tools = full.tools(),
            pages = full.len(),
            ms = started.elapsed().as_millis() as u64,
            "full list built and serialized"
        );
        full
    }

    /// The `tools/list` answer for `cursor`: a transport that writes pages
    /// from bytes (`outbox`, with the request's id) gets the page's bytes
    /// there and an answer whose `tools` it fills in; any other gets the
    /// tools as values.
    pub(crate) fn answer(
        &self,
        cursor: Option<String>,
        outbox: Option<(&Outbox, &RequestId)>,
    ) -> Result<ListToolsResult, McpError> {
        let index = match cursor {
            None => 0,
            Some(c) => c
                .parse::<usize>()
                .ok()
                .filter(|i| *i < self.len())
                .ok_or_else(|| McpError::invalid_params(format!("invalid cursor `{c}`"), None))?,
        };
        let page = self
            .page(index)
            .ok_or_else(|| McpError::internal_error("no tools/list page", None))?;
        let tools = match outbox {
            Some((outbox, id)) if page.count > 0 => {
                outbox.put(id.clone(), page.bytes.clone());
                Vec::new()
            }
            _ => page
                .values()
                .map_err(|e| McpError::internal_error(format!("tools/list: {e}"), None))?,
        };
        let mut result = ListToolsResult::with_all_items(tools);
        result.next_cursor = (index + 1 < self.len()).then(|| (index + 1).to_string());
        Ok(result)
    }

    /// Pages of `tools` (each tool serialized, let go of once copied into
    /// its page), each under `max_bytes`
    /// (tool bytes plus a separator each; at least one tool per page, and
    /// one page even when there are no tools).
    pub fn assemble<B: AsRef<[u8]>>(tools: impl IntoIterator<Item = B>, max_bytes: usize) -> Self {
        // Each page is written once into room for a whole page, and held
        // as written (growing it by doubling, then copying it into a
        // shared slice, copied Graph's 26 MB three times on one core).
        let room = max_bytes.min(MAX_PAGE_ROOM);
        let close = |page: &mut Vec<u8>, count: &mut usize| Page {
            bytes: Bytes::from(std::mem::take(page)),
            count: std::mem::take(count),
            values: OnceLock::new(),
        };
        let mut pages = Vec::new();
        let mut page: Vec<u8> = Vec::new();
        let mut count = 0;
        let mut size = 0;
        let mut all = 0;
        for tool in tools {
            let tool = tool.as_ref();
            all += 1;
            let len = tool.len() + 1;
            if count > 0 && size + len > max_bytes {
                pages.push(close(&mut page, &mut count));
                size = 0;
            }
            if count > 0 {
                page.push(b',');
            } else {
                page.reserve(room.max(len));
            }
            page.extend_from_slice(tool);
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

/// Room a page is given before its first tool (at most): a page is
/// written into room for all of it (see [`FullPages::assemble`]).
const MAX_PAGE_ROOM: usize = 4 << 20;

/// Pages a transport writes from bytes instead of serializing `tools`:
/// the stdio transport hands one to each `tools/list` request (in its
/// extensions); the handler leaves the page's bytes here under the
/// request's id and answers with an empty `tools`, and the transport
/// writes the bytes into that answer (see [`splice_tools`]).
#[derive(Debug, Clone, Default)]
pub struct Outbox(Arc<Mutex<VecDeque<Left>>>);

/// A page left in an [`Outbox`] for the answer to a request.
type Left = (RequestId, Bytes);

/// Pages left in an [`Outbox`] whose answer was never written (a
/// cancelled request) are forgotten past this many.
const OUTBOX_CAP: usize = 64;

impl Outbox {
    /// Leaves `bytes` for the answer to request `id`.
    pub fn put(&self, id: RequestId, bytes: Bytes) {
        let mut queue = self.0.lock().unwrap_or_else(|e| e.into_inner());
        queue.retain(|(i, _)| *i != id);
        if queue.len() >= OUTBOX_CAP {
            queue.pop_front();
        }
        queue.push_back((id, bytes));
    }

    /// Takes the bytes left for the answer to request `id`.
    pub fn take(&self, id: &RequestId) -> Option<Bytes> {
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
#[path = "full_tests.rs"]
mod tests;
