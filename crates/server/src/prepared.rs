//! The server's tools, each built the first time a client needs it: listed
//! in `full` mode or an enabled toolset, described, or called. Start-up
//! only knows the heads ([`ToolHead`]: names, descriptions, hints), so a
//! server over Microsoft Graph's 11,000 operations that lists four
//! meta-tools builds nothing it is not asked for; every tool is built at
//! most once per catalog and then shared by listing and calls.

use std::sync::{Arc, OnceLock};

use bytes::{BufMut, Bytes, BytesMut};
use rmcp::model::Tool;

use super::shape::{add_selector, into_tool};
use openapi2mcp_runtime::auth::fixed::FixedHeaders;
use openapi2mcp_runtime::call::{EndpointSource, ToolEndpoint};
use openapi2mcp_runtime::catalog::{ToolDef, ToolHead, ToolSource};

/// Tools serialized as `tools/list` carries them, or why one cannot be.
/// Each tool's bytes are a slice of a larger buffer its thread packs tools
/// into (see [`serialize_packed`]).
pub(super) type Serialized = Vec<Result<Bytes, String>>;

/// One tool as the server shows it, and what calls need of it.
pub(super) struct Shown {
    /// The tool as `tools/list` and `describe_tools` carry it.
    pub tool: Tool,
    /// Its serialized size plus a separator, for paging.
    pub size: usize,
    /// Whether it takes the selector argument (`--response-filter`).
    pub selectable: bool,
    /// Whether an argument of it is annotated `x-mcp-header`: clients
    /// mirror it into an `Mcp-Param-*` header, which rmcp checks against
    /// the body (see `Bridge::get_tool`).
    pub mirrors_headers: bool,
    endpoint: ToolEndpoint,
}

/// Every tool of one catalog, built on demand.
pub(super) struct Prepared {
    source: Arc<dyn ToolSource>,
    response_filter: bool,
    /// The operator's `--header`s of each API (from its first tool on):
    /// the arguments they fill are taken out.
    headers: Vec<(usize, Arc<FixedHeaders>)>,
    /// Which tools a confirmation gates: they name the review form
    /// ([`super::app_review`]).
    confirm: super::confirm::ConfirmPolicy,
    slots: Vec<OnceLock<Result<Shown, String>>>,
}

impl Prepared {
    /// Tools of `heads`, built by `source` when first needed; arguments
    /// that `headers` fill are not shown; those `confirm` gates name the
    /// review form.
    pub fn new(
        heads: &[ToolHead],
        source: Arc<dyn ToolSource>,
        response_filter: bool,
        headers: Vec<(usize, Arc<FixedHeaders>)>,
        confirm: super::confirm::ConfirmPolicy,
    ) -> Self {
        Self {
            source,
            response_filter,
            headers,
            confirm,
            slots: heads.iter().map(|_| OnceLock::new()).collect(),
        }
    }

    /// Tool `index` as shown, building it on first use; `Err` says why it
    /// cannot be served.
    pub fn get(&self, index: usize) -> Result<&Shown, &str> {
        let Some(slot) = self.slots.get(index) else {
            return Err("no such tool");
        };
        slot.get_or_init(|| self.build(index))
            .as_ref()
            .map_err(String::as_str)
    }

    fn build(&self, index: usize) -> Result<Shown, String> {
        let def = self.source.build(index)?;
        let (shown, _) = self.show(index, def, false)?;
        Ok(shown)
    }

    /// The `--header`s of the API tool `index` calls.
    fn headers_of(&self, index: usize) -> Option<&FixedHeaders> {
        let after = self.headers.partition_point(|(first, _)| *first <= index);
        after.checked_sub(1).map(|at| &*self.headers[at].1)
    }

    /// A built tool as shown, and its serialized form when `keep_bytes`.
    fn show(
        &self,
        index: usize,
        mut def: ToolDef,
        keep_bytes: bool,
    ) -> Result<(Shown, Option<Bytes>), String> {
        if let Some(headers) = self.headers_of(index) {
            headers.strip_from(&mut def);
        }
        let name = def.name.clone();
        let gated = self.confirm.applies(&def.annotations);
        let (mut tool, endpoint) = into_tool(def).map_err(|e| e.to_string())?;
        if gated {
            super::app_review::name_the_form(&mut tool);
        }
        let selectable = self.response_filter && add_selector(&mut tool);
        let bytes = if keep_bytes {
            Some(serialize_packed(&tool).map_err(|e| format!("tool `{name}`: {e}"))?)
        } else {
            None
        };
        let size = match &bytes {
            Some(bytes) => bytes.len(),
            None => openapi2mcp_runtime::wire::json_size(&tool),
        } + 1;
        let mirrors_headers = mirrors_headers(&tool);
        tracing::debug!(tool = %name, bytes = size, "tool built");
        let shown = Shown {
            tool,
            size,
            selectable,
            mirrors_headers,
            endpoint,
        };
        Ok((shown, bytes))
    }

    /// Every tool of `indices` serialized as `tools/list` carries it (compact
    /// JSON), built on every core the source can use; `Err` says why a
    /// tool cannot be listed. A tool built for this is kept only when the
    /// source cannot build it again ([`ToolSource::rebuilds`]): a list of
    /// 11,000 tools is then held as its bytes alone (26 MB for Microsoft
    /// Graph, against several times that as values), and a tool is built
    /// again the first time it is described or called.
    pub fn serialize_each(&self, indices: &[usize]) -> Serialized {
        let keep = !self.source.rebuilds();
        // Where each tool goes in `out`, by tool number (a tool asked for
        // twice goes to its last place, as a map would have it).
        let mut position = vec![usize::MAX; indices.iter().max().map_or(0, |m| m + 1)];
        for (at, &i) in indices.iter().enumerate() {
            position[i] = at;
        }
        let out: Vec<OnceLock<Result<Bytes, String>>> =
            indices.iter().map(|_| OnceLock::new()).collect();
        let sink = |index: usize, def: Result<ToolDef, String>| {
            let Some(&at) = position.get(index).filter(|&&at| at != usize::MAX) else {
                return;
            };
            let shown = def.and_then(|def| self.show(index, def, true));
            let listed = match shown {
                Ok((shown, bytes)) => {
                    let bytes = bytes.unwrap_or_default();
                    if keep && let Some(slot) = self.slots.get(index) {
                        let _ = slot.set(Ok(shown));
                    }
                    Ok(bytes)
                }
                Err(why) => {
                    if let Some(slot) = self.slots.get(index) {
                        let _ = slot.set(Err(why.clone()));
                    }
                    Err(why)
                }
            };
            let _ = out[at].set(listed);
        };
        // Tools built already are not asked for again (a source may hand
        // each tool out once).
        let mut todo = Vec::with_capacity(indices.len());
        for (at, &index) in indices.iter().enumerate() {
            match self.slots.get(index).and_then(OnceLock::get) {
                Some(Ok(shown)) => {
                    let bytes = serialize_packed(&shown.tool).map_err(|e| e.to_string());
                    let _ = out[at].set(bytes);
                }
                Some(Err(why)) => {
                    let _ = out[at].set(Err(why.clone()));
                }
                None => todo.push(index),
            }
        }
        self.source.build_each(&todo, &sink);
        out.into_iter()
            .map(|slot| {
                slot.into_inner()
                    .unwrap_or_else(|| Err("the tool was not built".to_string()))
            })
            .collect()
    }
}

/// `tool` as compact JSON, packed with the tools serialized before it on
/// this thread into one buffer of [`PACK_CHUNK`] bytes (the slice keeps
/// its buffer alive). A vector per tool, grown by doubling, cost a third
/// of serializing in reallocations and their page faults (11,000 tools of
/// a few kB each for Microsoft Graph), and vectors of exactly each size
/// spread over every size class of the allocator (5–8 MB more peak RSS).
fn serialize_packed(tool: &Tool) -> serde_json::Result<Bytes> {
    thread_local! {
        static PACK: std::cell::RefCell<BytesMut> = std::cell::RefCell::new(BytesMut::new());
    }
    PACK.with(|pack| {
        let Ok(mut pack) = pack.try_borrow_mut() else {
            return serde_json::to_vec(tool).map(Bytes::from);
        };
        if pack.capacity() - pack.len() < PACK_ROOM {
            *pack = BytesMut::with_capacity(PACK_CHUNK);
        }
        match serde_json::to_writer((&mut *pack).writer(), tool) {
            Ok(()) => Ok(pack.split().freeze()),
            Err(e) => {
                pack.clear();
                Err(e)
            }
        }
    })
}

/// The buffer tools are packed into (see [`serialize_packed`]).
const PACK_CHUNK: usize = 256 * 1024;
/// Room left in the buffer below which the next tool starts a new one (a
/// larger tool grows the buffer, copying itself only).
const PACK_ROOM: usize = 16 * 1024;

/// The SEP-2243 schema keyword naming the header an argument is mirrored
/// into (the tool model writes it; see `tools::mcp_headers`).
const MCP_HEADER: &str = "x-mcp-header";

/// Whether a property of `tool`'s input schema (at any depth along
/// `properties`, as SEP-2243 clients look) carries `x-mcp-header`.
fn mirrors_headers(tool: &Tool) -> bool {
    fn walk(schema: &serde_json::Map<String, serde_json::Value>, depth: usize) -> bool {
        let Some(serde_json::Value::Object(props)) = schema.get("properties") else {
            return false;
        };
        props
            .values()
            .filter_map(|p| p.as_object())
            .any(|p| p.contains_key(MCP_HEADER) || (depth < 8 && walk(p, depth + 1)))
    }
    walk(&tool.input_schema, 0)
}

impl EndpointSource for Prepared {
    fn endpoint(&self, index: usize) -> Result<ToolEndpoint, String> {
        self.get(index)
            .map(|shown| shown.endpoint.clone())
            .map_err(str::to_string)
    }
}

#[cfg(test)]
#[path = "prepared_tests.rs"]
mod tests;
