//! Operations tagged `admin`.

#[allow(unused_imports)]
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use serde_json::{Number, Value};
use openapi2mcp_runtime::call::{Call, CallReport};

/// Arguments of `copy_item` (COPY `/items/{id}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CopyItemArgs {
    /// `id` path parameter.
    pub id: Number,
    /// `Destination` header parameter.
    ///
    /// Where the copy goes.
    #[serde(rename = "Destination")]
    pub destination: String,
}

/// Copy an item
///
/// Copies the item under a new id (a WebDAV-style COPY).
///
/// Tool `copy_item`: COPY `/items/{id}` (operationId `copyItem`).
pub async fn copy_item(call: Call<'_>, args: CopyItemArgs) -> CallReport {
    call.send(&args).await
}
