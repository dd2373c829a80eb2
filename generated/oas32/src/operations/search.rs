//! Operations tagged `search`.

#[allow(unused_imports)]
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use serde_json::{Number, Value};
use openapi2mcp_runtime::call::{Call, CallReport};

/// Arguments of `search_items` (QUERY `/items/search`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchItemsArgs {
    /// `text` in the request body (`application/json`).
    ///
    /// Words to search for.
    pub text: String,
    /// `limit` in the request body (`application/json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<Number>,
}

/// Search items
///
/// A safe, idempotent search whose criteria travel in the body (HTTP QUERY).
///
/// Tool `search_items`: QUERY `/items/search` (operationId `searchItems`).
pub async fn search_items(call: Call<'_>, args: SearchItemsArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `lookup_items` (GET `/items/lookup`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LookupItemsArgs {
    /// `selector` querystring parameter.
    pub selector: Value,
}

/// Look up items by a JSON selector
///
/// Tool `lookup_items`: GET `/items/lookup` (operationId `lookupItems`).
pub async fn lookup_items(call: Call<'_>, args: LookupItemsArgs) -> CallReport {
    call.send(&args).await
}
