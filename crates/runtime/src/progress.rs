//! Items of a streaming response (OpenAPI 3.2 sequential media types),
//! reported as they arrive: the server installs a sink for a call whose
//! client asked for progress (an MCP progress token), and the HTTP
//! client hands each item it reads to it before the stream ends. Kept
//! task-local, like the trace context, so the runtime needs no notion of
//! MCP and a call without a sink costs nothing.

use std::future::Future;
use std::sync::Arc;

use serde_json::Value;

/// Receives each item of a streaming response: its position (from 1)
/// and the item.
pub type ItemSink = Arc<dyn Fn(u64, &Value) + Send + Sync>;

tokio::task_local! {
    static SINK: ItemSink;
}

/// Runs `call` with `sink` receiving the items of the streaming
/// responses it reads (none: items are only collected).
pub async fn scope<F: Future>(sink: Option<ItemSink>, call: F) -> F::Output {
    match sink {
        Some(sink) => SINK.scope(sink, call).await,
        None => call.await,
    }
}

/// Whether the call on this task reports items.
pub fn active() -> bool {
    SINK.try_with(|_| ()).is_ok()
}

/// Reports item `index` (from 1) to the call's sink, if it has one.
pub fn report(index: u64, item: &Value) {
    let _ = SINK.try_with(|sink| sink(index, item));
}
