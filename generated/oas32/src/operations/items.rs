//! Operations tagged `items`.

#![allow(unused_imports)]

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value};
use super::types::*;
use openapi2mcp_runtime::call::{Call, CallReport};
use openapi2mcp_runtime::typed::{self, MemberOrder};

/// Arguments of `list_items` (GET `/items`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListItemsArgs {
    /// `filter` querystring parameter.
    ///
    /// The whole query string, as form pairs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<ListItemsArgsFilter>,
}

/// The whole query string, as form pairs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct ListItemsArgsFilter {
    /// `q` member.
    ///
    /// Words the item's name contains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<String>,
    /// `tag` member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<Vec<String>>,
    /// `page` member.
    #[serde(
        default,
        deserialize_with = "openapi2mcp_runtime::typed::present_integers",
        skip_serializing_if = "Option::is_none"
    )]
    pub page: Option<i64>,
    /// The order the members came in, kept to send them on in it.
    #[serde(skip)]
    pub member_order: MemberOrder,
}

impl Serialize for ListItemsArgsFilter {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        typed::serialize_in_order(
            &self.member_order,
            ListItemsArgsFilter::serialize(self, serde_json::value::Serializer),
            s,
        )
    }
}

impl<'de> Deserialize<'de> for ListItemsArgsFilter {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (members, order) = typed::members_in_order(d)?;
        let mut this = ListItemsArgsFilter::deserialize(members)
            .map_err(serde::de::Error::custom)?;
        this.member_order = order;
        Ok(this)
    }
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
    #[serde(deserialize_with = "openapi2mcp_runtime::typed::integers")]
    pub id: i64,
}

/// Get an item
///
/// Tool `get_item`: GET `/items/{id}` (operationId `getItem`).
pub async fn get_item(call: Call<'_>, args: GetItemArgs) -> CallReport {
    call.send(&args).await
}
