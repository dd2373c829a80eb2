//! The selector worker of a build without the `jq` feature: no jq engine
//! is compiled in, so a selector is refused with the reason (the server
//! refuses `--response-filter` at start-up before any call gets here),
//! and the process never acts as a worker.

use std::path::PathBuf;

use serde_json::Value;

use super::SelectError;

/// The variable a worker process would be started with (none is, in this
/// build).
pub const WORKER_ENV: &str = crate::settings::SELECTOR_WORKER;

/// Memory budget of a worker process (none runs in this build).
pub const MEMORY_LIMIT: u64 = 1 << 30;

/// Accepted and unused: no worker runs in this build.
pub fn set_worker_program(_path: PathBuf) -> Result<(), PathBuf> {
    Ok(())
}

/// No selector runs at once in this build.
pub fn max_workers() -> usize {
    0
}

/// This process is never a selector worker in this build.
pub fn serve_as_worker() -> Option<u8> {
    None
}

/// Refuses `expression`: no jq engine in this build.
pub(super) async fn apply(
    expression: &str,
    _input: Value,
    _max_bytes: usize,
) -> Result<Value, SelectError> {
    Err(SelectError::NotBuilt {
        expression: expression.to_string(),
    })
}
