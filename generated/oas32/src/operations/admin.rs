//! Operations tagged `admin`.

#![allow(unused_imports)]

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value};
use super::types::*;
use openapi2mcp_runtime::call::{Call, CallReport};
use openapi2mcp_runtime::typed::{self, MemberOrder};

/// Arguments of `copy_item` (COPY `/items/{id}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CopyItemArgs {
    /// `id` path parameter.
    #[serde(deserialize_with = "openapi2mcp_runtime::typed::integers")]
    pub id: i64,
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
