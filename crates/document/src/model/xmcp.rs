//! The `x-mcp` operation extension, typed: `x-mcp: false`,
//! `{exclude: true}`, `{enabled: false}` or `{skip: true}` (DoorDash's
//! oapi-codegen) drops the operation; `name`,
//! `title`, `description`, `annotations: {readOnlyHint, …}` override what
//! the tool would be.
//!
//! Other generators' extensions that mean the same are read too, so a
//! document annotated for them keeps its meaning here: Speakeasy's
//! `x-speakeasy-mcp` (`disabled`, `name`, `title`, `description`) and
//! Mintlify's `x-mint: {mcp: {enabled, name, description}}`, and Kong's
//! flat `x-kong-mcp-exclude`, `x-kong-mcp-tool-name` and
//! `x-kong-mcp-tool-description` (decK's `file openapi2mcp`). `x-mcp`
//! wins where both say something; [`XMcp::dialects`] names what was read
//! (`lint` reports it).

use serde_json::Value;

use crate::refs::Located;
use crate::{Diagnostic, Document};

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
    /// The other generators' extensions that said something here
    /// (`x-speakeasy-mcp`, `x-mint.mcp`), in the order read.
    pub dialects: Vec<&'static str>,
}

/// The operation extensions [`XMcp`] is read from: what planning a tool
/// reads of an operation's extensions (the lazy document keeps them in a
/// path item's outline).
pub const TOOL_EXTENSIONS: &[&str] = &[
    "x-mcp",
    "x-speakeasy-mcp",
    "x-mint",
    KONG_EXCLUDE,
    KONG_NAME,
    KONG_DESCRIPTION,
];

/// Kong's operation extensions (decK `file openapi2mcp`): flat keys, not
/// one mapping.
pub(super) const KONG_EXCLUDE: &str = "x-kong-mcp-exclude";
/// See [`KONG_EXCLUDE`].
pub(super) const KONG_NAME: &str = "x-kong-mcp-tool-name";
/// See [`KONG_EXCLUDE`].
pub(super) const KONG_DESCRIPTION: &str = "x-kong-mcp-tool-description";

/// Another generator's operation extension meaning what `x-mcp` means.
pub(super) struct Dialect<'a> {
    /// Its name, as `lint` reports it.
    pub(super) name: &'static str,
    /// Its node.
    pub(super) node: Located<'a>,
    /// The key that, `true`, leaves the operation out (`disabled`), or,
    /// `false`, does (`enabled`).
    pub(super) switch: (&'static str, bool),
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
        let excluded = map.get("exclude").and_then(Value::as_bool) == Some(true)
            || map.get("skip").and_then(Value::as_bool) == Some(true)
            || map.get("enabled").and_then(Value::as_bool) == Some(false);
        Ok(Self {
            exclude: excluded,
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
            dialects: Vec::new(),
        })
    }

    /// Fills what `x-mcp` left unsaid from `dialect` (a mapping; anything
    /// else says nothing and is ignored, as its own generator would).
    pub(super) fn merge(&mut self, dialect: Dialect<'_>) {
        let Value::Object(map) = dialect.node.value else {
            return;
        };
        let (key, leaves_out_when) = dialect.switch;
        let text = |k: &str| map.get(k).and_then(Value::as_str).map(str::to_string);
        self.fill(
            dialect.name,
            map.get(key).and_then(Value::as_bool) == Some(leaves_out_when),
            [text("name"), text("title"), text("description")],
        );
    }

    /// Fills what `x-mcp` left unsaid from Kong's flat keys on the
    /// operation `op` (a value of another type says nothing).
    pub(super) fn merge_kong(&mut self, op: &Value) {
        let text = |k: &str| op.get(k).and_then(Value::as_str).map(str::to_string);
        self.fill(
            "x-kong-mcp",
            op.get(KONG_EXCLUDE).and_then(Value::as_bool) == Some(true),
            [text(KONG_NAME), None, text(KONG_DESCRIPTION)],
        );
    }

    /// Takes what a dialect said (`exclude`; name, title, description)
    /// where `x-mcp` said nothing, and notes the dialect if it said any.
    fn fill(
        &mut self,
        dialect: &'static str,
        exclude: bool,
        [name, title, description]: [Option<String>; 3],
    ) {
        let mut said = false;
        if exclude {
            self.exclude = true;
            said = true;
        }
        for (field, value) in [
            (&mut self.name, name),
            (&mut self.title, title),
            (&mut self.description, description),
        ] {
            if field.is_none() && value.is_some() {
                *field = value;
                said = true;
            }
        }
        if self.description.is_some() {
            self.description_given = true;
        }
        if said {
            self.dialects.push(dialect);
        }
    }
}
