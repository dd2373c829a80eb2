//! `toolsets` mode's home: the catalog grouped by tag (nested as the
//! tags are), what a session or a request has enabled, and the meta-tools
//! that list, enable and disable toolsets. Which toolsets a request
//! selects by URL or header is in [`super::selection`].

use std::collections::{BTreeMap, BTreeSet};

use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{Map, Value, json};

use super::super::{Bridge, ServeError};
use super::meta::{MetaTool, names_arg, ok, refuse};
use openapi2mcp_runtime::call::ToolId;
use openapi2mcp_runtime::catalog::ToolHead;

/// `toolsets` mode's state for one catalog: the groups, and the toolsets
/// a session starts with (`--toolset`).
#[derive(Debug, Clone, Default)]
pub(crate) struct ToolsetsState {
    /// The catalog's toolsets.
    pub(crate) sets: Toolsets,
    /// Toolsets enabled when a session starts, by name.
    pub(crate) initial: BTreeSet<String>,
}

impl ToolsetsState {
    /// The toolsets of `heads` (nested as `tag_parents` says), with
    /// `initial` (names given to `--toolset`) resolved; an unknown name is
    /// an error naming what exists.
    pub(crate) fn new(
        heads: &[ToolHead],
        tag_parents: &BTreeMap<String, String>,
        initial: &[String],
    ) -> Result<Self, ServeError> {
        let mut sets = Toolsets::group(
            heads
                .iter()
                .map(|h| h.origin.tags.first().map(String::as_str)),
        );
        sets.nest(tag_parents);
        let initial = sets
            .resolve_names(initial)
            .map_err(ServeError::Options)?
            .into_iter()
            .map(|i| sets.names[i].clone())
            .collect();
        Ok(Self { sets, initial })
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
    pub fn nest(&mut self, parents: &BTreeMap<String, String>) {
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

impl Bridge {
    /// Keeps this HTTP session's enabled toolsets by its id, so that they
    /// survive the session's sleep (see [`crate::sessions`]); forgotten
    /// when they are `--toolset`'s again, or when the session ends.
    fn keep_session_toolsets(&self, context: &RequestContext<RoleServer>) {
        let Some(id) = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|p| p.headers.get("mcp-session-id"))
            .and_then(|v| v.to_str().ok())
        else {
            return;
        };
        let enabled = self
            .session
            .enabled
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let mut kept = self
            .shared
            .session_toolsets
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if enabled == self.inner.listing.initial_toolsets() {
            kept.remove(id);
        } else {
            kept.insert(id.to_string(), enabled);
        }
    }

    /// After a sleeping session woke (rmcp replayed its `initialize` with
    /// the session's id), the toolsets it had enabled.
    pub(crate) fn restore_session_toolsets(&self, id: &str) {
        let kept = self
            .shared
            .session_toolsets
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned();
        if let Some(kept) = kept {
            *self
                .session
                .enabled
                .lock()
                .unwrap_or_else(|e| e.into_inner()) = kept;
        }
    }

    /// The toolsets this session has enabled, as positions in the
    /// catalog this request works on (the session keeps names: see
    /// `Session::enabled`), in order.
    pub(crate) fn enabled_toolsets(&self) -> Vec<usize> {
        let names = match &self.request_toolsets {
            Some(chosen) => chosen.as_ref().clone(),
            None => match self.session.enabled.lock() {
                Ok(set) => set.clone(),
                Err(poisoned) => poisoned.into_inner().clone(),
            },
        };
        let Some(state) = self.inner.listing.toolsets() else {
            return Vec::new();
        };
        let mut sets: Vec<usize> = names
            .iter()
            .filter_map(|name| state.sets.find(name))
            .collect();
        sets.sort_unstable();
        sets.dedup();
        sets
    }

    /// In `toolsets` mode, the refusal for a tool whose toolset this
    /// session has not enabled.
    pub(crate) fn not_enabled(&self, tool: ToolId) -> Option<CallToolResult> {
        let sets = &self.inner.listing.toolsets()?.sets;
        let set = sets.of_tool[tool.index()];
        if self.enabled_toolsets().contains(&set) {
            return None;
        }
        Some(refuse(format!(
            "tool `{}` belongs to the toolset `{}`, which is not enabled: call enable_toolset with names [\"{}\"] first",
            self.inner.heads[tool.index()].name,
            sets.names[set],
            sets.names[set]
        )))
    }

    /// `list_toolsets`: every toolset with its size, a few examples,
    /// its parent and whether this session has it enabled.
    pub(crate) fn list_toolsets(&self) -> CallToolResult {
        let inner = &self.inner;
        let Some(state) = inner.listing.toolsets() else {
            return refuse("list_toolsets: this server does not list tools by toolset");
        };
        let sets = &state.sets;
        let enabled = self.enabled_toolsets();
        let mut items = Vec::with_capacity(sets.names.len());
        let mut text = String::new();
        for (i, name) in sets.names.iter().enumerate() {
            let members = &sets.members[i];
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
            let parent = sets
                .parent
                .get(i)
                .copied()
                .flatten()
                .map(|p| sets.names[p].as_str());
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

    /// `enable_toolset` / `disable_toolset` for this session.
    pub(crate) async fn switch_toolsets(
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
        let Some(state) = self.inner.listing.toolsets() else {
            return Ok(refuse(format!(
                "{}: this server does not list tools by toolset",
                m.name()
            )));
        };
        let sets = match state.sets.resolve_names(&names) {
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
                let name = &state.sets.names[*set];
                changed |= if m == MetaTool::EnableToolset {
                    enabled.insert(name.clone())
                } else {
                    enabled.remove(name)
                };
            }
            changed
        };
        if changed {
            self.keep_session_toolsets(context);
            let _ = context.peer.notify_tool_list_changed().await;
        }
        let enabled: Vec<&str> = self
            .enabled_toolsets()
            .iter()
            .map(|s| state.sets.names[*s].as_str())
            .collect();
        let tools: usize = self
            .enabled_toolsets()
            .iter()
            .map(|s| state.sets.members[*s].len())
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

#[cfg(test)]
#[path = "toolsets_tests.rs"]
mod tests;
