//! Operations tagged `feeds`.

#![allow(unused_imports)]

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value};
use super::types::*;
use openapi2mcp_runtime::call::{Call, CallReport};
use openapi2mcp_runtime::typed::{self, MemberOrder};

/// Arguments of `watch_item` (GET `/items/{id}/events`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WatchItemArgs {
    /// `id` path parameter.
    #[serde(deserialize_with = "openapi2mcp_runtime::typed::integers")]
    pub id: i64,
}

/// Watch an item's changes
///
/// Server-Sent Events, one per change, until the item is deleted.
///
/// Tool `watch_item`: GET `/items/{id}/events` (operationId `watchItem`).
pub async fn watch_item(call: Call<'_>, args: WatchItemArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `stream_logs` (GET `/logs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StreamLogsArgs {
    /// `level` query parameter.
    #[serde(
        default,
        deserialize_with = "openapi2mcp_runtime::typed::present_integers",
        skip_serializing_if = "Option::is_none"
    )]
    pub level: Option<i64>,
}

/// Stream the log
///
/// Log entries as JSON Lines (or a JSON text sequence), as they are written.
///
/// Tool `stream_logs`: GET `/logs` (operationId `streamLogs`).
pub async fn stream_logs(call: Call<'_>, args: StreamLogsArgs) -> CallReport {
    call.send(&args).await
}
