//! Operations tagged `search`.

#![allow(unused_imports)]

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value};
use super::types::*;
use openapi2mcp_runtime::call::{Call, CallReport};
use openapi2mcp_runtime::typed::{self, MemberOrder};

/// Arguments of `search_items` (QUERY `/items/search`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchItemsArgs {
    /// `text` in the request body (`application/json`).
    ///
    /// Words to search for.
    pub text: String,
    /// `limit` in the request body (`application/json`).
    #[serde(
        default,
        deserialize_with = "openapi2mcp_runtime::typed::present_integers",
        skip_serializing_if = "Option::is_none"
    )]
    pub limit: Option<i64>,
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
    pub selector: LookupItemsArgsSelector,
}

/// The `selector` member of [`LookupItemsArgs`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct LookupItemsArgsSelector {
    /// `ids` member.
    #[serde(
        default,
        deserialize_with = "openapi2mcp_runtime::typed::present_integers",
        skip_serializing_if = "Option::is_none"
    )]
    pub ids: Option<Vec<i64>>,
    /// `flag` member.
    #[serde(
        default,
        deserialize_with = "openapi2mcp_runtime::typed::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub flag: Option<Option<bool>>,
    /// Members the schema does not list, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
    /// The order the members came in, kept to send them on in it.
    #[serde(skip)]
    pub member_order: MemberOrder,
}

impl Serialize for LookupItemsArgsSelector {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        typed::serialize_in_order(
            &self.member_order,
            LookupItemsArgsSelector::serialize(self, serde_json::value::Serializer),
            s,
        )
    }
}

impl<'de> Deserialize<'de> for LookupItemsArgsSelector {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (members, order) = typed::members_in_order(d)?;
        let mut this = LookupItemsArgsSelector::deserialize(members)
            .map_err(serde::de::Error::custom)?;
        this.member_order = order;
        Ok(this)
    }
}

/// Look up items by a JSON selector
///
/// Tool `lookup_items`: GET `/items/lookup` (operationId `lookupItems`).
pub async fn lookup_items(call: Call<'_>, args: LookupItemsArgs) -> CallReport {
    call.send(&args).await
}
