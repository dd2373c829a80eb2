//! Which scopes a token needs to call each tool: none (the default), the
//! scopes the OpenAPI document itself asks for on the operation
//! (`security` requirements naming OAuth 2.0 / OpenID Connect schemes), or
//! one scope for read-only tools and another for the rest.
//!
//! A rule is a list of alternatives; a token passes when it holds every
//! scope of at least one alternative. An empty list needs nothing.
//!
//! An Arazzo workflow tool needs what each of its steps needs (the
//! conjunction of their rules, nested workflows included), whatever the
//! policy: the HTTP guard and `tools/list` then treat it as any other
//! tool, and a token that may not run one of its steps cannot start it.

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

/// Most alternatives a workflow's combined rule keeps; past it the rule
/// becomes one alternative holding every scope its steps mention (stricter,
/// never looser, than the exact conjunction).
pub const MAX_ALTERNATIVES: usize = 64;

/// The rule of every tool of `tools` that needs scopes.
pub fn for_tools(
    tools: &[ToolHead],
    security_schemes: &BTreeMap<String, SecurityScheme>,
    policy: &ToolScopePolicy,
) -> HashMap<String, ScopeRule> {
    let mut out = HashMap::new();
    for tool in tools {
        if !tool.steps.is_empty() {
            // A workflow: from its steps' rules, below.
            continue;
        }
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
    if *policy == ToolScopePolicy::None {
        return out;
    }
    let by_name: HashMap<&str, &ToolHead> = tools.iter().map(|t| (t.name.as_str(), t)).collect();
    let mut done = HashMap::new();
    let mut workflows = Vec::new();
    for tool in tools.iter().filter(|t| !t.steps.is_empty()) {
        let (rule, _) = workflow_rule(tool, &by_name, &out, &mut done, &mut Vec::new());
        if !rule.is_empty() {
            workflows.push((tool.name.clone(), rule));
        }
    }
    out.extend(workflows);
    out
}

/// The rule of workflow `tool`: the conjunction of its steps' rules
/// (`operations`). A nested workflow's rule is computed once (`done`)
/// unless it was cut short: `path` holds the workflows being computed,
/// and a step calling one of them (a cycle) adds nothing more, since its
/// steps are counted already. Returns the rule and whether a cycle was
/// cut below `tool`.
fn workflow_rule(
    tool: &ToolHead,
    by_name: &HashMap<&str, &ToolHead>,
    operations: &HashMap<String, ScopeRule>,
    done: &mut HashMap<String, ScopeRule>,
    path: &mut Vec<String>,
) -> (ScopeRule, bool) {
    if let Some(rule) = done.get(&tool.name) {
        return (rule.clone(), false);
    }
    path.push(tool.name.clone());
    let mut rule = ScopeRule::new();
    let mut cut = false;
    for step in &tool.steps {
        let step_rule = match by_name.get(step.as_str()) {
            Some(head) if !head.steps.is_empty() => {
                if path.contains(&head.name) {
                    cut = true;
                    continue;
                }
                let (nested, nested_cut) = workflow_rule(head, by_name, operations, done, path);
                cut |= nested_cut;
                nested
            }
            _ => operations.get(step).cloned().unwrap_or_default(),
        };
        rule = both(&rule, &step_rule);
    }
    path.pop();
    if !cut {
        done.insert(tool.name.clone(), rule.clone());
    }
    (rule, cut)
}

/// A rule met exactly when both `a` and `b` are: one alternative of each,
/// together (alternatives that hold another are dropped); past
/// [`MAX_ALTERNATIVES`], every scope of both in one alternative.
pub fn both(a: &[Vec<String>], b: &[Vec<String>]) -> ScopeRule {
    if a.is_empty() {
        return b.to_vec();
    }
    if b.is_empty() {
        return a.to_vec();
    }
    let mut sets: Vec<BTreeSet<String>> = Vec::new();
    for x in a {
        for y in b {
            let set: BTreeSet<String> = x.iter().chain(y).cloned().collect();
            if !sets.contains(&set) {
                sets.push(set);
            }
        }
    }
    // A token meeting a smaller alternative needs no larger one holding it.
    let minimal: Vec<&BTreeSet<String>> = sets
        .iter()
        .filter(|s| !sets.iter().any(|t| t != *s && t.is_subset(s)))
        .collect();
    if minimal.len() > MAX_ALTERNATIVES {
        let every: BTreeSet<String> = a.iter().chain(b).flatten().cloned().collect();
        return vec![every.into_iter().collect()];
    }
    minimal
        .into_iter()
        .map(|s| s.iter().cloned().collect())
        .collect()
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
