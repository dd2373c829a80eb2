//! The `x-mcp` operation extension, typed: `x-mcp: false` or
//! `{exclude: true}` drops the operation; `name`, `title`, `description`,
//! `annotations: {readOnlyHint, …}` override what the tool would be.

use serde_json::Value;

use crate::document::refs::Located;
use crate::document::{Diagnostic, Document};

/// Hints given explicitly in `x-mcp.annotations`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HintOverrides {
    /// `readOnlyHint`.
    pub read_only_hint: Option<bool>,
    /// `destructiveHint`.
    pub destructive_hint: Option<bool>,
    /// `idempotentHint`.
    pub idempotent_hint: Option<bool>,
    /// `openWorldHint`.
    pub open_world_hint: Option<bool>,
}

/// The `x-mcp` extension of an operation (see the module docs).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct XMcp {
    /// Leave the operation out.
    pub exclude: bool,
    /// Tool name to use (sanitized).
    pub name: Option<String>,
    /// Title to use.
    pub title: Option<String>,
    /// Description to use.
    pub description: Option<String>,
    /// Whether `description` is present at all (whatever its type).
    pub description_given: bool,
    /// Annotation hints to force.
    pub annotations: HintOverrides,
}

impl XMcp {
    /// Reads the extension node `ext` (absent: the defaults); a malformed
    /// one is a diagnostic.
    pub(super) fn read(doc: &Document, ext: Option<Located<'_>>) -> Result<Self, Diagnostic> {
        let Some(ext) = ext else {
            return Ok(Self::default());
        };
        let map = match ext.value {
            Value::Bool(b) => {
                return Ok(Self {
                    exclude: !b,
                    ..Self::default()
                });
            }
            Value::Object(m) => m,
            _ => {
                return Err(Diagnostic::warning(
                    doc.display_name(ext.file),
                    ext.pointer.clone(),
                    "`x-mcp` must be false or a mapping; the operation is skipped",
                ));
            }
        };
        let text = |k: &str| map.get(k).and_then(Value::as_str).map(str::to_string);
        let hints = map.get("annotations");
        let hint = |k: &str| hints.and_then(|h| h.get(k)).and_then(Value::as_bool);
        Ok(Self {
            exclude: map.get("exclude").and_then(Value::as_bool).unwrap_or(false),
            name: text("name"),
            title: text("title"),
            description: text("description"),
            description_given: map.contains_key("description"),
            annotations: HintOverrides {
                read_only_hint: hint("readOnlyHint"),
                destructive_hint: hint("destructiveHint"),
                idempotent_hint: hint("idempotentHint"),
                open_world_hint: hint("openWorldHint"),
            },
        })
    }
}
