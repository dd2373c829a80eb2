//! Your code for petstore-mcp. `openapi2mcp generate` wrote this file once,
//! because it was missing, and never writes it again: regenerating the
//! crate after the API description changed keeps what you put here
//! (everything else in `src/` is the generator's).
//!
//! [`Hooks`] has `before_call` and `after_call` for every call, and one
//! method per tool (named after the tool, with the tool's typed arguments);
//! each does by default what `openapi2mcp serve` does. Override what you
//! need in the `impl` below, for example:
//!
//! ```ignore
//! fn after_call(&self, call: Call<'_>, report: &mut CallReport) {
//!     tracing::info!(tool = call.tool_name(), status = ?report.status, "called");
//! }
//! ```

#[allow(unused_imports)]
use crate::operations::Hooks;

/// This server's custom behaviour; `main` builds it once with [`hooks`].
#[derive(Debug, Default)]
pub struct Custom;

/// Builds the hooks at start-up (open connections, read configuration
/// here).
pub fn hooks() -> Custom {
    Custom
}

impl Hooks for Custom {}
