//! One catalog from the catalogs of several APIs: their tools side by
//! side (each API's a contiguous range, named with its prefix already),
//! built on demand by the API's own source. Tags become `<api>.<tag>`,
//! nested under a toolset per API, so `--tools toolsets` offers each API
//! whole or tag by tag and two APIs' `users` tags stay apart.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use crate::runtime::catalog::{LazyCatalog, ToolDef, ToolSource};

/// One API's catalog, with its label.
#[derive(Clone)]
pub struct Part {
    /// The API's name.
    pub label: String,
    /// Its tools.
    pub catalog: LazyCatalog,
}

/// Two APIs with a tool of the same name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "tool `{tool}` is in both `{first}` and `{second}`: give one of them a prefix (or another one)"
)]
pub struct Collision {
    /// The name.
    pub tool: String,
    /// The first API that has it.
    pub first: String,
    /// The second.
    pub second: String,
}

/// The merged catalog, and where each part's tools start.
pub fn merge(parts: &[Part]) -> Result<(LazyCatalog, Vec<usize>), Collision> {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    let mut heads = Vec::new();
    let mut firsts = Vec::with_capacity(parts.len());
    let mut tag_parents = BTreeMap::new();
    let mut security_schemes = BTreeMap::new();
    let mut sources = Vec::with_capacity(parts.len());
    for part in parts {
        let label = &part.label;
        firsts.push(heads.len());
        for head in part.catalog.heads.iter() {
            if let Some(first) = seen.insert(&head.name, label) {
                return Err(Collision {
                    tool: head.name.clone(),
                    first: first.to_string(),
                    second: label.clone(),
                });
            }
            let mut head = head.clone();
            head.origin.tags = tags_of(label, &head.origin.tags);
            for tag in &head.origin.tags {
                if tag != label {
                    tag_parents
                        .entry(tag.clone())
                        .or_insert_with(|| label.clone());
                }
            }
            heads.push(head);
        }
        for (child, parent) in &part.catalog.tag_parents {
            tag_parents.insert(format!("{label}.{child}"), format!("{label}.{parent}"));
        }
        for (name, scheme) in &part.catalog.security_schemes {
            security_schemes
                .entry(name.clone())
                .or_insert_with(|| scheme.clone());
        }
        sources.push(Arc::clone(&part.catalog.source));
    }
    let title = parts
        .iter()
        .map(|p| p.catalog.title.as_str())
        .collect::<Vec<_>>()
        .join(" + ");
    let version = parts
        .iter()
        .map(|p| format!("{} {}", p.label, p.catalog.version))
        .collect::<Vec<_>>()
        .join(", ");
    let source = Composite {
        labels: parts.iter().map(|p| p.label.clone()).collect(),
        firsts: firsts.clone(),
        sources,
    };
    Ok((
        LazyCatalog {
            title,
            version,
            description: None,
            security_schemes,
            tag_parents,
            heads: Arc::new(heads),
            source: Arc::new(source),
        },
        firsts,
    ))
}

/// `tags` in `label`'s namespace; an untagged tool is in the API's own
/// toolset.
fn tags_of(label: &str, tags: &[String]) -> Vec<String> {
    if tags.is_empty() {
        return vec![label.to_string()];
    }
    tags.iter().map(|t| format!("{label}.{t}")).collect()
}

/// Builds each tool with its API's source.
struct Composite {
    labels: Vec<String>,
    firsts: Vec<usize>,
    sources: Vec<Arc<dyn ToolSource>>,
}

impl Composite {
    /// The part tool `index` is in, and its index there.
    fn locate(&self, index: usize) -> (usize, usize) {
        let part = self
            .firsts
            .partition_point(|&f| f <= index)
            .saturating_sub(1);
        (part, index - self.firsts[part])
    }

    fn retag(&self, part: usize, mut def: ToolDef) -> ToolDef {
        def.origin.tags = tags_of(&self.labels[part], &def.origin.tags);
        def
    }
}

impl ToolSource for Composite {
    fn build(&self, index: usize) -> Result<ToolDef, String> {
        let (part, local) = self.locate(index);
        self.sources[part]
            .build(local)
            .map(|def| self.retag(part, def))
    }

    fn build_each(
        &self,
        indices: &[usize],
        sink: &(dyn Fn(usize, Result<ToolDef, String>) + Sync),
    ) {
        let mut by_part: Vec<Vec<usize>> = vec![Vec::new(); self.sources.len()];
        for &index in indices {
            let (part, local) = self.locate(index);
            by_part[part].push(local);
        }
        for (part, locals) in by_part.iter().enumerate() {
            if locals.is_empty() {
                continue;
            }
            let first = self.firsts[part];
            let own = |local: usize, def: Result<ToolDef, String>| {
                sink(first + local, def.map(|d| self.retag(part, d)));
            };
            self.sources[part].build_each(locals, &own);
        }
    }

    fn rebuilds(&self) -> bool {
        self.sources.iter().all(|s| s.rebuilds())
    }
}
