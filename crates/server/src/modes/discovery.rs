//! `discovery` mode's home: the search index over the catalog (also
//! behind code mode's `search_api`), and what its meta-tools do (their
//! definitions are in [`super::meta`]): search, describe and call.
//!
//! A build without the `search` feature has no index: discovery mode is
//! refused at start-up (see [`super::unavailable`]), and the "did you
//! mean" of an unknown name offers nothing.

use rmcp::model::{CallToolResponse, CallToolResult};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{Map, Value, json};

use super::super::Bridge;
use super::super::confirm::{Gate, Retry};
use super::meta::{MetaTool, kind, names_arg, ok, refuse, string_arg};
#[cfg(feature = "search")]
use std::sync::Arc;
#[cfg(feature = "search")]
use std::time::Instant;

#[cfg(feature = "search")]
use crate::search::{SearchEntry, ToolIndex};
use openapi2mcp_runtime::call::Missing;
#[cfg(feature = "search")]
use openapi2mcp_runtime::catalog::ToolHead;

/// The search index of a catalog, `None` until its thread has built it.
#[cfg(feature = "search")]
pub(crate) type Index = tokio::sync::watch::Receiver<Option<Arc<ToolIndex>>>;

/// What a search answers in a build without the `search` feature.
#[cfg(not(feature = "search"))]
const NOT_BUILT: &str =
    "search is not available: this server was built without the `search` feature";

/// Builds the search index over `heads` on a thread of its own and hands
/// it over when ready: over Microsoft Graph's 11,000 tools it takes a
/// few hundred milliseconds that start-up need not wait for. A search
/// arriving earlier waits for it.
#[cfg(feature = "search")]
pub(crate) fn index(heads: Arc<Vec<ToolHead>>) -> Index {
    let (ready, index) = tokio::sync::watch::channel(None);
    let spawned = std::thread::Builder::new()
        .name("search-index".into())
        .spawn(move || {
            let started = Instant::now();
            let index = ToolIndex::new(heads.iter().map(SearchEntry::from));
            tracing::debug!(
                tools = heads.len(),
                ms = started.elapsed().as_millis() as u64,
                "search index built"
            );
            let _ = ready.send(Some(Arc::new(index)));
        });
    if let Err(e) = spawned {
        tracing::warn!(
            "could not start the search index thread ({e}): search_tools is unavailable"
        );
    }
    index
}

/// Most hits `search_tools` returns.
#[cfg(feature = "search")]
const MAX_LIMIT: usize = 50;
/// Hits when the caller gives no limit.
#[cfg(feature = "search")]
const DEFAULT_LIMIT: usize = 10;
/// Longest one-line summary in search results.
#[cfg(feature = "search")]
const SUMMARY_CHARS: usize = 160;

impl Bridge {
    /// The search index, waiting for it while it is being built.
    #[cfg(feature = "search")]
    pub(crate) async fn index(&self) -> Result<Arc<ToolIndex>, &'static str> {
        let index = match &self.inner.listing.state {
            super::ModeState::Discovery(index) => index,
            #[cfg(feature = "code")]
            super::ModeState::Code(index) => index,
            _ => return Err("search_tools is not available in this listing mode"),
        };
        let mut index = index.clone();
        match index.wait_for(Option::is_some).await {
            Ok(ready) => ready
                .as_ref()
                .map(Arc::clone)
                .ok_or("the search index is not ready"),
            Err(_) => Err("the search index could not be built (see the server log)"),
        }
    }

    /// The best `limit` hits for `query` among the tools the caller may
    /// see: tools the caller's scopes do not allow are not found (more
    /// are asked of the index so that the limit is still reached).
    #[cfg(feature = "search")]
    pub(crate) fn visible_hits(
        &self,
        index: &ToolIndex,
        query: &str,
        limit: usize,
        tag: Option<&str>,
    ) -> Vec<crate::search::Hit> {
        if self.caller_scopes.is_none() {
            return index.search(query, limit, tag);
        }
        let mut hits = index.search(query, MAX_LIMIT.max(limit * 4), tag);
        hits.retain(|h| self.allowed(h.index));
        hits.truncate(limit);
        hits
    }

    /// `search_tools` in a build without the `search` feature.
    #[cfg(not(feature = "search"))]
    pub(crate) async fn search(&self, _args: &Map<String, Value>) -> CallToolResult {
        refuse(NOT_BUILT)
    }

    /// `search_tools`: the tools best matching a request, ranked.
    #[cfg(feature = "search")]
    pub(crate) async fn search(&self, args: &Map<String, Value>) -> CallToolResult {
        let index = match self.index().await {
            Ok(index) => index,
            Err(why) => return refuse(why),
        };
        let query = match string_arg(MetaTool::Search, args, "query") {
            Ok(q) => q,
            Err(why) => return refuse(why),
        };
        let limit = match super::meta::limit_arg(MetaTool::Search, args, DEFAULT_LIMIT, MAX_LIMIT) {
            Ok(n) => n,
            Err(why) => return refuse(why),
        };
        let tag = match args.get("tag") {
            None | Some(Value::Null) => None,
            Some(Value::String(t)) if !t.trim().is_empty() => Some(t.trim()),
            Some(v) => {
                return refuse(format!(
                    "search_tools: `tag` must be a non-empty string, not {}",
                    kind(v)
                ));
            }
        };
        if let Some(t) = tag
            && !index.tags().iter().any(|k| k.eq_ignore_ascii_case(t))
        {
            let mut tags = index.tags();
            let more = tags.len().saturating_sub(30);
            tags.truncate(30);
            return refuse(format!(
                "search_tools: no tool has the tag `{t}`; tags are: {}{}",
                tags.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            ));
        }
        let hits = self.visible_hits(&index, query, limit, tag);
        let inner = &self.inner;
        let mut items = Vec::with_capacity(hits.len());
        let mut text = if hits.is_empty() {
            format!(
                "No tool matches \"{query}\". Try other words for the task or the thing it acts on."
            )
        } else {
            format!("{} tools for \"{query}\", best first:\n", hits.len())
        };
        for hit in &hits {
            let tool = &inner.heads[hit.index];
            let read_only = tool.annotations.read_only_hint;
            let (method, path) = (&tool.origin.method, &tool.origin.path);
            let title = tool.title.as_str();
            let summary = summary(&tool.description, title);
            let call_with = if read_only {
                MetaTool::CallReadOnly.name()
            } else {
                MetaTool::Call.name()
            };
            text.push_str(&format!(
                "- {} — {} ({} {}){}\n",
                tool.name,
                title,
                method,
                path,
                if read_only { " [read-only]" } else { "" }
            ));
            let mut item = json!({
                "name": tool.name,
                "title": title,
                "method": method,
                "path": path,
                "readOnly": read_only,
                "callWith": call_with,
            });
            if let Some(s) = summary {
                item["summary"] = json!(s);
            }
            items.push(item);
        }
        if !hits.is_empty() {
            text.push_str(
                "Next: describe_tools for their arguments, then call_read_only_tool (read-only tools) or call_tool.",
            );
        }
        ok(json!({"query": query, "tools": items}), text)
    }

    /// `describe_tools`: the full definitions of named tools.
    pub(crate) async fn describe(&self, args: &Map<String, Value>) -> CallToolResult {
        let names = match names_arg(MetaTool::Describe, args, 20) {
            Ok(n) => n,
            Err(why) => return refuse(why),
        };
        let api = &self.inner.api;
        let mut tools = Vec::new();
        let mut unknown = Vec::new();
        let mut broken = Vec::new();
        for name in &names {
            let built = api.index_of(name).map(|i| self.inner.prepared.get(i));
            match built {
                Some(Ok(shown)) => {
                    tools.push(serde_json::to_value(&shown.tool).unwrap_or(Value::Null))
                }
                Some(Err(why)) => broken.push(json!({"name": name, "error": why})),
                None => unknown.push(name.as_str()),
            }
        }
        if tools.is_empty() && !broken.is_empty() {
            let why: Vec<String> = broken
                .iter()
                .map(|b| {
                    format!(
                        "`{}`: {}",
                        b["name"].as_str().unwrap_or_default(),
                        b["error"].as_str().unwrap_or_default()
                    )
                })
                .collect();
            return refuse(format!(
                "describe_tools: these tools cannot be served: {}",
                why.join("; ")
            ));
        }
        if tools.is_empty() {
            return refuse(format!(
                "describe_tools: no tool {}; {}",
                quoted(&unknown),
                self.suggest(unknown.first().copied().unwrap_or_default())
                    .await
            ));
        }
        let mut structured = json!({"tools": tools});
        if !unknown.is_empty() {
            structured["unknown"] = json!(unknown);
        }
        if !broken.is_empty() {
            structured["broken"] = json!(broken);
        }
        let text = serde_json::to_string(&structured).unwrap_or_default();
        ok(structured, text)
    }

    /// `call_tool` / `call_read_only_tool`: a named tool called as a
    /// direct `tools/call` would be.
    pub(crate) async fn call_through(
        &self,
        m: MetaTool,
        mut args: Map<String, Value>,
        retry: Retry<'_>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = match string_arg(m, &args, "name") {
            Ok(n) => n.to_string(),
            Err(why) => return Ok(refuse(why).into()),
        };
        let mut arguments = match args.remove("arguments") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(a)) => a,
            Some(other) => {
                return Ok(refuse(format!(
                    "{}: `arguments` must be an object of the tool's arguments, not {}",
                    m.name(),
                    kind(&other)
                ))
                .into());
            }
        };
        let select = match args.remove("select") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s),
            Some(other) => {
                return Ok(refuse(format!(
                    "{}: `select` must be a jq expression (a string), not {}",
                    m.name(),
                    kind(&other)
                ))
                .into());
            }
        };
        let Some(index) = self.inner.api.index_of(&name) else {
            return Ok(refuse(format!(
                "{}: no tool `{name}`; {}",
                m.name(),
                self.suggest(&name).await
            ))
            .into());
        };
        let head = &self.inner.heads[index];
        if m == MetaTool::CallReadOnly && !head.annotations.read_only_hint {
            return Ok(refuse(format!(
                "call_read_only_tool: `{name}` is not read-only ({} {}); call it with call_tool",
                head.origin.method, head.origin.path
            ))
            .into());
        }
        if let Some(why) = self.scope_refusal(&name, context) {
            return Ok(refuse(format!("{}: {why}", m.name())).into());
        }
        let tool = match self.inner.api.find(&name) {
            Ok(tool) => tool,
            Err(Missing::Broken(why)) => {
                return Ok(refuse(format!(
                    "{}: tool `{name}` cannot be served: {why}",
                    m.name()
                ))
                .into());
            }
            Err(Missing::Unknown) => {
                return Ok(refuse(format!("{}: no tool `{name}`", m.name())).into());
            }
        };
        if let Gate::Answer(answer) = self
            .gate(tool, &name, &mut arguments, retry.0, retry.1, context)
            .await?
        {
            return Ok(*answer);
        }
        self.run_call(tool, &name, arguments, select, context).await
    }

    /// "did you mean" for a name that is no tool: the best search hits.
    async fn suggest(&self, name: &str) -> String {
        #[cfg(feature = "search")]
        let names: Vec<String> = match self.index().await {
            Ok(index) => index
                .search(name, 3, None)
                .iter()
                .map(|h| format!("`{}`", self.inner.heads[h.index].name))
                .collect(),
            Err(_) => Vec::new(),
        };
        #[cfg(not(feature = "search"))]
        let names: Vec<String> = {
            let _ = name;
            Vec::new()
        };
        if names.is_empty() {
            return "search_tools finds tools by what they do".into();
        }
        format!("did you mean {}?", names.join(", "))
    }
}

/// The description's first sentence, when it says more than the title.
#[cfg(feature = "search")]
fn summary(description: &str, title: &str) -> Option<String> {
    let first = meta_first_sentence(description);
    if first.is_empty() || first.trim_end_matches('.') == title.trim_end_matches('.') {
        return None;
    }
    let mut s: String = first.chars().take(SUMMARY_CHARS).collect();
    if s.len() < first.len() {
        s.push('…');
    }
    Some(s)
}

/// The first sentence (or line) of `text`.
#[cfg(feature = "search")]
fn meta_first_sentence(text: &str) -> &str {
    let text = text.trim_start();
    let line = text.split('\n').next().unwrap_or_default();
    match line.find(". ") {
        Some(i) => &line[..=i],
        None => line.trim_end(),
    }
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(all(test, feature = "search"))]
#[path = "discovery_tests.rs"]
mod tests;
