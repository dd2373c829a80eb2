//! What the meta-tools do (their definitions are in [`super::meta`]):
//! search, describe and call in `discovery` mode; list, enable and disable
//! toolsets in `toolsets` mode; and which tools a session lists.

use rmcp::model::{CallToolResponse, CallToolResult, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{Map, Value, json};

use super::Bridge;
use super::confirm::{Gate, Retry};
use super::listing::ToolsMode;
use super::meta::{MetaTool, kind, names_arg, ok, refuse, string_arg};
use std::sync::Arc;

use openapi2mcp_runtime::call::{Missing, ToolId};
use openapi2mcp_runtime::search::ToolIndex;

/// One entry of a session's tool list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Listed {
    /// A meta-tool, by position in the mode's meta-tools.
    Meta(usize),
    /// A catalog tool, by position.
    Tool(usize),
}

/// Most hits `search_tools` returns.
const MAX_LIMIT: usize = 50;
/// Hits when the caller gives no limit.
const DEFAULT_LIMIT: usize = 10;
/// Longest one-line summary in search results.
const SUMMARY_CHARS: usize = 160;

impl Bridge {
    /// The meta-tool of this mode called `name`.
    pub(super) fn meta_tool(&self, name: &str) -> Option<MetaTool> {
        self.inner
            .meta
            .iter()
            .find(|(m, ..)| m.name() == name)
            .map(|(m, ..)| *m)
    }

    /// What this session lists, in order (not used in `full` mode, whose
    /// pages are fixed at start-up).
    pub(super) fn listed_tools(&self) -> Vec<Listed> {
        let inner = &self.inner;
        // Toolsets chosen by the request: switching them per session means
        // nothing, so only list_toolsets is offered.
        let mut listed: Vec<Listed> = (0..inner.meta.len())
            .filter(|i| {
                self.request_toolsets.is_none()
                    || !matches!(
                        inner.meta[*i].0,
                        MetaTool::EnableToolset | MetaTool::DisableToolset
                    )
            })
            .map(Listed::Meta)
            .collect();
        if inner.mode == ToolsMode::Toolsets {
            let enabled = self.enabled_toolsets();
            let mut tools: Vec<usize> = enabled
                .iter()
                .flat_map(|set| inner.toolsets.members[*set].iter().copied())
                .filter(|i| self.allowed(*i))
                .collect();
            tools.sort_unstable();
            tools.dedup();
            listed.extend(tools.into_iter().map(Listed::Tool));
        } else if inner.mode == ToolsMode::Full {
            // Full mode lists from here only when the list depends on the
            // caller's scopes.
            listed.extend(
                (0..inner.heads.len())
                    .filter(|i| self.allowed(*i))
                    .map(Listed::Tool),
            );
        }
        listed
    }

    /// An entry's definition and serialized size, building the tool on
    /// first use; `None` for a tool that cannot be built (left out of the
    /// list, with a warning in the log).
    pub(super) fn listed(&self, entry: Listed) -> Option<(&Tool, usize)> {
        match entry {
            Listed::Meta(i) => {
                let (_, tool, size) = &self.inner.meta[i];
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

    /// Whether `tool` takes the selector argument (`--response-filter`).
    pub(super) fn selectable(&self, tool: ToolId) -> bool {
        self.inner
            .prepared
            .get(tool.index())
            .is_ok_and(|shown| shown.selectable)
    }

    /// The toolsets this session has enabled, as positions in the
    /// catalog this request works on (the session keeps names: see
    /// `Session::enabled`), in order.
    fn enabled_toolsets(&self) -> Vec<usize> {
        let names = match &self.request_toolsets {
            Some(chosen) => chosen.as_ref().clone(),
            None => match self.session.enabled.lock() {
                Ok(set) => set.clone(),
                Err(poisoned) => poisoned.into_inner().clone(),
            },
        };
        let mut sets: Vec<usize> = names
            .iter()
            .filter_map(|name| self.inner.toolsets.find(name))
            .collect();
        sets.sort_unstable();
        sets.dedup();
        sets
    }

    /// In `toolsets` mode, the refusal for a tool whose toolset this
    /// session has not enabled.
    pub(super) fn not_enabled(&self, tool: ToolId) -> Option<CallToolResult> {
        let inner = &self.inner;
        if inner.mode != ToolsMode::Toolsets {
            return None;
        }
        let set = inner.toolsets.of_tool[tool.index()];
        if self.enabled_toolsets().contains(&set) {
            return None;
        }
        Some(refuse(format!(
            "tool `{}` belongs to the toolset `{}`, which is not enabled: call enable_toolset with names [\"{}\"] first",
            inner.heads[tool.index()].name,
            inner.toolsets.names[set],
            inner.toolsets.names[set]
        )))
    }

    /// Runs meta-tool `m`. Mistakes in its arguments are `isError` results
    /// the model can act on; only transport-level failures are errors.
    pub(super) async fn call_meta(
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
            MetaTool::ExecuteReadOnly | MetaTool::Execute => {
                return self.execute(m, &args, context).await;
            }
            MetaTool::EnableToolset | MetaTool::DisableToolset => {
                return Ok(self.switch_toolsets(m, &args, context).await?.into());
            }
        })
    }

    /// The search index, waiting for it while it is being built.
    pub(super) async fn index(&self) -> Result<Arc<ToolIndex>, &'static str> {
        let Some(index) = &self.inner.index else {
            return Err("search_tools is not available in this listing mode");
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

    async fn search(&self, args: &Map<String, Value>) -> CallToolResult {
        let index = match self.index().await {
            Ok(index) => index,
            Err(why) => return refuse(why),
        };
        let query = match string_arg(MetaTool::Search, args, "query") {
            Ok(q) => q,
            Err(why) => return refuse(why),
        };
        let limit = match args.get("limit") {
            None | Some(Value::Null) => DEFAULT_LIMIT,
            Some(v) => match v.as_u64() {
                Some(n) if (1..=MAX_LIMIT as u64).contains(&n) => n as usize,
                _ => {
                    return refuse(format!(
                        "search_tools: `limit` must be an integer from 1 to {MAX_LIMIT}, not {v}"
                    ));
                }
            },
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
        // Tools the caller's scopes do not allow are not found (more are
        // asked for so that the limit is still reached).
        let hits = if self.caller_scopes.is_some() {
            let mut hits = index.search(query, MAX_LIMIT.max(limit * 4), tag);
            hits.retain(|h| self.allowed(h.index));
            hits.truncate(limit);
            hits
        } else {
            index.search(query, limit, tag)
        };
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

    async fn describe(&self, args: &Map<String, Value>) -> CallToolResult {
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

    async fn call_through(
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
        let inner = &self.inner;
        let hits = match self.index().await {
            Ok(index) => index.search(name, 3, None),
            Err(_) => Vec::new(),
        };
        if hits.is_empty() {
            return "search_tools finds tools by what they do".into();
        }
        let names: Vec<String> = hits
            .iter()
            .map(|h| format!("`{}`", inner.heads[h.index].name))
            .collect();
        format!("did you mean {}?", names.join(", "))
    }

    fn list_toolsets(&self) -> CallToolResult {
        let inner = &self.inner;
        let enabled = self.enabled_toolsets();
        let mut items = Vec::with_capacity(inner.toolsets.names.len());
        let mut text = String::new();
        for (i, name) in inner.toolsets.names.iter().enumerate() {
            let members = &inner.toolsets.members[i];
            let on = enabled.contains(&i);
            let examples: Vec<&str> = members
                .iter()
                .take(3)
                .map(|t| {
                    let tool = &inner.heads[*t];
                    if tool.title.is_empty() {
                        tool.name.as_str()
                    } else {
                        tool.title.as_str()
                    }
                })
                .collect();
            let parent = inner
                .toolsets
                .parent
                .get(i)
                .copied()
                .flatten()
                .map(|p| inner.toolsets.names[p].as_str());
            text.push_str(&format!(
                "- {name}{}{}: {} tools, e.g. {}\n",
                parent.map(|p| format!(" (in {p})")).unwrap_or_default(),
                if on { " (enabled)" } else { "" },
                members.len(),
                examples.join("; ")
            ));
            let mut item = json!({
                "name": name,
                "tools": members.len(),
                "enabled": on,
                "examples": examples,
            });
            if let Some(parent) = parent {
                item["parent"] = json!(parent);
            }
            items.push(item);
        }
        ok(json!({"toolsets": items}), text)
    }

    async fn switch_toolsets(
        &self,
        m: MetaTool,
        args: &Map<String, Value>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        if self.request_toolsets.is_some() {
            return Ok(refuse(format!(
                "{}: on this connection the toolsets are chosen per request, not per session: connect to {}{{name,name}} or send the {} header naming them",
                m.name(),
                super::selection::TOOLSETS_PATH,
                super::selection::TOOLSETS_HEADER
            )));
        }
        let names = match names_arg(m, args, 50) {
            Ok(n) => n,
            Err(why) => return Ok(refuse(why)),
        };
        let sets = match self.inner.toolsets.resolve_names(&names) {
            Ok(s) => s,
            Err(why) => return Ok(refuse(format!("{}: {why}", m.name()))),
        };
        let changed = {
            let mut enabled = match self.session.enabled.lock() {
                Ok(g) => g,
                Err(poisoned) => poisoned.into_inner(),
            };
            let mut changed = false;
            for set in &sets {
                let name = &self.inner.toolsets.names[*set];
                changed |= if m == MetaTool::EnableToolset {
                    enabled.insert(name.clone())
                } else {
                    enabled.remove(name)
                };
            }
            changed
        };
        if changed {
            let _ = context.peer.notify_tool_list_changed().await;
        }
        let inner = &self.inner;
        let enabled: Vec<&str> = self
            .enabled_toolsets()
            .iter()
            .map(|s| inner.toolsets.names[*s].as_str())
            .collect();
        let tools: usize = self
            .enabled_toolsets()
            .iter()
            .map(|s| inner.toolsets.members[*s].len())
            .sum();
        let text = format!(
            "Enabled toolsets: {} ({tools} tools).{}",
            if enabled.is_empty() {
                "none".to_string()
            } else {
                enabled.join(", ")
            },
            if changed {
                " The tool list has changed."
            } else {
                " Nothing changed."
            }
        );
        Ok(ok(
            json!({"enabled": enabled, "tools": tools, "changed": changed}),
            text,
        ))
    }
}

/// The description's first sentence, when it says more than the title.
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

#[cfg(test)]
#[path = "discovery_tests.rs"]
mod tests;
