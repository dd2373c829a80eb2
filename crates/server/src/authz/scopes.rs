//! Which scopes a token needs to call each tool: none (the default), the
//! scopes the OpenAPI document itself asks for on the operation
//! (`security` requirements naming OAuth 2.0 / OpenID Connect schemes), or
//! one scope for read-only tools and another for the rest.
//!
//! A rule is a list of alternatives; a token passes when it holds every
//! scope of at least one alternative. An empty list needs nothing.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use openapi2mcp_runtime::binding::SecurityScheme;
use openapi2mcp_runtime::catalog::ToolHead;

/// How per-tool scope requirements are decided.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ToolScopePolicy {
    /// No per-tool requirement.
    #[default]
    None,
    /// The operation's `security` requirements in the document: each
    /// requirement that names OAuth 2.0 or OpenID Connect schemes is an
    /// alternative made of their scopes. Requirements with no such scheme
    /// ask nothing of the MCP client's token.
    Document,
    /// `read` for tools annotated read-only, `write` for the others (either
    /// may be absent: no requirement for that kind).
    ReadWrite {
        /// Scope for read-only tools.
        read: Option<String>,
        /// Scope for every other tool.
        write: Option<String>,
    },
}

/// Alternatives of scope sets; see the module documentation.
pub type ScopeRule = Vec<Vec<String>>;

/// The rule of every tool of `tools` that needs scopes.
pub fn for_tools(
    tools: &[ToolHead],
    security_schemes: &BTreeMap<String, SecurityScheme>,
    policy: &ToolScopePolicy,
) -> HashMap<String, ScopeRule> {
    let mut out = HashMap::new();
    for tool in tools {
        let rule: ScopeRule = match policy {
            ToolScopePolicy::None => continue,
            ToolScopePolicy::ReadWrite { read, write } => {
                let scope = if tool.annotations.read_only_hint {
                    read
                } else {
                    write
                };
                scope.iter().map(|s| vec![s.clone()]).collect()
            }
            ToolScopePolicy::Document => {
                let mut alternatives = Vec::new();
                for requirement in &tool.security {
                    let oauth: Vec<_> = requirement
                        .schemes
                        .iter()
                        .filter(|u| {
                            matches!(
                                security_schemes.get(&u.name),
                                Some(SecurityScheme::OAuth2 { .. })
                                    | Some(SecurityScheme::OpenIdConnect { .. })
                            )
                        })
                        .collect();
                    if oauth.is_empty() {
                        // This alternative needs no OAuth scope at all.
                        alternatives.clear();
                        break;
                    }
                    let set: BTreeSet<String> = oauth
                        .iter()
                        .flat_map(|u| u.scopes.iter().cloned())
                        .collect();
                    alternatives.push(set.into_iter().collect());
                }
                if alternatives.iter().any(Vec::is_empty) {
                    alternatives.clear();
                }
                alternatives
            }
        };
        if !rule.is_empty() {
            out.insert(tool.name.clone(), rule);
        }
    }
    out
}

/// Whether `granted` satisfies `rule`; when not, the scopes of the
/// alternative closest to being met (for the `scope` parameter of the
/// `insufficient_scope` challenge).
pub fn check(rule: &[Vec<String>], granted: &BTreeSet<String>) -> Result<(), Vec<String>> {
    if rule.is_empty()
        || rule
            .iter()
            .any(|alt| alt.iter().all(|s| granted.contains(s)))
    {
        return Ok(());
    }
    let best = rule
        .iter()
        .min_by_key(|alt| alt.iter().filter(|s| !granted.contains(*s)).count())
        .cloned()
        .unwrap_or_default();
    Err(best)
}

/// Every scope any rule mentions, sorted (for `scopes_supported`).
pub fn mentioned<'a>(rules: impl Iterator<Item = &'a ScopeRule>) -> BTreeSet<String> {
    rules.flatten().flatten().cloned().collect()
}

#[cfg(test)]
#[path = "scopes_tests.rs"]
mod tests;
