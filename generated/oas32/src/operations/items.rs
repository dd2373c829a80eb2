//! Operations tagged `items`.

#[allow(unused_imports)]
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use serde_json::{Number, Value};
use openapi2mcp_runtime::call::{Call, CallReport};

/// Arguments of `list_items` (GET `/items`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListItemsArgs {
    /// `filter` querystring parameter.
    ///
    /// The whole query string, as form pairs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<Value>,
}

/// List items
///
/// The items of the catalog, filtered by the query string.
///
/// Tool `list_items`: GET `/items` (operationId `listItems`).
pub async fn list_items(call: Call<'_>, args: ListItemsArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `get_item` (GET `/items/{id}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetItemArgs {
    /// `id` path parameter.
    pub id: Number,
}

/// Get an item
///
/// Tool `get_item`: GET `/items/{id}` (operationId `getItem`).
pub async fn get_item(call: Call<'_>, args: GetItemArgs) -> CallReport {
    call.send(&args).await
}
