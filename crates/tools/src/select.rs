//! Selection: which operations become tools. Include lists narrow (a tool
//! must match each non-empty one), exclude lists remove, `read_only` keeps
//! only tools with `readOnlyHint`. Operations are named before selection,
//! so narrowing never renames a tool.

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

use openapi2mcp_model::catalog::ToolHead;

/// Filters over tags, operation ids / tool names, methods and path globs.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Keep tools with at least one of these tags.
    pub include_tags: Vec<String>,
    /// Drop tools with any of these tags.
    pub exclude_tags: Vec<String>,
    /// Keep tools whose operationId or tool name is listed.
    pub include_operations: Vec<String>,
    /// Drop tools whose operationId or tool name is listed.
    pub exclude_operations: Vec<String>,
    /// Keep tools with one of these HTTP methods (case-insensitive).
    pub methods: Vec<String>,
    /// Keep tools whose path matches one of these globs (`*` stays within
    /// a segment, `**` crosses segments: `/repos/**`).
    pub include_paths: PathGlobs,
    /// Drop tools whose path matches one of these globs.
    pub exclude_paths: PathGlobs,
    /// Keep only read-only tools.
    pub read_only: bool,
}

/// A compiled list of path globs (with the patterns kept for display).
#[derive(Debug, Clone, Default)]
pub struct PathGlobs {
    patterns: Vec<String>,
    set: Option<GlobSet>,
}

impl PathGlobs {
    /// Compiles glob patterns; an invalid one is an error naming it.
    pub fn new(patterns: &[String]) -> Result<Self, String> {
        if patterns.is_empty() {
            return Ok(Self::default());
        }
        let mut builder = GlobSetBuilder::new();
        for p in patterns {
            let glob: Glob = GlobBuilder::new(p)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("invalid path glob `{p}`: {e}"))?;
            builder.add(glob);
        }
        let set = builder
            .build()
            .map_err(|e| format!("invalid path globs: {e}"))?;
        Ok(Self {
            patterns: patterns.to_vec(),
            set: Some(set),
        })
    }

    fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    fn matches(&self, path: &str) -> bool {
        self.set.as_ref().is_some_and(|s| s.is_match(path))
    }
}

impl Selection {
    /// Whether `tool` is selected.
    pub fn keeps(&self, tool: &ToolHead) -> bool {
        let o = &tool.origin;
        let has_tag = |tags: &[String]| o.tags.iter().any(|t| tags.contains(t));
        let named = |list: &[String]| {
            list.iter()
                .any(|n| *n == tool.name || o.operation_id.as_deref() == Some(n.as_str()))
        };
        let method_ok = self.methods.is_empty()
            || self
                .methods
                .iter()
                .any(|m| m.eq_ignore_ascii_case(&o.method));
        (self.include_tags.is_empty() || has_tag(&self.include_tags))
            && !has_tag(&self.exclude_tags)
            && (self.include_operations.is_empty() || named(&self.include_operations))
            && !named(&self.exclude_operations)
            && method_ok
            && (self.include_paths.is_empty() || self.include_paths.matches(&o.path))
            && !self.exclude_paths.matches(&o.path)
            && (!self.read_only || tool.annotations.read_only_hint)
    }
}
