//! Tool annotations (MCP behaviour hints) from the HTTP method, and the
//! `x-mcp` operation extension (read by [`openapi2mcp_document::model`]) that
//! overrides name, title, description, annotations, or excludes the
//! operation.
//!
//! Hints by method: GET/HEAD/OPTIONS and QUERY (OpenAPI 3.2: a safe,
//! idempotent read with a body) are read-only; DELETE is destructive;
//! the read-only ones and PUT/DELETE are idempotent; every tool is open-world (it
//! talks to an external API). `destructiveHint` is always written, because
//! MCP's default when it is absent is `true`.

pub use openapi2mcp_document::model::{HintOverrides, XMcp};
pub use openapi2mcp_model::catalog::ToolAnnotations;

use crate::semantics::Reading;

/// Hints for an upper-case method, then what the operation's words say
/// beyond it ([`crate::semantics`]), then `x-mcp.annotations` on top.
pub fn for_operation(
    method: &str,
    reading: Option<&Reading>,
    title: &str,
    overrides: &XMcp,
) -> ToolAnnotations {
    let mut a = for_method(method, title, &XMcp::default());
    match reading {
        Some(Reading::Destroys(..)) => {
            a.read_only_hint = false;
            a.destructive_hint = true;
        }
        Some(Reading::Reads(..)) => {
            a.read_only_hint = true;
            a.destructive_hint = false;
            a.idempotent_hint = true;
        }
        None => {}
    }
    overridden(a, overrides)
}

/// Hints for an upper-case method, then `x-mcp.annotations` on top.
pub fn for_method(method: &str, title: &str, overrides: &XMcp) -> ToolAnnotations {
    let read_only = matches!(method, "GET" | "HEAD" | "OPTIONS" | "QUERY");
    let a = ToolAnnotations {
        title: title.to_string(),
        read_only_hint: read_only,
        destructive_hint: method == "DELETE",
        idempotent_hint: read_only || matches!(method, "PUT" | "DELETE"),
        open_world_hint: true,
    };
    overridden(a, overrides)
}

/// `a` with `x-mcp.annotations` on top.
fn overridden(mut a: ToolAnnotations, overrides: &XMcp) -> ToolAnnotations {
    let o = &overrides.annotations;
    a.read_only_hint = o.read_only_hint.unwrap_or(a.read_only_hint);
    a.destructive_hint = o.destructive_hint.unwrap_or(a.destructive_hint);
    a.idempotent_hint = o.idempotent_hint.unwrap_or(a.idempotent_hint);
    a.open_world_hint = o.open_world_hint.unwrap_or(a.open_world_hint);
    a
}

#[cfg(test)]
#[path = "annotations_tests.rs"]
mod tests;
