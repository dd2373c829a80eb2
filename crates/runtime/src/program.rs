//! Which program is running: `openapi2mcp` itself or a generated server.
//! The runtime and server crates are shared by both, so their own package
//! name would name neither; the binary says who it is once, at start-up,
//! and the `User-Agent` of API requests, MCP's `serverInfo` and telemetry's
//! `service.version` read it here.

use std::sync::OnceLock;

/// A program's name and version, as its `Cargo.toml` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Program {
    /// Package name, e.g. `openapi2mcp` or `petstore-mcp`.
    pub name: &'static str,
    /// Package version.
    pub version: &'static str,
}

static PROGRAM: OnceLock<Program> = OnceLock::new();

/// Records the running program (`env!("CARGO_PKG_NAME")`,
/// `env!("CARGO_PKG_VERSION")` of the binary). The first call wins: the
/// answer never changes while the process runs.
pub fn set(name: &'static str, version: &'static str) {
    let _ = PROGRAM.set(Program { name, version });
}

/// The running program: what [`set`] recorded, else `openapi2mcp` at the
/// version of these crates (a library user that never said: it runs
/// openapi2mcp's code).
pub fn get() -> Program {
    PROGRAM.get().copied().unwrap_or(Program {
        name: "openapi2mcp",
        version: env!("CARGO_PKG_VERSION"),
    })
}

/// `name/version`, the `User-Agent` of API requests.
pub fn user_agent() -> String {
    let program = get();
    format!("{}/{}", program.name, program.version)
}
