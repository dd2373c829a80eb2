//! The document's top-level `tags`, as far as the tool model needs them:
//! OpenAPI 3.2's `parent`, which nests a tag under another (so a toolset
//! can hold the toolsets of its children).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::diag::push_token;
use crate::{Diagnostic, Document};

impl Document {
    /// Each tag's `parent` (OpenAPI 3.2), child name to parent name. A
    /// parent that names no tag of the document, or one that would close
    /// a cycle, is left out with a warning (the specification forbids
    /// both).
    pub fn tag_parents(&self, diags: &mut Vec<Diagnostic>) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        let Some(Value::Array(tags)) = self.root().get("tags") else {
            return out;
        };
        let file = self.display_name(self.root_key());
        let names: Vec<&str> = tags
            .iter()
            .filter_map(|t| t.get("name").and_then(Value::as_str))
            .collect();
        for (at, tag) in tags.iter().enumerate() {
            let (Some(name), Some(parent)) = (
                tag.get("name").and_then(Value::as_str),
                tag.get("parent").and_then(Value::as_str),
            ) else {
                continue;
            };
            let pointer = push_token(&format!("/tags/{at}"), "parent");
            if !names.contains(&parent) {
                diags.push(Diagnostic::warning(
                    file,
                    pointer,
                    format!("tag `{name}` names parent `{parent}`, which is not a tag of the document; not nested"),
                ));
                continue;
            }
            // Walking up from the parent must not come back to `name`.
            let mut up = Some(parent);
            let mut steps = 0;
            while let Some(p) = up.filter(|p| *p != name && steps <= names.len()) {
                up = out.get(p).map(String::as_str);
                steps += 1;
            }
            if up.is_some() {
                diags.push(Diagnostic::warning(
                    file,
                    pointer,
                    format!(
                        "tag `{name}` under `{parent}` would make a cycle of parents; not nested"
                    ),
                ));
                continue;
            }
            out.insert(name.to_string(), parent.to_string());
        }
        out
    }
}
