//! One function per tool, grouped by the API's tags, and the dispatch that
//! routes each admitted call to its function.
//!
//! A call reaches these functions after its arguments passed the tool's
//! input schema and the rate limit. Each function gets them as a typed
//! struct and sends them on with [`Call::send`]; change what it sends,
//! answer without calling the API, or post-process the [`CallReport`].

#![allow(
    clippy::doc_lazy_continuation,
    clippy::doc_overindented_list_items,
    clippy::tabs_in_doc_comments,
    clippy::empty_docs,
    rustdoc::bare_urls,
    rustdoc::broken_intra_doc_links,
    rustdoc::invalid_html_tags,
    rustdoc::invalid_rust_codeblocks
)]

use serde_json::{Map, Value};
use crate::runtime::call::{BoxFuture, Call, CallReport, Handlers};

/// Operations without a tag.
pub mod other;

/// Routes every tool to its function in this module's submodules.
#[derive(Debug, Clone, Copy, Default)]
pub struct Operations;

impl Handlers for Operations {
    fn handle<'a>(
        &'a self,
        call: Call<'a>,
        args: Map<String, Value>,
    ) -> BoxFuture<'a, CallReport> {
        Box::pin(async move {
            match call.tool_name() {
                "search_items" => {
                    match call.parse(args) {
                        Ok(args) => other::search_items(call, args).await,
                        Err(report) => report,
                    }
                }
                "list_items" => {
                    match call.parse(args) {
                        Ok(args) => other::list_items(call, args).await,
                        Err(report) => report,
                    }
                }
                "patch_item" => {
                    match call.parse(args) {
                        Ok(args) => other::patch_item(call, args).await,
                        Err(report) => report,
                    }
                }
                "delete_item" => {
                    match call.parse(args) {
                        Ok(args) => other::delete_item(call, args).await,
                        Err(report) => report,
                    }
                }
                "get_colors" => {
                    match call.parse(args) {
                        Ok(args) => other::get_colors(call, args).await,
                        Err(report) => report,
                    }
                }
                "send_contact" => {
                    match call.parse(args) {
                        Ok(args) => other::send_contact(call, args).await,
                        Err(report) => report,
                    }
                }
                "put_note" => {
                    match call.parse(args) {
                        Ok(args) => other::put_note(call, args).await,
                        Err(report) => report,
                    }
                }
                "upload_file" => {
                    match call.parse(args) {
                        Ok(args) => other::upload_file(call, args).await,
                        Err(report) => report,
                    }
                }
                "put_blob" => {
                    match call.parse(args) {
                        Ok(args) => other::put_blob(call, args).await,
                        Err(report) => report,
                    }
                }
                "get_report" => {
                    match call.parse(args) {
                        Ok(args) => other::get_report(call, args).await,
                        Err(report) => report,
                    }
                }
                "put_settings" => {
                    match call.parse(args) {
                        Ok(args) => other::put_settings(call, args).await,
                        Err(report) => report,
                    }
                }
                _ => call.send_map(&args).await,
            }
        })
    }
}
