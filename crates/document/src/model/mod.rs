//! The resolved operation model: what a loaded [`Document`] says, per
//! operation, in typed form, so that nothing above the document layer
//! reads raw document JSON or knows OpenAPI dialects.
//!
//! The model is lazy and borrows from the document: walking the
//! operations ([`Document::operations`]) resolves path items and merges
//! parameters (cheap: names and locations are borrowed `&str`), while
//! request bodies, responses and schemas are resolved when asked for.
//! Every piece knows where it is (file and JSON pointer), so diagnostics
//! point at the document. Schemas are [`Schema`] handles that convert to
//! JSON Schema 2020-12 once, through [`super::dialect`]; the typed queries
//! callers need (object properties, binary detection, "is this an
//! object") live on the handle.
//!
//! One file per job: [`operations`] (the walk), [`parameters`],
//! [`bodies`] (request bodies and media types), [`responses`] (responses,
//! headers and examples), [`security`] (schemes, requirements, servers,
//! `info`), [`schema`] (schema handles), [`tags`] (tag nesting), [`xmcp`]
//! (the `x-mcp` extension),
//! [`lro`] (what says an operation is long-running: Azure's extension,
//! response links and their target operations).

pub mod bodies;
pub mod lro;
pub mod operations;
pub mod parameters;
pub mod pointers;
pub mod responses;
pub mod schema;
pub mod security;
pub mod tags;
pub mod xmcp;

pub use bodies::{Encoding, MediaType, RequestBody};
pub use lro::{Link, LongRunningExtension};
pub use operations::{Operation, PathItemLayout, PathItems};
pub use parameters::{McpHeaderExtension, Parameter};
pub use responses::{Header, Response};
pub use schema::{ObjectShape, RefTarget, ScalarType, Schema};
pub use security::Info;
pub use xmcp::{HintOverrides, TOOL_EXTENSIONS, XMcp};

#[cfg(test)]
mod boundary_tests;
#[cfg(test)]
mod tests;
