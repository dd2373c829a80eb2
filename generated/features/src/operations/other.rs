//! Operations without a tag.

#![allow(unused_imports)]

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value};
use super::types::*;
use openapi2mcp_runtime::call::{Call, CallReport};
use openapi2mcp_runtime::typed::{self, MemberOrder};

/// Arguments of `search_items` (GET `/search`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchItemsArgs {
    /// `q` query parameter.
    pub q: String,
    /// `tags` query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// `ids` query parameter.
    #[serde(
        default,
        deserialize_with = "openapi2mcp_runtime::typed::present_integers",
        skip_serializing_if = "Option::is_none"
    )]
    pub ids: Option<Vec<i64>>,
    /// `filter` query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<SearchItemsArgsFilter>,
    /// `sort` query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort: Option<Vec<String>>,
    /// `cursor` query parameter.
    ///
    /// Where the previous page ended; null for the first page.
    #[serde(
        default,
        deserialize_with = "openapi2mcp_runtime::typed::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub cursor: Option<Option<String>>,
    /// `X-Trace-Id` header parameter.
    #[serde(rename = "X-Trace-Id", default, skip_serializing_if = "Option::is_none")]
    pub x_trace_id: Option<String>,
    /// `session` cookie parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
}

/// The `filter` member of [`SearchItemsArgs`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct SearchItemsArgsFilter {
    /// `color` member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// `size` member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    /// Members the schema does not list, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
    /// The order the members came in, kept to send them on in it.
    #[serde(skip)]
    pub member_order: MemberOrder,
}

impl Serialize for SearchItemsArgsFilter {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        typed::serialize_in_order(
            &self.member_order,
            SearchItemsArgsFilter::serialize(self, serde_json::value::Serializer),
            s,
        )
    }
}

impl<'de> Deserialize<'de> for SearchItemsArgsFilter {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (members, order) = typed::members_in_order(d)?;
        let mut this = SearchItemsArgsFilter::deserialize(members)
            .map_err(serde::de::Error::custom)?;
        this.member_order = order;
        Ok(this)
    }
}

/// Search items
///
/// Tool `search_items`: GET `/search` (operationId `search`).
pub async fn search_items(call: Call<'_>, args: SearchItemsArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `list_items` (GET `/items`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListItemsArgs {}

/// List items
///
/// Tool `list_items`: GET `/items` (operationId `listItems`).
pub async fn list_items(call: Call<'_>, args: ListItemsArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `patch_item` (PATCH `/items/{id}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatchItemArgs {
    /// `id` path parameter.
    #[serde(deserialize_with = "openapi2mcp_runtime::typed::integers")]
    pub id: i64,
    /// `id` in the request body (`application/json`).
    ///
    /// A new external id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_id: Option<String>,
    /// `name` in the request body (`application/json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `note` in the request body (`application/json`).
    ///
    /// A note; null clears it.
    #[serde(
        default,
        deserialize_with = "openapi2mcp_runtime::typed::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub note: Option<Option<String>>,
}

/// Update an item
///
/// Tool `patch_item`: PATCH `/items/{id}` (operationId `patchItem`).
pub async fn patch_item(call: Call<'_>, args: PatchItemArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `delete_item` (DELETE `/items/{id}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeleteItemArgs {
    /// `id` path parameter.
    #[serde(deserialize_with = "openapi2mcp_runtime::typed::integers")]
    pub id: i64,
}

/// Delete an item
///
/// Tool `delete_item`: DELETE `/items/{id}` (operationId `deleteItem`).
pub async fn delete_item(call: Call<'_>, args: DeleteItemArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `get_colors` (GET `/colors/{color}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetColorsArgs {
    /// `color` path parameter.
    pub color: Vec<String>,
}

/// Colours by label-style path
///
/// Tool `get_colors`: GET `/colors/{color}` (operationId `getColors`).
pub async fn get_colors(call: Call<'_>, args: GetColorsArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `send_contact` (POST `/forms/contact`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SendContactArgs {
    /// `name` in the request body (`application/x-www-form-urlencoded`).
    pub name: String,
    /// `email` in the request body (`application/x-www-form-urlencoded`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// `topics` in the request body (`application/x-www-form-urlencoded`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topics: Option<Vec<String>>,
}

/// Send the contact form
///
/// Tool `send_contact`: POST `/forms/contact` (operationId `sendContact`).
pub async fn send_contact(call: Call<'_>, args: SendContactArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `put_note` (PUT `/notes/{noteId}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PutNoteArgs {
    /// `noteId` path parameter.
    #[serde(rename = "noteId")]
    pub note_id: String,
    /// The request body (`text/plain`).
    ///
    /// Request body (text/plain).
    pub body: String,
}

/// Replace a note's text
///
/// Tool `put_note`: PUT `/notes/{noteId}` (operationId `putNote`).
pub async fn put_note(call: Call<'_>, args: PutNoteArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `upload_file` (POST `/files`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UploadFileArgs {
    /// `file` in the request body (`multipart/form-data`).
    ///
    /// File content: base64, or a data: URI (data:<type>;base64,<data>).
    pub file: String,
    /// `description` in the request body (`multipart/form-data`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// Upload a file
///
/// Tool `upload_file`: POST `/files` (operationId `uploadFile`).
pub async fn upload_file(call: Call<'_>, args: UploadFileArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `put_blob` (PUT `/blobs/{name}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PutBlobArgs {
    /// `name` path parameter.
    pub name: String,
    /// The request body (`application/octet-stream`).
    ///
    /// Request body (application/octet-stream): base64, or a data: URI.
    pub body: String,
}

/// Store raw bytes
///
/// Tool `put_blob`: PUT `/blobs/{name}` (operationId `putBlob`).
pub async fn put_blob(call: Call<'_>, args: PutBlobArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `get_report` (GET `/reports/{year}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetReportArgs {
    /// `year` path parameter.
    #[serde(deserialize_with = "openapi2mcp_runtime::typed::integers")]
    pub year: i64,
}

/// A yearly report as CSV
///
/// Tool `get_report`: GET `/reports/{year}` (operationId `getReport`).
pub async fn get_report(call: Call<'_>, args: GetReportArgs) -> CallReport {
    call.send(&args).await
}

/// Arguments of `put_settings` (PUT `/settings/{org}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PutSettingsArgs {
    /// `org` path parameter.
    pub org: String,
    /// `setting_0` in the request body (`application/json`).
    ///
    /// Setting 0 of the organization, described at enough length that the whole schema passes the default budget.
    pub setting_0: String,
    /// `setting_1` in the request body (`application/json`).
    ///
    /// Setting 1 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_1: Option<String>,
    /// `setting_2` in the request body (`application/json`).
    ///
    /// Setting 2 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_2: Option<String>,
    /// `setting_3` in the request body (`application/json`).
    ///
    /// Setting 3 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_3: Option<String>,
    /// `setting_4` in the request body (`application/json`).
    ///
    /// Setting 4 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_4: Option<String>,
    /// `setting_5` in the request body (`application/json`).
    ///
    /// Setting 5 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_5: Option<String>,
    /// `setting_6` in the request body (`application/json`).
    ///
    /// Setting 6 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_6: Option<String>,
    /// `setting_7` in the request body (`application/json`).
    ///
    /// Setting 7 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_7: Option<String>,
    /// `setting_8` in the request body (`application/json`).
    ///
    /// Setting 8 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_8: Option<String>,
    /// `setting_9` in the request body (`application/json`).
    ///
    /// Setting 9 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_9: Option<String>,
    /// `setting_10` in the request body (`application/json`).
    ///
    /// Setting 10 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_10: Option<String>,
    /// `setting_11` in the request body (`application/json`).
    ///
    /// Setting 11 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_11: Option<String>,
    /// `setting_12` in the request body (`application/json`).
    ///
    /// Setting 12 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_12: Option<String>,
    /// `setting_13` in the request body (`application/json`).
    ///
    /// Setting 13 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_13: Option<String>,
    /// `setting_14` in the request body (`application/json`).
    ///
    /// Setting 14 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_14: Option<String>,
    /// `setting_15` in the request body (`application/json`).
    ///
    /// Setting 15 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_15: Option<String>,
    /// `setting_16` in the request body (`application/json`).
    ///
    /// Setting 16 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_16: Option<String>,
    /// `setting_17` in the request body (`application/json`).
    ///
    /// Setting 17 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_17: Option<String>,
    /// `setting_18` in the request body (`application/json`).
    ///
    /// Setting 18 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_18: Option<String>,
    /// `setting_19` in the request body (`application/json`).
    ///
    /// Setting 19 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_19: Option<String>,
    /// `setting_20` in the request body (`application/json`).
    ///
    /// Setting 20 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_20: Option<String>,
    /// `setting_21` in the request body (`application/json`).
    ///
    /// Setting 21 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_21: Option<String>,
    /// `setting_22` in the request body (`application/json`).
    ///
    /// Setting 22 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_22: Option<String>,
    /// `setting_23` in the request body (`application/json`).
    ///
    /// Setting 23 of the organization, described at enough length that the whole schema passes the default budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting_23: Option<String>,
    /// `billing` in the request body (`application/json`).
    pub billing: Billing,
}

/// Replace an organization's settings (a schema over the default budget)
///
/// Tool `put_settings`: PUT `/settings/{org}` (operationId `putSettings`).
pub async fn put_settings(call: Call<'_>, args: PutSettingsArgs) -> CallReport {
    call.send(&args).await
}
