//! A dump of the ignored test `discovery::dump_search_scores` (one
//! document's tools as the server indexes them, and the query sets'
//! requests for it), read and indexed: what the search examples
//! (`search_bench`, `search_eval`) share.

use openapi2mcp_server::search::{SearchEntry, ToolIndex};
use serde_json::Value;

/// The strings of a JSON array (none for anything else).
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// One dump: its tools' fields and its requests (each with `q`, `set`
/// and `expect`).
pub struct Dump {
    /// Name, title, description, method and path of each tool.
    pub tools: Vec<[String; 5]>,
    /// Each tool's tags.
    pub tags: Vec<Vec<String>>,
    /// Each tool's argument names.
    pub params: Vec<Vec<String>>,
    /// Each tool's `readOnlyHint` and `destructiveHint` (by its method
    /// in a dump written without them).
    pub hints: Vec<(bool, bool)>,
    /// The requests, as dumped.
    pub queries: Vec<Value>,
}

impl Dump {
    /// Reads the dump at `path`; panics naming the file when it cannot.
    pub fn read(path: &str) -> Self {
        let dump: Value =
            serde_json::from_slice(&std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}")))
                .unwrap_or_else(|e| panic!("{path}: {e}"));
        let tools = dump["tools"].as_array().expect("tools");
        let text = |t: &Value, k: &str| t[k].as_str().unwrap_or_default().to_string();
        Self {
            tools: tools
                .iter()
                .map(|t| {
                    [
                        text(t, "name"),
                        text(t, "title"),
                        text(t, "description"),
                        text(t, "method"),
                        text(t, "path"),
                    ]
                })
                .collect(),
            tags: tools.iter().map(|t| strings(&t["tags"])).collect(),
            params: tools.iter().map(|t| strings(&t["args"])).collect(),
            hints: tools
                .iter()
                .map(|t| {
                    let (read_only, destructive) =
                        SearchEntry::method_reads(t["method"].as_str().unwrap_or_default());
                    (
                        t["read_only"].as_bool().unwrap_or(read_only),
                        t["destructive"].as_bool().unwrap_or(destructive),
                    )
                })
                .collect(),
            queries: dump["queries"].as_array().expect("queries").clone(),
        }
    }

    /// The search index over the dump's tools, as the server builds it.
    pub fn index(&self) -> ToolIndex {
        ToolIndex::new(self.tools.iter().enumerate().map(
            |(i, [name, title, description, method, path])| SearchEntry {
                name,
                title,
                description,
                tags: &self.tags[i],
                method,
                path,
                params: &self.params[i],
                read_only: self.hints[i].0,
                destructive: self.hints[i].1,
            },
        ))
    }

    /// `METHOD /path` of tool `i`, as the query sets name operations.
    pub fn operation(&self, i: usize) -> String {
        format!("{} {}", self.tools[i][3], self.tools[i][4])
    }
}
